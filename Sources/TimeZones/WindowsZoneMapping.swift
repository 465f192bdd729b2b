/// One row of CLDR's windowsZones table: a Windows zone name, a territory and its IANA ids.
public struct WindowsZoneMapping: Sendable, Hashable, Codable {
    /// The Windows time zone id, e.g. "W. Europe Standard Time".
    public let windows: String
    /// `001` for the default row, `ZZ` for the fixed-offset fallback, otherwise an ISO 3166 region code.
    public let territory: String
    /// The row's IANA ids in CLDR order; the first is the one a lookup returns.
    public let iana: [String]

    public init(windows: String, territory: String, iana: [String]) {
        self.windows = windows
        self.territory = territory
        self.iana = iana
    }
}
