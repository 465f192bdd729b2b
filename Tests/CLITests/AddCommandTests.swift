import CLI
import Foundation
import Sandbox
import Testing
import TestSupport

@Suite("calbridge add, end to end against the sandbox")
struct AddCommandTests {
    @Test("\"Pacific Standard Time\" on Outlook (and America/Los_Angeles on Google) reads back as the same instants across the DST change")
    func instantAcrossDST() async throws {
        try await SandboxHome.with { home in
            // 2027-03-14 is the US spring-forward day: 01:30 is PST (-08:00), 03:30 is PDT (-07:00).
            let cases = [("carol:Calendar", "Pacific Standard Time"), ("ann:Family", "America/Los_Angeles")]
            for (ref, zone) in cases {
                let created = try await home.run([
                    "add", ref, "--title", "Across the change", "--tz", zone,
                    "--start", "2027-03-14T01:30", "--end", "2027-03-14 03:30", "--format", "json",
                ])
                #expect(created.status == 0, "\(ref): \(created.stderr)")
                let event = try JSONOutput.object(created.stdout)
                #expect(event["timeZone"] as? String == "America/Los_Angeles", "\(ref)")

                let listed = try await home.run([
                    "events", ref, "--from", "2027-03-14", "--to", "2027-03-15", "--tz", "America/Los_Angeles", "--format", "json",
                ])
                #expect(listed.status == 0, "\(listed.stderr)")
                let events = try #require(try JSONOutput.object(listed.stdout)["events"] as? [[String: Any]])
                let back = try #require(events.first { $0["id"] as? String == event["id"] as? String }, "\(ref)")
                #expect(back["start"] as? String == "2027-03-14T01:30:00-08:00", "\(ref)")
                #expect(back["end"] as? String == "2027-03-14T03:30:00-07:00", "\(ref)")
                #expect(back["timeZone"] as? String == "America/Los_Angeles", "\(ref)")
                // The same instants written in UTC.
                let utc = try await home.run([
                    "events", ref, "--from", "2027-03-14T00:00:00Z", "--to", "2027-03-15T00:00:00Z", "--tz", "UTC", "--format", "tsv",
                ])
                #expect(utc.stdout.contains("2027-03-14T09:30:00+00:00\t2027-03-14T10:30:00+00:00\tfalse\tAcross the change"), "\(ref): \(utc.stdout)")
            }
        }
    }

    @Test("defaults: the next half hour for 30 minutes, in the mailbox's zone (not $TZ); printed as id, title, start, end, link")
    func defaults() async throws {
        try await SandboxHome.with { home in
            let before = Date()
            let result = try await home.run(["add", "carol:Calendar", "--title", "Quick sync"], environment: ["TZ": "Asia/Kolkata"])
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.contains("calendar: carol:Calendar"))
            #expect(lines.contains("title:    Quick sync"))
            #expect(lines.contains { $0.hasPrefix("id:       ") && $0.count > 12 })
            #expect(lines.contains { $0.hasPrefix("link:     https://") })
            #expect(lines.contains("read in:  America/Los_Angeles (the mailbox's zone)"), "\(lines)")
            let startLine = try #require(lines.first { $0.hasPrefix("start:    ") })
            // carol's mailbox is on "Pacific Standard Time": -08:00 or -07:00 with summer time.
            #expect(
                startLine.hasSuffix("-08:00 (America/Los_Angeles)") || startLine.hasSuffix("-07:00 (America/Los_Angeles)"), "\(startLine)")
            let json = try await home.run(["add", "carol:Calendar", "--title", "Quick sync 2", "--format", "json"], environment: ["TZ": "Asia/Kolkata"])
            let event = try JSONOutput.object(json.stdout)
            let start = try #require(Self.instant(event["start"] as? String))
            let end = try #require(Self.instant(event["end"] as? String))
            #expect(end.timeIntervalSince(start) == 1800)
            // A :00 or :30 of the wall clock, within the half hour after the command started.
            let minute = Int((event["start"] as! String).dropFirst(14).prefix(2))
            #expect(minute == 0 || minute == 30)
            #expect(start > before && start.timeIntervalSince(before) <= 1800 + 60)
        }
    }

    /// Runs one command line in this process at a fixed `now`, with `TZ` set to a zone no calendar uses.
    static func run(_ arguments: [String], home: SandboxHome, now: Date) async -> (status: ExitCode, stdout: String, stderr: String) {
        let out = BufferSink(), err = BufferSink()
        let context = CommandContext(
            stdout: out, stderr: err, environment: home.environment.merging(["TZ": "Asia/Tokyo"]) { $1 }, now: { now })
        let status = await CalbridgeCLI.run(arguments, context: context)
        return (status, out.text, err.text)
    }

    @Test(
        "times are read in the calendar's zone (Outlook: the mailbox's, Google: the calendar's own) unless --tz; the dry run names it and equals the real run",
        arguments: [
            ("carol:Calendar", "America/Los_Angeles", "the mailbox's zone", "-08:00"),
            ("ann:Family", "Europe/Berlin", "the calendar's zone", "+01:00"),
        ])
    func calendarZone(ref: String, zone: String, source: String, offset: String) async throws {
        // Wednesday 2027-03-10 12:00 UTC: 04:00 in Los Angeles, 13:00 in Berlin, 21:00 in Tokyo ($TZ, which no calendar uses).
        let now = Date(timeIntervalSince1970: 1_804_680_000)
        try await SandboxHome.with { home in
            let own = "\(zone) (\(source))"
            let cases: [(options: [String], start: String, end: String, readIn: String)] = [
                (
                    ["--start", "2027-03-12 09:00", "--end", "2027-03-12 10:30"], "2027-03-12T09:00:00\(offset)",
                    "2027-03-12T10:30:00\(offset)", own
                ),
                (["--start", "tomorrow 9am"], "2027-03-11T09:00:00\(offset)", "2027-03-11T09:30:00\(offset)", own),
                // A zone whose IANA name Outlook's Windows name maps back to (Asia/Kolkata would come back as Asia/Calcutta).
                (
                    ["--start", "2027-03-12 09:00", "--tz", "Europe/London"], "2027-03-12T09:00:00+00:00", "2027-03-12T09:30:00+00:00",
                    "Europe/London (--tz)"
                ),
            ]
            for (index, c) in cases.enumerated() {
                let line = ["add", ref, "--title", "Zone probe \(index)", "--location", "Room 7", "--format", "json"] + c.options
                let dry = await Self.run(line + ["--dry-run"], home: home, now: now)
                #expect(dry.status == .success, "\(dry.stderr)")
                let preview = try JSONOutput.object(dry.stdout)
                let real = await Self.run(line, home: home, now: now)
                #expect(real.status == .success, "\(real.stderr)")
                let created = try JSONOutput.object(real.stdout)
                #expect(preview["start"] as? String == c.start, "\(ref) \(c.options): \(dry.stdout)")
                #expect(preview["end"] as? String == c.end, "\(ref) \(c.options)")
                #expect(preview["readIn"] as? String == c.readIn, "\(ref) \(c.options)")
                for key in ["title", "start", "end", "allDay", "timeZone", "location", "readIn"] {
                    #expect("\(preview[key] ?? "none")" == "\(created[key] ?? "none")", "\(ref) \(c.options): \(key) differs")
                }
                // Read back from the calendar: the same instants.
                let listed = await Self.run(
                    ["events", ref, "--from", "2027-03-11", "--to", "2027-03-13", "--tz", zone, "--format", "json"], home: home, now: now)
                let events = try #require(try JSONOutput.object(listed.stdout)["events"] as? [[String: Any]])
                let back = try #require(events.first { $0["id"] as? String == created["id"] as? String }, "\(ref)")
                #expect(Self.instant(back["start"] as? String) == Self.instant(c.start), "\(ref) \(c.options): \(back)")
            }
            // The table names the zone in the preview and after the write.
            let line = ["add", ref, "--title", "Zone table", "--start", "2027-03-12 09:00"]
            let table = await Self.run(line + ["--dry-run"], home: home, now: now)
            #expect(table.stdout.contains("read in:   \(zone) (\(source))"), "\(table.stdout)")
            let written = await Self.run(line, home: home, now: now)
            #expect(written.stdout.contains("read in:  \(zone) (\(source))"), "\(written.stdout)")
        }
    }

    @Test(
        "--format tsv: one header line, one row of stable columns; the dry run's row equals the created event's",
        arguments: ["carol:Calendar", "ann:Family"])
    func tsv(ref: String) async throws {
        let now = Date(timeIntervalSince1970: 1_804_680_000)
        try await SandboxHome.with { home in
            let header = "calendar\tid\ttitle\tstart\tend\tall_day\ttime_zone\tlocation\trecurrence\trepeat\tread_in\tlink"
            let line = ["add", ref, "--title", "TSV\tprobe", "--start", "2027-03-12 09:00", "--location", "Room 7", "--format", "tsv"]
            let dry = await Self.run(line + ["--dry-run"], home: home, now: now)
            #expect(dry.status == .success, "\(dry.stderr)")
            let dryLines = dry.stdout.split(separator: "\n").map(String.init)
            #expect(dryLines.count == 2 && dryLines.first == header, "\(dry.stdout)")
            let preview = dryLines.last?.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) ?? []
            #expect(preview.count == 12, "\(preview)")
            #expect(preview.first == ref && preview[1] == "" && preview.last == "", "\(preview)")
            // A tab in the title is a space, never a column break.
            #expect(preview[2] == "TSV probe" && preview[7] == "Room 7" && preview[5] == "false", "\(preview)")
            let real = await Self.run(line, home: home, now: now)
            #expect(real.status == .success, "\(real.stderr)")
            let realLines = real.stdout.split(separator: "\n").map(String.init)
            #expect(realLines.count == 2 && realLines.first == header, "\(real.stdout)")
            let created = realLines.last?.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) ?? []
            #expect(created.count == 12 && !created[1].isEmpty && created.last?.hasPrefix("https://") == true, "\(created)")
            let same = created.first == preview.first && Array(created[2...10]) == Array(preview[2...10])
            #expect(same, "preview \(preview), created \(created)")
            let bare = await Self.run(line + ["--dry-run", "--no-header"], home: home, now: now)
            #expect(bare.stdout.split(separator: "\n").count == 1 && bare.stdout.hasPrefix(ref), "\(bare.stdout)")
        }
    }

    @Test("all-day with attendees split on ',' and ';', trimmed, empties dropped; location and body")
    func allDayWithAttendees() async throws {
        try await SandboxHome.with { home in
            let result = try await home.run([
                "add", "ann:Family", "--title", "Holiday", "--all-day", "--start", "2027-12-24", "--end", "2027-12-26",
                "--attendees", " bob@example.com ,; carol@example.org , ", "--location", "Home", "--body", "Presents", "--format", "json",
            ])
            #expect(result.status == 0, "\(result.stderr)")
            let event = try JSONOutput.object(result.stdout)
            #expect(event["allDay"] as? Bool == true)
            #expect(event["start"] as? String == "2027-12-24")
            #expect(event["end"] as? String == "2027-12-27")
            #expect(event["attendees"] as? [String] == ["bob@example.com", "carol@example.org"])
            #expect(event["location"] as? String == "Home")
            let listed = try await home.run(["events", "ann:Family", "--from", "2027-12-24", "--to", "2027-12-27"])
            #expect(listed.stdout.contains("Fri 2027-12-24  all day (3 days)  Holiday"), "\(listed.stdout)")
        }
    }

    @Test("refused before anything is sent: exit 2, one line naming what was wrong", arguments: [
        (["add", "carol:Contoso Holidays", "--title", "x"], "read-only for this account (access: reader)"),
        (["add", "ann:Holidays in Germany", "--title", "x"], "read-only"),
        (["add", "carol:Calendar", "--title", "x", "--attendees", "ann@example.com; not an address"], "'not an address'"),
        (["add", "carol:Calendar", "--title", "x", "--attendees", "ann@example.com, bob@"], "'bob@' is not an e-mail address (separate addresses with ',' or ';')"),
        (["add", "carol:Calendar", "--title", " "], "--title is empty"),
        (["add", "carol:Calendar"], "missing --title"),
        (["add", "carol:Calendar", "--title", "x", "--start", "2027-01-01T10:00", "--end", "2027-01-01T09:00"], "--end must be after --start"),
        (["add", "carol:Calendar", "--title", "x", "--tz", "Atlantis Standard Time"], "--tz"),
        (["add", "carol:Calendar", "--title", "x", "--all-day", "--start", "2027-01-01T10:00"], "--start of an all-day event"),
        (["add", "nobody:Calendar", "--title", "x"], "no account named 'nobody'"),
    ])
    func refused(_ arguments: [String], _ expected: String) async throws {
        try await SandboxHome.with { home in
            let result = try await home.run(arguments)
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
            #expect(result.stderr.contains(expected), "\(result.stderr)")
            let posts = home.sandbox.requestLog.filter { $0.method == "POST" && $0.path.contains("events") }.count
            #expect(posts == 0, "an event was sent although the input was refused")
        }
    }

    static func instant(_ text: String?) -> Date? {
        guard let text else { return nil }
        let formatter = ISO8601DateFormatter()
        return formatter.date(from: text)
    }

    @Test("Outlook: --attendees are invited (Graph mails them) and the command says to whom")
    func outlookInvites() async throws {
        try await SandboxHome.with { home in
            let result = try await home.run([
                "add", "carol:Calendar", "--title", "Planning", "--attendees", "bob@example.com; eve@example.org",
            ])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("Invitations sent (by Outlook, as it does for every new event with attendees) to: bob@example.com, eve@example.org"), "\(result.stdout)")
            let stored = try #require(try await home.api.graphEventsBySubject("Calendar")["Planning"])
            let addresses = (stored["attendees"] as? [[String: Any]] ?? []).compactMap { ($0["emailAddress"] as? [String: Any])?["address"] as? String }
            #expect(addresses == ["bob@example.com", "eve@example.org"])
            // Graph mailed them, as Exchange does for every new meeting.
            let mailed = await home.graph.sentInvitations.filter { $0.subject == "Planning" }.map(\.to)
            #expect(mailed == ["bob@example.com", "eve@example.org"])
        }
    }

    @Test("--no-invitations: nobody is an attendee, everybody is named in the body (copy's lines); JSON keeps stdout clean")
    func noInvitations() async throws {
        try await SandboxHome.with { home in
            let result = try await home.run([
                "add", "carol:Calendar", "--title", "Quiet", "--attendees", "bob@example.com; eve@example.org",
                "--body", "Agenda", "--no-invitations", "--format", "json",
            ])
            #expect(result.status == 0, "\(result.stderr)")
            let event = try JSONOutput.object(result.stdout)
            #expect(event["attendees"] == nil)
            #expect(result.stderr == "Nobody was invited; the attendees are listed in the description: bob@example.com, eve@example.org\n")
            let stored = try #require(try await home.api.graphEventsBySubject("Calendar")["Quiet"])
            #expect((stored["attendees"] as? [Any] ?? []).isEmpty)
            let body = ((stored["body"] as? [String: Any])?["content"] as? String) ?? ""
            for line in ["Agenda", "Attendees:", "- bob@example.com", "- eve@example.org"] { #expect(body.contains(line), "\(body)") }
            #expect(await home.graph.sentInvitations.isEmpty, "nobody was mailed")
            let google = try await home.run([
                "add", "ann:Family", "--title", "Quiet too", "--attendees", "bob@example.com", "--no-invitations",
                "--start", "2027-05-04T10:00", "--end", "2027-05-04T11:00",
            ])
            #expect(google.status == 0, "\(google.stderr)")
            let googleStored = try #require(try await home.api.googleStored("Family").first { $0["summary"] as? String == "Quiet too" })
            #expect((googleStored["attendees"] as? [Any] ?? []).isEmpty)
            #expect((googleStored["description"] as? String) == "Attendees:\n- bob@example.com")
        }
    }

    @Test("Google: guests are added without mail and the command says so (sendUpdates=none); --no-invitations needs --attendees")
    func googleGuests() async throws {
        try await SandboxHome.with { home in
            let result = try await home.run([
                "add", "ann:Family", "--title", "Dinner", "--attendees", "bob@example.com",
                "--start", "2027-05-04T19:00", "--end", "2027-05-04T21:00",
            ])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("Added as guests without an invitation mail (Google sends no mail: calbridge writes with sendUpdates=none): bob@example.com"), "\(result.stdout)")
            let stored = try #require(try await home.api.googleStored("Family").first { $0["summary"] as? String == "Dinner" })
            #expect((stored["attendees"] as? [[String: Any]])?.compactMap { $0["email"] as? String } == ["bob@example.com"])
            #expect(await home.google.sentInvitations.isEmpty, "sendUpdates=none: Google mailed nobody")
            let alone = try await home.run(["add", "ann:Family", "--title", "x", "--no-invitations"])
            #expect(alone.status == 2)
            #expect(alone.stderr.contains("--no-invitations needs --attendees"))
            let plain = try await home.run(["add", "ann:Family", "--title", "Alone"])
            #expect(!plain.stdout.contains("invit") && !plain.stdout.contains("guests"))
        }
    }
}

