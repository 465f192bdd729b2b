import CJSONScan
import CalbridgeSupport
import Foundation

/// A forward-only reader of JSON text (RFC 8259), for decoders written by hand for the response types
/// read most (event listings): `JSONDecoder` on Linux spent about 1.3 million instructions per listed
/// event (callgrind, `calbridge-bench copy --instructions`), most of a no-change copy's CPU time.
///
/// ```swift
/// var reader = try JSONReader(data)
/// try reader.beginObject()
/// while let key = try reader.nextKey() {
///     switch key {
///     case "id": id = try reader.string()
///     default: try reader.skipValue()
///     }
/// }
/// try reader.end()
/// ```
///
/// Input is untrusted: every malformed document (bad syntax, invalid UTF-8, a control character or lone
/// surrogate in a string, a number that is not an integer where one is read, nesting deeper than
/// `maxDepth`) throws `JSONReader.Error`, never traps. Fuzzed by `Tests/Fuzz` (`google-event`, `graph-event`).
///
/// The type, `Key`, `KeyTable` and `KeyIndex` are public (their members mostly `package`) so that the key
/// matching below is inlined into the readers of other modules: this toolchain inlines an `@inlinable`
/// member across modules only when its type is public, and a generic one otherwise runs unspecialised
/// (the member table's lookup, generic over `Member`, was 65 instructions a key more than needed).
public struct JSONReader {
    /// Why a document could not be read, with the byte offset.
    @usableFromInline
    package struct Error: Swift.Error, CustomStringConvertible, Sendable {
        @usableFromInline package var description: String
    }

    /// Deepest nesting `skipValue` follows (as `JSONDecoder`, which refuses deeper documents).
    package static let maxDepth = Int(CB_JSON_MAX_DEPTH)  // 512, shared with the C skip loop

    /// The document: memory of the reader's own (`owner`), or, inside `read(from:_:)` and
    /// `read(buffer:_:)`, the caller's bytes themselves. Reading a listing from a copy of its body (`Array(data)`) was 3% of a no-change
    /// copy's CPU time, most of it the kernel faulting in the copy's pages (perf, 1,000 events).
    private let bytes: UnsafeBufferPointer<UInt8>
    /// Keeps `bytes` alive when the reader copied them, and the unescaped text of escaped keys.
    private var owner: Owner?
    private var index = 0
    /// After `beginObject`/`beginArray`: whether the next member is the first (no comma before it).
    private var first = false

    /// The strings `repeatedString()` built, for this reader's document.
    private var repeated: RepeatedStrings?

    /// The last few long strings `repeatedString()` built: a listing's items repeat their zone names and
    /// addresses, each a string on the heap (over 15 bytes) built afresh for every item.
    private final class RepeatedStrings {
        // Reached only through `string(of:)`, never reentered: no runtime exclusivity checks (4,500 calls).
        @exclusivity(unchecked) private var strings: [String] = []
        @exclusivity(unchecked) private var next = 0
        private static let capacity = 8

        /// A string of `bytes` (valid UTF-8): one kept, if one is equal.
        func string(of bytes: UnsafeBufferPointer<UInt8>) -> String {
            guard bytes.count > 15, let base = bytes.baseAddress else { return String(decoding: bytes, as: UTF8.self) }
            for index in strings.indices where strings[index].utf8.count == bytes.count {
                let same = strings[index].utf8.withContiguousStorageIfAvailable { kept in
                    kept.baseAddress.map { memcmp($0, base, bytes.count) == 0 } ?? false
                }
                if same == true { return strings[index] }
            }
            let string = String(decoding: bytes, as: UTF8.self)
            if strings.count < Self.capacity {
                strings.append(string)
            } else {
                strings[next] = string
                next = (next + 1) % Self.capacity
            }
            return string
        }
    }

    /// Memory a reader allocated, freed with the last copy of the reader.
    private final class Owner {
        var buffers: [UnsafeMutableBufferPointer<UInt8>] = []

        /// A copy of `bytes` that lives as long as this owner.
        func keep(_ bytes: some Collection<UInt8>) -> UnsafeBufferPointer<UInt8> {
            let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 1))
            _ = buffer.initialize(from: bytes)
            buffers.append(buffer)
            return UnsafeBufferPointer(rebasing: buffer[..<bytes.count])
        }

        deinit {
            for buffer in buffers { buffer.deallocate() }
        }
    }

    package init(_ data: Data) {
        let owner = Owner()
        bytes = owner.keep(data)
        self.owner = owner
    }

    package init(bytes: [UInt8]) {
        let owner = Owner()
        self.bytes = owner.keep(bytes)
        self.owner = owner
    }

    /// A reader of `bytes`, which must outlive it and every `Key` it returns (`read(buffer:_:)` is the
    /// one place that makes one).
    private init(borrowing bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private func error(_ what: String) -> Error {
        Error(description: "\(what) at byte \(index)")
    }

    // The scans below index the buffer unchecked in release builds (each loop checks its own bound):
    // indexing an array checked every byte, and the scans were a fifth of a no-change copy's instructions.

    private mutating func skipWhitespace() {
        while index < bytes.count {
            let byte = bytes[index]
            // Most documents have no whitespace between tokens: one test settles the common case.
            guard byte <= 0x20 else { return }
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func peek() throws(Error) -> UInt8 {
        skipWhitespace()
        guard index < bytes.count else { throw error("unexpected end of JSON") }
        return bytes[index]
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(Error) {
        guard try peek() == byte else { throw error("expected \(what)") }
        index += 1
    }

    /// Where the reader is: an offset to come back to with `rewind(to:)`, so a value can be scanned for
    /// one member first and read whole only when it is wanted.
    package var offset: Int { index }

    /// Goes back to `offset` (an earlier `offset` of this reader), to read from there again.
    package mutating func rewind(to offset: Int) {
        index = offset
    }

    /// Only whitespace is left.
    package mutating func end() throws(Error) {
        skipWhitespace()
        guard index == bytes.count else { throw error("unexpected text after the JSON value") }
    }

    /// Consumes `null` if it is next; false (nothing consumed) for any other value.
    package mutating func consumeNull() throws(Error) -> Bool {
        // Compact text: the value starts right here and is not `null` (40,000 calls in a no-change copy).
        if index < bytes.count, bytes[index] > 0x20, bytes[index] != UInt8(ascii: "n") { return false }
        guard try peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    private mutating func literal(_ word: StaticString) throws(Error) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("unexpected end of JSON") }
        let start = word.utf8Start
        for offset in 0..<count where bytes[index + offset] != start[offset] {
            throw error("invalid literal")
        }
        index += count
    }

    // MARK: objects and arrays

    package mutating func beginObject() throws(Error) {
        try expect(UInt8(ascii: "{"), "an object")
        first = true
    }

    /// A member's key, matched against string literals by its bytes (`switch key { case "id": ... }`)
    /// without building a `String`: building and comparing one per key, case by case, was about a
    /// quarter of a no-change copy's instructions (callgrind, 1,000 events).
    ///
    /// A key is the reader's memory, not a copy (valid while the reader is; read at once, in a `switch`):
    /// one that held the document's array retained and released it per key, 180,000 atomic pairs in a
    /// no-change copy of 1,000 events.
    public struct Key {
        /// The key's UTF-8 bytes (unescaped, valid): the document's own for a key of plain ASCII, a copy
        /// the reader keeps for one with escapes or other characters.
        @usableFromInline let bytes: UnsafeBufferPointer<UInt8>

        /// The key as text.
        package var string: String { String(decoding: bytes, as: UTF8.self) }

        /// Whether the key is `text`, byte for byte (for names kept as `String` constants).
        package func isEqual(to text: String) -> Bool {
            var text = text
            return text.withUTF8 { text in
                guard text.count == bytes.count, let a = text.baseAddress, let b = bytes.baseAddress else { return text.count == bytes.count }
                return memcmp(a, b, text.count) == 0
            }
        }

        /// Whether the key is `pattern`, byte for byte (what `case "id":` asks). A `switch` tries its cases
        /// in turn; objects with many members look keys up in a `KeyTable` instead.
        @inlinable
        public static func ~= (pattern: StaticString, key: Key) -> Bool {
            guard pattern.utf8CodeUnitCount == key.bytes.count else { return false }
            return pattern.withUTF8Buffer { literal in
                var position = 0
                for byte in literal {
                    guard key.bytes[position] == byte else { return false }
                    position += 1
                }
                return true
            }
        }
    }

    /// The next key of the object being read (its value is next), or nil at its end (consumed).
    package mutating func nextKey() throws(Error) -> Key? {
        // Compact text first (the providers send no whitespace between tokens): `,"name":` (or `"name":`
        // as the first member) with a plain key, in one pass of local positions. Anything else, the
        // general path below reads (and refuses) from where this began. 110 instructions a key were 8% of
        // a no-change copy's (callgrind, 1,000 events).
        if let base = bytes.baseAddress {
            var position = index
            let count = bytes.count
            if !first, position < count, base[position] == UInt8(ascii: ",") { position += 1 }
            if position != index || first, position < count, base[position] == UInt8(ascii: "\"") {
                let end = Self.stop(in: bytes, from: position + 1, allowingHighBytes: false).position
                if end + 1 < count, base[end] == UInt8(ascii: "\""), base[end + 1] == UInt8(ascii: ":") {
                    index = end + 2
                    first = false
                    return Key(bytes: UnsafeBufferPointer(start: base + position + 1, count: end - position - 1))
                }
            }
        }
        var byte = try peek()
        if byte == UInt8(ascii: "}") {
            index += 1
            first = false
            return nil
        }
        if !first {
            guard byte == UInt8(ascii: ",") else { throw error("expected ',' or '}'") }
            index += 1
            byte = try peek()
        }
        first = false
        guard byte == UInt8(ascii: "\"") else { throw error("expected a key") }
        let key: Key
        if let range = plainString() {
            key = Key(bytes: UnsafeBufferPointer(rebasing: bytes[range]))
        } else {
            let text = try string()
            if owner == nil { owner = Owner() }
            key = Key(bytes: owner?.keep(text.utf8) ?? UnsafeBufferPointer(start: nil, count: 0))
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
            index += 1
        } else {
            try expect(UInt8(ascii: ":"), "':'")
        }
        return key
    }

    /// With a string next (at its opening quote): when it is printable ASCII with no escapes (every key
    /// and most values the providers send), consumes it and returns the range of its contents; otherwise
    /// nil and nothing consumed, for `string()` to read (and refuse, if it must).
    @inline(__always)
    private mutating func plainString() -> Range<Int>? {
        let start = index + 1
        let position = Self.stop(in: bytes, from: start, allowingHighBytes: false).position
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return nil }
        index = position + 1
        return start..<position
    }

    package mutating func beginArray() throws(Error) {
        try expect(UInt8(ascii: "["), "an array")
        first = true
    }

    /// Whether another element of the array being read follows (then it is next); false at its end (consumed).
    package mutating func nextElement() throws(Error) -> Bool {
        let byte = try peek()
        if byte == UInt8(ascii: "]") {
            index += 1
            first = false
            return false
        }
        if !first {
            guard byte == UInt8(ascii: ",") else { throw error("expected ',' or ']'") }
            index += 1
        }
        first = false
        return true
    }

    // MARK: values

    package mutating func string() throws(Error) -> String {
        try withString { String(decoding: $0, as: UTF8.self) }
    }

    /// A fast path over the next value's raw text: `match` gets the document from the value's first byte
    /// on, and a maker of strings for text that repeats across the document (`repeatedString()`'s), and
    /// returns how many bytes it read (the whole value, which it vouches is valid JSON), or nil, which
    /// leaves the reader where it was for the general way. Whether `match` read the value.
    package mutating func readRaw(
        _ match: (UnsafeBufferPointer<UInt8>, _ repeated: (UnsafeBufferPointer<UInt8>) -> String) -> Int?
    ) -> Bool {
        skipWhitespace()
        let kept = repeatedStrings()
        guard let base = bytes.baseAddress, index < bytes.count,
            let length = match(UnsafeBufferPointer(start: base + index, count: bytes.count - index), kept.string(of:)),
            length > 0, length <= bytes.count - index
        else { return false }
        index += length
        return true
    }

    /// Hands the next string's UTF-8 (unescaped, valid) to `body` without building a `String`, and
    /// returns what `body` makes of it; refuses what `string()` refuses. The bytes are the document's own
    /// when the string has no escapes, else a decoded copy: neither outlives the call.
    package mutating func withString<T>(_ body: (UnsafeBufferPointer<UInt8>) throws(Error) -> T) throws(Error) -> T {
        guard try peek() == UInt8(ascii: "\"") else { throw error("expected a string") }
        let start = index + 1
        let (position, ascii) = scanText(from: start)
        // No escapes: the document's bytes are the string's.
        if position < bytes.count, bytes[position] == UInt8(ascii: "\"") {
            index = position
            guard ascii || Self.isValidUTF8(bytes[start..<position]) else { throw error("invalid UTF-8 in a string") }
            index += 1
            return try body(UnsafeBufferPointer(rebasing: bytes[start..<position]))
        }
        // Escapes (a marker's JSON inside a property value has one per quote): the string checked whole by
        // `cb_json_skip_string`, so that its end is known and no decoded string is longer than its text,
        // then decoded in one C pass. Where the check refuses the string, `skipString` reads it again for
        // the error, at the same byte. In Swift, a scan per run between escapes in each pass was 4,400
        // instructions a marker more (callgrind, a no-change copy of 1,000 events).
        guard let base = bytes.baseAddress else { throw error("expected a string") }
        let after = cb_json_skip_string(base, index, bytes.count)
        guard after > start, after <= bytes.count else {
            try skipString()
            throw error("invalid string")
        }
        let out = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, after - 1 - start))
        defer { out.deallocate() }
        guard let to = out.baseAddress else { throw error("expected a string") }
        let count = cb_json_unescape(base, start, after - 1, to)
        index = after
        return try body(UnsafeBufferPointer(start: to, count: count))
    }

    /// Consumes a string as `string()` reads it, refusing what it refuses, without building it: its
    /// escapes are checked and not decoded, its raw runs checked where not ASCII (a marker's JSON in a
    /// skipped property value has an escape per quote).
    package mutating func skipString() throws(Error) {
        try expect(UInt8(ascii: "\""), "a string")
        while true {
            let run = index
            let (position, ascii) = scanText(from: run)
            index = position
            guard ascii || Self.isValidUTF8(bytes[run..<position]) else { throw error("invalid UTF-8 in a string") }
            guard position < bytes.count else { throw error("unterminated string") }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return
            }
            guard byte == UInt8(ascii: "\\") else { throw error("control character in a string") }
            index += 1
            // JSON text inside a string has an escaped quote every few bytes: those two need no decoding.
            if index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "\\") {
                index += 1
            } else {
                _ = try escapedScalar()
            }
        }
    }

    /// The position of the first quote, backslash or control character from `start` (or the end), and
    /// whether every byte before it is ASCII: one unchecked pass over the buffer.
    private func scanText(from start: Int) -> (Int, Bool) {
        let found = Self.stop(in: bytes, from: start, allowingHighBytes: true)
        return (found.position, found.ascii)
    }

    /// From `start`, the first quote, backslash or control character (or, when `allowingHighBytes` is
    /// false, byte of 0x80 or more), or the end; `ascii`: no byte before it was 0x80 or more. Sixteen
    /// bytes a step (`cb_json_stop`, SSE2): eight a step by word arithmetic here were 30% of reading a
    /// listing's keys and strings (callgrind, `calbridge-bench copy`).
    private static func stop(
        in buffer: UnsafeBufferPointer<UInt8>, from start: Int, allowingHighBytes: Bool
    ) -> (position: Int, ascii: Bool) {
        guard let base = buffer.baseAddress, start < buffer.count else { return (start, true) }
        let found = cb_json_stop(base, start, buffer.count, allowingHighBytes ? 0 : CB_JSON_STOP_HIGH)
        return (found >> 1, found & 1 == 1)
    }

    /// The scalar an escape after a backslash (at `index`) stands for, consumed and checked: one of the
    /// eight single-character escapes, or `\u` with four hex digits (a surrogate only as a pair).
    private mutating func escapedScalar() throws(Error) -> UInt32 {
        guard index < bytes.count else { throw error("unterminated string") }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return UInt32(escape)
        case UInt8(ascii: "b"): return 0x08
        case UInt8(ascii: "f"): return 0x0C
        case UInt8(ascii: "n"): return 0x0A
        case UInt8(ascii: "r"): return 0x0D
        case UInt8(ascii: "t"): return 0x09
        case UInt8(ascii: "u"):
            let scalar = try hex4()
            if (0xD800..<0xDC00).contains(scalar) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw error("lone surrogate in a string") }
                index += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("lone surrogate in a string") }
                return 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard !(0xDC00..<0xE000).contains(scalar) else { throw error("lone surrogate in a string") }
            return scalar
        default:
            throw error("invalid escape in a string")
        }
    }

    /// Whether `bytes` are well-formed UTF-8 (Unicode 15, table 3-7: no overlong forms, no surrogates,
    /// nothing past U+10FFFF), as `String(validating:)` decides. Written out because that initialiser is
    /// generic and ran unspecialised, asking for type metadata on every call: 4% of a no-change copy.
    package static func isValidUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBufferPointer { isValidUTF8($0[...]) }
    }

    /// `isValidUTF8` of a part of the document.
    static func isValidUTF8(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var index = bytes.startIndex
        let end = bytes.endIndex
        while index < end {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let continuations: Int
            var second: ClosedRange<UInt8> = 0x80...0xBF
            switch lead {
            case 0xC2...0xDF: continuations = 1
            case 0xE0: continuations = 2; second = 0xA0...0xBF
            case 0xED: continuations = 2; second = 0x80...0x9F
            case 0xE1...0xEF: continuations = 2
            case 0xF0: continuations = 3; second = 0x90...0xBF
            case 0xF4: continuations = 3; second = 0x80...0x8F
            case 0xF1...0xF3: continuations = 3
            default: return false
            }
            guard end - index > continuations, second.contains(bytes[index + 1]) else { return false }
            for offset in stride(from: 2, through: continuations, by: 1) where !(0x80...0xBF).contains(bytes[index + offset]) {
                return false
            }
            index += continuations + 1
        }
        return true
    }

    private mutating func hex4() throws(Error) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("unterminated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    package mutating func bool() throws(Error) -> Bool {
        switch try peek() {
        case UInt8(ascii: "t"): try literal("true"); return true
        case UInt8(ascii: "f"): try literal("false"); return false
        default: throw error("expected true or false")
        }
    }

    /// An integer; a number with a fraction or exponent only when its value is whole (`15.0`), as
    /// `JSONDecoder` reads it.
    package mutating func int() throws(Error) -> Int {
        let text = try numberText()
        if let value = Int(text) { return value }
        guard let double = Double(text), double.rounded() == double, let value = Int(exactly: double) else {
            throw error("expected an integer, found \(text)")
        }
        return value
    }

    /// The text of a number, checked against JSON's grammar.
    private mutating func numberText() throws(Error) -> String {
        let start = try skipNumber()
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// Consumes a number, checked against JSON's grammar; returns where it began.
    private mutating func skipNumber() throws(Error) -> Int {
        _ = try peek()
        let start = index
        func digits() -> Int {
            let from = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            return index - from
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let leading = index
        guard digits() > 0 else { throw error("expected a number") }
        guard bytes[leading] != UInt8(ascii: "0") || index - leading == 1 else { throw error("leading zero in a number") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("expected digits after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error("expected digits in an exponent") }
        }
        return start
    }

    package mutating func optionalString() throws(Error) -> String? { try consumeNull() ? nil : string() }

    /// `string()` for a member whose values repeat across a document's items (zone names, addresses):
    /// an equal one of the last few such strings when there is one, instead of a new copy of the text.
    /// 7,000 strings of a no-change copy of 1,000 events (callgrind).
    package mutating func repeatedString() throws(Error) -> String {
        let kept = repeatedStrings()
        return try withString { kept.string(of: $0) }
    }

    /// This document's `RepeatedStrings`, made on first need.
    private mutating func repeatedStrings() -> RepeatedStrings {
        if let kept = repeated { return kept }
        let kept = RepeatedStrings()
        repeated = kept
        return kept
    }

    /// `repeatedString()`, or nil for `null`.
    package mutating func optionalRepeatedString() throws(Error) -> String? { try consumeNull() ? nil : repeatedString() }

    package mutating func optionalBool() throws(Error) -> Bool? { try consumeNull() ? nil : bool() }
    package mutating func optionalInt() throws(Error) -> Int? { try consumeNull() ? nil : int() }

    /// An array of strings, or nil for `null`.
    package mutating func optionalStrings() throws(Error) -> [String]? {
        guard try !consumeNull() else { return nil }
        var strings: [String] = []
        try beginArray()
        while try nextElement() { strings.append(try string()) }
        return strings
    }

    /// An array whose elements `element` reads, or nil for `null`.
    @inlinable
    package mutating func optionalArray<T>(_ element: (inout JSONReader) throws(Error) -> T) throws(Error) -> [T]? {
        var values: [T] = []
        let present = try elements(roomFromFirst: false, reserve: { _ in }) { (r: inout JSONReader) throws(Error) in
            values.append(try element(&r))
        }
        return present ? values : nil
    }

    /// `optionalArray` for a listing page's items, which are many and of a size: once the first is read,
    /// room for as many as the rest of the document could hold at its size (at most `maxListingRoom`).
    /// Grown by doubling, the array of 1,000 events was reallocated and copied ten times (2.6 million
    /// instructions and 110 page faults of a first copy of 1,000 events).
    @inlinable
    package mutating func optionalListing<T>(_ element: (inout JSONReader) throws(Error) -> T) throws(Error) -> [T]? {
        var values: [T] = []
        let present = try elements(roomFromFirst: true, reserve: { values.reserveCapacity($0) }) { (r: inout JSONReader) throws(Error) in
            values.append(try element(&r))
        }
        return present ? values : nil
    }

    /// The elements of the array next, each read by `element`, or false for `null`. With `roomFromFirst`,
    /// `reserve` is told after the first element how many the rest of the document could hold at its size.
    /// Not generic: the generic readers above are inlined where the element type is known, so no call asks
    /// the runtime for `Array<T>`'s metadata (an unspecialised generic reader did, 590 instructions an
    /// element: 1.3 million in a no-change copy of 1,000 events; callgrind).
    @usableFromInline
    package mutating func elements(
        roomFromFirst: Bool, reserve: (Int) -> Void, _ element: (inout JSONReader) throws(Error) -> Void
    ) throws(Error) -> Bool {
        guard try !consumeNull() else { return false }
        try beginArray()
        var count = 0
        while try nextElement() {
            let start = index
            try element(&self)
            count += 1
            if roomFromFirst && count == 1 {
                reserve(1 + min((bytes.count - index) / max(index - start, 1), Self.maxListingRoom))
            }
        }
        return true
    }

    /// The most items `optionalListing` makes room for ahead (Google's pages hold up to 2,500).
    package static let maxListingRoom = 5_000

    /// Skips one value of any kind.
    package mutating func skipValue() throws(Error) {
        // One C loop over the value (`cb_json_skip`); where it finds the value invalid, the token-by-token
        // walk below reads it again, for the same error as ever at the same byte.
        if let base = bytes.baseAddress {
            let start = index
            let end = cb_json_skip(base, start, bytes.count)
            if end >= start, end <= bytes.count {
                // As the walk leaves it: after a container, no first member or element is pending.
                let opening = bytes[cb_json_whitespace(base, start, bytes.count)]
                if opening == UInt8(ascii: "{") || opening == UInt8(ascii: "[") { first = false }
                index = end
                return
            }
        }
        try skipValue(depth: 0)
    }

    /// Reads the object next for one member: `read` reads the value of the member `name` (plain ASCII),
    /// every other member is checked and skipped; false when there is no such member. The same reads and
    /// the same errors as reading the object member by member (`nextKey`, `skipValue`), which is what
    /// happens when one C pass over the object (`cb_json_member`) finds it invalid, an escaped key, or
    /// `name` more than once. (Not generic: called from other modules, a generic one asked the runtime
    /// for its result's metadata on every call.)
    package mutating func member(_ name: StaticString, _ read: (inout JSONReader) throws(Error) -> Void) throws(Error) -> Bool {
        if let base = bytes.baseAddress {
            var found = 0
            let end = name.withUTF8Buffer { name in
                cb_json_member(base, index, bytes.count, name.baseAddress, name.count, &found)
            }
            // SIZE_MAX is -1 as an Int, SIZE_MAX - 1 (several members called `name`) -2.
            if end >= index, end <= bytes.count, found != -2 {
                let present = found >= index && found < end
                if present {
                    index = found
                    try read(&self)
                }
                index = end
                first = false
                return present
            }
        }
        var present = false
        try beginObject()
        while let key = try nextKey() {
            if name ~= key {
                present = true
                try read(&self)
            } else {
                try skipValue()
            }
        }
        return present
    }

    /// `skipValue` token by token: what its one-loop fast path must agree with (tests and fuzzing
    /// compare them), and how an invalid value is refused.
    package mutating func skipValueByToken() throws(Error) {
        try skipValue(depth: 0)
    }

    /// What the next value is, without reading it.
    package enum ValueKind: Sendable { case object, array, string, number, bool, null }

    /// The kind of the next value (by its first byte; reading it still checks the rest).
    package mutating func nextKind() throws(Error) -> ValueKind {
        switch try peek() {
        case UInt8(ascii: "{"): .object
        case UInt8(ascii: "["): .array
        case UInt8(ascii: "\""): .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): .bool
        case UInt8(ascii: "n"): .null
        default: .number
        }
    }

    /// One value of any kind, checked and skipped, as the bytes it was sent as: a part of a document
    /// passed on whole (a Graph `$batch` answer's body) without being decoded and encoded again.
    package mutating func rawValue() throws(Error) -> Data {
        _ = try peek()
        let start = index
        try skipValue()
        // From the buffer, not its slice: `Data` of a slice went through generic code (7,000 instructions).
        return Data(buffer: UnsafeBufferPointer(rebasing: bytes[start..<index]))
    }

    private mutating func skipValue(depth: Int) throws(Error) {
        guard depth < Self.maxDepth else { throw error("JSON nested too deeply") }
        switch try peek() {
        case UInt8(ascii: "{"):
            try beginObject()
            while try nextKey() != nil { try skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            try beginArray()
            while try nextElement() { try skipValue(depth: depth + 1) }
        case UInt8(ascii: "\""):
            // No String is built for a value nobody keeps; any other string is checked as `string()` does.
            if plainString() == nil { try skipString() }
        case UInt8(ascii: "t"), UInt8(ascii: "f"): _ = try bool()
        case UInt8(ascii: "n"): try literal("null")
        default: _ = try skipNumber()
        }
    }
}

extension JSONReader {
    /// The members an object reader knows, found by a key's bytes in one probe of a small hash table:
    ///
    /// ```swift
    /// enum Member: String, CaseIterable { case id, subject, removed = "@removed" }
    /// static let members = JSONReader.KeyTable<Member>()
    /// ...
    /// switch members[key] {
    /// case .id?: id = try reader.string()
    /// case .subject?, .removed?: ...
    /// case nil: try reader.skipValue()
    /// }
    /// ```
    ///
    /// A `switch` over string cases compares the key with each case in turn: about twenty comparisons per
    /// member of a Graph event, a third of reading one (callgrind, `calbridge-bench copy`).
    public struct KeyTable<Member: RawRepresentable & CaseIterable & Sendable>: Sendable where Member.RawValue == String {
        @usableFromInline let members: [Member]
        @usableFromInline let index: KeyIndex

        package init() {
            members = Array(Member.allCases)
            index = KeyIndex(members.map(\.rawValue))
        }

        /// The member named `key`, or nil for any other key.
        @inlinable
        public subscript(key: Key) -> Member? {
            guard let position = index.position(of: key) else { return nil }
            return members[position]
        }
    }

    /// Names to their positions, by one probe of an open-addressing table; not generic, so that a
    /// lookup asks the runtime for nothing (a generic one asked for type metadata on every call, 550
    /// instructions a key).
    public struct KeyIndex: Sendable {
        /// The table in memory of its own, written once in `init` and only read after (from any thread):
        /// as arrays (`[[UInt8]]` names), each probe retained and released a name and called `memcmp`,
        /// 82 instructions a lookup (callgrind, `calbridge-bench copy`, 76,000 lookups a rerun).
        private final class Storage: @unchecked Sendable {
            /// Every name's UTF-8, one after another: name `p` is `text[starts[p]..<starts[p + 1]]`.
            let text: UnsafeMutableBufferPointer<UInt8>
            let starts: UnsafeMutableBufferPointer<Int>
            /// Linear probing: a position in the names, or -1 for an empty slot.
            let slots: UnsafeMutableBufferPointer<Int>
            let mask: Int

            init(_ names: [[UInt8]]) {
                text = .allocate(capacity: max(1, names.reduce(0) { $0 + $1.count }))
                starts = .allocate(capacity: names.count + 1)
                var offset = 0
                for (position, name) in names.enumerated() {
                    starts[position] = offset
                    for byte in name {
                        text[offset] = byte
                        offset += 1
                    }
                }
                starts[names.count] = offset
                var size = 16
                while size < 4 * names.count { size *= 2 }
                mask = size - 1
                slots = .allocate(capacity: size)
                slots.initialize(repeating: -1)
                for (position, name) in names.enumerated() {
                    var slot = name.withUnsafeBufferPointer { KeyIndex.hash($0) } & mask
                    while slots[slot] != -1 { slot = (slot + 1) & mask }
                    slots[slot] = position
                }
            }

            deinit {
                text.deallocate()
                starts.deallocate()
                slots.deallocate()
            }
        }

        private let storage: Storage

        package init(_ names: [String]) {
            storage = Storage(names.map { Array($0.utf8) })
        }

        /// Length and three bytes: enough to tell the members of one object apart nearly always; equal
        /// hashes only cost another probe.
        private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
            guard let first = bytes.first, let last = bytes.last else { return 0 }
            let middle = bytes[bytes.count / 2]
            return (bytes.count &* 31) ^ (Int(first) &* 131) ^ (Int(last) &* 7) ^ (Int(middle) &* 1031)
        }

        /// Whether `count` bytes at `a` and at `b` are the same, eight at a time (names are short: a call
        /// to `memcmp` cost more than the comparison).
        private static func same(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
            var offset = 0
            while offset + 8 <= count {
                guard ByteWord.load(a, at: offset) == ByteWord.load(b, at: offset) else { return false }
                offset += 8
            }
            while offset < count {
                guard a[offset] == b[offset] else { return false }
                offset += 1
            }
            return true
        }

        /// The position of the name `key` is, or nil.
        @usableFromInline
        package func position(of key: Key) -> Int? {
            let bytes = key.bytes
            let table = storage
            var slot = Self.hash(bytes) & table.mask
            while true {
                let position = table.slots[slot]
                guard position >= 0 else { return nil }
                let start = table.starts[position]
                if table.starts[position + 1] - start == bytes.count {
                    // An empty key may have no address: of the same length, the name is empty too.
                    guard let name = table.text.baseAddress, let key = bytes.baseAddress else { return position }
                    if Self.same(name + start, key, count: bytes.count) { return position }
                }
                slot = (slot + 1) & table.mask
            }
        }
    }
}

/// A type read by hand from JSON (`JSONReader`), instead of through `Decodable`.
@usableFromInline
package protocol JSONReadable {
    init(reading reader: inout JSONReader) throws(JSONReader.Error)
}

extension JSONReader {
    /// The whole document as one `T`.
    /// Inlined, so that the reading closure is specialised where `T` is known (and the generic readers
    /// `T` calls with it).
    @inlinable
    package static func read<T: JSONReadable>(_ type: T.Type, from data: Data) throws(Error) -> T {
        try read(from: data) { (reader: inout JSONReader) throws(Error) in try T(reading: &reader) }
    }

    /// The whole document as what `read` makes of it (nothing but whitespace may follow).
    /// Read from the body's own bytes, not a copy: the reader lives only inside this call.
    @usableFromInline
    package static func read<T>(from data: Data, _ read: (inout JSONReader) throws(Error) -> T) throws(Error) -> T {
        let result = data.withUnsafeBytes { raw -> Result<T, Error> in
            do throws(Error) {
                return .success(try Self.read(buffer: raw.bindMemory(to: UInt8.self), read))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The document in `bytes` as what `read` makes of it (nothing but whitespace may follow), read in
    /// place: the reader and the keys it returns must not outlive this call.
    package static func read<T>(buffer bytes: UnsafeBufferPointer<UInt8>, _ read: (inout JSONReader) throws(Error) -> T)
        throws(Error) -> T
    {
        var reader = JSONReader(borrowing: bytes)
        let value = try read(&reader)
        try reader.end()
        return value
    }

    /// A `T`, or nil for `null`.
    package mutating func optional<T: JSONReadable>(_ type: T.Type) throws(Error) -> T? {
        try consumeNull() ? nil : T(reading: &self)
    }

    /// An array of `T`, or nil for `null`.
    @inlinable
    package mutating func optionalArray<T: JSONReadable>(of type: T.Type) throws(Error) -> [T]? {
        try optionalArray { (reader: inout JSONReader) throws(Error) in try T(reading: &reader) }
    }

    /// A listing page's items (`optionalListing`), or nil for `null`.
    @inlinable
    package mutating func optionalListing<T: JSONReadable>(of type: T.Type) throws(Error) -> [T]? {
        try optionalListing { (reader: inout JSONReader) throws(Error) in try T(reading: &reader) }
    }

    /// An object of string values, or nil for `null`.
    package mutating func optionalStringMap() throws(Error) -> [String: String]? {
        guard try !consumeNull() else { return nil }
        // Room for a copy's three marker properties without growing twice.
        var map = [String: String](minimumCapacity: 4)
        try beginObject()
        while let key = try nextKey() { map[key.string] = try string() }
        return map
    }

    /// The error for a member an object must have.
    package func missing(_ key: String, in type: String) -> Error {
        Error(description: "\(type) has no '\(key)'")
    }
}
