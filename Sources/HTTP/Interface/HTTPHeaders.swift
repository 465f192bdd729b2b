/// An ordered list of HTTP header fields with case-insensitive lookup.
///
/// Order and duplicates are kept, as they travel on the wire (`Set-Cookie`, `Link`).
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public private(set) var fields: [Field]

    public init(_ fields: [Field] = []) { self.fields = fields }

    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The first value of the named field, or nil.
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveEquals(name) }?.value }
        set {
            fields.removeAll { $0.name.caseInsensitiveEquals(name) }
            if let newValue { fields.append(Field(name: name, value: newValue)) }
        }
    }

    /// Every value of the named field, in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// Adds a field without replacing existing ones of the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// `bytes` without the optional whitespace at either end (spaces and tabs, RFC 9110 §5.6.3), which is
    /// not part of a field's value. Byte-wise: any other byte, a non-breaking space included, is the value's.
    @inlinable
    package static func withoutOptionalWhitespace<Bytes: BidirectionalCollection<UInt8>>(_ bytes: Bytes) -> Bytes.SubSequence {
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, bytes[start] == 32 || bytes[start] == 9 { start = bytes.index(after: start) }
        while start < end {
            let last = bytes.index(before: end)
            guard bytes[last] == 32 || bytes[last] == 9 else { break }
            end = last
        }
        return bytes[start..<end]
    }

    public func contains(_ name: String) -> Bool { self[name] != nil }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }
}

extension String {
    /// ASCII case-insensitive comparison, as HTTP field names and most protocol tokens need.
    package func caseInsensitiveEquals(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        // Over the two strings' contiguous UTF-8: zipping their `utf8` views is far slower, on a hot path.
        var this = self, other = other
        return this.withUTF8 { a in
            other.withUTF8 { b in
                for index in 0..<a.count where a[index] != b[index] {
                    let (x, y) = (a[index], b[index])
                    if (x >= 65 && x <= 90 ? x + 32 : x) != (y >= 65 && y <= 90 ? y + 32 : y) { return false }
                }
                return true
            }
        }
    }
}
