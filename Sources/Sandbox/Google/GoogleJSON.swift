import Foundation

/// A JSON value as the Google emulator stores resources: events are kept as the JSON objects the client
/// sent (plus server fields), so patch is a true field merge and unknown fields survive a round trip.
public enum GoogleJSON: Sendable, Equatable, Codable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([GoogleJSON])
    case object([String: GoogleJSON])

    public init(from decoder: any Decoder) throws {
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
        } else if let value = try? container.decode([GoogleJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: GoogleJSON].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
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
    public static func parse(_ data: Data) -> GoogleJSON? {
        try? JSONDecoder().decode(GoogleJSON.self, from: data)
    }

    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
    public var objectValue: [String: GoogleJSON]? { if case .object(let value) = self { value } else { nil } }
    public var arrayValue: [GoogleJSON]? { if case .array(let value) = self { value } else { nil } }
    public var boolValue: Bool? { if case .bool(let value) = self { value } else { nil } }
    public var intValue: Int? {
        switch self {
        case .int(let value): value
        case .double(let value) where value == value.rounded() && abs(value) < 1e15: Int(value)
        default: nil
        }
    }

    public subscript(key: String) -> GoogleJSON? {
        if case .object(let object) = self { object[key] } else { nil }
    }

    /// Compact JSON text with keys in a stable (sorted) order. Hand-written because it is on every
    /// response's path and JSONEncoder is several times slower for this shape.
    public func serialized() -> Data {
        var out = [UInt8]()
        out.reserveCapacity(512)
        write(into: &out)
        return Data(out)
    }

    func write(into out: inout [UInt8]) {
        switch self {
        case .null: out += Array("null".utf8)
        case .bool(let value): out += Array((value ? "true" : "false").utf8)
        case .int(let value): out += Array(String(value).utf8)
        case .double(let value):
            if value.isFinite {
                out += Array((value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)).utf8)
            } else {
                out += Array("null".utf8)
            }
        case .string(let value): GoogleJSON.writeString(value, into: &out)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                value.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for (index, key) in object.keys.sorted().enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                GoogleJSON.writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                object[key]!.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [92, 34]
            case UInt8(ascii: "\\"): out += [92, 92]
            case 10: out += [92, UInt8(ascii: "n")]
            case 13: out += [92, UInt8(ascii: "r")]
            case 9: out += [92, UInt8(ascii: "t")]
            case 0..<32:
                out += Array("\\u00".utf8)
                let hex = Array("0123456789abcdef".utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 15)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

extension GoogleJSON: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(arrayLiteral elements: GoogleJSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, GoogleJSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { $1 }))
    }
}
