import Foundation
import Testing
import TestSupport

@Suite("calbridge timezones: one name, the whole table, errors")
struct TimeZonesCommandTests {
    @Test("a Windows name prints its IANA id")
    func windowsName() async throws {
        let result = try await CalbridgeBinary.run(["timezones", "Pacific Standard Time"])
        #expect(result.status == 0)
        #expect(result.stdout == "Pacific Standard Time -> America/Los_Angeles\n")
        #expect(result.stderr.isEmpty)
    }

    @Test("--territory picks the region's row, in any case")
    func territory() async throws {
        let result = try await CalbridgeBinary.run(["timezones", "pacific standard time", "--territory", "ca"])
        #expect(result.status == 0)
        #expect(result.stdout == "pacific standard time = Pacific Standard Time (CA) -> America/Vancouver\n")
    }

    @Test("an IANA id in either spelling prints its Windows name (direction detected)")
    func ianaIdentifier() async throws {
        let modern = try await CalbridgeBinary.run(["timezones", "Asia/Kolkata"])
        #expect(modern.status == 0)
        #expect(modern.stdout == "Asia/Kolkata -> India Standard Time (CLDR spells it Asia/Calcutta)\n")
        let old = try await CalbridgeBinary.run(["timezones", "Europe/Kiev"])
        #expect(old.stdout == "Europe/Kiev -> FLE Standard Time\n")
    }

    @Test("the custom Graph zone is reported as such, not guessed")
    func customZone() async throws {
        let result = try await CalbridgeBinary.run(["timezones", "tzone://Microsoft/Custom", "--format", "json"])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["kind"] as? String == "custom")
        #expect(object["ianaIdentifier"] is NSNull)
    }

    @Test("unknown name: exit 2, one line on stderr with suggestions")
    func unknownName() async throws {
        let result = try await CalbridgeBinary.run(["timezones", "Pacific Standrd Time"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains("unknown time zone 'Pacific Standrd Time'"))
        #expect(result.stderr.contains("did you mean 'Pacific Standard Time'"))
    }

    @Test("a territory without a row, or a malformed one: exit 2, one line")
    func badTerritory() async throws {
        let missing = try await CalbridgeBinary.run(["timezones", "W. Europe Standard Time", "--territory", "US"])
        #expect(missing.status == 2)
        #expect(missing.stderr.split(separator: "\n").count == 1)
        #expect(missing.stderr.contains("no row for territory US") && missing.stderr.contains("DE"))
        let malformed = try await CalbridgeBinary.run(["timezones", "UTC", "--territory", "Europe"])
        #expect(malformed.status == 2)
        let withoutName = try await CalbridgeBinary.run(["timezones", "--territory", "CA"])
        #expect(withoutName.status == 2)
    }

    @Test("--format json: the whole table with the CLDR version")
    func json() async throws {
        let result = try await CalbridgeBinary.run(["timezones", "--format", "json"])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["cldrVersion"] as? String == "2021a")
        let mappings = try #require(object["mappings"] as? [[String: Any]])
        #expect(mappings.count == 500)
        #expect(Set(mappings.compactMap { $0["windows"] as? String }).count == 139)
        let mexico = mappings.first { $0["windows"] as? String == "Central Standard Time (Mexico)" && $0["territory"] as? String == "MX" }
        #expect((mexico?["iana"] as? [String])?.count == 5)
        #expect(mappings.allSatisfy { Set($0.keys) == ["windows", "territory", "iana"] })
    }

    @Test("--format tsv: a header row and one line per row")
    func tsv() async throws {
        let result = try await CalbridgeBinary.run(["timezones", "--format", "tsv"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first == "windows\tterritory\tiana")
        #expect(lines.count == 501)
        #expect(lines.contains("W. Europe Standard Time\t001\tEurope/Berlin"))
        #expect(lines.allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count == 3 })
    }

    @Test("the zone table is compiled in: no windowsZones.xml is read at run time")
    func noZoneFileAtRunTime() async throws {
        // libxml2 is linked since the CalDAV provider reads multistatus bodies with it; the zone table still
        // comes from the build (WindowsZonesPlugin), so calbridge answers with no windowsZones.xml anywhere.
        let binary = try Data(contentsOf: CalbridgeBinary.url)
        #expect(binary.count > 1_000_000)
        #expect(binary.range(of: Data("windowsZones.xml".utf8)) == nil)
        #expect(binary.range(of: Data("Europe/Berlin".utf8)) != nil)
    }
}
