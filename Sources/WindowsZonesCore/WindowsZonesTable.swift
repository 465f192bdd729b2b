/// The content of a CLDR `windowsZones.xml`, as the generator needs it: versions, every `mapZone` row,
/// and the Windows display names found in the file's comments.
public struct WindowsZonesTable: Sendable, Equatable {
    /// One `<mapZone other="…" territory="…" type="…"/>` row.
    public struct Row: Sendable, Equatable {
        /// The Windows time zone id (`other`), e.g. "W. Europe Standard Time".
        public var windows: String
        /// `001` (the default row), `ZZ`, or an ISO 3166 region code.
        public var territory: String
        /// The IANA ids of `type`, split on whitespace, in file order (the first is the preferred one).
        public var iana: [String]
        /// The row's line in the XML file, for error messages.
        public var line: Int

        public init(windows: String, territory: String, iana: [String], line: Int) {
            self.windows = windows
            self.territory = territory
            self.iana = iana
            self.line = line
        }
    }

    /// A Windows display name such as "(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna",
    /// taken from the comment CLDR puts before each Windows zone's rows.
    public struct DisplayName: Sendable, Equatable {
        public var displayName: String
        public var windows: String

        public init(displayName: String, windows: String) {
            self.displayName = displayName
            self.windows = windows
        }
    }

    /// CLDR's `typeVersion` (the tz database release the IANA ids come from), e.g. "2021a".
    public var typeVersion: String
    /// CLDR's `otherVersion` (the Windows data version), e.g. "7e11800".
    public var otherVersion: String
    /// Every row, in file order.
    public var rows: [Row]
    /// Display names, in file order.
    public var displayNames: [DisplayName]

    public init(typeVersion: String, otherVersion: String, rows: [Row], displayNames: [DisplayName] = []) {
        self.typeVersion = typeVersion
        self.otherVersion = otherVersion
        self.rows = rows
        self.displayNames = displayNames
    }

    /// Rows sorted by Windows name, then territory (`001` sorts first): the order the generated table uses,
    /// so that reshuffling the XML does not change the output.
    public var sortedRows: [Row] {
        rows.sorted { ($0.windows, $0.territory) < ($1.windows, $1.territory) }
    }
}
