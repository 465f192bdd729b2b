import CalendarBridge
import Foundation
import HTTP
import Sandbox
import Testing
import TestSupport

/// Issue 12's four reported cases through the built binary against the sandbox, as a new user meets
/// them (`TZ=UTC`, accounts signed in through the real flows), in both directions where they apply, and
/// `--remove-copies`.
@Suite("calbridge copy you can trust, end to end against the sandbox")
struct CopyTrustEndToEndTests {
    struct Direction: Sendable, CustomTestStringConvertible {
        var name: String
        var source: String
        var target: String
        var testDescription: String { name }
        var outlookSource: Bool { source.hasPrefix("carol:") }
    }

    static let directions = [
        Direction(name: "Outlook -> Google", source: "carol:Calendar", target: "ann:Family"),
        Direction(name: "Google -> Outlook", source: "ann:Family", target: "carol:Calendar"),
    ]

    /// `calbridge copy ... --format json` with the given options; the result of a run that must exit 0.
    static func copy(_ home: SandboxHome, _ d: Direction, _ options: [String], environment: [String: String] = [:])
        async throws -> [String: Any]
    {
        let run = try await home.run(["copy", d.source, d.target, "--format", "json"] + options, environment: environment)
        #expect(run.status == 0, "copy \(options): \(run.stderr)")
        return try JSONOutput.object(run.stdout)
    }

    /// The events of a calendar (series expanded) from `from` up to the start of `to` in UTC, as `calbridge
    /// events` lists them (`to` as an instant: a date as --to would include that day).
    static func events(_ home: SandboxHome, _ ref: String, from: String, to: String) async throws -> [[String: Any]] {
        let listed = try await home.run(["events", ref, "--tz", "UTC", "--format", "json", "--from", from, "--to", to + "T00:00:00Z"])
        guard listed.status == 0 else { throw SandboxAPI.Failed(description: "events \(ref): \(listed.stderr)") }
        return try JSONOutput.object(listed.stdout)["events"] as? [[String: Any]] ?? []
    }

    static func titled(_ events: [[String: Any]], _ title: String) -> [[String: Any]] {
        events.filter { $0["title"] as? String == title }
    }

    /// Items of a copy result that cancel an occurrence.
    static func cancellations(_ result: [String: Any]) -> [[String: Any]] {
        (result["items"] as? [[String: Any]] ?? []).filter {
            $0["occurrence"] as? Bool == true && ($0["reason"] as? String ?? "").contains("cancelled")
        }
    }

    /// An all-day weekly series on Mondays from `first`, written with the source's own API (on Outlook in
    /// W. Europe Standard Time, whose all-day `originalStart` is the previous day 23:00Z).
    static func seedAllDayWeekly(_ home: SandboxHome, _ d: Direction, title: String, first: String) async throws {
        let next = LocalDate(first)!.adding(days: 1).description
        if d.outlookSource {
            _ = try await home.api.graphCreate([
                "subject": title, "isAllDay": true,
                "start": ["dateTime": first + "T00:00:00", "timeZone": "W. Europe Standard Time"],
                "end": ["dateTime": next + "T00:00:00", "timeZone": "W. Europe Standard Time"],
                "recurrence": [
                    "pattern": ["type": "weekly", "interval": 1, "daysOfWeek": ["monday"]],
                    "range": ["type": "noEnd", "startDate": first, "recurrenceTimeZone": "W. Europe Standard Time"],
                ],
            ])
        } else {
            _ = try await home.api.googleInsert(try await home.api.googleCalendarID("Family"), [
                "summary": title, "start": ["date": first], "end": ["date": next], "recurrence": ["RRULE:FREQ=WEEKLY;BYDAY=MO"],
            ])
        }
    }

    @Test("case 1: an all-day weekly series (Focus day every Monday, W. Europe) keeps every occurrence", arguments: directions)
    func allDaySeries(_ d: Direction) async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            if d.outlookSource {
                // As the issue did it: quick add to Outlook, read in W. Europe.
                let added = try await home.run(
                    ["quick-add", "carol:Calendar", "Focus day every Monday", "--tz", "Europe/Berlin", "--now", "2027-03-01T08:00:00Z"])
                #expect(added.status == 0, "\(added.stderr)")
            } else {
                try await Self.seedAllDayWeekly(home, d, title: "Focus day", first: "2027-03-01")
            }
            let window = ["--from", "2027-03-01", "--to", "2027-05-23"]
            let first = try await Self.copy(home, d, window)
            #expect(first["created"] as? Int == 1 && first["failed"] as? Int == 0, "\(first)")
            #expect(Self.cancellations(first).isEmpty, "occurrences cancelled: \(Self.cancellations(first))")
            let copies = Self.titled(try await Self.events(home, d.target, from: "2027-03-01", to: "2027-05-23"), "Focus day")
            #expect(copies.count == 12, "\(copies.map { $0["start"] ?? "" })")
            #expect(copies.allSatisfy { $0["allDay"] as? Bool == true })
            let second = try await Self.copy(home, d, window)
            #expect(second["unchanged"] as? Int == 1 && second["updated"] as? Int == 0, "\(second)")
        }
    }

    @Test("case 2: --prune in a window without the yearly series' master keeps the copied series", arguments: directions)
    func yearlySeriesPrune(_ d: Direction) async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            if d.outlookSource {
                let added = try await home.run(
                    ["quick-add", "carol:Calendar", "Anniversary dinner every year on Dec 15 7pm", "--now", "2026-11-01T08:00:00Z"])
                #expect(added.status == 0, "\(added.stderr)")
            } else {
                _ = try await home.api.googleInsert(try await home.api.googleCalendarID("Family"), [
                    "summary": "Anniversary dinner",
                    "start": ["dateTime": "2026-12-15T19:00:00", "timeZone": "Europe/Berlin"],
                    "end": ["dateTime": "2026-12-15T20:00:00", "timeZone": "Europe/Berlin"],
                    "recurrence": ["RRULE:FREQ=YEARLY"],
                ])
            }
            let december = try await Self.copy(home, d, ["--from", "2026-12-01", "--to", "2026-12-31"])
            #expect(december["created"] as? Int == 1, "\(december)")
            let january = try await Self.copy(home, d, ["--from", "2027-01-01", "--to", "2027-01-31", "--prune"])
            #expect(january["deleted"] as? Int == 0 && january["failed"] as? Int == 0, "\(january)")
            let copies = Self.titled(try await Self.events(home, d.target, from: "2027-12-01", to: "2027-12-31"), "Anniversary dinner")
            #expect(copies.count == 1, "the copied series is gone")
        }
    }

    @Test("case 3: a window ending on the Sunday before a Monday cancels no occurrence on the target", arguments: directions)
    func windowEdge(_ d: Direction) async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            try await Self.seedAllDayWeekly(home, d, title: "Gym", first: "2027-04-05")
            for (options, environment) in [
                (["--from", "2027-04-01", "--to", "2027-05-09"], [String: String]()),
                (["--from", "2027-04-01", "--to", "2027-05-09", "--tz", "Europe/Berlin"], [:]),
                (["--from", "2027-04-01", "--to", "2027-05-09"], ["TZ": "America/Los_Angeles"]),
            ] {
                let result = try await Self.copy(home, d, options, environment: environment)
                #expect(Self.cancellations(result).isEmpty, "\(options) \(environment): \(Self.cancellations(result))")
                #expect(result["deleted"] as? Int == 0 && result["failed"] as? Int == 0)
            }
            let may = Self.titled(try await Self.events(home, d.target, from: "2027-05-03", to: "2027-05-25"), "Gym")
            #expect(may.map { $0["start"] as? String ?? "" } == ["2027-05-03", "2027-05-10", "2027-05-17", "2027-05-24"])
        }
    }

    @Test("case 4: the same mailbox under a second account name copies nothing twice", arguments: directions)
    func sameMailboxTwice(_ d: Direction) async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            try await Self.seedAllDayWeekly(home, d, title: "Focus day", first: "2027-03-01")
            let again = d.outlookSource ? "carol2" : "ann2"
            let signedIn = d.outlookSource ? await home.signIn.microsoft(name: again) : await home.signIn.google(name: again)
            #expect(signedIn.exitCode == .success, "\(signedIn.stderr)")
            let window = ["--from", "2027-03-01", "--to", "2027-03-31"]
            let first = try await Self.copy(home, d, window)
            #expect(first["created"] as? Int == 1)
            let second = Direction(
                name: d.name, source: again + ":" + d.source.split(separator: ":")[1], target: d.target)
            let run = try await Self.copy(home, second, window)
            #expect(run["created"] as? Int == 0 && run["unchanged"] as? Int == 1, "\(run)")
            let copies = Self.titled(try await Self.events(home, d.target, from: "2027-03-01", to: "2027-03-31"), "Focus day")
            #expect(copies.count == 5)  // five Mondays, one copy each
            // Both names carry the mailbox's identity in accounts.json (stored at sign-in).
            let path = URL(fileURLWithPath: home.environment["CALBRIDGE_HOME"]!).appendingPathComponent("accounts.json")
            let text = try String(contentsOf: path, encoding: .utf8)
            #expect(text.components(separatedBy: "accountIdentity").count - 1 >= 3, "\(text)")
        }
    }

    @Test("--remove-copies deletes every copy of the source on the target, at any date, and nothing else", arguments: directions)
    func removeCopies(_ d: Direction) async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            try await Self.seedAllDayWeekly(home, d, title: "Focus day", first: "2027-03-01")
            let single: [String: Any] =
                d.outlookSource
                ? ["subject": "Dentist", "start": ["dateTime": "2027-06-02T09:00:00", "timeZone": "UTC"],
                   "end": ["dateTime": "2027-06-02T10:00:00", "timeZone": "UTC"]]
                : ["summary": "Dentist", "start": ["dateTime": "2027-06-02T09:00:00Z"], "end": ["dateTime": "2027-06-02T10:00:00Z"]]
            if d.outlookSource { _ = try await home.api.graphCreate(single) } else {
                _ = try await home.api.googleInsert(try await home.api.googleCalendarID("Family"), single)
            }
            // The target's own event, which must survive.
            let mine: [String: Any] =
                d.outlookSource
                ? ["summary": "Mine", "start": ["dateTime": "2027-03-03T09:00:00Z"], "end": ["dateTime": "2027-03-03T10:00:00Z"]]
                : ["subject": "Mine", "start": ["dateTime": "2027-03-03T09:00:00", "timeZone": "UTC"],
                   "end": ["dateTime": "2027-03-03T10:00:00", "timeZone": "UTC"]]
            if d.outlookSource {
                _ = try await home.api.googleInsert(try await home.api.googleCalendarID("Family"), mine)
            } else {
                _ = try await home.api.graphCreate(mine)
            }
            _ = try await Self.copy(home, d, ["--from", "2027-03-01", "--to", "2027-03-31"])
            _ = try await Self.copy(home, d, ["--from", "2027-06-01", "--to", "2027-06-30"])

            var mark = home.sandbox.log.count
            let dry = try await home.run(["copy", d.source, d.target, "--remove-copies", "--dry-run"])
            #expect(dry.status == 0, "\(dry.stderr)")
            #expect(dry.stdout.contains("Would remove 2 copies"), "\(dry.stdout)")
            #expect(home.apiMethods(since: mark) == ["GET"])

            mark = home.sandbox.log.count
            let removed = try await home.run(["copy", d.source, d.target, "--remove-copies"])
            #expect(removed.status == 0, "\(removed.stderr)")
            #expect(removed.stdout.contains("Removed 2 copies"), "\(removed.stdout)")
            #expect(home.apiMethods(since: mark).subtracting(["GET"]) == ["DELETE"])
            let left = try await Self.events(home, d.target, from: "2027-01-01", to: "2027-12-31")
            #expect(left.map { $0["title"] as? String ?? "" } == ["Mine"])
            // The source is untouched.
            let source = try await Self.events(home, d.source, from: "2027-06-01", to: "2027-06-30")
            #expect(Self.titled(source, "Dentist").count == 1)

            let usage = try await home.run(["copy", d.source, d.target, "--remove-copies", "--from", "2027-01-01"])
            #expect(usage.status == 2 && usage.stderr.contains("--remove-copies"), "\(usage.stderr)")
        }
    }

    @Test("a copy the user deleted on the target comes back once, and a rerun leaves one", arguments: directions)
    func deletedCopyComesBack(_ d: Direction) async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            let single: [String: Any] =
                d.outlookSource
                ? ["subject": "Dentist", "start": ["dateTime": "2027-03-02T09:00:00", "timeZone": "UTC"],
                   "end": ["dateTime": "2027-03-02T10:00:00", "timeZone": "UTC"]]
                : ["summary": "Dentist", "start": ["dateTime": "2027-03-02T09:00:00Z"], "end": ["dateTime": "2027-03-02T10:00:00Z"]]
            if d.outlookSource { _ = try await home.api.graphCreate(single) } else {
                _ = try await home.api.googleInsert(try await home.api.googleCalendarID("Family"), single)
            }
            let window = ["--from", "2027-03-01", "--to", "2027-03-31"]
            #expect(try await Self.copy(home, d, window)["created"] as? Int == 1)
            // The user deletes the copy on the target (Graph keeps refusing its transactionId afterwards).
            let removed = try await home.run(["copy", d.source, d.target, "--remove-copies"])
            #expect(removed.status == 0, "\(removed.stderr)")
            let back = try await Self.copy(home, d, window)
            #expect(back["created"] as? Int == 1 && back["failed"] as? Int == 0, "\(back)")
            let rerun = try await Self.copy(home, d, window)
            #expect(rerun["unchanged"] as? Int == 1 && rerun["created"] as? Int == 0, "\(rerun)")
            let copies = Self.titled(try await Self.events(home, d.target, from: "2027-03-01", to: "2027-03-31"), "Dentist")
            #expect(copies.count == 1)
        }
    }
}
