import Foundation

/// A JSON value, shared by the API emulators as a plain data type (neither emulator's model depends on the
/// other's). The Google emulator stores events as the JSON objects the client sent (plus server fields), so
/// patch is a true field merge and unknown fields survive a round trip; the Graph emulator renders its
/// responses with it, because `serialized()` is much faster than `JSONSerialization` on Linux.
package enum SandboxJSON: Sendable, Equatable, Codable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([SandboxJSON])
    case object([String: SandboxJSON])

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([SandboxJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: SandboxJSON].self))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Parses a JSON document; nil when it is not valid JSON.
    package static func parse(_ data: Data) -> SandboxJSON? {
        try? JSONDecoder().decode(SandboxJSON.self, from: data)
    }

    package var stringValue: String? { if case .string(let value) = self { value } else { nil } }
    package var objectValue: [String: SandboxJSON]? { if case .object(let value) = self { value } else { nil } }
    package var arrayValue: [SandboxJSON]? { if case .array(let value) = self { value } else { nil } }
    package var boolValue: Bool? { if case .bool(let value) = self { value } else { nil } }
    package var intValue: Int? {
        switch self {
        case .int(let value): value
        case .double(let value) where value == value.rounded() && abs(value) < 1e15: Int(value)
        default: nil
        }
    }

    package subscript(key: String) -> SandboxJSON? {
        if case .object(let object) = self { object[key] } else { nil }
    }

    /// Compact JSON text with keys in a stable (sorted) order. Hand-written because it is on every
    /// response's path of both API emulators: `JSONEncoder` is several times slower for this shape, and
    /// `JSONSerialization` on Linux spends most of its time in dynamic casts and bridging.
    package func serialized() -> Data {
        var out = [UInt8]()
        out.reserveCapacity(512)
        write(into: &out)
        return Data(out)
    }

    /// Appends the compact JSON text of this value.
    package func write(into out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value): SandboxJSON.writeInt(value, into: &out)
        case .double(let value):
            if value.isFinite {
                if value == value.rounded() && abs(value) < 1e15 {
                    SandboxJSON.writeInt(Int(value), into: &out)
                } else {
                    out.append(contentsOf: String(value).utf8)
                }
            } else {
                out.append(contentsOf: "null".utf8)
            }
        case .string(let value): SandboxJSON.writeString(value, into: &out)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            var first = true
            for value in values {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                value.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            var first = true
            for (key, value) in object.sorted(by: { $0.key < $1.key }) {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                SandboxJSON.writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func writeInt(_ value: Int, into out: inout [UInt8]) {
        if value >= 0 && value < 10 {
            out.append(UInt8(ascii: "0") + UInt8(value))
        } else {
            out.append(contentsOf: String(value).utf8)
        }
    }

    /// A JSON string literal; text without characters to escape (the usual case) is copied in one go.
    package static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let utf8 = text.utf8
        if !utf8.contains(where: { $0 < 32 || $0 == 34 || $0 == 92 }) {
            out.append(contentsOf: utf8)
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [92, 34]
            case UInt8(ascii: "\\"): out += [92, 92]
            case 10: out += [92, UInt8(ascii: "n")]
            case 13: out += [92, UInt8(ascii: "r")]
            case 9: out += [92, UInt8(ascii: "t")]
            case 0..<32:
                out.append(contentsOf: "\\u00".utf8)
                let hex = Array("0123456789abcdef".utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 15)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

extension SandboxJSON: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    package init(stringLiteral value: String) { self = .string(value) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(integerLiteral value: Int) { self = .int(value) }
    package init(arrayLiteral elements: SandboxJSON...) { self = .array(elements) }
    package init(dictionaryLiteral elements: (String, SandboxJSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { $1 }))
    }
}
