import Accounts
import Foundation
import OAuth
import Sandbox
import Sync
import Testing
import TestSupport

/// `calbridge sync` and its subcommands, the built binary, against an in-process sandbox whose calendars
/// start empty: a two-way pair between carol's Outlook calendar and ann's Google calendar "Family".
@Suite("calbridge sync, end to end against the sandbox")
struct SyncEndToEndTests {
    static let outlook = "carol:Calendar"
    static let google = "ann:Family"

    @Test("add a two-way pair, sync, edit both sides, sync: both changes arrive and the edit on both sides is one reported conflict")
    func twoWay() async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            let api = home.api
            let family = try await api.googleCalendarID("Family")
            for (title, day) in [("Planning", 1), ("Review", 2), ("Offsite", 3)] {
                _ = try await api.graphCreate(Self.graphEvent(title, day: day))
            }
            for (title, day) in [("Dentist", 4), ("Piano lesson", 5)] {
                _ = try await api.googleInsert(family, Self.googleEvent(title, day: day))
            }

            let add = try await home.run(["sync", "add", "work-home", "--a", Self.outlook, "--b", Self.google, "--direction", "both"])
            #expect(add.status == 0, "\(add.stderr)")
            #expect(add.stdout.contains("Added sync pair 'work-home': A carol:Calendar <-> B ann:Family"), "\(add.stdout)")
            let list = try JSONOutput.array(try await home.run(["sync", "list", "--format", "json"]).stdout)
            #expect(list.count == 1)
            #expect(list.first?["direction"] as? String == "both")
            #expect(list.first?["pastDays"] as? Int == 7 && list.first?["futureDays"] as? Int == 60)
            #expect(list.first?["conflict"] as? String == "newer")
            // The pair stores both calendars by id (a renamed calendar does not break it).
            let outlookCalendar = try await api.graphCalendarID("Calendar")
            #expect(list.first?["a"] as? String == "carol:\(outlookCalendar)")
            #expect(list.first?["b"] as? String == "ann:\(family)")

            // First sync: each side's events reach the other.
            let first = try await sync(home)
            #expect(Self.counts(first, "aToB")["created"] == 3, "\(first)")
            #expect(Self.counts(first, "bToA")["created"] == 2, "\(first)")
            #expect(try await outlookTitles(api) == ["Dentist", "Offsite", "Piano lesson", "Planning", "Review"])
            #expect(try await googleTitles(api, family) == ["Dentist", "Offsite", "Piano lesson", "Planning", "Review"])

            // Edits on both sides, and one event edited on both (Google's edit is the newer one).
            let outlookEvents = try await api.graphEventsBySubject("Calendar")
            let googleEvents = try SandboxAPI.byTitle(try await googleStored(api, family), key: "summary")
            let planning = try #require(outlookEvents["Planning"]?["id"] as? String)
            let reviewA = try #require(outlookEvents["Review"]?["id"] as? String)
            let dentist = try #require(googleEvents["Dentist"]?["id"] as? String)
            let reviewB = try #require(googleEvents["Review"]?["id"] as? String)
            try await api.ok(.microsoft, "PATCH", "/v1.0/me/events/\(planning)", json: ["subject": "Planning (moved to Friday)"])
            try await api.ok(.google, "PATCH", SandboxAPI.googlePath(family, "/\(dentist)"), json: ["summary": "Dentist (rebooked)"])
            try await api.ok(.microsoft, "PATCH", "/v1.0/me/events/\(reviewA)", json: ["subject": "Review (Outlook edit)"])
            try await Task.sleep(for: .milliseconds(1100))
            try await api.ok(.google, "PATCH", SandboxAPI.googlePath(family, "/\(reviewB)"), json: ["summary": "Review (Google edit)"])

            let second = try await sync(home)
            #expect(Self.counts(second, "aToB")["updated"] == 1, "\(second)")
            #expect(Self.counts(second, "bToA")["updated"] == 2, "\(second)")
            let conflicts = second["conflicts"] as? [[String: Any]] ?? []
            #expect(conflicts.count == 1, "\(second)")
            let conflict = try #require(conflicts.first)
            #expect((conflict["a"] as? [String: Any])?["title"] as? String == "Review (Outlook edit)")
            #expect((conflict["b"] as? [String: Any])?["title"] as? String == "Review (Google edit)")
            #expect(conflict["winner"] as? String == "b")
            let expected = ["Dentist (rebooked)", "Offsite", "Piano lesson", "Planning (moved to Friday)", "Review (Google edit)"]
            #expect(try await outlookTitles(api) == expected)
            #expect(try await googleTitles(api, family) == expected)

            // The table says the same, and a quiet run reads one page per side and writes nothing.
            let mark = home.sandbox.log.count
            let quiet = try await home.run(["sync"])
            #expect(quiet.status == 0, "\(quiet.stderr)")
            // Shown by the names the pair was added with; the ids are for JSON.
            #expect(quiet.stdout.contains("work-home: A carol:Calendar <-> B ann:Family"), "\(quiet.stdout)")
            let document = try JSONOutput.object(try await home.run(["sync", "--format", "json", "--dry-run"]).stdout)
            let pairEntry = (document["pairs"] as? [[String: Any]])?.first
            #expect(pairEntry?["a"] as? String == "carol:\(outlookCalendar)", "\(document)")
            #expect(pairEntry?["aName"] as? String == "carol:Calendar", "\(document)")
            #expect(quiet.stdout.contains("A -> B: 0 created, 0 updated, 0 deleted, 5 unchanged, 0 failed"), "\(quiet.stdout)")
            #expect(home.apiMethods(since: mark) == ["GET"], "a quiet run wrote")
            let quietJSON = try await sync(home)
            #expect(quietJSON["requests"] as? Int == 2, "a quiet run reads one page per side: \(quietJSON)")
            #expect(Self.counts(quietJSON, "aToB")["unchanged"] == 5 && Self.counts(quietJSON, "bToA")["unchanged"] == 5, "\(quietJSON)")
            #expect((quietJSON["conflicts"] as? [Any])?.isEmpty == true)

            let status = try JSONOutput.object(try await home.run(["sync", "status", "--format", "json"]).stdout)
            let entry = try #require((status["pairs"] as? [[String: Any]])?.first)
            let lastRun = try #require(entry["lastRun"] as? [String: Any])
            #expect(lastRun["outcome"] as? String == "ok")
            let ages = try #require(entry["cursorAgeSeconds"] as? [String: Any])
            #expect((ages["a"] as? Int).map { $0 >= 0 && $0 < 120 } == true, "\(entry)")
            #expect((ages["b"] as? Int).map { $0 >= 0 && $0 < 120 } == true, "\(entry)")
            #expect(entry["conflictsKept"] as? Int == 1)
            let table = try await home.run(["sync", "status"])
            #expect(table.stdout.contains("change cursors: A "), "\(table.stdout)")

            // The conflict kept: listed with both versions, by pair.
            let kept = try JSONOutput.object(try await home.run(["sync", "conflicts", "--format", "json"]).stdout)
            let keptEntries = kept["conflicts"] as? [[String: Any]] ?? []
            #expect(keptEntries.count == 1, "\(kept)")
            #expect(keptEntries.first?["pair"] as? String == "work-home" && keptEntries.first?["winner"] as? String == "b", "\(kept)")
            #expect((keptEntries.first?["a"] as? [String: Any])?["title"] as? String == "Review (Outlook edit)", "\(kept)")
            let keptTable = try await home.run(["sync", "conflicts", "work-home"])
            #expect(keptTable.status == 0 && keptTable.stdout.contains("Review (Google edit)"), "\(keptTable.stdout)")
            let unknownPair = try await home.run(["sync", "conflicts", "nope"])
            #expect(unknownPair.status == 2 && unknownPair.stderr.contains("no sync pair named 'nope'"), "\(unknownPair.stderr)")

            // New options keep the state: the next run creates nothing again, and the conflict stays kept.
            let edit = try await home.run(["sync", "edit", "work-home", "--past", "3", "--conflict", "a"])
            #expect(edit.status == 0 && edit.stdout.contains("Changed sync pair 'work-home'"), "\(edit.stderr)")
            let edited = try JSONOutput.array(try await home.run(["sync", "list", "--format", "json"]).stdout)
            #expect(edited.first?["pastDays"] as? Int == 3 && edited.first?["conflict"] as? String == "a", "\(edited)")
            #expect(edited.first?["direction"] as? String == "both" && edited.first?["futureDays"] as? Int == 60, "\(edited)")
            let nothing = try await home.run(["sync", "edit", "work-home"])
            #expect(nothing.status == 2 && nothing.stderr.contains("nothing to change"), "\(nothing.stderr)")
            let afterEdit = try await sync(home)
            #expect(Self.counts(afterEdit, "aToB")["created"] == 0 && Self.counts(afterEdit, "bToA")["created"] == 0, "\(afterEdit)")
            #expect(try await outlookTitles(api) == expected)
            let keptAfter = try JSONOutput.object(try await home.run(["sync", "conflicts", "--format", "json"]).stdout)
            #expect((keptAfter["conflicts"] as? [Any])?.count == 1, "\(keptAfter)")

            // Removing the pair with its copies: a dry run counts them, then each side keeps only its own events.
            let dryRemove = try await home.run(["sync", "remove", "work-home", "--remove-copies", "--dry-run"])
            #expect(dryRemove.status == 0, "\(dryRemove.stderr)")
            // The Outlook original a conflict's winner was written back to is not a copy (it gets no marker).
            #expect(dryRemove.stdout.contains("Would remove 5 copies made by sync pair 'work-home'"), "\(dryRemove.stdout)")
            #expect(try await outlookTitles(api) == expected)
            let remove = try await home.run(["sync", "remove", "work-home", "--remove-copies"])
            #expect(remove.status == 0, "\(remove.stderr)")
            #expect(remove.stdout.contains("0 failed"), "\(remove.stdout)")
            let outlookAfter = try await outlookTitles(api)
            #expect(remove.stdout.contains("Removed 5 copies made by sync pair 'work-home'"), "\(remove.stdout)")
            #expect(outlookAfter == ["Offsite", "Planning (moved to Friday)", "Review (Google edit)"])
            #expect(try await googleTitles(api, family) == ["Dentist (rebooked)", "Piano lesson"])
            #expect(try JSONOutput.array(try await home.run(["sync", "list", "--format", "json"]).stdout).isEmpty)
        }
    }

    @Test(
        "a damaged sync.db loses no pair: listed from sync-pairs.json, named in the error, and once it is moved away the next run starts afresh without duplicates"
    )
    func damagedState() async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            let api = home.api
            let family = try await api.googleCalendarID("Family")
            _ = try await api.graphCreate(Self.graphEvent("Planning", day: 1))
            _ = try await api.googleInsert(family, Self.googleEvent("Dentist", day: 2))
            let add = try await home.run(["sync", "add", "work-home", "--a", Self.outlook, "--b", Self.google, "--direction", "both"])
            #expect(add.status == 0, "\(add.stderr)")
            _ = try await sync(home)
            #expect(try await outlookTitles(api) == ["Dentist", "Planning"])

            let directory = URL(fileURLWithPath: try #require(home.environment["CALBRIDGE_HOME"]))
            let database = directory.appendingPathComponent("sync.db")
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database.path + suffix) }
            try Data(repeating: 0x5A, count: 8192).write(to: database)

            let list = try JSONOutput.array(try await home.run(["sync", "list", "--format", "json"]).stdout)
            #expect(list.map { $0["name"] as? String } == ["work-home"], "\(list)")
            let damaged = try await home.run(["sync"])
            #expect(damaged.status == 1, "\(damaged.stderr)")
            #expect(damaged.stderr.contains("move the file away") && damaged.stderr.contains("(work-home)"), "\(damaged.stderr)")
            #expect(damaged.stderr.split(separator: "\n").count == 1, "not one line: \(damaged.stderr)")

            try FileManager.default.moveItem(at: database, to: directory.appendingPathComponent("sync.db.damaged"))
            let fresh = try await sync(home)
            #expect(Self.counts(fresh, "aToB")["failed"] == 0 && Self.counts(fresh, "bToA")["failed"] == 0, "\(fresh)")
            #expect(try await outlookTitles(api) == ["Dentist", "Planning"])
            #expect(try await googleTitles(api, family) == ["Dentist", "Planning"])
            let quiet = try await sync(home)
            #expect(quiet["requests"] as? Int == 2, "\(quiet)")
        }
    }

    @Test("accounts rename: the sign-in and the pairs follow the new name, the pair keeps its state; names in use or unusable are refused")
    func accountRename() async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            let api = home.api
            let family = try await api.googleCalendarID("Family")
            _ = try await api.graphCreate(Self.graphEvent("Planning", day: 1))
            let add = try await home.run(["sync", "add", "work-home", "--a", Self.outlook, "--b", Self.google, "--direction", "both"])
            #expect(add.status == 0, "\(add.stderr)")
            _ = try await sync(home)
            let outlookCalendar = try await api.graphCalendarID("Calendar")

            for (arguments, text) in [
                (["accounts", "rename", "carol", "ann"], "exists"), (["accounts", "rename", "nobody", "x"], "nobody"),
                (["accounts", "rename", "carol", "a:b"], "cannot be used"),
            ] {
                let refused = try await home.run(arguments)
                #expect(refused.status == 2 && refused.stderr.contains(text), "\(arguments): \(refused.stderr)")
            }
            let rename = try await home.run(["accounts", "rename", "carol", "work"])
            #expect(rename.status == 0, "\(rename.stderr)")
            let renamedLine = "Renamed account 'carol' to 'work'; sync pair work-home now names it 'work'"
            #expect(rename.stdout.contains(renamedLine), "\(rename.stdout)")
            let directory = URL(fileURLWithPath: try #require(home.environment["CALBRIDGE_HOME"]))
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("tokens-work.json").path))
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("tokens-carol.json").path))

            let list = try JSONOutput.array(try await home.run(["sync", "list", "--format", "json"]).stdout)
            #expect(list.first?["a"] as? String == "work:\(outlookCalendar)", "\(list)")
            #expect(list.first?["aName"] as? String == "work:Calendar", "\(list)")
            _ = try await api.googleInsert(family, Self.googleEvent("Dentist", day: 2))
            let after = try await sync(home)
            #expect(Self.counts(after, "bToA")["created"] == 1 && Self.counts(after, "aToB")["created"] == 0, "\(after)")
            #expect(try await outlookTitles(api) == ["Dentist", "Planning"])
            #expect(try await googleTitles(api, family) == ["Dentist", "Planning"])
        }
    }

    @Test("exit codes: 2 for bad options and unknown pairs, 4 when one pair of two fails, 3 when a grant must be renewed")
    func exitCodes() async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            func expect(_ arguments: [String], _ status: Int32, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
                let result = try await home.run(arguments)
                #expect(result.status == status, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
                #expect(result.stderr.contains(text), "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
                #expect(result.stderr.split(separator: "\n").count == 1, "not one line: \(result.stderr)", sourceLocation: sourceLocation)
            }
            try await expect(["sync"], 2, "there are no sync pairs yet")
            try await expect(["sync", "add", "p", "--a", Self.outlook], 2, "needs both sides")
            try await expect(["sync", "add", "p/q", "--a", Self.outlook, "--b", Self.google], 2, "a pair name is")
            try await expect(["sync", "add", "list", "--a", Self.outlook, "--b", Self.google], 2, "is a sync subcommand")
            try await expect(["sync", "add", "p", "--a", Self.outlook, "--b", Self.google, "--direction", "sideways"], 2, "--direction takes one of a-to-b|b-to-a|both")
            try await expect(["sync", "add", "p", "--a", Self.outlook, "--b", Self.google, "--future", "0"], 2, "--future takes")
            try await expect(["sync", "add", "p", "--a", "nobody:Calendar", "--b", Self.google], 2, "nobody")
            try await expect(["sync", "add", "p", "--a", "carol:No such calendar", "--b", Self.google], 2, "No such calendar")
            try await expect(["sync", "add", "p", "--a", Self.outlook, "--b", Self.outlook], 2, "the same calendar")

            for (name, a, b) in [("one", Self.outlook, Self.google), ("two", "ann:primary", Self.outlook)] {
                let add = try await home.run(["sync", "add", name, "--a", a, "--b", b])
                #expect(add.status == 0, "\(add.stderr)")
            }
            try await expect(["sync", "add", "one", "--a", Self.outlook, "--b", Self.google], 2, "exists already")
            try await expect(["sync", "onw"], 2, "no sync pair named 'onw' (did you mean 'one'?)")
            try await expect(["sync", "--interval", "5m"], 2, "--interval goes with --watch")
            try await expect(["sync", "--watch", "--interval", "5x"], 2, "--interval takes a duration")
            try await expect(["sync", "remove", "three"], 2, "no sync pair named 'three'")

            // Pair "two" names a calendar that is gone: it fails, "one" still runs: exit 4, both in the document.
            // (Edited where pairs are defined: sync-pairs.json; the run brings the state's row in line.)
            try SyncPairDefinitions(home: CalbridgeHome(environment: home.environment)).update { pairs in
                if let index = pairs.firstIndex(where: { $0.name == "two" }) { pairs[index].record.sideA = "ann:Deleted meanwhile" }
            }
            let partial = try await home.run(["sync", "--format", "json"])
            #expect(partial.status == 4, "\(partial.stderr)")
            let entries = try JSONOutput.object(partial.stdout)["pairs"] as? [[String: Any]] ?? []
            #expect(entries.map { $0["name"] as? String } == ["one", "two"])
            #expect(entries.map { $0["outcome"] as? String } == ["ok", "failed"])
            #expect((entries.last?["error"] as? String)?.contains("Deleted meanwhile") == true, "\(entries)")
            #expect(partial.stderr.contains("sync pair 'two'"), "\(partial.stderr)")
            // Only the broken pair, alone: its own code (2, a calendar that does not resolve).
            let alone = try await home.run(["sync", "two"])
            #expect(alone.status == 2, "\(alone.stderr)")

            // ann's grant is gone (a refresh answers invalid_grant): exit 3, naming the account and the fix.
            try home.spoilTokens(of: "ann")
            let renew = try await home.run(["sync", "one"])
            #expect(renew.status == 3, "\(renew.stderr)")
            #expect(renew.stderr.contains("ann") && renew.stderr.contains("sign in again with: calbridge accounts add"), "\(renew.stderr)")
            let status = try JSONOutput.object(try await home.run(["sync", "status", "one", "--format", "json"]).stdout)
            let lastRun = (status["pairs"] as? [[String: Any]])?.first?["lastRun"] as? [String: Any]
            #expect(lastRun?["outcome"] as? String == "needsSignIn", "\(status)")

            // Removing a pair without --remove-copies changes no calendar and needs no sign-in.
            let remove = try await home.run(["sync", "remove", "one"])
            #expect(remove.status == 0, "\(remove.stderr)")
            #expect(remove.stdout.contains("the calendars were not changed"), "\(remove.stdout)")
            try await expect(["sync", "remove", "two", "--dry-run"], 2, "--dry-run goes with --remove-copies")
        }
    }

    @Test("the watcher: one cycle logged per pair, a second watcher refused with the first one's pid, SIGTERM exits 0")
    func watcher() async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            _ = try await home.api.graphCreate(Self.graphEvent("Standup", day: 1))
            let add = try await home.run(["sync", "add", "work-home", "--a", Self.outlook, "--b", Self.google])
            #expect(add.status == 0, "\(add.stderr)")

            let watcher = try RunningCalbridge(["sync", "--watch", "--interval", "1s", "--format", "json"], environment: home.environment)
            defer { watcher.stop() }
            let line = try await watcher.stderrLine(timeout: 60) { $0.contains(#""pair":"work-home""#) }
            let logged = try JSONOutput.object(line)
            #expect(logged["outcome"] as? String == "ok", "\(line)")
            #expect(((logged["counts"] as? [String: Any])?["aToB"] as? [String: Any])?["created"] as? Int == 1, "\(line)")
            // A second cycle: the next line for the pair, with nothing to do.
            _ = try await watcher.stderrLine(timeout: 60) { $0.contains(#""pair":"work-home""#) && $0.contains(#""unchanged":1"#) }
            let family = try await home.api.googleCalendarID("Family")
            #expect(try await googleTitles(home.api, family) == ["Standup"])

            let second = try await home.run(["sync", "--watch"])
            #expect(second.status == 1, "\(second.stderr)")
            #expect(second.stderr.contains("a sync watcher is already running") && second.stderr.contains("pid \(watcher.pid)"), "\(second.stderr)")

            watcher.signal(SIGTERM)
            let status = try await watcher.wait(timeout: 60)
            #expect(status == 0, "\(watcher.stderr)")
            let stop = watcher.stderrLines { $0.contains(#""event":"stop""#) }
            #expect(stop.count == 1 && stop.first?.contains("SIGTERM") == true, "\(watcher.stderr)")
            // Every line is one JSON object.
            for text in watcher.stderr.split(separator: "\n") {
                #expect((try? JSONOutput.object(String(text))) != nil, "not NDJSON: \(text)")
            }
            // The lock is free again.
            let third = try RunningCalbridge(["sync", "--watch", "--interval", "1h"], environment: home.environment)
            defer { third.stop() }
            _ = try await third.stderrLine(timeout: 60) { $0.contains("sync work-home:") }
            third.signal(SIGINT)
            #expect(try await third.wait(timeout: 60) == 0, "\(third.stderr)")
            #expect(third.stderr.contains("stopping on SIGINT"), "\(third.stderr)")
        }
    }

    // MARK: Helpers

    /// `calbridge sync --format json`, which must exit 0; the one pair's entry.
    func sync(_ home: SandboxHome) async throws -> [String: Any] {
        let result = try await home.run(["sync", "--format", "json"])
        guard result.status == 0 else { throw SandboxHome.CopyFailed(description: "sync exited \(result.status): \(result.stderr)") }
        let document = try JSONOutput.object(result.stdout)
        guard let entries = document["pairs"] as? [[String: Any]], entries.count == 1 else {
            throw SandboxHome.CopyFailed(description: "not one pair: \(result.stdout)")
        }
        return entries[0]
    }

    static func counts(_ entry: [String: Any], _ direction: String) -> [String: Int] {
        entry[direction] as? [String: Int] ?? [:]
    }

    func outlookTitles(_ api: SandboxAPI) async throws -> [String] {
        try await api.graphEvents().compactMap { $0["subject"] as? String }.sorted()
    }

    func googleTitles(_ api: SandboxAPI, _ calendarID: String) async throws -> [String] {
        try await googleStored(api, calendarID).compactMap { $0["summary"] as? String }.sorted()
    }

    /// The calendar's events as stored (series not expanded) over `span`, cancelled ones left out.
    func googleStored(_ api: SandboxAPI, _ calendarID: String) async throws -> [[String: Any]] {
        let (from, to) = Self.span
        return try await api.googleEvents(calendarID, singleEvents: false, from: from, to: to)
    }

    /// Two weeks back to ten weeks ahead: wider than the pair's window.
    static var span: (String, String) {
        let now = Date()
        return (Self.rfc3339(now.addingTimeInterval(-14 * 86_400)), Self.rfc3339(now.addingTimeInterval(70 * 86_400)))
    }

    static func rfc3339(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(secondsFromGMT: 0)!))
    }

    /// 10:00 to 11:00 UTC, `day` days from today.
    static func times(day: Int) -> (start: String, end: String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let today = calendar.startOfDay(for: Date())
        let start = today.addingTimeInterval(Double(day) * 86_400 + 10 * 3600)
        let text = { (date: Date) in String(Self.rfc3339(date).dropLast()) }  // no "Z": Graph takes the zone apart
        return (text(start), text(start.addingTimeInterval(3600)))
    }

    static func graphEvent(_ title: String, day: Int) -> [String: Any] {
        let (start, end) = times(day: day)
        return ["subject": title, "start": ["dateTime": start, "timeZone": "UTC"], "end": ["dateTime": end, "timeZone": "UTC"]]
    }

    static func googleEvent(_ title: String, day: Int) -> [String: Any] {
        let (start, end) = times(day: day)
        return ["summary": title, "start": ["dateTime": start + "Z", "timeZone": "UTC"], "end": ["dateTime": end + "Z", "timeZone": "UTC"]]
    }
}

extension SandboxHome {
    /// Replaces both tokens of `account` with ones the sandbox never issued and marks the access token
    /// expired: the next request refreshes, and the refresh is refused with `invalid_grant`.
    func spoilTokens(of account: String) throws {
        guard let path = environment["CALBRIDGE_HOME"] else { throw CopyFailed(description: "no CALBRIDGE_HOME") }
        let store = FileTokenStore(home: CalbridgeHome(directory: URL(fileURLWithPath: path)))
        guard var tokens = try store.load(account: account) else { throw CopyFailed(description: "no tokens stored for \(account)") }
        tokens.accessToken = "spoiled-access"
        tokens.expiresAt = Date(timeIntervalSince1970: 0)
        tokens.refreshToken = "spoiled-" + (tokens.refreshToken ?? "none")
        try store.save(tokens, account: account)
    }
}
