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
        guard key.hasPointerRepresentation else { return self.key(key.description) }
        newLine()
        let name = UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
        // A member name needs no escape (printable ASCII, no quote or backslash): its bytes between quotes,
        // without the escaping writer's scan (8,000 keys in a 1,000-item report).
        if name.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: name)
            bytes.append(UInt8(ascii: "\""))
        } else {
            JSONStringWriter.write(utf8: name, into: &bytes, escapingSlashes: false)
        }
        endKey()
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
        key(name)
        string(value)
    }

    package mutating func member(_ name: StaticString, _ value: Int) {
        key(name)
        int(value)
    }

    package mutating func member(_ name: StaticString, _ value: Bool) {
        key(name)
        bool(value)
    }

    // MARK: layout

    private mutating func open(_ bracket: UInt8) {
        newLine()
        bytes.append(bracket)
        empty.append(true)
    }

    private mutating func close(_ bracket: UInt8) {
        let wasEmpty = empty.popLast() ?? true
        bytes.append(UInt8(ascii: "\n"))
        if wasEmpty { bytes.append(UInt8(ascii: "\n")) }
        indent()
        bytes.append(bracket)
    }

    /// Before a key, or a value not after a key: the comma after the container's previous entry, a line
    /// break and the indent.
    private mutating func newLine() {
        if afterKey {
            afterKey = false
            return
        }
        guard let last = empty.indices.last else { return }
        if !empty[last] { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\n"))
        empty[last] = false
        indent()
    }

    private mutating func indent() {
        // Space by space: appending a `repeatElement` took the generic sequence path, 150 instructions
        // a line (callgrind, a 1,000-item copy report).
        for _ in 0..<2 * empty.count { bytes.append(UInt8(ascii: " ")) }
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
