/// A JSON document built by hand for output (`--format json`), written as `JSONEncoder` writes with
/// `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]`, byte for byte: two-space indents,
/// `"key" : value`, keys in `String` order, empty containers as `[`, a blank line, `]`; strings with
/// `\"`, `\\`, `\b \f \n \r \t`, other control characters as `\u00xx`, everything else as UTF-8.
/// `JSONEncoder` took 50 million instructions for a 1,000-item copy report (callgrind); this takes a
/// tenth of that. `Tests/CLITests` compare the two on random reports.
package indirect enum PrettyJSON: Sendable {
    case string(String)
    case int(Int)
    case bool(Bool)
    case array([PrettyJSON])
    /// Members in any order (written sorted); a nil value is left out, as `encodeIfPresent` does.
    case object([(String, PrettyJSON?)])

    /// The document's text.
    package var text: String {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        write(into: &out, indent: 0)
        return String(decoding: out, as: UTF8.self)
    }

    private func write(into out: inout [UInt8], indent: Int) {
        switch self {
        case .string(let string): Self.writeString(string, into: &out)
        case .int(let number): out.append(contentsOf: String(number).utf8)
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            Self.open(elements.isEmpty, into: &out)
            for (index, element) in elements.enumerated() {
                Self.indent(indent + 2, into: &out)
                element.write(into: &out, indent: indent + 2)
                Self.close(last: index == elements.count - 1, into: &out)
            }
            Self.indent(indent, into: &out)
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            var present: [(key: String, value: PrettyJSON)] = []
            present.reserveCapacity(members.count)
            for (key, value) in members { if let value { present.append((key, value)) } }
            if !Self.isSorted(present) { present.sort { $0.key < $1.key } }
            Self.open(present.isEmpty, into: &out)
            for (index, member) in present.enumerated() {
                Self.indent(indent + 2, into: &out)
                Self.writeString(member.key, into: &out)
                out.append(contentsOf: [UInt8(ascii: " "), UInt8(ascii: ":"), UInt8(ascii: " ")])
                member.value.write(into: &out, indent: indent + 2)
                Self.close(last: index == present.count - 1, into: &out)
            }
            Self.indent(indent, into: &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Whether the keys are already in order (as callers usually give them): ASCII keys compared by
    /// bytes, which is `String`'s order for them; any other pair by `<`.
    private static func isSorted(_ members: [(key: String, value: PrettyJSON)]) -> Bool {
        for index in members.indices.dropFirst() {
            let (a, b) = (members[index - 1].key, members[index].key)
            if a.utf8.allSatisfy({ $0 < 0x80 }) && b.utf8.allSatisfy({ $0 < 0x80 }) {
                guard a.utf8.lexicographicallyPrecedes(b.utf8) else { return false }
            } else {
                guard a < b else { return false }
            }
        }
        return true
    }

    /// After an opening bracket: a line break, and a blank line for an empty container.
    private static func open(_ empty: Bool, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\n"))
        if empty { out.append(UInt8(ascii: "\n")) }
    }

    /// After a member: a comma unless it is the last, and a line break.
    private static func close(last: Bool, into out: inout [UInt8]) {
        if !last { out.append(UInt8(ascii: ",")) }
        out.append(UInt8(ascii: "\n"))
    }

    private static func indent(_ count: Int, into out: inout [UInt8]) {
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func writeString(_ string: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // The runs between bytes that need an escape are copied whole (a byte at a time was a third of
        // writing a copy report).
        var string = string
        string.withUTF8 { bytes in
            var run = 0
            for (position, byte) in bytes.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<position]))
                run = position + 1
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\")); out.append(byte)
                case 0x08: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "b"))
                case 0x0C: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "f"))
                case 0x0A: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "t"))
                default:
                    out.append(contentsOf: "\\u00".utf8)
                    out.append(hexDigits[Int(byte >> 4)])
                    out.append(hexDigits[Int(byte & 0xF)])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...]))
        }
        out.append(UInt8(ascii: "\""))
    }
}
