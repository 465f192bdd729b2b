import Foundation
import Testing
@testable import TimeZones
import WindowsZonesCore

@Suite("TimeZones: Windows <-> IANA lookups over the compiled table")
struct WindowsZonesLookupTests {
    static let parsed = try! WindowsZonesParser.parse(fileAt: Fixtures.vendoredXML)
    static let defaultRows = parsed.rows.filter { $0.territory == "001" }

    @Test("the compiled table is exactly the vendored XML (the plugin output is current)")
    func compiledMatchesXML() {
        #expect(WindowsZones.cldrVersion == Self.parsed.typeVersion)
        #expect(WindowsZones.cldrOtherVersion == Self.parsed.otherVersion)
        let expected = Self.parsed.sortedRows.map { WindowsZoneMapping(windows: $0.windows, territory: $0.territory, iana: $0.iana) }
        #expect(WindowsZones.mappings == expected)
        #expect(WindowsZones.windowsNames.count == 139)
    }

    @Test("all 139 Windows names map to their 001 row's first IANA id")
    func everyWindowsName() {
        #expect(Self.defaultRows.count == 139)
        for row in Self.defaultRows {
            #expect(WindowsZones.ianaIdentifier(forWindowsName: row.windows) == row.iana[0], "\(row.windows)")
            #expect(WindowsZones.ianaIdentifier(forWindowsName: row.windows.uppercased()) == row.iana[0])
            #expect((try? WindowsZones.resolve(windowsName: row.windows)) == .iana(row.iana[0]))
        }
    }

    @Test("round trip Windows -> IANA -> Windows gives the same name for every 001 row")
    func roundTrip() throws {
        for row in Self.defaultRows {
            let iana = try #require(WindowsZones.ianaIdentifier(forWindowsName: row.windows))
            #expect(WindowsZones.windowsName(forIANA: iana) == row.windows, "\(row.windows) -> \(iana)")
        }
    }

    @Test("every IANA id of every row, second and later ids included, maps back to its Windows name")
    func everyIANAIdentifier() {
        var checked = 0
        for row in Self.parsed.rows {
            for id in row.iana {
                #expect(WindowsZones.windowsName(forIANA: id) == row.windows, "\(id)")
                checked += 1
            }
        }
        #expect(checked > 500)
    }

    @Test("every IANA id the table can return is a valid TimeZone on this machine")
    func everyIdentifierIsValid() {
        let ids = Set(WindowsZones.mappings.flatMap(\.iana))
        #expect(ids.count == 445)
        for id in ids.sorted() {
            #expect(TimeZone(identifier: id) != nil, "TimeZone(identifier: \"\(id)\") is nil")
        }
    }

    @Test(
        "IANA aliases work in both spellings, in both directions",
        arguments: [
            ("Asia/Kolkata", "Asia/Calcutta", "India Standard Time"),
            ("Europe/Kyiv", "Europe/Kiev", "FLE Standard Time"),
            ("America/Nuuk", "America/Godthab", "Greenland Standard Time"),
            ("Asia/Ho_Chi_Minh", "Asia/Saigon", "SE Asia Standard Time"),
            ("Asia/Kathmandu", "Asia/Katmandu", "Nepal Standard Time"),
            ("Asia/Yangon", "Asia/Rangoon", "Myanmar Standard Time"),
            ("America/Argentina/Buenos_Aires", "America/Buenos_Aires", "Argentina Standard Time"),
            ("America/Indiana/Indianapolis", "America/Indianapolis", "US Eastern Standard Time"),
        ]
    )
    func aliases(modern: String, old: String, windows: String) throws {
        #expect(WindowsZones.windowsName(forIANA: modern) == windows)
        #expect(WindowsZones.windowsName(forIANA: old) == windows)
        #expect(WindowsZones.spellings(ofIANA: modern).contains(old))
        #expect(WindowsZones.spellings(ofIANA: old).contains(modern))
        #expect(WindowsZones.spellings(ofIANA: old).first == WindowsZones.spellings(ofIANA: modern).first)
        // The table holds the old spelling (CLDR's), and the machine accepts both.
        #expect(WindowsZones.mappings.contains { $0.windows == windows && $0.iana.contains(old) })
        #expect(TimeZone(identifier: old) != nil && TimeZone(identifier: modern) != nil)
        // A zone name given as IANA passes through resolve unchanged.
        #expect(try WindowsZones.resolve(windowsName: modern) == .iana(modern))
        let match = try WindowsZones.match(modern)
        #expect(match.kind.isIANA && match.windows == windows)
    }

    @Test("the UTC family maps to the Windows name UTC", arguments: ["Etc/UTC", "UTC", "Etc/GMT", "GMT", "Etc/Universal", "Zulu", "etc/utc"])
    func utcFamily(identifier: String) {
        #expect(WindowsZones.windowsName(forIANA: identifier) == "UTC")
    }

    @Test("names Graph returns that are not in CLDR")
    func graphNames() throws {
        #expect(try WindowsZones.resolve(windowsName: "tzone://Microsoft/Utc") == .iana("Etc/UTC"))
        #expect(try WindowsZones.resolve(windowsName: "tzone://Microsoft/Custom") == .custom)
        #expect(try WindowsZones.resolve(windowsName: "tzone://Microsoft/Custom").ianaIdentifier == nil)
        #expect(WindowsZones.ianaIdentifier(forWindowsName: "tzone://Microsoft/Custom") == nil)
        #expect(try WindowsZones.resolve(windowsName: "UTC") == .iana("Etc/UTC"))
        #expect(try WindowsZones.resolve(windowsName: " W. Europe Standard Time ") == .iana("Europe/Berlin"))
        let displayName = "(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna"
        #expect(try WindowsZones.resolve(windowsName: displayName) == .iana("Europe/Berlin"))
        #expect(try WindowsZones.match(displayName).kind == .displayName)
        // The older Exchange spelling of the same display name.
        #expect(try WindowsZones.resolve(windowsName: "(GMT+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna") == .iana("Europe/Berlin"))
        #expect(try WindowsZones.resolve(windowsName: "(UTC-08:00) Pacific Time (US & Canada)") == .iana("America/Los_Angeles"))
        #expect(try WindowsZones.resolve(windowsName: "Alberta Standard Time") == .iana("America/Edmonton"))
        #expect(try WindowsZones.resolve(windowsName: "British Columbia Standard Time") == .iana("America/Vancouver"))
        #expect(try WindowsZones.resolve(windowsName: "Manitoba Standard Time") == .iana("America/Winnipeg"))
        #expect(try WindowsZones.match("alberta standard time").windows == "Mountain Standard Time")
    }

    @Test("a territory selects its row; case-insensitive; unknown territories fall back to 001")
    func territories() throws {
        #expect(WindowsZones.ianaIdentifier(forWindowsName: "Pacific Standard Time") == "America/Los_Angeles")
        #expect(WindowsZones.ianaIdentifier(forWindowsName: "Pacific Standard Time", territory: "CA") == "America/Vancouver")
        #expect(WindowsZones.ianaIdentifier(forWindowsName: "pacific standard time", territory: "ca") == "America/Vancouver")
        #expect(WindowsZones.ianaIdentifier(forWindowsName: "W. Europe Standard Time", territory: "CH") == "Europe/Zurich")
        #expect(WindowsZones.ianaIdentifier(forWindowsName: "W. Europe Standard Time", territory: "US") == "Europe/Berlin")
        #expect(WindowsZones.ianaIdentifier(forWindowsName: "Hawaiian Standard Time", territory: "ZZ") == "Etc/GMT+10")
        #expect(WindowsZones.territories(forWindowsName: "Pacific Standard Time") == ["001", "CA", "US"])
    }

    @Test("unknown names: a typed error with the nearest names, one line")
    func unknownName() {
        #expect {
            _ = try WindowsZones.resolve(windowsName: "Pacific Standrd Time")
        } throws: { error in
            guard let error = error as? TimeZoneLookupError else { return false }
            return error.name == "Pacific Standrd Time" && error.suggestions.first == "Pacific Standard Time"
                && error.description.contains("did you mean 'Pacific Standard Time'")
                && !error.description.contains("\n")
        }
        #expect(WindowsZones.ianaIdentifier(forWindowsName: "Nowhere Standard Time") == nil)
        #expect(WindowsZones.windowsName(forIANA: "Mars/Olympus_Mons") == nil)
        let iana = TimeZoneLookupError(name: "Europe/Berln", suggestions: WindowsZones.index.suggestions(for: "Europe/Berln"))
        #expect(iana.suggestions.first == "Europe/Berlin")
        #expect(TimeZoneLookupError(name: "a\nb", suggestions: []).description.contains("\n") == false)
        #expect(throws: TimeZoneLookupError.self) { try WindowsZones.resolve(windowsName: "") }
    }

    @Test("parity with the tutorials' 137-entry table, except the documented CLDR changes")
    func tutorialParity() throws {
        let lines = try Fixtures.text(Fixtures.windowsZones("tutorials-appendix-c.txt")).split(separator: "\n")
        #expect(lines.count == 137)
        // What this vendored file (typeVersion 2021a, otherVersion 7e11800) has that the tutorials do not:
        // UTC's 001 row is Etc/UTC (they used Etc/GMT); two later CLDR corrections of 001 rows; two new zones.
        let changed = [
            "UTC": ("Etc/GMT", "Etc/UTC"),
            "Central Asia Standard Time": ("Asia/Almaty", "Asia/Bishkek"),
            "Mountain Standard Time (Mexico)": ("America/Chihuahua", "America/Mazatlan"),
        ]
        var seen: Set<String> = []
        for line in lines {
            let parts = line.components(separatedBy: " => ")
            try #require(parts.count == 2)
            let (windows, tutorial) = (parts[0], parts[1])
            seen.insert(windows)
            let ours = WindowsZones.ianaIdentifier(forWindowsName: windows)
            if let change = changed[windows] {
                #expect(tutorial == change.0 && ours == change.1, "\(windows)")
            } else {
                #expect(ours == tutorial, "\(windows): \(ours ?? "nil") vs tutorials' \(tutorial)")
            }
        }
        #expect(Set(WindowsZones.windowsNames).subtracting(seen) == ["South Sudan Standard Time", "Yukon Standard Time"])
        #expect(WindowsZones.ianaIdentifier(forWindowsName: "South Sudan Standard Time") == "Africa/Juba")
        #expect(WindowsZones.ianaIdentifier(forWindowsName: "Yukon Standard Time") == "America/Whitehorse")
    }

    @Test("without the tz database's links only exact names work (and the UTC family)")
    func withoutLinks() throws {
        let index = WindowsZoneIndex(
            mappings: WindowsZones.mappings, displayNames: GeneratedWindowsZones.displayNames, links: .empty
        )
        #expect(index.windowsName(forIANA: "Asia/Calcutta") == "India Standard Time")
        #expect(index.windowsName(forIANA: "Asia/Kolkata") == nil)
        #expect(index.windowsName(forIANA: "UTC") == "UTC")
        #expect(index.windowsName(forIANA: "Etc/GMT") == "UTC")
        #expect(try index.match("W. Europe Standard Time", territory: nil).ianaIdentifier == "Europe/Berlin")
    }
}
