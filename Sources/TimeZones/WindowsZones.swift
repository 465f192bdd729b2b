/// Windows <-> IANA time zone names, from CLDR's windowsZones.xml compiled in at build time.
///
/// Outlook (Microsoft Graph) names zones the Windows way ("W. Europe Standard Time"); Google and Unix use
/// IANA ids ("Europe/Berlin"). The table is generated from `Sources/TimeZones/windowsZones.xml` by
/// WindowsZonesPlugin; nothing parses XML at run time. IANA aliases are resolved with the system tz
/// database's links (`/usr/share/zoneinfo/tzdata.zi`, or `$TZDIR/tzdata.zi`), read once on first need;
/// without that file only the spellings in the table (and the UTC family) are recognised.
public enum WindowsZones {
    /// CLDR `typeVersion` of the compiled table, e.g. "2021a".
    public static let cldrVersion: String = GeneratedWindowsZones.typeVersion
    /// CLDR `otherVersion` (the Windows data version) of the compiled table.
    public static let cldrOtherVersion: String = GeneratedWindowsZones.otherVersion
    /// Every row of the table, sorted by Windows name, then territory (`001` first).
    public static let mappings: [WindowsZoneMapping] = GeneratedWindowsZones.mappings
    /// Every Windows name in the table, sorted.
    public static let windowsNames: [String] = Array(Set(mappings.map(\.windows))).sorted()

    /// Built on first use; thread-safe because a `static let` is initialised exactly once.
    package static let index = WindowsZoneIndex(
        mappings: GeneratedWindowsZones.mappings,
        displayNames: GeneratedWindowsZones.displayNames,
        aliasTables: { aliasTables }
    )
    /// The link tables, read from the system tz database only when an exact lookup misses.
    private static let aliasTables = IANAAliasTables(mappings: GeneratedWindowsZones.mappings, links: .system)

    /// The IANA id for a Windows zone name.
    ///
    /// - Parameters:
    ///   - name: a Windows name, matched ignoring case; the legacy names and display names `resolve` knows
    ///     work too, and so does an IANA id (returned as given).
    ///   - territory: an ISO 3166 region (e.g. "CA"); its row is used when the table has one, otherwise
    ///     the default (`001`) row.
    /// - Returns: the row's first IANA id, or nil for an unknown name or a custom zone.
    public static func ianaIdentifier(forWindowsName name: String, territory: String? = nil) -> String? {
        index.find(name, territory: territory)?.ianaIdentifier
    }

    /// Whether two IANA ids name one zone: equal, or spellings of one tz database link (`Asia/Calcutta`, which
    /// CLDR and so Graph's events keep, and `Asia/Kolkata`).
    public static func areSameZone(_ first: String, _ second: String) -> Bool {
        first == second || index.links.canonical(first) == index.links.canonical(second)
    }

    /// The Windows name for an IANA id: any id of any row, either spelling of a tz database link
    /// (`Asia/Kolkata` and `Asia/Calcutta`), and the UTC family (`UTC`, `Etc/UTC`, `Etc/GMT` -> "UTC").
    public static func windowsName(forIANA identifier: String) -> String? {
        index.windowsName(forIANA: identifier)
    }

    /// Resolves any zone name Graph returns: a Windows name (any case), `tzone://Microsoft/Utc`,
    /// `tzone://Microsoft/Custom` (→ `.custom`), "UTC", legacy display names such as
    /// "(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna", the retired Canadian names
    /// ("Alberta Standard Time", …), or an IANA id (Graph accepts some).
    /// - Throws: `TimeZoneLookupError` with the nearest known names when the name is unknown.
    public static func resolve(
        windowsName: String, territory: String? = nil
    ) throws(TimeZoneLookupError) -> WindowsZoneResolution {
        try index.match(windowsName, territory: territory).resolution
    }

    /// The detailed answer for a Windows name or an IANA id (direction detected): what kind of name it
    /// was, the Windows name, the row's territory and IANA ids.
    /// - Throws: `TimeZoneLookupError` with the nearest known names when the name is unknown.
    public static func match(_ name: String, territory: String? = nil) throws(TimeZoneLookupError) -> WindowsZoneMatch {
        try index.match(name, territory: territory)
    }

    /// Every territory with a row for a Windows name (exact spelling), sorted.
    public static func territories(forWindowsName name: String) -> [String] { index.territories(of: name) }

    /// Every spelling of an IANA zone known to the system tz database: its canonical id first, then
    /// its aliases (`Asia/Kolkata`, `Asia/Calcutta`). Just `[identifier]` when no links are known.
    public static func spellings(ofIANA identifier: String) -> [String] { index.links.spellings(of: identifier) }
}
