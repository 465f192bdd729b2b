import Foundation

/// Which zone names the emulated Graph accepts, and how they map to tz database zones.
///
/// Graph's `dateTimeTimeZone.timeZone` and `Prefer: outlook.timezone` take Windows names ("Pacific Standard
/// Time") and IANA names ("Europe/Berlin"); "UTC" and `tzone://Microsoft/Utc` are UTC. The Windows↔IANA
/// table is injected (the TimeZones module's CLDR table in production, a small table in tests), so this
/// module carries no copy of it.
package struct GraphTimeZoneNames: Sendable {
    /// Windows zone name → IANA identifier, nil when the name is not a Windows zone.
    package var windowsToIANA: @Sendable (String) -> String?
    /// IANA identifier → Windows zone name, nil when it has none.
    package var ianaToWindows: @Sendable (String) -> String?

    package init(windowsToIANA: @escaping @Sendable (String) -> String?,
                ianaToWindows: @escaping @Sendable (String) -> String?) {
        self.windowsToIANA = windowsToIANA
        self.ianaToWindows = ianaToWindows
    }

    /// A table of the given Windows → IANA pairs (and its reverse).
    package static func table(_ pairs: [String: String]) -> GraphTimeZoneNames {
        var reverse: [String: String] = [:]
        for (windows, iana) in pairs.sorted(by: { $0.key < $1.key }) where reverse[iana] == nil { reverse[iana] = windows }
        let forward = Dictionary(uniqueKeysWithValues: pairs.map { ($0.key.lowercased(), $0.value) })
        let backward = reverse
        return GraphTimeZoneNames(windowsToIANA: { forward[$0.lowercased()] },
                                  ianaToWindows: { backward[$0] })
    }

    /// A stopgap used when no table is injected: the CLDR default (`001`) rows of the zones the default seed
    /// and common callers use. The lead wires the full generated table in its place.
    package static let common = table([
        "UTC": "Etc/UTC",
        "Pacific Standard Time": "America/Los_Angeles",
        "Mountain Standard Time": "America/Denver",
        "Central Standard Time": "America/Chicago",
        "Eastern Standard Time": "America/New_York",
        "GMT Standard Time": "Europe/London",
        "W. Europe Standard Time": "Europe/Berlin",
        "Romance Standard Time": "Europe/Paris",
        "Central Europe Standard Time": "Europe/Budapest",
        "India Standard Time": "Asia/Calcutta",
        "Tokyo Standard Time": "Asia/Tokyo",
        "AUS Eastern Standard Time": "Australia/Sydney",
    ])

    /// The tz zone for a Graph zone name, or nil when Graph would answer `TimeZoneNotSupportedException`.
    func zone(named name: String) -> TimeZone? {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        if trimmed.caseInsensitiveCompare("UTC") == .orderedSame
            || trimmed.caseInsensitiveCompare("tzone://Microsoft/Utc") == .orderedSame {
            return TimeZone(secondsFromGMT: 0)
        }
        // Other `tzone://Microsoft/...` names (`tzone://Microsoft/Custom`) name no zone a client can write.
        if trimmed.lowercased().hasPrefix("tzone://") { return nil }
        if let iana = windowsToIANA(trimmed) { return TimeZone(identifier: iana) }
        // IANA names: only real tz ids ("Area/Location" or Etc/...), not abbreviations Foundation also knows.
        if trimmed.contains("/"), let zone = TimeZone(identifier: trimmed) { return zone }
        return nil
    }
}
