import TimeZones

/// The two zone-name conversions the Graph provider needs, behind one seam (tests may swap them).
///
/// Graph speaks Windows names ("Pacific Standard Time"); Foundation and Google speak IANA. A Windows
/// name is never handed to an IANA API: it is converted here first.
struct ZoneNames: Sendable {
    /// A Graph zone name (Windows, `tzone://Microsoft/...`, or an IANA id Graph accepts) → IANA id;
    /// nil for a custom zone or an unknown name.
    var toIANA: @Sendable (String) -> String?
    /// An IANA id → the Windows name to send to Graph; nil when the table has none.
    var toWindows: @Sendable (String) -> String?

    /// The CLDR table compiled into the TimeZones module.
    static let cldr = ZoneNames(
        toIANA: { name in (try? WindowsZones.resolve(windowsName: name))?.ianaIdentifier },
        toWindows: { WindowsZones.windowsName(forIANA: $0) })
}
