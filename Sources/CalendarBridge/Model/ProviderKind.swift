/// Which calendar service an account lives on. Open: a new provider adds a static member.
public struct ProviderKind: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Google Calendar API v3.
    public static let google = ProviderKind(rawValue: "google")
    /// Microsoft Graph v1.0 (Outlook, Microsoft 365).
    public static let microsoft = ProviderKind(rawValue: "microsoft")

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
