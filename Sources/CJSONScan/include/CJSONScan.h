#ifndef CALBRIDGE_CJSONSCAN_H
#define CALBRIDGE_CJSONSCAN_H

#include <stddef.h>
#include <stdint.h>
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

#endif
