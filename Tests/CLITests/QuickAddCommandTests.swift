import Foundation
import Sandbox
import TestSupport
import Testing

@Suite("calbridge quick-add CALENDAR_REF TEXT, end to end against the sandbox")
struct QuickAddCommandTests {
    /// The fields of a reading that the created event must repeat exactly.
    static let eventKeys = [
        "title", "start", "end", "allDay", "timeZone", "location", "recurrence", "repeat", "past", "parser", "readIn", "doubts",
    ]

    /// Writes to a calendar (reads and token refreshes excluded).
    static func writes(_ home: SandboxHome) -> Int {
        home.sandbox.requestLog.filter { $0.method != "GET" && ($0.path.contains("/events") || $0.path.contains("/quickAdd")) }.count
    }

    static func sameReading(_ preview: [String: Any], _ created: [String: Any]) -> [String] {
        eventKeys.filter { key in
            String(describing: preview[key] ?? "missing") != String(describing: created[key] ?? "missing")
        }.map { "\($0): preview \(preview[$0] ?? "missing"), created \(created[$0] ?? "missing")" }
    }

    @Test("Outlook: the dry run reads the mailbox's zone, writes nothing, and equals the created event")
    func outlookPreviewEqualsResult() async throws {
        try await SandboxHome.with { home in
            let phrases = [
                "Lunch with Ann tomorrow 12:30-1:30 at Cafe Luna", "Dentist Friday 3pm", "Call at 4:30",
                "Deploy v1.2.3 Monday 9am", "Meet at Starbucks tomorrow morning", "Submit report by Friday",
                "Standup every weekday 9:30", "Dinner at 7",
            ]
            for text in phrases {
                let now = ["--now", "2027-03-12T17:30:00", "--format", "json"]
                let before = Self.writes(home)
                let dry = try await home.run(["quick-add", "carol:Calendar", text, "--dry-run"] + now)
                #expect(dry.status == 0, "\(text): \(dry.stderr)")
                #expect(Self.writes(home) == before, "\(text): the dry run wrote")
                let preview = try JSONOutput.object(dry.stdout)
                #expect(preview["timeZone"] as? String == "America/Los_Angeles", "\(text)")
                #expect(preview["readIn"] as? String == "America/Los_Angeles (the mailbox's zone)", "\(text)")
                let run = try await home.run(["quick-add", "carol:Calendar", text] + now)
                #expect(run.status == 0, "\(text): \(run.stderr)")
                let created = try JSONOutput.object(run.stdout)
                #expect(Self.sameReading(preview, created).isEmpty, "\(text): \(Self.sameReading(preview, created))")
                #expect(created["id"] is String)
            }
            // The event on the calendar is the one shown.
            let listed = try await home.run([
                "events", "carol:Calendar", "--from", "2027-03-13", "--to", "2027-03-14", "--tz", "America/Los_Angeles", "--format", "tsv",
            ])
            #expect(
                listed.stdout.contains("2027-03-13T12:30:00-08:00\t2027-03-13T13:30:00-08:00\tfalse\tLunch with Ann\tCafe Luna"),
                "\(listed.stdout)")
        }
    }

    @Test("Google with --parser local: read in the calendar's own zone, the preview equals the created event, repeats kept")
    func googleLocalPreviewEqualsResult() async throws {
        try await SandboxHome.with { home in
            for text in ["Lunch 12:30-1:30 tomorrow", "Standup every weekday 9:30", "Kino heute Abend um 20 Uhr"] {
                let options =
                    ["--parser", "local", "--now", "2027-03-12T17:30:00", "--format", "json"]
                    + (text.hasPrefix("Kino") ? ["--lang", "de"] : [])
                let dry = try await home.run(["quick-add", "ann:Family", text, "--dry-run"] + options)
                #expect(dry.status == 0, "\(text): \(dry.stderr)")
                let preview = try JSONOutput.object(dry.stdout)
                #expect(preview["timeZone"] as? String == "Europe/Berlin")
                #expect(preview["parser"] as? String == "calbridge")
                let run = try await home.run(["quick-add", "ann:Family", text] + options)
                #expect(run.status == 0, "\(text): \(run.stderr)")
                let created = try JSONOutput.object(run.stdout)
                #expect(Self.sameReading(preview, created).isEmpty, "\(text): \(Self.sameReading(preview, created))")
            }
        }
    }

    @Test("Google: Google's quick add reads plain English; --lang de, --tz, --now, --date-order switch to calbridge")
    func googleParserChoice() async throws {
        try await SandboxHome.with { home in
            let quickAdds = home.sandbox.requestLog.filter { $0.path.contains("/quickAdd") }.count
            let google = try await home.run(["quick-add", "ann:Family", "Lunch with Ann tomorrow 1pm at Cafe Luna", "--format", "json"])
            #expect(google.status == 0, "\(google.stderr)")
            #expect(try JSONOutput.object(google.stdout)["parser"] as? String == "google")
            #expect(home.sandbox.requestLog.filter { $0.path.contains("/quickAdd") }.count == quickAdds + 1)
            let table = try await home.run(["quick-add", "ann:Family", "Dentist Friday 3pm"])
            #expect(table.stdout.contains("ann:Family"))
            #expect(table.stdout.contains("google, in Europe/Berlin (the calendar's zone)"), "\(table.stdout)")
            #expect(table.stdout.contains("https://"))

            let german = try await home.run([
                "quick-add", "ann:Family", "Teammeeting jeden Montag um 9 Uhr", "--lang", "de", "--format", "json",
            ])
            #expect(german.status == 0, "\(german.stderr)")
            let event = try JSONOutput.object(german.stdout)
            #expect(event["parser"] as? String == "calbridge")
            #expect(event["title"] as? String == "Teammeeting")
            #expect(event["recurrence"] as? [String] == ["RRULE:FREQ=WEEKLY;BYDAY=MO"])
            #expect(event["repeat"] as? String == "every Monday at 09:00")
            #expect(home.sandbox.requestLog.filter { $0.path.contains("/quickAdd") }.count == quickAdds + 2)
        }
    }

    @Test("Google's quick add dropping a repeat the text asks for: the event is shown, the loss named, exit 4")
    func googleDroppedRepeat() async throws {
        try await SandboxHome.with { home in
            let result = try await home.run(["quick-add", "ann:Family", "Gym every Monday 6pm", "--parser", "google", "--format", "json"])
            #expect(result.status == 4, "\(result.stderr)")
            let event = try JSONOutput.object(result.stdout)
            #expect(event["parser"] as? String == "google")
            #expect((event["recurrence"] as? [Any])?.isEmpty == true)
            #expect(result.stderr.contains("dropped the repeat"))
            #expect(result.stderr.contains("every Monday at 18:00"))
            #expect(result.stderr.contains("--parser local"))
            let preview = try await home.run(["quick-add", "ann:Family", "Gym every Monday 6pm", "--parser", "google", "--dry-run"])
            #expect(preview.status == 2)
            #expect(preview.stderr.contains("--parser local"))
            let options = try await home.run(["quick-add", "ann:Family", "Gym every Monday 6pm", "--parser", "google", "--tz", "UTC"])
            #expect(options.status == 2)
        }
    }

    @Test("a repeat Google drops is named even when calbridge's parser refuses the text as a whole (here: no title)")
    func googleDroppedRepeatOfARefusedText() async throws {
        try await SandboxHome.with { home in
            // calbridge refuses "every weekday 9:30" (no title); Google's quick add takes it and, in the sandbox
            // as with unreadable text at Google, creates one event titled with the whole text.
            let result = try await home.run(["quick-add", "ann:Family", "every weekday 9:30", "--parser", "google", "--format", "json"])
            #expect(result.status == 4, "\(result.stderr)")
            #expect((try JSONOutput.object(result.stdout)["recurrence"] as? [Any])?.isEmpty == true)
            #expect(result.stderr.contains("dropped the repeat the text asks for (\"every weekday"), "\(result.stderr)")
            // Text without a repeat is not flagged, readable or not.
            let plain = try await home.run(["quick-add", "ann:Family", "tomorrow 9:30", "--parser", "google"])
            #expect(plain.status == 0, "\(plain.stderr)")
            #expect(!plain.stderr.contains("repeat"), "\(plain.stderr)")
        }
    }

    @Test(
        "--format tsv: one header line, one row of stable columns; the dry run's row equals the created event's",
        arguments: ["carol:Calendar", "ann:Family"])
    func tsv(ref: String) async throws {
        try await SandboxHome.with { home in
            let header =
                "calendar\tid\ttitle\tstart\tend\tall_day\ttime_zone\tlocation\trecurrence\trepeat\tpast\tparser\tread_in\tlink\tdoubts"
            let text = "Lunch with Ann tomorrow 12:30-1:30 at Cafe Luna"
            let options = ["--now", "2027-03-12T17:30:00", "--parser", "local", "--format", "tsv"]
            let dry = try await home.run(["quick-add", ref, text, "--dry-run"] + options)
            #expect(dry.status == 0, "\(dry.stderr)")
            let dryLines = dry.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
            #expect(dryLines.count == 2 && dryLines.first == header, "\(dry.stdout)")
            let preview = dryLines.last?.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) ?? []
            #expect(preview.count == 15, "\(preview)")
            #expect(preview.first == "" && preview[1] == "" && preview[13] == "", "a dry run has no calendar, id or link: \(preview)")
            #expect(preview[14] == "", "no doubts: \(preview)")
            #expect(preview[2] == "Lunch with Ann" && preview[7] == "Cafe Luna" && preview[10] == "false" && preview[11] == "calbridge")
            let run = try await home.run(["quick-add", ref, text] + options)
            #expect(run.status == 0, "\(run.stderr)")
            let runLines = run.stdout.split(separator: "\n").map(String.init)
            #expect(runLines.count == 2 && runLines.first == header, "\(run.stdout)")
            let created = runLines.last?.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) ?? []
            #expect(created.count == 15)
            #expect(created.first == ref && !created[1].isEmpty && created[13].hasPrefix("https://"), "\(created)")
            #expect(Array(created[2...12]) == Array(preview[2...12]), "preview \(preview), created \(created)")
            // --no-header: the row alone.
            let bare = try await home.run(["quick-add", text, "--dry-run", "--no-header"] + options)
            #expect(bare.stdout.split(separator: "\n").count == 1 && !bare.stdout.hasPrefix("calendar"), "\(bare.stdout)")
        }
    }

    @Test("an event in the past is refused without --allow-past, shown as past, and created with it")
    func past() async throws {
        try await SandboxHome.with { home in
            let now = ["--now", "2027-03-12T17:30:00"]
            let refused = try await home.run(["quick-add", "carol:Calendar", "Dentist today 3pm"] + now)
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("--allow-past"), "\(refused.stderr)")
            let dry = try await home.run(["quick-add", "carol:Calendar", "Dentist today 3pm", "--dry-run", "--format", "json"] + now)
            #expect(try JSONOutput.object(dry.stdout)["past"] as? Bool == true)
            let allowed = try await home.run(
                ["quick-add", "carol:Calendar", "Dentist today 3pm", "--allow-past", "--format", "json"] + now)
            #expect(allowed.status == 0, "\(allowed.stderr)")
            #expect(try JSONOutput.object(allowed.stdout)["start"] as? String == "2027-03-12T15:00:00-08:00")
        }
    }

    @Test("a reading with doubts is shown by the dry run, refused without --yes (nothing written), and created with it")
    func doubts() async throws {
        try await SandboxHome.with { home in
            let now = ["--now", "2027-03-12T09:30:00"]
            let text = "Party Friday 13"
            let dry = try await home.run(["quick-add", "carol:Calendar", text, "--dry-run", "--format", "json"] + now)
            #expect(dry.status == 0, "\(dry.stderr)")
            let doubts = try #require(try JSONOutput.object(dry.stdout)["doubts"] as? [[String: Any]])
            #expect(doubts.map { $0["code"] as? String } == ["numberInTitle"], "\(doubts)")
            let table = try await home.run(["quick-add", "carol:Calendar", text, "--dry-run"] + now)
            #expect(table.stdout.contains("doubts") && table.stdout.contains("\"13\" next to the date"), "\(table.stdout)")
            // At 80 columns the whole reason is printed below the table, wrapped, never cut with "…".
            let reason = try #require(doubts.first?["reason"] as? String)
            for columns in [80, 200] {
                let narrow = try await home.run(["quick-add", "carol:Calendar", text, "--dry-run"] + now, stdoutTerminalColumns: columns)
                #expect(narrow.status == 0, "\(narrow.stderr)")
                let lines = narrow.stdout.split(separator: "\n")
                #expect(lines.allSatisfy { $0.count <= columns } && !narrow.stdout.contains("…"), "\(narrow.stdout)")
                let words = lines.joined(separator: " ").split(separator: " ").joined(separator: " ")
                #expect(words.contains("doubt: " + reason), "\(narrow.stdout)")
            }
            let before = Self.writes(home)
            let refused = try await home.run(["quick-add", "carol:Calendar", text] + now)
            #expect(refused.status == 2)
            #expect(refused.stderr.split(separator: "\n").count == 1, "one line: \(refused.stderr)")
            #expect(refused.stderr.contains("--yes") && refused.stderr.contains("\"13\" next to the date"), "\(refused.stderr)")
            #expect(Self.writes(home) == before, "a refused reading wrote")
            let confirmed = try await home.run(["quick-add", "carol:Calendar", text, "--yes", "--format", "json"] + now)
            #expect(confirmed.status == 0, "\(confirmed.stderr)")
            let created = try JSONOutput.object(confirmed.stdout)
            #expect(created["title"] as? String == "Party 13")
            #expect((created["doubts"] as? [Any])?.count == 1, "the accepted doubt stays on the result")
            // A reading without doubts needs no --yes; at 80 columns its link is printed whole (it is opened or copied).
            let sure = try await home.run(["quick-add", "carol:Calendar", "Dentist Tuesday 2pm"] + now, stdoutTerminalColumns: 80)
            #expect(sure.status == 0, "\(sure.stderr)")
            let link = try #require(sure.stdout.split(separator: "\n").first { $0.hasPrefix("link ") }, "\(sure.stdout)")
            #expect(!sure.stdout.contains("…") && link.contains("https://"), "\(sure.stdout)")
        }
    }

    @Test("read-only, unknown and revoked calendars fail with 2, 2 and 3")
    func errors() async throws {
        try await SandboxHome.with { home in
            let readOnly = try await home.run(["quick-add", "carol:Contoso Holidays", "Lunch tomorrow 1pm"])
            #expect(readOnly.status == 2)
            #expect(readOnly.stderr.contains("read-only"))
            let unknown = try await home.run(["quick-add", "carol:Nope", "Lunch tomorrow 1pm"])
            #expect(unknown.status == 2)
            let nothing = try await home.run(["quick-add", "carol:Calendar", "tomorrow"])
            #expect(nothing.status == 2, "\(nothing.stderr)")
            let outlookGoogle = try await home.run(["quick-add", "carol:Calendar", "Lunch tomorrow 1pm", "--parser", "google"])
            #expect(outlookGoogle.status == 2)

            await home.sandbox.tokens.revokeAll(user: home.user(.microsoft), provider: .microsoft)
            let revoked = try await home.run(["quick-add", "carol:Calendar", "Lunch tomorrow 1pm"])
            #expect(revoked.status == 3)
            #expect(revoked.stderr.contains("calbridge accounts add \(home.signIn.descriptorFile("microsoft")) --name carol"))
        }
    }
}
