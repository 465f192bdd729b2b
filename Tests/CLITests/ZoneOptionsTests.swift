import Foundation
import Testing
@testable import CLI

@Suite("One reading of --tz and $TZ for every command")
struct ZoneOptionsTests {
    @Test("$TZ with and without POSIX's leading ':' names the same zone; an unknown or empty one falls back to the system zone")
    func environment() {
        #expect(ZoneOptions.localZone(["TZ": ":Europe/Berlin"]).identifier == "Europe/Berlin")
        #expect(ZoneOptions.localZone(["TZ": "Europe/Berlin"]).identifier == "Europe/Berlin")
        #expect(ZoneOptions.localZone(["TZ": "Mars/Olympus"]) == TimeZone.current)
        #expect(ZoneOptions.localZone(["TZ": ""]) == TimeZone.current)
    }

    @Test("quick add reads the same $TZ as the other commands, keeping the name as written")
    func quickAddZone() throws {
        let none = ParsedArguments()
        #expect(try QuickAddCommand.userZone(none, ["TZ": ":America/New_York"]).identifier == "America/New_York")
        #expect(try QuickAddCommand.userZone(none, ["TZ": "UTC"]).identifier == "UTC")
        let (name, zone) = try ZoneOptions.userZone(nil, environment: ["TZ": ":Asia/Tokyo"], command: "copy")
        #expect(name == "Asia/Tokyo" && zone.identifier == "Asia/Tokyo")
    }

    @Test("with neither $TZ nor $TZFILE, the system zone is the one Foundation finds (read from /etc/localtime's link)")
    func systemZone() {
        let environment = ProcessInfo.processInfo.environment
        // Foundation reads the process's own environment; compare only where it has neither.
        guard environment["TZ"] == nil, environment["TZFILE"] == nil else { return }
        #expect(ZoneOptions.systemZone([:]) == TimeZone.current)
        #expect(ZoneOptions.localZone([:]) == TimeZone.current)
        #expect(ZoneOptions.systemZone(["TZ": "Mars/Olympus"]) == TimeZone.current)
    }
}
