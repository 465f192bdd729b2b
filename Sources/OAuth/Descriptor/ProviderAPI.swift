/// Which calendar API a descriptor's `apiBaseURL` speaks: an opaque name that OAuth carries but does
/// not interpret. Each provider registration names its own (`google-calendar-v3`,
/// `microsoft-graph-v1`); `ProviderDescriptor.parse(_:source:tenant:apis:)` checks against them.
public struct ProviderAPI: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }
}
