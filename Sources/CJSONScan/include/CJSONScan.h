#ifndef CALBRIDGE_CJSONSCAN_H
#define CALBRIDGE_CJSONSCAN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// Bytes `cb_json_stop` stops at besides quotes, backslashes and controls (below 0x20):
/// Every byte of 0x80 or more (a key read in place is plain ASCII).
#define CB_JSON_STOP_HIGH 1
/// DEL, 0x7F (escaped in output for people, with what `CB_JSON_STOP_HIGH` finds).
#define CB_JSON_STOP_DEL 2
/// The slash (escaped by JSONSerialization's rule).
#define CB_JSON_STOP_SLASH 4

/// From `start`, the position of the first byte of `text` (of `count` bytes) that
/// ends a plain run of JSON string text: a quote, a backslash, a control character
/// (below 0x20), or one that `stops` (the `CB_JSON_STOP_` flags) adds; `count` when
/// there is none. Returned doubled, plus 1 when no byte before that position is 0x80
/// or more (one value: a second one through a pointer cost a stack protector).
///
/// Sixteen bytes a step with SSE2 (every x86-64 CPU has it), then byte by byte for
/// the last few; byte by byte throughout on other CPUs (none is measured here, and
/// that loop is the one the tests check the vector steps against).
static inline size_t cb_json_stop(const uint8_t *text, size_t start, size_t count, int stops) {
    size_t position = start;
    int high = 0;
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i space = _mm_set1_epi8(0x20);
    const __m128i controls = _mm_set1_epi8(0x1F);
    const __m128i del = _mm_set1_epi8(0x7F);
    const __m128i slash = _mm_set1_epi8('/');
    while (position <= count && count - position >= 16) {
        __m128i bytes = _mm_loadu_si128((const __m128i *)(text + position));
        __m128i found = _mm_or_si128(_mm_cmpeq_epi8(bytes, quote), _mm_cmpeq_epi8(bytes, backslash));
        if (stops & CB_JSON_STOP_HIGH) {
            // Signed bytes below 0x20: the controls and every byte of 0x80 or more.
            found = _mm_or_si128(found, _mm_cmplt_epi8(bytes, space));
        } else {
            // Unsigned bytes <= 0x1F: those the minimum with 0x1F leaves as they are.
            found = _mm_or_si128(found, _mm_cmpeq_epi8(_mm_min_epu8(bytes, controls), bytes));
        }
        if (stops & CB_JSON_STOP_DEL) found = _mm_or_si128(found, _mm_cmpeq_epi8(bytes, del));
        if (stops & CB_JSON_STOP_SLASH) found = _mm_or_si128(found, _mm_cmpeq_epi8(bytes, slash));
        unsigned mask = (unsigned)_mm_movemask_epi8(found);
        unsigned highs = (unsigned)_mm_movemask_epi8(bytes);
        if (mask != 0) {
            unsigned offset = (unsigned)__builtin_ctz(mask);
            high |= (highs & ((1u << offset) - 1u)) != 0;
            return 2 * (position + offset) + !high;
        }
        high |= highs != 0;
        position += 16;
    }
#endif
    while (position < count) {
        uint8_t byte = text[position];
        if (byte == '"' || byte == '\\' || byte < 0x20 || ((stops & CB_JSON_STOP_HIGH) && byte >= 0x80) ||
            ((stops & CB_JSON_STOP_DEL) && byte == 0x7F) || ((stops & CB_JSON_STOP_SLASH) && byte == '/'))
            break;
        high |= byte >= 0x80;
        position += 1;
    }
    return 2 * position + !high;
}

// MARK: skipping a value

/// How deep `cb_json_skip` follows nesting (JSONReader.maxDepth).
#define CB_JSON_MAX_DEPTH 512

/// The first position from `position` that is not JSON whitespace (space, tab, LF, CR), or `count`.
static inline size_t cb_json_whitespace(const uint8_t *text, size_t position, size_t count) {
    while (position < count) {
        uint8_t byte = text[position];
        if (byte != ' ' && byte != '\n' && byte != '\r' && byte != '\t') break;
        position += 1;
    }
    return position;
}

/// Whether `count` bytes at `text` are well-formed UTF-8 (Unicode 15, table 3-7: no overlong forms, no
/// surrogates, nothing past U+10FFFF), as JSONReader.isValidUTF8 decides.
static inline int cb_json_valid_utf8(const uint8_t *text, size_t count) {
    size_t index = 0;
    while (index < count) {
        uint8_t lead = text[index];
        if (lead < 0x80) {
            index += 1;
            continue;
        }
        size_t continuations;
        uint8_t low = 0x80, high = 0xBF;
        if (lead >= 0xC2 && lead <= 0xDF) continuations = 1;
        else if (lead == 0xE0) { continuations = 2; low = 0xA0; }
        else if (lead == 0xED) { continuations = 2; high = 0x9F; }
        else if (lead >= 0xE1 && lead <= 0xEF) continuations = 2;
        else if (lead == 0xF0) { continuations = 3; low = 0x90; }
        else if (lead == 0xF4) { continuations = 3; high = 0x8F; }
        else if (lead >= 0xF1 && lead <= 0xF3) continuations = 3;
        else return 0;
        if (count - index <= continuations || text[index + 1] < low || text[index + 1] > high) return 0;
        for (size_t offset = 2; offset <= continuations; offset++) {
            if (text[index + offset] < 0x80 || text[index + offset] > 0xBF) return 0;
        }
        index += continuations + 1;
    }
    return 1;
}

/// Four hex digits at `position`, or -1.
static inline int32_t cb_json_hex4(const uint8_t *text, size_t position, size_t count) {
    if (position > count || count - position < 4) return -1;
    int32_t value = 0;
    for (size_t offset = 0; offset < 4; offset++) {
        uint8_t byte = text[position + offset];
        int32_t digit;
        if (byte >= '0' && byte <= '9') digit = byte - '0';
        else if (byte >= 'a' && byte <= 'f') digit = byte - 'a' + 10;
        else if (byte >= 'A' && byte <= 'F') digit = byte - 'A' + 10;
        else return -1;
        value = value << 4 | digit;
    }
    return value;
}

/// The position after the string whose opening quote is at `position`, or SIZE_MAX when it is not a
/// valid JSON string (a control character, an invalid escape, a lone surrogate, invalid UTF-8, no end).
static inline size_t cb_json_skip_string(const uint8_t *text, size_t position, size_t count) {
    size_t run = position + 1;
    for (;;) {
        size_t found = cb_json_stop(text, run, count, 0);
        size_t stop = found >> 1;
        if (!(found & 1) && !cb_json_valid_utf8(text + run, stop - run)) return SIZE_MAX;
        if (stop >= count) return SIZE_MAX;
        if (text[stop] == '"') return stop + 1;
        if (text[stop] != '\\' || stop + 1 >= count) return SIZE_MAX;
        stop += 1;
        switch (text[stop]) {
        case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
            run = stop + 1;
            break;
        case 'u': {
            int32_t scalar = cb_json_hex4(text, stop + 1, count);
            if (scalar < 0) return SIZE_MAX;
            stop += 5;
            if (scalar >= 0xD800 && scalar < 0xDC00) {
                if (stop + 1 >= count || text[stop] != '\\' || text[stop + 1] != 'u') return SIZE_MAX;
                int32_t low = cb_json_hex4(text, stop + 2, count);
                if (low < 0xDC00 || low >= 0xE000) return SIZE_MAX;
                stop += 6;
            } else if (scalar >= 0xDC00 && scalar < 0xE000) {
                return SIZE_MAX;
            }
            run = stop;
            break;
        }
        default:
            return SIZE_MAX;
        }
    }
}

/// Decodes the text of a string that `cb_json_skip_string` accepted, from `position` (after the opening
/// quote) to `end` (the closing quote), into `out`, which has room for `end - position` bytes (no decoded
/// string is longer than its text): the decoded length. Plain runs are found sixteen bytes a step and
/// copied whole; each escape is decoded, `\u` ones (surrogate pairs joined) to UTF-8.
static inline size_t cb_json_unescape(const uint8_t *text, size_t position, size_t end, uint8_t *out) {
    size_t written = 0;
    for (;;) {
        // Checked text: before its end, only a backslash stops a run.
        size_t stop = cb_json_stop(text, position, end, 0) >> 1;
        memcpy(out + written, text + position, stop - position);
        written += stop - position;
        if (stop + 1 >= end) return written;
        uint8_t escape = text[stop + 1];
        position = stop + 2;
        uint32_t scalar;
        switch (escape) {
        case 'b': scalar = 0x08; break;
        case 'f': scalar = 0x0C; break;
        case 'n': scalar = 0x0A; break;
        case 'r': scalar = 0x0D; break;
        case 't': scalar = 0x09; break;
        case 'u':
            scalar = (uint32_t)cb_json_hex4(text, position, end);
            position += 4;
            if (scalar >= 0xD800 && scalar < 0xDC00) {
                // A high surrogate: the checked text goes on with `\u` and its low one.
                uint32_t low = (uint32_t)cb_json_hex4(text, position + 2, end);
                position += 6;
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00);
            }
            break;
        default: scalar = escape; break;  // a quote, backslash or slash
        }
        if (scalar < 0x80) {
            out[written++] = (uint8_t)scalar;
        } else if (scalar < 0x800) {
            out[written++] = (uint8_t)(0xC0 | (scalar >> 6));
            out[written++] = (uint8_t)(0x80 | (scalar & 0x3F));
        } else if (scalar < 0x10000) {
            out[written++] = (uint8_t)(0xE0 | (scalar >> 12));
            out[written++] = (uint8_t)(0x80 | ((scalar >> 6) & 0x3F));
            out[written++] = (uint8_t)(0x80 | (scalar & 0x3F));
        } else {
            out[written++] = (uint8_t)(0xF0 | (scalar >> 18));
            out[written++] = (uint8_t)(0x80 | ((scalar >> 12) & 0x3F));
            out[written++] = (uint8_t)(0x80 | ((scalar >> 6) & 0x3F));
            out[written++] = (uint8_t)(0x80 | (scalar & 0x3F));
        }
    }
}

/// The position after the number at `position` (JSON's grammar), or SIZE_MAX.
static inline size_t cb_json_skip_number(const uint8_t *text, size_t position, size_t count) {
    if (position < count && text[position] == '-') position += 1;
    size_t leading = position;
    while (position < count && text[position] >= '0' && text[position] <= '9') position += 1;
    if (position == leading || (text[leading] == '0' && position - leading > 1)) return SIZE_MAX;
    if (position < count && text[position] == '.') {
        size_t digits = ++position;
        while (position < count && text[position] >= '0' && text[position] <= '9') position += 1;
        if (position == digits) return SIZE_MAX;
    }
    if (position < count && (text[position] == 'e' || text[position] == 'E')) {
        position += 1;
        if (position < count && (text[position] == '+' || text[position] == '-')) position += 1;
        size_t digits = position;
        while (position < count && text[position] >= '0' && text[position] <= '9') position += 1;
        if (position == digits) return SIZE_MAX;
    }
    return position;
}

/// The position after `word` (of `length` bytes) at `position`, or SIZE_MAX.
static inline size_t cb_json_skip_word(const uint8_t *text, size_t position, size_t count, const char *word, size_t length) {
    if (position > count || count - position < length || memcmp(text + position, word, length) != 0) return SIZE_MAX;
    return position + length;
}

/// Skips the JSON value (RFC 8259) at `start` of `text` (`count` bytes), whitespace before it included,
/// as JSONReader's token-by-token `skipValue` does: the position after it, or SIZE_MAX where that
/// would throw (then JSONReader reads it again token by token, for its message). One loop with an
/// explicit stack, no call per token: providers skip most members of what they read.
static inline size_t cb_json_skip(const uint8_t *text, size_t start, size_t count) {
    // 1 for an object, 2 for an array, for each container open around the value being read.
    uint8_t open[CB_JSON_MAX_DEPTH];
    size_t depth = 0;
    size_t position = start;
value:
    if (depth >= CB_JSON_MAX_DEPTH) return SIZE_MAX;
    position = cb_json_whitespace(text, position, count);
    if (position >= count) return SIZE_MAX;
    switch (text[position]) {
    case '{':
    case '[': {
        uint8_t object = text[position] == '{';
        position = cb_json_whitespace(text, position + 1, count);
        if (position < count && text[position] == (object ? '}' : ']')) {
            position += 1;
            goto after;
        }
        open[depth++] = object ? 1 : 2;
        if (object) goto key;
        goto value;
    }
    case '"': position = cb_json_skip_string(text, position, count); break;
    case 't': position = cb_json_skip_word(text, position, count, "true", 4); break;
    case 'f': position = cb_json_skip_word(text, position, count, "false", 5); break;
    case 'n': position = cb_json_skip_word(text, position, count, "null", 4); break;
    default: position = cb_json_skip_number(text, position, count); break;
    }
    if (position == SIZE_MAX) return SIZE_MAX;
after:
    if (depth == 0) return position;
    position = cb_json_whitespace(text, position, count);
    if (position >= count) return SIZE_MAX;
    if (open[depth - 1] == 1) {
        if (text[position] == '}') {
            position += 1;
            depth -= 1;
            goto after;
        }
        if (text[position] != ',') return SIZE_MAX;
        position = cb_json_whitespace(text, position + 1, count);
        goto key;
    }
    if (text[position] == ']') {
        position += 1;
        depth -= 1;
        goto after;
    }
    if (text[position] != ',') return SIZE_MAX;
    position += 1;
    goto value;
key:
    if (position >= count || text[position] != '"') return SIZE_MAX;
    position = cb_json_skip_string(text, position, count);
    if (position == SIZE_MAX) return SIZE_MAX;
    position = cb_json_whitespace(text, position, count);
    if (position >= count || text[position] != ':') return SIZE_MAX;
    position += 1;
    goto value;
}

/// Walks the object whose `{` is at `start` (whitespace before it allowed) for one member, as JSONReader
/// reading it member by member would: the position after the object, or SIZE_MAX where `cb_json_skip`
/// would refuse it or a key has an escape (JSONReader decodes such a key; it reads that object itself).
/// `*found` is the position of the value of the member whose key is `name` (`length` bytes of plain
/// ASCII), SIZE_MAX when there is none, SIZE_MAX - 1 when there are several (JSONReader reads each).
/// One pass per object: a listing is scanned for each item's series id before it is read.
static inline size_t cb_json_member(const uint8_t *text, size_t start, size_t count, const uint8_t *name, size_t length,
                                    size_t *found) {
    *found = SIZE_MAX;
    size_t position = cb_json_whitespace(text, start, count);
    if (position >= count || text[position] != '{') return SIZE_MAX;
    position = cb_json_whitespace(text, position + 1, count);
    if (position < count && text[position] == '}') return position + 1;
    for (;;) {
        if (position >= count || text[position] != '"') return SIZE_MAX;
        size_t key = position + 1;
        size_t stop = cb_json_stop(text, key, count, CB_JSON_STOP_HIGH) >> 1;
        size_t after;
        if (stop < count && text[stop] == '"') {
            after = stop + 1;
        } else {
            // Not plain ASCII: an escape is for JSONReader to decode; other text is checked and cannot be `name`.
            after = cb_json_skip_string(text, position, count);
            if (after == SIZE_MAX || memchr(text + key, '\\', after - 1 - key) != NULL) return SIZE_MAX;
        }
        position = cb_json_whitespace(text, after, count);
        if (position >= count || text[position] != ':') return SIZE_MAX;
        position = cb_json_whitespace(text, position + 1, count);
        if (after - 1 - key == length && memcmp(text + key, name, length) == 0) {
            *found = *found == SIZE_MAX ? position : SIZE_MAX - 1;
        }
        position = cb_json_skip(text, position, count);
        if (position == SIZE_MAX) return SIZE_MAX;
        position = cb_json_whitespace(text, position, count);
        if (position >= count) return SIZE_MAX;
        if (text[position] == '}') return position + 1;
        if (text[position] != ',') return SIZE_MAX;
        position = cb_json_whitespace(text, position + 1, count);
    }
}

#endif
