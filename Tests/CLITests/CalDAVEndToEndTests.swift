import Foundation
import TestSupport
import Testing

/// The calbridge binary with a CalDAV account on a real Radicale (127.0.0.1, throwaway storage) beside the
/// sandbox's Outlook account: sign-in with the password kept out of argv, `calendars`, `events`, `agenda`,
/// `add`, and `copy` from Outlook to CalDAV and back (each side's copies found again, none copied back).
@Suite(.enabled(if: CalDAVTestServer.unavailableReason == nil, "\(CalDAVTestServer.unavailableReason ?? "")"))
struct CalDAVEndToEndTests {
    static let password = "radicale-Pw-41f"

    @Test("accounts add caldav URL --user; calendars, events, agenda, add; copy Outlook -> CalDAV -> Outlook, reruns idempotent")
    func outlookToRadicaleAndBack() async throws {
        let radicale = try await CalDAVTestServer(.radicale, password: Self.password)
        defer { radicale.stop() }
        try await radicale.makeCalendar("work", name: "Work", password: Self.password)
        try await SandboxHome.with(seed: .withoutEvents) { home in
            let url = radicale.url.absoluteString
            // A wrong password: refused at once, nothing stored, and what to do.
            let refused = try await home.run(
                ["accounts", "add", "caldav", url, "--user", "alice", "--name", "dav"], environment: ["CALBRIDGE_PASSWORD": "wrong"])
            #expect(refused.status == 2, "\(refused.stderr)")
            #expect(refused.stderr.contains("HTTP 401"), "\(refused.stderr)")
            // Plain HTTP only on the loopback; never a password option.
            let remote = try await home.run(
                ["accounts", "add", "caldav", "http://calendar.example.com/", "--user", "alice"], environment: ["CALBRIDGE_PASSWORD": "x"])
            #expect(remote.status == 2 && remote.stderr.contains("https://"), "\(remote.stderr)")
            let inArgv = try await home.run(["accounts", "add", "caldav", url, "--user", "alice", "--password", Self.password])
            #expect(inArgv.status == 2)

            let added = try await home.run(
                ["accounts", "add", "caldav", url, "--user", "alice", "--name", "dav"], environment: ["CALBRIDGE_PASSWORD": Self.password])
            #expect(added.status == 0, "\(added.stderr)")
            #expect(added.stdout.contains("Signed in to CalDAV"), "\(added.stdout)")
            #expect(!added.stdout.contains(Self.password) && !added.stderr.contains(Self.password))

            let calendars = try await home.run(["calendars", "--format", "tsv"])
            #expect(calendars.status == 0, "\(calendars.stderr)")
            #expect(calendars.stdout.contains("dav:Work"), "\(calendars.stdout)")

            // Outlook: a single event, a weekly series and an all-day event.
            for arguments in [
                ["--title", "Review", "--tz", "Europe/Berlin", "--start", "2027-03-10T10:00", "--end", "2027-03-10T11:00"],
                [
                    "--title", "Standup", "--tz", "America/New_York", "--start", "2027-03-08T09:00", "--end", "2027-03-08T09:15",
                    "--repeat", "FREQ=WEEKLY;COUNT=3",
                ],
                ["--title", "Holiday", "--all-day", "--start", "2027-03-12"],
            ] {
                let result = try await home.run(["add", "carol:Calendar"] + arguments)
                #expect(result.status == 0, "\(result.stderr)")
            }
            let first = try await home.copy("carol:Calendar", "dav:Work")
            #expect(first["created"] as? Int == 3, "\(first)")
            let again = try await home.copy("carol:Calendar", "dav:Work")
            #expect(again["created"] as? Int == 0 && again["unchanged"] as? Int == 3, "\(again)")

            let events = try await home.run(["events", "dav:Work", "--from", "2027-03-01", "--to", "2027-03-31", "--format", "json"])
            #expect(events.status == 0, "\(events.stderr)")
            let listed = try (JSONOutput.object(events.stdout)["events"] as? [[String: Any]] ?? [])
            #expect(listed.filter { $0["title"] as? String == "Standup" }.count == 3, "\(events.stdout)")
            let review = try #require(listed.first { $0["title"] as? String == "Review" })
            #expect(review["start"] as? String == "2027-03-10T09:00:00+00:00", "\(review)")
            #expect(listed.contains { $0["title"] as? String == "Holiday" && $0["allDay"] as? Bool == true }, "\(events.stdout)")

            let agenda = try await home.run(["agenda", "--from", "2027-03-08", "--to", "2027-03-12"])
            #expect(agenda.status == 0, "\(agenda.stderr)")
            #expect(agenda.stdout.contains("Review") && agenda.stdout.contains("Standup"), "\(agenda.stdout)")

            // Back: only the event made on the CalDAV side is copied; the copies from Outlook are known by their markers.
            let made = try await home.run(
                ["add", "dav:Work", "--title", "Dentist", "--tz", "UTC", "--start", "2027-03-11T15:00", "--end", "2027-03-11T16:00"])
            #expect(made.status == 0, "\(made.stderr)")
            let back = try await home.copy("dav:Work", "carol:Calendar")
            #expect(back["created"] as? Int == 1, "\(back)")
            let outlook = try await home.api.graphEvents()
            #expect(outlook.filter { $0["subject"] as? String == "Dentist" }.count == 1)
            #expect(outlook.filter { $0["subject"] as? String == "Review" }.count == 1, "no copy came back as a second event")
            let backAgain = try await home.copy("dav:Work", "carol:Calendar")
            #expect(backAgain["created"] as? Int == 0, "\(backAgain)")
        }
    }

    @Test(
        "sync: a two-way pair Outlook <-> CalDAV: each side's events reach the other, edits and deletions follow both ways, a quiet run writes nothing",
        arguments: CalDAVTestServer.Kind.allCases)
    func twoWaySync(kind: CalDAVTestServer.Kind) async throws {
        // Radicale and the sandbox with a password (as a real account), Xandikos without (its htpasswd needs its own TLS).
        let server = try await CalDAVTestServer(kind, password: kind == .xandikos ? nil : Self.password)
        defer { server.stop() }
        try await server.makeCalendar("work", name: "Work", password: Self.password)
        try await SandboxHome.with(seed: .withoutEvents) { home in
            let added = try await home.run(
                ["accounts", "add", "caldav", server.url.absoluteString, "--user", server.user, "--name", "dav"],
                environment: ["CALBRIDGE_PASSWORD": Self.password])
            #expect(added.status == 0, "\(added.stderr)")
            // The pair's window is around today: the events are in the coming days.
            let formatter = DateFormatter()
            formatter.dateFormat = "yyyy-MM-dd"
            formatter.timeZone = TimeZone(secondsFromGMT: 0)
            let day1 = formatter.string(from: Date().addingTimeInterval(86_400))
            let day2 = formatter.string(from: Date().addingTimeInterval(2 * 86_400))
            let day3 = formatter.string(from: Date().addingTimeInterval(3 * 86_400))
            let outlook = try await home.run([
                "add", "carol:Calendar", "--title", "Planning", "--start", "\(day1)T10:00", "--end", "\(day1)T11:00",
            ])
            #expect(outlook.status == 0, "\(outlook.stderr)")
            let dav = try await home.run(["add", "dav:Work", "--title", "Dentist", "--start", "\(day2)T15:00", "--end", "\(day2)T16:00"])
            #expect(dav.status == 0, "\(dav.stderr)")

            let pair = try await home.run(["sync", "add", "work-dav", "--a", "carol:Calendar", "--b", "dav:Work", "--direction", "both"])
            #expect(pair.status == 0, "\(pair.stderr)")
            let first = try await Self.sync(home)
            #expect((first["aToB"] as? [String: Int])?["created"] == 1, "\(first)")
            #expect((first["bToA"] as? [String: Int])?["created"] == 1, "\(first)")
            #expect(try await Self.davTitles(home, day1, day3) == ["Dentist", "Planning"])
            #expect(try await Self.outlookTitles(home) == ["Dentist", "Planning"])

            // An edit on Outlook reaches the CalDAV copy.
            let planning = try #require(try await home.api.graphEvents().first { $0["subject"] as? String == "Planning" }?["id"] as? String)
            try await home.api.ok(.microsoft, "PATCH", "/v1.0/me/events/\(planning)", json: ["subject": "Planning (moved)"])
            let second = try await Self.sync(home)
            #expect((second["aToB"] as? [String: Int])?["updated"] == 1, "\(second)")
            #expect(try await Self.davTitles(home, day1, day3) == ["Dentist", "Planning (moved)"])

            // An edit on CalDAV (of the event made there) reaches its Outlook copy.
            let edited = try await home.run(["edit", "dav:Work", "--query", "Dentist", "--title", "Dentist (rebooked)"])
            #expect(edited.status == 0, "\(edited.stderr)")
            let third = try await Self.sync(home)
            #expect((third["bToA"] as? [String: Int])?["updated"] == 1, "\(third)")
            #expect(try await Self.outlookTitles(home) == ["Dentist (rebooked)", "Planning (moved)"])

            let mark = home.sandbox.log.count
            let quiet = try await Self.sync(home)
            #expect((quiet["aToB"] as? [String: Int])?["unchanged"] == 2, "\(quiet)")
            #expect((quiet["bToA"] as? [String: Int])?["unchanged"] == 2, "\(quiet)")
            #expect(home.apiMethods(since: mark).isSubset(of: ["GET"]), "a quiet run wrote to Outlook")

            // A deletion on Outlook removes the CalDAV copy; one on CalDAV removes the Outlook copy.
            try await home.api.ok(.microsoft, "DELETE", "/v1.0/me/events/\(planning)")
            let fourth = try await Self.sync(home)
            #expect((fourth["aToB"] as? [String: Int])?["deleted"] == 1, "\(fourth)")
            #expect(try await Self.davTitles(home, day1, day3) == ["Dentist (rebooked)"])
            let deleted = try await home.run(["delete", "dav:Work", "--query", "Dentist"])
            #expect(deleted.status == 0, "\(deleted.stderr)")
            let fifth = try await Self.sync(home)
            #expect((fifth["bToA"] as? [String: Int])?["deleted"] == 1, "\(fifth)")
            #expect(try await Self.outlookTitles(home).isEmpty)
            #expect(try await Self.davTitles(home, day1, day3).isEmpty)

            let last = try await Self.sync(home)
            #expect(((last["aToB"] as? [String: Int]) ?? [:]).values.allSatisfy { $0 == 0 }, "\(last)")
            #expect(((last["bToA"] as? [String: Int]) ?? [:]).values.allSatisfy { $0 == 0 }, "\(last)")
        }
    }

    static func outlookTitles(_ home: SandboxHome) async throws -> [String] {
        try await home.api.graphEvents().compactMap { $0["subject"] as? String }.sorted()
    }

    static func sync(_ home: SandboxHome) async throws -> [String: Any] {
        let result = try await home.run(["sync", "--format", "json"])
        guard result.status == 0 else { throw SandboxHome.CopyFailed(description: "sync exited \(result.status): \(result.stderr)") }
        let pairs = try JSONOutput.object(result.stdout)["pairs"] as? [[String: Any]]
        guard let pairs, pairs.count == 1 else { throw SandboxHome.CopyFailed(description: "not one pair: \(result.stdout)") }
        return pairs[0]
    }

    static func davTitles(_ home: SandboxHome, _ from: String, _ to: String) async throws -> [String] {
        let events = try await home.run(["events", "dav:Work", "--from", from, "--to", to, "--format", "json"])
        guard events.status == 0 else { throw SandboxHome.CopyFailed(description: events.stderr) }
        return try (JSONOutput.object(events.stdout)["events"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }.sorted()
    }
}
