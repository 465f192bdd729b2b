/// How to read numeric dates such as `12/5`: month first (US) or day first (most other places).
public enum QuickAddDateOrder: String, Sendable, CaseIterable {
    case mdy, dmy
}

/// Everything the parser needs besides the text, the reference instant and the user's zone.
public struct QuickAddOptions: Sendable {
    /// The vocabulary to read the text with.
    public var locale: QuickAddLocale
    /// Order of numeric slash dates (`12/5/2026`). Dotted dates (`5.12.2026`) are always day first,
    /// ISO dates (`2026-12-05`) always year first.
    public var dateOrder: QuickAddDateOrder
    /// Maps a Windows zone name ("W. Europe Standard Time") to an IANA id; nil: Windows names are not
    /// recognised.
    public var windowsZoneResolver: (@Sendable (String) -> String?)?

    public init(
        locale: QuickAddLocale = .english,
        dateOrder: QuickAddDateOrder? = nil,
        windowsZoneResolver: (@Sendable (String) -> String?)? = nil
    ) {
        self.locale = locale
        self.dateOrder = dateOrder ?? locale.defaultDateOrder
        self.windowsZoneResolver = windowsZoneResolver
    }
}
