import CalbridgeSupport

/// Writes JSON for output (`--format json`) as `JSONEncoder` writes with
/// `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]`, byte for byte: two-space indents,
/// `"key" : value`, empty containers as `[`, a blank line, `]`; strings with `\"`, `\\`, `\b \f \n \r \t`,
/// other control characters as `\u00xx`, everything else as UTF-8, except what a terminal may act on and
/// JSON leaves raw (DEL, C1 controls, bidirectional controls): `\uXXXX`, as the CLI's
/// `TerminalText.escapeJSON` writes them. So the text can be printed as it is, values intact (the
/// sanitising of lines for people would replace those characters), with no second pass over it.
///
/// Streaming: the caller writes members in `String` order of their keys (as `.sortedKeys` would put
/// them; `PrettyJSON` sorts for callers that cannot). `JSONEncoder` took 50 million instructions for a
/// 1,000-item copy report (callgrind); a tree of `PrettyJSON` values written afterwards took 28 million,
/// most of it the tree itself; this takes a few.
///
/// ```swift
/// var writer = PrettyJSONWriter()
/// writer.beginObject()
/// writer.key("count"); writer.int(2)
/// writer.key("name"); writer.string("a")
/// writer.endObject()
/// print(writer.text)
/// ```
package struct PrettyJSONWriter {
    /// The bytes written so far.
    package private(set) var bytes: [UInt8] = []
    /// For each open container: whether nothing has been written into it yet.
    private var empty: [Bool] = []
    /// After `key`: the value comes next, on the key's line.
    private var afterKey = false

    package init(capacity: Int = 4096) {
        bytes.reserveCapacity(capacity)
    }

    /// The document's text.
    package var text: String { String(decoding: bytes, as: UTF8.self) }

    package mutating func beginObject() { open(UInt8(ascii: "{")) }
    package mutating func endObject() { close(UInt8(ascii: "}")) }
    package mutating func beginArray() { open(UInt8(ascii: "[")) }
    package mutating func endArray() { close(UInt8(ascii: "]")) }

    /// A member's key; its value is written next.
    package mutating func key(_ key: String) {
        newLine()
        writeString(key)
        endKey()
    }

    /// A member's key given as a literal, written from its bytes (the names of a report's members: going
    /// through a `String` for each was a third of writing a copy report).
    package mutating func key(_ key: StaticString) {
        // Any other name (none of calbridge's) goes through the escaping writer, as a `String` key does.
        guard let name = Self.plainName(key) else { return self.key(key.description) }
        // A member name needs no escape: the line break, the indent, the name between quotes and ` : ` in
        // one append, without the escaping writer's scan.
        keyLine(name) { _ in 0 }
        afterKey = true
    }

    private mutating func endKey() {
        bytes.append(UInt8(ascii: " "))
        bytes.append(UInt8(ascii: ":"))
        bytes.append(UInt8(ascii: " "))
        afterKey = true
    }

    package mutating func string(_ value: String) {
        newLine()
        writeString(value)
    }

    package mutating func int(_ value: Int) {
        newLine()
        PaddedDecimal.append(value, to: &bytes)
    }

    package mutating func bool(_ value: Bool) {
        newLine()
        bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    /// `key` and its value, left out when the value is nil (as `encodeIfPresent` does).
    package mutating func member(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        guard let plain = Self.plainName(name) else {
            key(name)
            return string(value)
        }
        keyLine(plain) { _ in 0 }
        writeString(value)
    }

    package mutating func member(_ name: StaticString, _ value: Int) {
        guard let plain = Self.plainName(name) else {
            key(name)
            return int(value)
        }
        keyLine(plain, valueRoom: 20) { PaddedDecimal.write(value, to: $0) }
    }

    package mutating func member(_ name: StaticString, _ value: Bool) {
        guard let plain = Self.plainName(name) else {
            key(name)
            return bool(value)
        }
        keyLine(plain, valueRoom: 5) { out in
            let word: StaticString = value ? "true" : "false"
            out.initialize(from: word.utf8Start, count: word.utf8CodeUnitCount)
            return word.utf8CodeUnitCount
        }
    }

    // MARK: layout

    /// A literal's bytes (one with a pointer representation).
    private static func bytes(of literal: StaticString) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
    }

    /// A literal name's bytes when they go between quotes as they are (printable ASCII, no quote or
    /// backslash: every member name calbridge writes), else nil.
    private static func plainName(_ literal: StaticString) -> UnsafeBufferPointer<UInt8>? {
        guard literal.hasPointerRepresentation else { return nil }
        let name = bytes(of: literal)
        for byte in name where byte < 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            return nil
        }
        return name
    }

    /// The line break before a member, its plain `name`, ` : ` and up to `valueRoom` bytes of a value that
    /// `value` writes at the pointer it is given (returning how many), in one append: appended piece by
    /// piece, with the indent space by space, a key was 540 instructions (callgrind, a 1,000-item report).
    private mutating func keyLine(
        _ name: UnsafeBufferPointer<UInt8>, valueRoom: Int = 0, _ value: (UnsafeMutablePointer<UInt8>) -> Int
    ) {
        let room = Self.maxBreak(depth: empty.count) + name.count + 4 + valueRoom
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: room) { line in
            guard let start = line.baseAddress else { return }
            var cursor = start + lineBreak(at: start)
            cursor[0] = UInt8(ascii: "\"")
            cursor += 1
            if let text = name.baseAddress { cursor.initialize(from: text, count: name.count) }
            cursor += name.count
            cursor[0] = UInt8(ascii: "\"")
            cursor[1] = UInt8(ascii: " ")
            cursor[2] = UInt8(ascii: ":")
            cursor[3] = UInt8(ascii: " ")
            cursor += 4
            cursor += value(cursor)
            bytes.append(contentsOf: UnsafeBufferPointer(start: start, count: cursor - start))
        }
    }

    private mutating func open(_ bracket: UInt8) {
        newLine()
        bytes.append(bracket)
        empty.append(true)
    }

    private mutating func close(_ bracket: UInt8) {
        let wasEmpty = empty.popLast() ?? true
        let indent = 2 * empty.count
        // A line break (two for an empty container), the indent and the bracket, in one append.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 3 + indent) { line in
            guard let start = line.baseAddress else { return }
            var cursor = start
            cursor[0] = UInt8(ascii: "\n")
            cursor += 1
            if wasEmpty {
                cursor[0] = UInt8(ascii: "\n")
                cursor += 1
            }
            cursor.initialize(repeating: UInt8(ascii: " "), count: indent)
            cursor += indent
            cursor[0] = bracket
            bytes.append(contentsOf: UnsafeBufferPointer(start: start, count: cursor - start + 1))
        }
    }

    /// Before a key, or a value not after a key: what `lineBreak` writes.
    private mutating func newLine() {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.maxBreak(depth: empty.count)) { line in
            guard let start = line.baseAddress else { return }
            bytes.append(contentsOf: UnsafeBufferPointer(start: start, count: lineBreak(at: start)))
        }
    }

    /// Room for what `lineBreak` writes at a depth.
    private static func maxBreak(depth: Int) -> Int { 2 + 2 * depth }

    /// Writes what comes before an entry at `out`, which has `maxBreak` bytes of room, and returns how
    /// many: nothing after a key (the value goes on the key's line) or outside any container; else the
    /// comma after the container's previous entry, a line break and the indent.
    private mutating func lineBreak(at out: UnsafeMutablePointer<UInt8>) -> Int {
        if afterKey {
            afterKey = false
            return 0
        }
        guard let last = empty.indices.last else { return 0 }
        var cursor = out
        if !empty[last] {
            cursor[0] = UInt8(ascii: ",")
            cursor += 1
        }
        empty[last] = false
        cursor[0] = UInt8(ascii: "\n")
        cursor += 1
        let indent = 2 * empty.count
        cursor.initialize(repeating: UInt8(ascii: " "), count: indent)
        return cursor - out + indent
    }

    private mutating func writeString(_ string: String) {
        JSONStringWriter.write(string, into: &bytes, escapingSlashes: false, escapingTerminalControls: true)
    }
}

/// A JSON document built as values, for output whose members come in any order: written by
/// `PrettyJSONWriter` with each object's members sorted.
package indirect enum PrettyJSON: Sendable {
    case string(String)
    case int(Int)
    case bool(Bool)
    case array([PrettyJSON])
    /// Members in any order (written sorted); a nil value is left out, as `encodeIfPresent` does.
    case object([(String, PrettyJSON?)])

    /// The document's text.
    package var text: String {
        var writer = PrettyJSONWriter()
        write(into: &writer)
        return writer.text
    }

    private func write(into writer: inout PrettyJSONWriter) {
        switch self {
        case .string(let string): writer.string(string)
        case .int(let number): writer.int(number)
        case .bool(let flag): writer.bool(flag)
        case .array(let elements):
            writer.beginArray()
            for element in elements { element.write(into: &writer) }
            writer.endArray()
        case .object(let members):
            writer.beginObject()
            let present = members.compactMap { key, value in value.map { (key: key, value: $0) } }
            for member in present.sorted(by: { $0.key < $1.key }) {
                writer.key(member.key)
                member.value.write(into: &writer)
            }
            writer.endObject()
        }
    }
}
