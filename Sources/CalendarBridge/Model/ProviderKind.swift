/// Which calendar service an account lives on: an open name. Each provider module declares its own
/// (`ProviderKind.google` in GoogleCalendar, `.microsoft` in MicrosoftGraph); the core lists none.
public struct ProviderKind: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
