import Foundation
import Sandbox
import TestSupport
import Testing

/// Events written straight into the sandbox (the providers' own JSON), for `show`, `edit` and `delete`.
enum EditFixtures {
    static let window = ["--from", "2027-05-01", "--to", "2027-07-01", "--tz", "Europe/Berlin"]

    /// A weekly series on Mondays, 09:00-10:00 Berlin time, six times from 2027-05-03; returns its id.
    static func series(
        _ home: SandboxHome, google: Bool, title: String, attendees: [String] = [], extra: [String: Any] = [:]
    ) async throws -> String {
        if google {
            let calendar = try await home.api.googleCalendarID("Family")
            var event: [String: Any] = [
                "summary": title, "location": "Room 1",
                "start": ["dateTime": "2027-05-03T09:00:00", "timeZone": "Europe/Berlin"],
                "end": ["dateTime": "2027-05-03T10:00:00", "timeZone": "Europe/Berlin"],
                "recurrence": ["RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=6"],
                "attendees": attendees.map { ["email": $0] },
            ]
            event.merge(extra) { _, new in new }
            return try await home.api.googleInsert(calendar, event)["id"] as! String
        }
        var event: [String: Any] = [
            "subject": title, "location": ["displayName": "Room 1"],
            "start": ["dateTime": "2027-05-03T09:00:00", "timeZone": "W. Europe Standard Time"],
            "end": ["dateTime": "2027-05-03T10:00:00", "timeZone": "W. Europe Standard Time"],
            "recurrence": [
                "pattern": ["type": "weekly", "interval": 1, "daysOfWeek": ["monday"], "firstDayOfWeek": "monday"],
                "range": [
                    "type": "numbered", "startDate": "2027-05-03", "numberOfOccurrences": 6,
                    "recurrenceTimeZone": "W. Europe Standard Time",
                ],
            ],
            "attendees": attendees.map { ["emailAddress": ["address": $0], "type": "required"] },
        ]
        event.merge(extra) { _, new in new }
        return try await home.api.graphCreate(event)["id"] as! String
    }

    /// A single event 2027-06-01 14:00-15:00 Berlin time; returns its id.
    static func single(_ home: SandboxHome, google: Bool, title: String, attendees: [String] = []) async throws -> String {
        if google {
            let calendar = try await home.api.googleCalendarID("Family")
            return try await home.api.googleInsert(
                calendar,
                [
                    "summary": title, "description": "Bring the slides",
                    "start": ["dateTime": "2027-06-01T14:00:00", "timeZone": "Europe/Berlin"],
                    "end": ["dateTime": "2027-06-01T15:00:00", "timeZone": "Europe/Berlin"],
                    "attendees": attendees.map { ["email": $0] },
                ])["id"] as! String
        }
        return try await home.api.graphCreate([
            "subject": title, "body": ["contentType": "text", "content": "Bring the slides"],
            "start": ["dateTime": "2027-06-01T14:00:00", "timeZone": "W. Europe Standard Time"],
            "end": ["dateTime": "2027-06-01T15:00:00", "timeZone": "W. Europe Standard Time"],
            "attendees": attendees.map { ["emailAddress": ["address": $0], "type": "required"] },
        ])["id"] as! String
    }

    /// The calendar's events in the window, as `calbridge events --format json` lists them.
    static func listed(_ home: SandboxHome, _ ref: String) async throws -> [[String: Any]] {
        let result = try await home.run(["events", ref, "--format", "json"] + window)
        guard result.status == 0 else { throw SandboxAPI.Failed(description: result.stderr) }
        return try JSONOutput.object(result.stdout)["events"] as? [[String: Any]] ?? []
    }

    static func ref(google: Bool) -> String { google ? "ann:Family" : "carol:Calendar" }
}

@Suite("show, edit and delete, end to end against the sandbox")
struct EventEditEndToEndTests {
    @Test(
        "one occurrence changes alone and stays an exception; a series edit reaches the others; delete one, then the series",
        arguments: [true, false])
    func occurrencesAndSeries(google: Bool) async throws {
        try await SandboxHome.with { home in
            let ref = EditFixtures.ref(google: google)
            let seriesID = try await EditFixtures.series(home, google: google, title: "Weekly planning")
            let before = try await EditFixtures.listed(home, ref).filter { $0["seriesId"] as? String == seriesID }
            #expect(before.count == 6, "\(before)")
            let ids = before.map { $0["id"] as! String }

            let moved = try await home.run(["edit", ref, ids[2], "--title", "Planning (moved)", "--start", "2027-05-17 11:00"])
            #expect(moved.status == 0, "\(moved.stderr)")
            #expect(moved.stdout.contains("title: \"Weekly planning\" -> \"Planning (moved)\""), "\(moved.stdout)")
            var after = try await EditFixtures.listed(home, ref).filter { $0["seriesId"] as? String == seriesID }
            #expect(after.count == 6)
            for event in after {
                let isMoved = event["title"] as? String == "Planning (moved)"
                #expect(isMoved == (event["start"] as? String == "2027-05-17T11:00:00+02:00"), "\(event)")
                if !isMoved { #expect((event["start"] as? String)?.hasSuffix("T09:00:00+02:00") == true, "\(event)") }
            }
            #expect(after.filter { $0["title"] as? String == "Planning (moved)" }.count == 1)

            // The whole series, named through an occurrence: the others move to Room 2, the exception keeps its time and title.
            let series = try await home.run(["edit", ref, ids[0], "--series", "--location", "Room 2"])
            #expect(series.status == 0, "\(series.stderr)")
            after = try await EditFixtures.listed(home, ref).filter { $0["seriesId"] as? String == seriesID }
            #expect(after.count == 6)
            for event in after where event["title"] as? String == "Weekly planning" {
                #expect(event["location"] as? String == "Room 2", "\(event)")
            }
            #expect(
                after.contains { $0["title"] as? String == "Planning (moved)" && $0["start"] as? String == "2027-05-17T11:00:00+02:00" })

            let deleted = try await home.run(["delete", ref, ids[4]])
            #expect(deleted.status == 0, "\(deleted.stderr)")
            #expect(deleted.stdout.hasPrefix("Deleted the occurrence 'Weekly planning'"), "\(deleted.stdout)")
            after = try await EditFixtures.listed(home, ref).filter { $0["seriesId"] as? String == seriesID }
            #expect(after.count == 5)
            #expect(!after.contains { $0["id"] as? String == ids[4] })

            let dry = try await home.run(["delete", ref, ids[1], "--series", "--dry-run"])
            #expect(dry.status == 0, "\(dry.stderr)")
            #expect(dry.stdout.hasPrefix("Would delete the series 'Weekly planning'"), "\(dry.stdout)")
            #expect(try await EditFixtures.listed(home, ref).filter { $0["seriesId"] as? String == seriesID }.count == 5)
            let whole = try await home.run(["delete", ref, ids[1], "--series"])
            #expect(whole.status == 0, "\(whole.stderr)")
            #expect(try await EditFixtures.listed(home, ref).filter { $0["seriesId"] as? String == seriesID }.isEmpty)
        }
    }

    @Test("edit writes only the named fields; --dry-run prints before -> after and writes nothing", arguments: [true, false])
    func singleEvent(google: Bool) async throws {
        try await SandboxHome.with { home in
            let ref = EditFixtures.ref(google: google)
            let id = try await EditFixtures.single(home, google: google, title: "Design review")
            let dry = try await home.run([
                "edit", ref, id, "--title", "Design review II", "--reminder", "10", "--show-as", "free", "--dry-run",
            ])
            #expect(dry.status == 0, "\(dry.stderr)")
            #expect(dry.stdout.contains("Would change 'Design review II'"), "\(dry.stdout)")
            #expect(dry.stdout.contains("  title: \"Design review\" -> \"Design review II\""))
            #expect(dry.stdout.contains("  show as: busy -> free"))
            #expect(dry.stdout.contains("-> 10 min before (popup)"))
            var shown = try JSONOutput.object(try await home.run(["show", ref, id, "--format", "json"]).stdout)
            #expect(shown["title"] as? String == "Design review", "the dry run wrote nothing")

            let real = try await home.run([
                "edit", ref, id, "--title", "Design review II", "--reminder", "10", "--show-as", "free", "--start", "2027-06-01 16:00",
            ])
            #expect(real.status == 0, "\(real.stderr)")
            shown = try JSONOutput.object(try await home.run(["show", ref, id, "--format", "json", "--tz", "Europe/Berlin"]).stdout)
            #expect(shown["title"] as? String == "Design review II")
            #expect(shown["showAs"] as? String == "free")
            #expect((shown["reminders"] as? [[String: Any]])?.first?["minutesBefore"] as? Int == 10)
            #expect(shown["start"] as? String == "2027-06-01T16:00:00+02:00", "\(shown)")
            #expect(shown["end"] as? String == "2027-06-01T17:00:00+02:00", "the length is kept: \(shown)")
            #expect(shown["description"] as? String == "Bring the slides", "fields not named stay")
        }
    }

    @Test(
        "Outlook: a meeting's attendees are mailed on every change, so edit and delete refuse without --notify, and --no-notify cannot work"
    )
    func outlookNotify() async throws {
        try await SandboxHome.with { home in
            let id = try await EditFixtures.single(home, google: false, title: "Budget", attendees: ["bob@example.com", "eve@example.org"])
            let invited = await home.graph.sentInvitations.count
            #expect(invited == 2, "creating the meeting invited both")
            let refused = try await home.run(["edit", "carol:Calendar", id, "--title", "Budget 2028"])
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("'Budget' has attendees (bob@example.com, eve@example.org)"), "\(refused.stderr)")
            #expect(refused.stderr.contains("--notify"))
            let noNotify = try await home.run(["edit", "carol:Calendar", id, "--title", "Budget 2028", "--no-notify"])
            #expect(noNotify.status == 2)
            #expect(noNotify.stderr.contains("--no-notify cannot work here"), "\(noNotify.stderr)")
            let delete = try await home.run(["delete", "carol:Calendar", id])
            #expect(delete.status == 2)
            #expect(await home.graph.sentInvitations.count == invited, "nobody was mailed by the refused commands")
            #expect(try await home.api.graphEventsBySubject("Calendar")["Budget"] != nil)

            let notified = try await home.run(["edit", "carol:Calendar", id, "--title", "Budget 2028", "--notify"])
            #expect(notified.status == 0, "\(notified.stderr)")
            #expect(
                notified.stdout.contains("Mailed the attendees (as the service does): bob@example.com, eve@example.org"),
                "\(notified.stdout)")
            let updates = await home.graph.sentInvitations.dropFirst(invited)
            #expect(updates.map(\.to) == ["bob@example.com", "eve@example.org"])
            #expect(updates.allSatisfy { $0.kind == .update })
            let cancelled = try await home.run(["delete", "carol:Calendar", id, "--notify"])
            #expect(cancelled.status == 0, "\(cancelled.stderr)")
            #expect(await home.graph.sentInvitations.suffix(2).allSatisfy { $0.kind == .cancellation })
        }
    }

    @Test("Google: refused without a choice; --no-notify mails nobody (sendUpdates=none); --notify mails the guests")
    func googleNotify() async throws {
        try await SandboxHome.with { home in
            let id = try await EditFixtures.single(home, google: true, title: "Dinner", attendees: ["bob@example.com"])
            let refused = try await home.run(["edit", "ann:Family", id, "--location", "Home"])
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("--no-notify to mail nobody"), "\(refused.stderr)")
            let quiet = try await home.run(["edit", "ann:Family", id, "--location", "Home", "--no-notify"])
            #expect(quiet.status == 0, "\(quiet.stderr)")
            #expect(quiet.stdout.contains("Mailed nobody (not: bob@example.com)"), "\(quiet.stdout)")
            #expect(await home.google.sentInvitations.isEmpty, "--no-notify mailed nobody")
            let stored = try #require(try await home.api.googleStored("Family").first { $0["id"] as? String == id })
            #expect(stored["location"] as? String == "Home")
            let deleted = try await home.run(["delete", "ann:Family", id, "--notify"])
            #expect(deleted.status == 0, "\(deleted.stderr)")
            let mails = await home.google.sentInvitations
            #expect(mails.map(\.to) == ["bob@example.com"] && mails.first?.kind == .cancellation, "\(mails)")
        }
    }

    @Test("show: everything about an occurrence, as a table and as JSON", arguments: [true, false])
    func show(google: Bool) async throws {
        try await SandboxHome.with { home in
            let ref = EditFixtures.ref(google: google)
            let extra: [String: Any] =
                google
                ? ["description": "<p>Review the <b>roadmap</b></p>", "visibility": "private", "transparency": "transparent"]
                : [
                    "body": ["contentType": "html", "content": "<p>Review the <b>roadmap</b></p>"], "sensitivity": "private",
                    "showAs": "free",
                ]
            let seriesID = try await EditFixtures.series(
                home, google: google, title: "Roadmap", attendees: ["bob@example.com"], extra: extra)
            let occurrence = try #require(try await EditFixtures.listed(home, ref).first { $0["seriesId"] as? String == seriesID })
            let id = occurrence["id"] as! String
            let json = try await home.run(["show", ref, id, "--format", "json", "--tz", "America/New_York"])
            #expect(json.status == 0, "\(json.stderr)")
            let shown = try JSONOutput.object(json.stdout)
            #expect(shown["title"] as? String == "Roadmap")
            #expect(shown["start"] as? String == "2027-05-03T03:00:00-04:00")
            #expect(shown["startInOwnZone"] as? String == "2027-05-03T09:00:00+02:00")
            #expect(shown["description"] as? String == "Review the roadmap", "\(shown)")
            #expect(shown["privacy"] as? String == "private")
            #expect(shown["showAs"] as? String == "free")
            #expect(shown["seriesId"] as? String == seriesID)
            #expect((shown["attendees"] as? [[String: Any]])?.map { $0["email"] as? String } == ["bob@example.com"])
            #expect((shown["recurrence"] as? [String])?.first?.hasPrefix("RRULE:FREQ=WEEKLY") == true, "\(shown)")
            let words = try #require(shown["repeat"] as? String)
            #expect(words.hasPrefix("every Monday at 09:00") && words.hasSuffix("6 times"), "\(words)")
            #expect(shown["copyOf"] is NSNull)

            let table = try await home.run(["show", ref, id, "--tz", "America/New_York"])
            #expect(table.status == 0, "\(table.stderr)")
            let lines = table.stdout.split(separator: "\n").map(String.init)
            #expect(lines.contains { $0.hasPrefix("repeats:") && $0.contains("every Monday at 09:00") }, "\(table.stdout)")
            #expect(lines.contains { $0.hasPrefix("series:") && $0.contains(seriesID) })
            #expect(lines.contains { $0.hasPrefix("in America/New_York:") && $0.contains("2027-05-03T03:00:00-04:00") })
            #expect(lines.contains { $0.hasPrefix("attendees:") && $0.contains("<bob@example.com>") })
            #expect(lines.contains("copy:       no") || lines.contains { $0.hasPrefix("copy:") && $0.hasSuffix(" no") })
            #expect(lines.suffix(2) == ["description:", "  Review the roadmap"], "\(lines.suffix(3))")
        }
    }

    @Test("--query: one match acts, several are listed with ids (exit 2) unless --all, none is one line (exit 2)")
    func query() async throws {
        try await SandboxHome.with { home in
            for start in ["2027-06-01 09:00", "2027-06-01 15:00"] {
                let added = try await home.run(["add", "ann:Family", "--title", "Dentist", "--start", start, "--tz", "Europe/Berlin"])
                #expect(added.status == 0, "\(added.stderr)")
            }
            let several = try await home.run(["show", "ann:Family", "--query", "dentist", "--on", "2027-06-01"])
            #expect(several.status == 2)
            #expect(several.stderr.contains("2 events of ann:Family match 'dentist' on 2027-06-01"), "\(several.stderr)")
            #expect(several.stdout.contains("ID") && several.stdout.components(separatedBy: "Dentist").count == 3, "\(several.stdout)")
            let all = try await home.run(["delete", "ann:Family", "--query", "DENTIST", "--on", "2027-06-01", "--all", "--dry-run"])
            #expect(all.status == 0, "\(all.stderr)")
            #expect(all.stdout.components(separatedBy: "Would delete 'Dentist'").count == 3, "\(all.stdout)")
            let none = try await home.run(["show", "ann:Family", "--query", "dentist", "--on", "2027-06-02"])
            #expect(none.status == 2)
            #expect(none.stderr.hasPrefix("calbridge: error: no event of ann:Family matches 'dentist' on 2027-06-02"), "\(none.stderr)")
            #expect(none.stderr.split(separator: "\n").count == 1)
            for arguments in [["show", "ann:Family"], ["show", "ann:Family", "x", "--query", "y"], ["edit", "ann:Family", "x"]] {
                let bad = try await home.run(arguments)
                #expect(bad.status == 2, "\(arguments): \(bad.stderr)")
                #expect(bad.stderr.split(separator: "\n").count == 1, "\(arguments): \(bad.stderr)")
            }
            let unknown = try await home.run(["show", "ann:Family", "no-such-event"])
            #expect(unknown.status == 2, "\(unknown.stderr)")
        }
    }

    @Test("a calbridge copy is changed at its original: refused with where it is; --detach changes the copy and says what that means")
    func copies() async throws {
        try await SandboxHome.with { home in
            _ = try await EditFixtures.single(home, google: false, title: "Offsite")
            let copied = try await home.run(["copy", "carol:Calendar", "ann:Family", "--from", "2027-06-01", "--to", "2027-06-02"])
            #expect(copied.status == 0, "\(copied.stderr)")
            let copy = try #require(try await EditFixtures.listed(home, "ann:Family").first { $0["title"] as? String == "Offsite" })
            let id = copy["id"] as! String
            let refused = try await home.run(["edit", "ann:Family", id, "--title", "Offsite!"])
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("'Offsite' is a calbridge copy of microsoft event"), "\(refused.stderr)")
            #expect(refused.stderr.contains("--detach"))
            let shown = try JSONOutput.object(try await home.run(["show", "ann:Family", id, "--format", "json"]).stdout)
            #expect((shown["copyOf"] as? [String: Any])?["provider"] as? String == "microsoft", "\(shown)")
            let detached = try await home.run(["edit", "ann:Family", id, "--title", "Offsite!", "--detach"])
            #expect(detached.status == 0, "\(detached.stderr)")
            #expect(detached.stdout.contains("Changed this copy only"), "\(detached.stdout)")
            let delete = try await home.run(["delete", "ann:Family", id])
            #expect(delete.status == 2)
            #expect(delete.stderr.contains("a calbridge copy"), "\(delete.stderr)")
        }
    }

    @Test(
        "add: --repeat (quick-add words), --reminder, --show-as, --private, --description; --dry-run adds nothing",
        arguments: [true, false])
    func addOptions(google: Bool) async throws {
        try await SandboxHome.with { home in
            let ref = EditFixtures.ref(google: google)
            let common = [
                "add", ref, "--title", "Standup", "--start", "2027-05-03 09:15", "--end", "2027-05-03 09:30", "--tz", "Europe/Berlin",
                "--repeat", "every weekday", "--reminder", "5", "--show-as", "free", "--private", "--description", "Notes",
            ]
            let dry = try await home.run(common + ["--dry-run"])
            #expect(dry.status == 0, "\(dry.stderr)")
            #expect(dry.stdout.hasPrefix("Would add to \(ref)"), "\(dry.stdout)")
            #expect(dry.stdout.contains("every weekday at 09:15"), "\(dry.stdout)")
            #expect(
                try await EditFixtures.listed(home, ref).allSatisfy { $0["title"] as? String != "Standup" }, "the dry run added nothing")

            let added = try await home.run(common + ["--format", "json"])
            #expect(added.status == 0, "\(added.stderr)")
            let id = try #require(try JSONOutput.object(added.stdout)["id"] as? String)
            let shown = try JSONOutput.object(try await home.run(["show", ref, id, "--format", "json"]).stdout)
            #expect((shown["recurrence"] as? [String])?.first?.contains("BYDAY=MO,TU,WE,TH,FR") == true, "\(shown)")
            #expect((shown["reminders"] as? [[String: Any]])?.first?["minutesBefore"] as? Int == 5)
            #expect(shown["showAs"] as? String == "free")
            #expect(shown["privacy"] as? String == "private")
            #expect(shown["description"] as? String == "Notes")
            // 2027-05-03 is a Monday: five weekdays in its first week.
            let week = try await home.run([
                "events", ref, "--from", "2027-05-03", "--to", "2027-05-09", "--tz", "Europe/Berlin", "--format", "json",
            ])
            let standups = (try JSONOutput.object(week.stdout)["events"] as? [[String: Any]] ?? []).filter {
                $0["title"] as? String == "Standup"
            }
            #expect(standups.count == 5, "\(standups)")
            let bad = try await home.run(["add", ref, "--title", "x", "--repeat", "every blue moon"])
            #expect(bad.status == 2)
            #expect(bad.stderr.contains("is not a repeat rule"), "\(bad.stderr)")
        }
    }

    @Test(
        "edit --repeat changes a series' rule (Outlook says it resets the series); --no-repeat leaves one event", arguments: [true, false])
    func rules(google: Bool) async throws {
        try await SandboxHome.with { home in
            let ref = EditFixtures.ref(google: google)
            let seriesID = try await EditFixtures.series(home, google: google, title: "Weekly planning")
            let occurrence = try #require(try await EditFixtures.listed(home, ref).first { $0["seriesId"] as? String == seriesID })
            let refused = try await home.run(["edit", ref, occurrence["id"] as! String, "--repeat", "every day"])
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("an occurrence has no rule of its own"), "\(refused.stderr)")

            let changed = try await home.run(["edit", ref, seriesID, "--repeat", "FREQ=WEEKLY;BYDAY=MO,WE;COUNT=4"])
            #expect(changed.status == 0, "\(changed.stderr)")
            #expect(changed.stdout.contains("Outlook drops the series' moved and deleted occurrences") == !google, "\(changed.stdout)")
            let starts = try await EditFixtures.listed(home, ref).filter { $0["seriesId"] as? String == seriesID }.compactMap {
                $0["start"] as? String
            }
            #expect(
                starts == [
                    "2027-05-03T09:00:00+02:00", "2027-05-05T09:00:00+02:00", "2027-05-10T09:00:00+02:00", "2027-05-12T09:00:00+02:00",
                ],
                "\(starts)")

            let single = try await home.run(["edit", ref, seriesID, "--no-repeat"])
            #expect(single.status == 0, "\(single.stderr)")
            let left = try await EditFixtures.listed(home, ref).filter { $0["title"] as? String == "Weekly planning" }
            #expect(left.count == 1, "\(left)")
            #expect(left.first?["seriesId"] == nil && left.first?["start"] as? String == "2027-05-03T09:00:00+02:00", "\(left)")
        }
    }
}
