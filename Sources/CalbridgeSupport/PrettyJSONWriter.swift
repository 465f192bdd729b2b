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
            Self.writeMembers(elements.map { (nil, $0) }, into: &out, indent: indent)
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            let present = members.compactMap { key, value in value.map { (key, $0) } }.sorted { $0.0 < $1.0 }
            Self.writeMembers(present.map { (Optional($0.0), $0.1) }, into: &out, indent: indent)
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeMembers(_ members: [(String?, PrettyJSON)], into out: inout [UInt8], indent: Int) {
        out.append(UInt8(ascii: "\n"))
        if members.isEmpty { out.append(UInt8(ascii: "\n")) }
        for (index, (key, value)) in members.enumerated() {
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent + 2))
            if let key {
                writeString(key, into: &out)
                out.append(contentsOf: " : ".utf8)
            }
            value.write(into: &out, indent: indent + 2)
            if index < members.count - 1 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "\n"))
        }
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func writeString(_ string: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\")); out.append(byte)
            case 0x08: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "b"))
            case 0x0C: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "f"))
            case 0x0A: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "r"))
            case 0x09: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "t"))
            case ..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
