/// Which calendar API a descriptor's `apiBaseURL` speaks. Open, so a stored descriptor with a future
/// value still loads; `ProviderDescriptor.parse` accepts only the known ones.
public struct ProviderAPI: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Google Calendar API v3 (paths start with `/calendar/v3`).
    public static let googleCalendarV3 = ProviderAPI(rawValue: "google-calendar-v3")
    /// Microsoft Graph v1.0 (paths start with `/v1.0`).
    public static let microsoftGraphV1 = ProviderAPI(rawValue: "microsoft-graph-v1")

    public static let known: [ProviderAPI] = [.googleCalendarV3, .microsoftGraphV1]

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }
}
