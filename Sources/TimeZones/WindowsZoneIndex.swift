import CalbridgeSupport
import Synchronization

/// Dictionaries over the generated table, plus the tz database links, answering every lookup.
///
/// `WindowsZones` holds one instance built on first use; tests build their own (for example without
/// links, as on a machine without `tzdata.zi`).
package struct WindowsZoneIndex: Sendable {
    package let mappings: [WindowsZoneMapping]
    /// The link-dependent tables, built on first need so that a plain Windows lookup never reads tzdata.zi.
    private let aliasTables: @Sendable () -> IANAAliasTables
    /// The rows by Windows name.
    private let rows: Rows
    /// Lowercased Windows name -> its spelling in the table.
    private var windowsByFolded: [String: String] { reverseTables.value.windowsByFolded }
    /// IANA id exactly as in the table -> Windows name.
    private var windowsByIANA: [String: String] { reverseTables.value.windowsByIANA }
    /// The two tables above, built on first need: Graph names zones as the table spells them, so reading
    /// a listing needs only `rows`, and building every table on each run cost more than the listing's
    /// lookups.
    private let reverseTables: BuiltOnFirstUse<ReverseTables>
    /// The display-name tables, built on first need: normalising 140 display names is costly, and Graph's
    /// answers name zones by their Windows names, so most runs never need them.
    private let displayNameTables: BuiltOnFirstUse<DisplayNameTables>

    /// Names Graph really returns that are not CLDR Windows ids: retired Canadian names (with the territory
    /// whose IANA ids fit them) and Graph's `tzone://` URIs.
    package static let legacyNames: [String: (windows: String, territory: String)] = [
        "alberta standard time": ("Mountain Standard Time", "CA"),
        "british columbia standard time": ("Pacific Standard Time", "CA"),
        "manitoba standard time": ("Central Standard Time", "CA"),
        "tzone://microsoft/utc": ("UTC", "001"),
    ]
    /// Graph's name for a zone defined inside the event or mailbox.
    package static let customZoneName = "tzone://microsoft/custom"
    /// Spellings of UTC in the tz database, known even when `tzdata.zi` is missing.
    package static let utcFamily: Set<String> = [
        "UTC", "Etc/UTC", "Etc/GMT", "GMT", "Etc/UCT", "UCT", "Etc/Universal", "Universal", "Etc/Zulu", "Zulu",
        "Etc/Greenwich", "Greenwich", "Etc/GMT0", "Etc/GMT+0", "Etc/GMT-0", "GMT0", "GMT+0", "GMT-0",
    ]

    /// An index whose links are known up front (tests; `links: .empty` is a machine without tzdata.zi).
    package init(
        mappings: [WindowsZoneMapping],
        displayNames: [(displayName: String, windows: String)],
        links: TZDatabaseLinks
    ) {
        let tables = IANAAliasTables(mappings: mappings, links: links)
        self.init(mappings: mappings, displayNames: displayNames, aliasTables: { tables })
    }

    /// An index that asks for the link tables only when an exact lookup fails.
    package init(
        mappings: [WindowsZoneMapping],
        displayNames: [(displayName: String, windows: String)],
        aliasTables: @escaping @Sendable () -> IANAAliasTables
    ) {
        self.mappings = mappings
        self.aliasTables = aliasTables
        self.rows = Rows(mappings)
        reverseTables = BuiltOnFirstUse { ReverseTables(mappings) }
        displayNameTables = BuiltOnFirstUse { DisplayNameTables(displayNames) }
    }

    /// The tz database links this index resolves aliases with.
    package var links: TZDatabaseLinks { aliasTables().links }

    // MARK: Windows -> IANA

    /// The table's spelling of a Windows name, matched ignoring case.
    package func windowsName(matching name: String) -> String? {
        if !rows[name].isEmpty { return name }
        return windowsByFolded[name.lowercased()]
    }

    /// The row used for `windows` and `territory`: the territory's row when there is one, else the 001 row.
    package func row(windows: String, territory: String?) -> (territory: String, iana: [String])? {
        let rows = rows[windows]
        if let territory = territory?.uppercased(), let row = rows.first(where: { $0.territory == territory }) {
            return (territory, row.iana)
        }
        return rows.first { $0.territory == "001" }.map { ("001", $0.iana) }
    }

    /// Every territory with a row for `windows`, sorted.
    package func territories(of windows: String) -> [String] { rows[windows].map(\.territory) }

    /// Resolves any name Graph may use for a zone; see `WindowsZones.match(_:territory:)`.
    package func match(_ rawName: String, territory: String?) throws(TimeZoneLookupError) -> WindowsZoneMatch {
        if let match = find(rawName, territory: territory) { return match }
        throw TimeZoneLookupError(name: rawName, suggestions: suggestions(for: rawName.trimmingWhitespace()))
    }

    /// `match` without the error: nil for an unknown name (and no suggestions computed).
    package func find(_ rawName: String, territory: String?) -> WindowsZoneMatch? {
        // Fast path: a Windows name spelled as in the table, the common case for Graph's answers.
        if territory == nil, let ids = rows[rawName].first(where: { $0.territory == "001" })?.iana {
            return WindowsZoneMatch(input: rawName, kind: .windowsName, windows: rawName, territory: "001", iana: ids)
        }
        let name = rawName.trimmingWhitespace()
        let folded = name.lowercased()
        if folded == Self.customZoneName {
            return WindowsZoneMatch(input: rawName, kind: .custom, windows: nil, territory: nil, iana: [])
        }
        var found: (windows: String, territory: String?, kind: WindowsZoneMatch.Kind)?
        if let windows = windowsName(matching: name) {
            found = (windows, territory, .windowsName)
        } else if let legacy = Self.legacyNames[folded] {
            found = (legacy.windows, territory ?? legacy.territory, .legacyName)
        } else if let windows = displayNameTables.value.windows(forDisplayName: name)
        {
            found = (windows, territory, .displayName)
        }
        if let found, let row = row(windows: found.windows, territory: found.territory) {
            return WindowsZoneMatch(
                input: rawName, kind: found.kind, windows: found.windows, territory: row.territory, iana: row.iana
            )
        }
        return ianaMatch(name, input: rawName)
    }

    // MARK: IANA -> Windows

    /// The Windows name for an IANA id in any spelling: exact, the UTC family, through the links, any case.
    package func windowsName(forIANA identifier: String) -> String? {
        if let windows = windowsByIANA[identifier] { return windows }
        return ianaMatch(identifier.trimmingWhitespace(), input: identifier)?.windows
    }

    private func ianaMatch(_ identifier: String, input: String) -> WindowsZoneMatch? {
        func found(_ windows: String, _ tableID: String, _ kind: WindowsZoneMatch.Kind) -> WindowsZoneMatch {
            // The first territory in order ("001" before the others) whose row has the id.
            let territory = rows[windows].first(where: { $0.iana.contains(tableID) })?.territory
            return WindowsZoneMatch(
                input: input, kind: kind, windows: windows, territory: territory, iana: [tableID],
                ianaSpelling: identifier
            )
        }
        func attempt(_ id: String) -> WindowsZoneMatch? {
            if let windows = windowsByIANA[id] { return found(windows, id, .ianaIdentifier) }
            if Self.utcFamily.contains(id), let windows = windowsByIANA["Etc/UTC"] {
                return found(windows, "Etc/UTC", .ianaAlias)
            }
            let aliases = aliasTables()
            let links = aliases.links
            let target = links.canonical(id)
            if let windows = windowsByIANA[target] { return found(windows, target, .ianaAlias) }
            if let windows = aliases.windowsByCanonical[target],
               let tableID = rows[windows].lazy.flatMap(\.iana).first(where: { links.canonical($0) == target })
            {
                return found(windows, tableID, .ianaAlias)
            }
            return nil
        }
        if let match = attempt(identifier) { return match }
        if let proper = aliasTables().ianaByFolded[identifier.lowercased()], proper != identifier {
            return attempt(proper).map { match in
                var match = match
                match.ianaSpelling = proper
                return match
            }
        }
        return nil
    }

    // MARK: Suggestions

    /// Up to three known names close to `name`: Windows and legacy names, or IANA ids when it looks like one.
    package func suggestions(for name: String) -> [String] {
        let folded = name.lowercased()
        guard !folded.isEmpty else { return [] }
        let candidates: [String]
        if name.contains("/") && !folded.hasPrefix("tzone:") {
            candidates = Array(Set(windowsByIANA.keys).union(aliasTables().links.allIdentifiers))
        } else {
            candidates = Array(windowsByFolded.values) + ["Alberta Standard Time", "British Columbia Standard Time",
                "Manitoba Standard Time", "tzone://Microsoft/Utc", "tzone://Microsoft/Custom"]
        }
        let limit = max(3, folded.count / 3)
        let scored = candidates.compactMap { candidate -> (String, Int)? in
            let other = candidate.lowercased()
            let distance = EditDistance.between(folded, other)
            if distance <= limit { return (candidate, distance) }
            // A fragment of a long name ("Pacific") is a fair hint too.
            if folded.count >= 4, other.contains(folded) { return (candidate, limit + other.count - folded.count) }
            return nil
        }
        return scored.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(3).map(\.0)
    }

    // MARK: Display names

    /// Lowercased, single-spaced, with the old "(GMT+01:00)" prefix read as "(UTC+01:00)".
    static func normalizedDisplayName(_ text: String) -> String {
        var folded = text.lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        if folded.hasPrefix("(gmt") { folded = "(utc" + folded.dropFirst(4) }
        return folded
    }

    /// The part after "(UTC+01:00) ", normalized; nil when the text has no such prefix.
    static func cityList(of text: String) -> String? {
        let normalized = normalizedDisplayName(text)
        guard normalized.hasPrefix("(utc"), let close = normalized.firstIndex(of: ")") else { return nil }
        let cities = normalized[normalized.index(after: close)...].trimmingWhitespace()
        return cities.isEmpty ? nil : cities
    }
}

extension StringProtocol {
    func trimmingWhitespace() -> String {
        guard let start = firstIndex(where: { !$0.isWhitespace }), let end = lastIndex(where: { !$0.isWhitespace }) else {
            return ""
        }
        return String(self[start...end])
    }
}

/// The table's rows by Windows name: sorted by Windows name, then territory (as the generator writes them;
/// sorted here otherwise), and found by binary search. Reading a Graph listing looks up a handful of names,
/// which does not pay for building a dictionary of dictionaries.
private struct Rows: Sendable {
    private let sorted: [WindowsZoneMapping]

    init(_ mappings: [WindowsZoneMapping]) {
        let inOrder = zip(mappings, mappings.dropFirst()).allSatisfy { ($0.windows, $0.territory) <= ($1.windows, $1.territory) }
        sorted = inOrder ? mappings : mappings.sorted { ($0.windows, $0.territory) < ($1.windows, $1.territory) }
    }

    /// The rows of `windows` (exact spelling), in territory order; empty for an unknown name.
    subscript(windows: String) -> ArraySlice<WindowsZoneMapping> {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = low + (high - low) / 2
            if sorted[middle].windows < windows { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < sorted.count && sorted[end].windows == windows { end += 1 }
        return sorted[low..<end]
    }
}

/// A value built by the first call that needs it (from any thread), then kept.
private final class BuiltOnFirstUse<Value: Sendable>: Sendable {
    private let build: @Sendable () -> Value
    private let built = Mutex<Value?>(nil)

    init(_ build: @escaping @Sendable () -> Value) {
        self.build = build
    }

    var value: Value {
        built.withLock { built in
            if let built { return built }
            let value = build()
            built = value
            return value
        }
    }
}

/// Lowercased Windows names and IANA ids -> Windows names.
private struct ReverseTables: Sendable {
    var windowsByFolded: [String: String] = [:]
    var windowsByIANA: [String: String] = [:]

    init(_ mappings: [WindowsZoneMapping]) {
        for mapping in mappings {
            windowsByFolded[mapping.windows.lowercased()] = mapping.windows
            for id in mapping.iana { windowsByIANA[id] = mapping.windows }
        }
    }
}

/// Normalised display names and city lists -> Windows names.
private struct DisplayNameTables: Sendable {
    /// Normalized display name -> Windows name.
    private var windowsByDisplayName: [String: String] = [:]
    /// Normalized city list of a display name ("amsterdam, berlin, …") -> Windows name.
    private var windowsByCities: [String: String] = [:]

    init(_ displayNames: [(displayName: String, windows: String)]) {
        var ambiguousCities: Set<String> = []
        for (display, windows) in displayNames {
            windowsByDisplayName[WindowsZoneIndex.normalizedDisplayName(display)] = windows
            if let cities = WindowsZoneIndex.cityList(of: display) {
                if windowsByCities[cities] != nil { ambiguousCities.insert(cities) }
                windowsByCities[cities] = windows
            }
        }
        for cities in ambiguousCities { windowsByCities[cities] = nil }
    }

    /// The Windows name whose display name (or whose display name's city list) `name` is.
    func windows(forDisplayName name: String) -> String? {
        windowsByDisplayName[WindowsZoneIndex.normalizedDisplayName(name)]
            ?? WindowsZoneIndex.cityList(of: name).flatMap { windowsByCities[$0] }
    }
}
