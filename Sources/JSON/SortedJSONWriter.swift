import CalbridgeSupport
import Foundation

/// Writes request bodies built as `[String: Any]` (strings, integers, booleans, `NSNull`, arrays,
/// objects) as JSON, byte for byte what `JSONSerialization.data(withJSONObject:options: [.sortedKeys])`
/// writes, at a fraction of its cost: on Linux that call bridges every value to an `NS` object and
/// sorts keys with a locale-aware comparison, and it was the largest single part of a copy's CPU time
/// (callgrind, `calbridge-bench copy --instructions`).
///
/// Same bytes: slashes escaped (`\/`), control characters as `\b \f \n \r \t` or `\u00xx`, everything
/// else as UTF-8; keys in `JSONSerialization`'s order, which compares case-insensitively (lower case
/// first where two keys differ only in case) and digit runs as numbers. That order is written here for
/// keys of ASCII letters and dots (every key calbridge writes); an object with any other key, or a value
/// of any other type (a `Double`, an `NSNumber`), is handed to `JSONSerialization` whole, so the output is
/// the same either way. `Tests/CalendarBridgeTests` compare the two on random objects.
package enum SortedJSONWriter {
    /// Already encoded JSON, written as it is (a `$batch` step's body inside the batch's JSON).
    package struct Fragment: @unchecked Sendable {
        package var data: Data
        package init(_ data: Data) { self.data = data }
    }

    /// The JSON text of `object`.
    /// - Throws: what `JSONSerialization` throws for objects it cannot write (the fallback).
    package static func data(_ object: [String: Any]) throws -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        if write(object, into: &out) { return Data(out) }
        return try JSONSerialization.data(withJSONObject: unfragmented(object), options: [.sortedKeys])
    }

    /// JSON written in order by its caller, with this writer's strings and key order: for bodies whose
    /// shape is known, written from their values without building a `[String: Any]` first (building and
    /// sorting Google's insert bodies that way was 140 million instructions of a 1,000-event copy).
    /// The caller writes each object's keys in `sortedKeys` order.
    package struct Output {
        package private(set) var bytes: [UInt8] = []

        package init(capacity: Int) { bytes.reserveCapacity(capacity) }

        /// Punctuation and keys as they are (`{"id":`).
        package mutating func raw(_ text: StaticString) {
            text.withUTF8Buffer { bytes.append(contentsOf: $0) }
        }

        package mutating func string(_ value: String) { SortedJSONWriter.writeString(value, into: &bytes) }

        package mutating func int(_ value: Int) { PaddedDecimal.append(value, to: &bytes) }

        /// An array of strings.
        package mutating func strings(_ values: [String]) { _ = SortedJSONWriter.writeStrings(values, into: &bytes) }

        /// An object of strings, its keys sorted; false (nothing written) when a key is outside what
        /// `sortedKeys` orders, so that the caller can fall back to `SortedJSONWriter.data`.
        package mutating func stringMap(_ object: [String: String]) -> Bool {
            SortedJSONWriter.writeObject(object, into: &bytes)
        }
    }

    /// Appends `value`; false when it holds something only `JSONSerialization` writes the same way.
    private static func write(_ value: Any, into out: inout [UInt8]) -> Bool {
        // The types calbridge builds bodies from, recognised by their exact type (a metadata comparison)
        // and written as `writeByCasting` would write them: its chain of `as` casts, each failing one
        // checking conformances and bridging, cost 14% of a first copy's instructions (callgrind).
        let type = type(of: value)
        if type == String.self, let string = value as? String {
            writeString(string, into: &out)
            return true
        }
        if type == [String: Any].self, let object = value as? [String: Any] { return writeObject(object, into: &out) }
        if type == Bool.self, let flag = value as? Bool {
            out.append(contentsOf: flag ? trueBytes : falseBytes)
            return true
        }
        if type == Int.self, let number = value as? Int {
            out.append(contentsOf: String(number).utf8)
            return true
        }
        if type == [[String: Any]].self, let objects = value as? [[String: Any]] {
            return writeArray(objects, into: &out) { object, out in writeObject(object, into: &out) }
        }
        if type == [String].self, let strings = value as? [String] { return writeStrings(strings, into: &out) }
        if type == [String: String].self, let object = value as? [String: String] { return writeObject(object, into: &out) }
        // Google's `extendedProperties`: `["private": [String: String]]`.
        if type == [String: [String: String]].self, let object = value as? [String: [String: String]] {
            return writeObject(object, into: &out)
        }
        if type == [Any].self, let array = value as? [Any] {
            return writeArray(array, into: &out) { element, out in write(element, into: &out) }
        }
        if type == NSNull.self {
            out.append(contentsOf: nullBytes)
            return true
        }
        if type == Fragment.self, let fragment = value as? Fragment {
            out.append(contentsOf: fragment.data)
            return true
        }
        return writeByCasting(value, into: &out)
    }

    /// An object of any value type `write` takes, keys sorted; false as `write`.
    fileprivate static func writeObject<Value>(_ object: [String: Value], into out: inout [UInt8]) -> Bool {
        guard let keys = sortedKeys(object.keys) else { return false }
        out.append(UInt8(ascii: "{"))
        for (index, key) in keys.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            writeString(key, into: &out)
            out.append(UInt8(ascii: ":"))
            guard let member = object[key] else { return false }
            // An object of strings (extended properties) writes each value as the string it is, not boxed
            // as `Any` for `write` to cast back.
            if Value.self == String.self, let text = member as? String {
                writeString(text, into: &out)
            } else if !write(member, into: &out) {
                return false
            }
        }
        out.append(UInt8(ascii: "}"))
        return true
    }

    /// An array, each element by `element`; false as `write`.
    private static func writeArray<Element>(
        _ array: [Element], into out: inout [UInt8], _ element: (Element, inout [UInt8]) -> Bool
    ) -> Bool {
        out.append(UInt8(ascii: "["))
        for (index, value) in array.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            guard element(value, &out) else { return false }
        }
        out.append(UInt8(ascii: "]"))
        return true
    }

    /// An array of strings.
    fileprivate static func writeStrings(_ strings: [String], into out: inout [UInt8]) -> Bool {
        writeArray(strings, into: &out) { string, out in
            writeString(string, into: &out)
            return true
        }
    }

    /// `write` by dynamic casts, for values of any other type (subclasses, collections of other element
    /// types, numbers of other types, which it refuses).
    private static func writeByCasting(_ value: Any, into out: inout [UInt8]) -> Bool {
        switch value {
        case let string as String:
            writeString(string, into: &out)
        case let flag as Bool:
            out.append(contentsOf: flag ? trueBytes : falseBytes)
        case let number as Int:
            out.append(contentsOf: String(number).utf8)
        case is NSNull:
            out.append(contentsOf: nullBytes)
        case let fragment as Fragment:
            out.append(contentsOf: fragment.data)
        case let object as [String: Any]:
            return writeObject(object, into: &out)
        case let strings as [String]:
            return writeStrings(strings, into: &out)
        case let array as [Any]:
            return writeArray(array, into: &out) { element, out in write(element, into: &out) }
        default:
            return false
        }
        return true
    }

    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)
    private static let nullBytes = Array("null".utf8)

    fileprivate static func writeString(_ string: String, into out: inout [UInt8]) {
        JSONStringWriter.write(string, into: &out, escapingSlashes: true)
    }

    /// The keys in `JSONSerialization`'s `sortedKeys` order, or nil when a key is not only ASCII letters
    /// and dots (the order written here is known to match for those).
    static func sortedKeys(_ keys: some Collection<String>) -> [String]? {
        // Each key with its first eight bytes folded to lower case, packed big-endian: comparing those
        // integers orders keys as `precedes` does wherever they differ, so it decides only ties (walking
        // two strings' UTF-8 for every comparison of the sort was a fifth of writing a body; callgrind).
        var entries: [(prefix: UInt64, key: String)] = []
        entries.reserveCapacity(keys.count)
        for key in keys {
            // Over the key's contiguous UTF-8 (its `utf8` view byte by byte was half of this function).
            var text = key
            let prefix = text.withUTF8 { bytes -> UInt64? in
                var prefix: UInt64 = 0
                for (count, byte) in bytes.enumerated() {
                    guard isLetter(byte) || byte == UInt8(ascii: ".") else { return nil }
                    if count < 8 { prefix |= UInt64(folded(byte)) << (56 - 8 * count) }
                }
                return prefix
            }
            guard let prefix else { return nil }
            entries.append((prefix, key))
        }
        entries.sort { a, b in a.prefix != b.prefix ? a.prefix < b.prefix : precedes(a.key, b.key) }
        return entries.map(\.key)
    }

    private static func folded(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    /// Case-insensitive first; between keys equal but for case, the first difference decides, lower case first.
    static func precedes(_ a: String, _ b: String) -> Bool {
        // Over the two keys' contiguous UTF-8: walking them with iterators was half of sorting a copy's
        // extended properties, whose names share their first eight bytes (`calbridge.`; callgrind).
        var a = a, b = b
        return a.withUTF8 { left in b.withUTF8 { right in precedes(left, right) } }
    }

    private static func precedes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var tie = 0
        for index in 0..<min(a.count, b.count) {
            let x = a[index], y = b[index]
            guard x != y else { continue }
            let fx = folded(x), fy = folded(y)
            if fx != fy { return fx < fy }
            // Lower case (the larger ASCII code) sorts first.
            if tie == 0 { tie = x > y ? -1 : 1 }
        }
        // A key that is the other's beginning comes first.
        return a.count != b.count ? a.count < b.count : tie < 0
    }

    /// `object` with every `Fragment` parsed back, for the `JSONSerialization` fallback.
    private static func unfragmented(_ value: Any) -> Any {
        switch value {
        case let fragment as Fragment: return (try? JSONSerialization.jsonObject(with: fragment.data, options: [.fragmentsAllowed])) ?? NSNull()
        case let object as [String: Any]: return object.mapValues(unfragmented)
        case let array as [Any]: return array.map(unfragmented)
        default: return value
        }
    }
}
