import Foundation
import Sandbox
import Testing
import TestSupport

@Suite("calbridge calendars, end to end against the sandbox")
struct CalendarsCommandTests {
    static let expectedRefs = [
        "ann:ann.lee@gmail.sandbox", "ann:Family", "ann:Holidays in Germany",
        "carol:Calendar", "carol:Contoso Holidays", "carol:Project Falcon",
    ]

    @Test("table fits an 80-column terminal; json is one document; tsv has a header row; all accounts' calendars")
    func formats() async throws {
        try await SandboxHome.with { home in
            let table = try await home.run(["calendars"], environment: ["NO_COLOR": "1"], stdoutTerminalColumns: 80)
            #expect(table.status == 0, "\(table.stderr)")
            #expect(table.stderr.isEmpty)
            let lines = table.stdout.split(separator: "\n")
            #expect(lines.first?.hasPrefix("CALENDAR") == true)
            #expect(lines.count == 2 + Self.expectedRefs.count)
            #expect(lines.allSatisfy { $0.count <= 80 }, "\(table.stdout)")
            #expect(lines.contains { $0.hasPrefix("carol:Calendar ") && $0.contains("microsoft") && $0.contains("*") })
            #expect(lines.contains { $0.hasPrefix("ann:Family ") && $0.contains("Europe/Berlin") })

            let json = try await home.run(["calendars", "--format", "json"])
            #expect(json.status == 0)
            let calendars = try JSONOutput.array(json.stdout)
            #expect(calendars.map { $0["ref"] as? String } == Self.expectedRefs)
            let holidays = try #require(calendars.first { $0["ref"] as? String == "carol:Contoso Holidays" })
            #expect(holidays["accessRole"] as? String == "reader")
            #expect(holidays["primary"] as? Bool == false)
            #expect(holidays["provider"] as? String == "microsoft")
            let primary = try #require(calendars.first { $0["ref"] as? String == "ann:ann.lee@gmail.sandbox" })
            #expect(primary["primary"] as? Bool == true)
            #expect(primary["timeZone"] as? String == "Europe/Berlin")

            let tsv = try await home.run(["calendars", "--format", "tsv"])
            let rows = tsv.stdout.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
            #expect(rows.first == ["ref", "name", "provider", "access", "primary", "time_zone"])
            #expect(rows.dropFirst().map { String($0[0]) } == Self.expectedRefs)
            #expect(rows.dropFirst().allSatisfy { $0.count == 6 })

            // Every reference printed resolves to its calendar.
            for ref in Self.expectedRefs {
                let events = try await home.run(["events", ref, "--format", "json"])
                #expect(events.status == 0, "\(ref): \(events.stderr)")
            }
        }
    }

    @Test("--account picks accounts; an unknown one is exit 2 naming it and the known ones")
    func accountFilter() async throws {
        try await SandboxHome.with { home in
            let only = try await home.run(["calendars", "--account", "carol", "--format", "json"])
            #expect(only.status == 0)
            #expect(try JSONOutput.array(only.stdout).map { $0["account"] as? String } == ["carol", "carol", "carol"])
            let unknown = try await home.run(["calendars", "--account", "nobody"])
            #expect(unknown.status == 2)
            #expect(unknown.stdout.isEmpty)
            #expect(unknown.stderr == "calbridge: error: no account named 'nobody'; known accounts: ann, carol\n")
            let badFormat = try await home.run(["calendars", "--format", "xml"])
            #expect(badFormat.status == 2)
        }
    }

    @Test("one account failing (grant revoked): the other still prints, one stderr line for the failure, exit 4")
    func partialFailure() async throws {
        try await SandboxHome.with { home in
            await home.sandbox.tokens.revokeAll(user: home.user(.google), provider: .google)
            let result = try await home.run(["calendars"])
            #expect(result.status == 4)
            #expect(result.stdout.contains("carol:Calendar"))
            #expect(!result.stdout.contains("ann:"))
            let errors = result.stderr.split(separator: "\n")
            #expect(errors.count == 1)
            #expect(errors.first?.contains("'ann'") == true)
            #expect(errors.first?.contains("sign in again with: calbridge accounts add \(home.signIn.descriptorFile("google")) --name ann") == true)

            // Only the failing account asked for: nothing to print, the failure's own exit code (3).
            let alone = try await home.run(["calendars", "--account", "ann"])
            #expect(alone.status == 3)
            #expect(alone.stdout.isEmpty)
        }
    }
}
