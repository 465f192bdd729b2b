import Foundation
import HTTP
import Sandbox
import Testing
import TestSupport

/// `calbridge copy`, the built binary, against an in-process sandbox whose calendars start empty; the
/// source events are written through the providers' own APIs (RRULE on Google, patternedRecurrence on Graph).
@Suite("calbridge copy, end to end against the sandbox")
struct CopyEndToEndTests {
    /// One direction of a copy: where the fixtures are seeded, and the two calendar references.
    struct Direction: Sendable, CustomTestStringConvertible {
        var name: String
        var source: String
        var target: String
        var seedOnGoogle: String?
        var testDescription: String { name }
    }

    static let directions = [
        Direction(name: "Outlook -> Google", source: "carol:Calendar", target: "ann:Family", seedOnGoogle: nil),
        Direction(name: "Google -> Outlook", source: "ann:Family", target: "carol:Calendar", seedOnGoogle: "Family"),
        Direction(name: "Google -> Google", source: "ann:primary", target: "ann:Family", seedOnGoogle: "primary"),
    ]

    static let window = CopyFixtures.windowOptions
    /// 8 series and 2 single events.
    static let sourceUnits = CopyFixtures.series.count + 2

    @Test("every recurrence pattern, a cancelled and a moved occurrence, DST in both hemispheres, all-day, HTML body and attendees: dry run, copy, second run, ping-pong", arguments: directions)
    func fullCopy(_ direction: Direction) async throws {
        let recorder = WriteBodyRecorder()
        try await SandboxHome.with(seed: .withoutEvents, components: recorder.factory) { home in
            let api = home.api
            if let calendar = direction.seedOnGoogle {
                try await CopyFixtures.seedGoogle(api, calendarID: try await api.googleCalendarID(calendar))
            } else {
                try await CopyFixtures.seedGraph(api)
            }
            let sourceListing = try await events(home, direction.source)
            #expect(sourceListing.count > 50, "the source expands to \(sourceListing.count) events")

            // --dry-run: the plan, and nothing but reads.
            var mark = home.sandbox.log.count
            let dry = try await home.run(["copy", direction.source, direction.target, "--dry-run", "--format", "json"] + Self.window)
            #expect(dry.status == 0, "\(dry.stderr)")
            let plan = try JSONOutput.object(dry.stdout)
            #expect(plan["dryRun"] as? Bool == true)
            #expect(plan["created"] as? Int == Self.sourceUnits)
            #expect(home.apiMethods(since: mark) == ["GET"], "a dry run sent a write")
            #expect(try await events(home, direction.target).isEmpty)
            let dryTable = try await home.run(["copy", direction.source, direction.target, "--dry-run"] + Self.window)
            #expect(dryTable.stdout.contains("would create"), "\(dryTable.stdout)")
            #expect(dryTable.stdout.contains("Would copy ") && dryTable.stdout.contains(": \(Self.sourceUnits) created, 0 updated"), "\(dryTable.stdout)")

            // The copy.
            let writesBefore = recorder.all.count
            let first = try await home.run(["copy", direction.source, direction.target, "--format", "json"] + Self.window)
            #expect(first.status == 0, "\(first.stderr)")
            let result = try JSONOutput.object(first.stdout)
            Self.expectShape(result)
            #expect(result["created"] as? Int == Self.sourceUnits, "\(first.stdout)")
            #expect(result["failed"] as? Int == 0)
            #expect((result["fallbacks"] as? [Any])?.isEmpty == true, "a series fell back to instances: \(first.stdout)")

            // The target shows exactly the source's events: same titles, instants, zones, all-day dates;
            // the cancelled occurrence absent, the moved one moved.
            let targetListing = try await events(home, direction.target)
            #expect(Self.signatures(targetListing) == Self.signatures(sourceListing))
            let standups = targetListing.filter { ($0["title"] as? String)?.hasPrefix("Daily standup LA") == true }
            #expect(standups.count == 9)
            #expect(!standups.contains { ($0["start"] as? String)?.hasPrefix("2027-03-12") == true }, "the cancelled occurrence was copied")
            let moved = try #require(standups.first { $0["title"] as? String == CopyFixtures.movedTitle })
            #expect(moved["start"] as? String == "2027-03-14T18:00:00+00:00")  // 11:00 PDT
            // Wall-clock time kept in the event's own zone across every DST change.
            for series in CopyFixtures.series {
                let copies = targetListing.filter { $0["title"] as? String == series.title }
                #expect(!copies.isEmpty, "\(series.title)")
                for copy in copies {
                    #expect(copy["timeZone"] as? String == series.zone, "\(series.title)")
                    #expect(Self.wallClock(copy) == String(series.start.suffix(8)), "\(series.title) at \(copy["start"] ?? "")")
                }
            }
            let trip = try #require(targetListing.first { $0["title"] as? String == "Conference trip" })
            #expect(trip["allDay"] as? Bool == true)
            #expect(trip["start"] as? String == "2027-04-01" && trip["end"] as? String == "2027-04-04")
            // Series are stored as series on the target, not as single events.
            #expect(try await Self.targetSeriesCount(home, direction.target) == CopyFixtures.series.count)

            // Attendees: never on the target, never in any write body; their names are in the body.
            #expect(!targetListing.contains { $0["attendees"] != nil })
            let writes = recorder.all.dropFirst(writesBefore)
            #expect(!writes.isEmpty)
            for write in writes {
                #expect(!WriteBodyRecorder.namesAttendees(write.body), "\(write.method) \(write.path) carried attendees: \(write.body)")
            }
            let review = try await Self.targetBody(home, direction.target, title: "Review with partners")
            if direction.target.hasPrefix("ann:") {
                // Text on Google: Outlook's HTML document becomes text; the names are plain lines.
                #expect(review.contains("Bob Kim <bob@example.com>"), "\(review)")
                #expect(review.contains("eve@example.org (optional)"), "\(review)")
                if direction.seedOnGoogle == nil {
                    #expect(!review.contains("<p>") && !review.contains("</"), "\(review)")
                    #expect(review.hasPrefix("Agenda: budget & plans"), "\(review)")
                }
            } else {
                // Google's HTML description stays HTML on Outlook; the names are an escaped paragraph.
                #expect(review.hasPrefix("<p>Agenda: <b>budget</b> &amp; plans</p>"), "\(review)")
                #expect(review.contains("Bob Kim &lt;bob@example.com&gt;"), "\(review)")
            }

            // A second run writes nothing.
            mark = home.sandbox.log.count
            let second = try await home.run(["copy", direction.source, direction.target, "--format", "json"] + Self.window)
            #expect(second.status == 0, "\(second.stderr)")
            let again = try JSONOutput.object(second.stdout)
            #expect(again["created"] as? Int == 0 && again["updated"] as? Int == 0 && again["deleted"] as? Int == 0, "\(second.stdout)")
            #expect(again["unchanged"] as? Int == Self.sourceUnits, "\(second.stdout)")
            #expect(home.apiMethods(since: mark) == ["GET"], "the second run wrote")

            // Ping-pong: copying the target back copies none of the copies.
            mark = home.sandbox.log.count
            let back = try await home.run(["copy", direction.target, direction.source, "--format", "json"] + Self.window)
            #expect(back.status == 0, "\(back.stderr)")
            let backResult = try JSONOutput.object(back.stdout)
            #expect(backResult["created"] as? Int == 0 && backResult["updated"] as? Int == 0, "\(back.stdout)")
            // Every copy is skipped (series, singles, and the occurrence exceptions written on the target).
            #expect((backResult["skipped"] as? Int ?? 0) >= Self.sourceUnits, "\(back.stdout)")
            #expect(home.apiMethods(since: mark) == ["GET"], "copying the copies back wrote")
            #expect(Self.signatures(try await events(home, direction.source)) == Self.signatures(sourceListing))
        }
    }

    @Test("a changed source updates its copy; a deleted source is pruned only with --prune (and --prune --dry-run writes nothing)")
    func updateAndPrune() async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            for title in ["Keeps its copy", "Goes away"] {
                let added = try await home.run([
                    "add", "carol:Calendar", "--title", title, "--tz", "Pacific Standard Time",
                    "--start", "2027-03-14T01:30", "--end", "2027-03-14T03:30", "--location", "Room 1",
                ])
                #expect(added.status == 0, "\(added.stderr)")
            }
            let first = try await home.run(["copy", "carol:Calendar", "ann:Family", "--format", "json"] + Self.window)
            #expect(try JSONOutput.object(first.stdout)["created"] as? Int == 2, "\(first.stdout)\(first.stderr)")

            let stored = try await home.api.graphEvents()
            let keep = try #require(stored.first { $0["subject"] as? String == "Keeps its copy" }?["id"] as? String)
            let gone = try #require(stored.first { $0["subject"] as? String == "Goes away" }?["id"] as? String)
            try await home.api.ok(.microsoft, "PATCH", "/v1.0/me/events/\(keep)", json: [
                "subject": "Keeps its copy (renamed)", "location": ["displayName": "Room 2"],
            ])
            try await home.api.ok(.microsoft, "DELETE", "/v1.0/me/events/\(gone)")

            let second = try await home.run(["copy", "carol:Calendar", "ann:Family", "--format", "json"] + Self.window)
            let changed = try JSONOutput.object(second.stdout)
            #expect(changed["updated"] as? Int == 1 && changed["deleted"] as? Int == 0 && changed["created"] as? Int == 0, "\(second.stdout)")
            var target = try await events(home, "ann:Family")
            #expect(Set(target.compactMap { $0["title"] as? String }) == ["Keeps its copy (renamed)", "Goes away"])
            let renamed = try #require(target.first { $0["title"] as? String == "Keeps its copy (renamed)" })
            #expect(renamed["location"] as? String == "Room 2")
            #expect(renamed["start"] as? String == "2027-03-14T09:30:00+00:00" && renamed["end"] as? String == "2027-03-14T10:30:00+00:00")

            let mark = home.sandbox.log.count
            let dry = try await home.run(["copy", "carol:Calendar", "ann:Family", "--prune", "--dry-run"] + Self.window)
            #expect(dry.status == 0, "\(dry.stderr)")
            #expect(dry.stdout.contains("would delete") && dry.stdout.contains("Goes away"), "\(dry.stdout)")
            #expect(home.apiMethods(since: mark) == ["GET"])

            let pruned = try await home.run(["copy", "carol:Calendar", "ann:Family", "--prune", "--format", "json"] + Self.window)
            let prunedResult = try JSONOutput.object(pruned.stdout)
            #expect(prunedResult["deleted"] as? Int == 1 && prunedResult["unchanged"] as? Int == 1, "\(pruned.stdout)")
            target = try await events(home, "ann:Family")
            #expect(target.compactMap { $0["title"] as? String } == ["Keeps its copy (renamed)"])
        }
    }

    @Test("--format tsv: one row per event, unchanged ones too, with both ids; nothing else on stdout")
    func tsv() async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            for (title, start) in [("First tsv event", "2027-03-14T09:00"), ("Second\ttsv event", "2027-03-15T09:00")] {
                let added = try await home.run(["add", "carol:Calendar", "--title", title, "--start", start])
                #expect(added.status == 0, "\(added.stderr)")
            }
            let first = try await home.run(["copy", "carol:Calendar", "ann:Family", "--format", "tsv"] + Self.window)
            #expect(first.status == 0, "\(first.stderr)")
            let lines = first.stdout.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
            #expect(lines.first == ["action", "status", "title", "start", "source_id", "target_id", "duplicate", "reason"])
            #expect(lines.dropFirst().map { $0.count } == [8, 8], "\(first.stdout)")
            #expect(Set(lines.dropFirst().map { String($0[0]) }) == ["create"])
            #expect(lines.dropFirst().allSatisfy { !$0[4].isEmpty && !$0[5].isEmpty }, "both ids on every row")
            // A tab in a title is a space in TSV, never a column break.
            #expect(lines.dropFirst().contains { $0[2] == "Second tsv event" })
            let second = try await home.run(["copy", "carol:Calendar", "ann:Family", "--format", "tsv"] + Self.window)
            let again = second.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
            #expect(again.map { String($0[0]) } == ["unchanged", "unchanged"], "\(second.stdout)")
            #expect(Set(again.map { $0[5] }) == Set(lines.dropFirst().map { $0[5] }), "the same copies")
        }
    }

    @Test("--fields busy copies only the time, titled Busy and private; --fields all adds categories (Outlook -> Outlook)")
    func fields() async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            try await CopyFixtures.seedGraph(home.api)
            let busy = try await home.run(["copy", "carol:Calendar", "ann:primary", "--fields", "busy", "--format", "json"] + Self.window)
            #expect(busy.status == 0, "\(busy.stderr)")
            let copies = try await home.api.googleStored("primary")
            // The series, the singles, and the moved occurrence's exception.
            #expect(copies.count == Self.sourceUnits + 1)
            for copy in copies {
                #expect(copy["summary"] as? String == "Busy")
                #expect(copy["visibility"] as? String == "private")
                #expect((copy["description"] as? String ?? "").isEmpty, "\(copy)")
                #expect((copy["location"] as? String ?? "").isEmpty, "\(copy)")
                #expect((copy["attendees"] as? [Any] ?? []).isEmpty, "\(copy)")
            }
            let source = try await events(home, "carol:Calendar")
            let target = try await events(home, "ann:primary")
            #expect(Self.signatures(target, titles: false) == Self.signatures(source, titles: false))

            let falcon = try await home.api.graphCalendarID("Project Falcon")
            let all = try await home.run(["copy", "carol:Calendar", "carol:Project Falcon", "--fields", "all", "--format", "json"] + Self.window)
            #expect(all.status == 0, "\(all.stderr)")
            #expect(try JSONOutput.object(all.stdout)["created"] as? Int == Self.sourceUnits)
            let review = try #require(try await home.api.graphEvents(calendarID: falcon).first { $0["subject"] as? String == "Review with partners" })
            #expect(review["categories"] as? [String] == ["Red category"])
            #expect((review["attendees"] as? [Any] ?? []).isEmpty)
            let reviewBody = (review["body"] as? [String: Any])?["content"] as? String ?? ""
            #expect(reviewBody.contains("Bob Kim"), "\(reviewBody)")
            #expect(Self.signatures(try await events(home, "carol:Project Falcon")) == Self.signatures(source))
        }
    }

    @Test("a read-only or unknown target fails before any write, with a one-line message", arguments: [
        ("carol:Contoso Holidays", "read"), ("ann:Holidays in Germany", "read"), ("ann:No such calendar", "No such calendar"),
    ])
    func refusedTarget(_ target: String, _ expected: String) async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            try await CopyFixtures.seedGraph(home.api)
            let mark = home.sandbox.log.count
            let result = try await home.run(["copy", "carol:Calendar", target] + Self.window)
            #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(result.stderr.contains(expected), "\(result.stderr)")
            #expect(home.apiMethods(since: mark) == ["GET"])
        }
    }

    @Test("writes the target refuses are reported, the rest is applied, exit 4; the JSON has every documented key")
    func partial() async throws {
        let rejecter = RejectingWrites(marker: "Refused by the target")
        try await SandboxHome.with(seed: .withoutEvents, components: rejecter.factory) { home in
            for title in ["Fine one", "Refused by the target", "Fine two"] {
                let added = try await home.run(["add", "ann:Family", "--title", title, "--start", "2027-06-01T10:00", "--tz", "Europe/Berlin"])
                #expect(added.status == 0, "\(added.stderr)")
            }
            let result = try await home.run(["copy", "ann:Family", "carol:Calendar", "--format", "json"] + Self.window)
            #expect(result.status == 4, "\(result.stderr)")
            let object = try JSONOutput.object(result.stdout)
            Self.expectShape(object)
            #expect(object["created"] as? Int == 2 && object["failed"] as? Int == 1, "\(result.stdout)")
            let errors = try #require(object["errors"] as? [[String: Any]])
            #expect(errors.count == 1 && errors[0]["title"] as? String == "Refused by the target")
            #expect(result.stderr.contains("Refused by the target"), "\(result.stderr)")
            #expect(Set(try await events(home, "carol:Calendar").compactMap { $0["title"] as? String }) == ["Fine one", "Fine two"])
            // The next run (the target accepting again) finishes the job.
            rejecter.enabled = false
            let rerun = try await home.run(["copy", "ann:Family", "carol:Calendar", "--format", "json"] + Self.window)
            #expect(rerun.status == 0, "\(rerun.stderr)")
            let rerunResult = try JSONOutput.object(rerun.stdout)
            #expect(rerunResult["created"] as? Int == 1 && rerunResult["unchanged"] as? Int == 2, "\(rerun.stdout)")
        }
    }

    // MARK: helpers

    /// The window's events of a calendar through `calbridge events` (occurrences expanded, times in UTC).
    func events(_ home: SandboxHome, _ ref: String) async throws -> [[String: Any]] {
        let listed = try await home.run(["events", ref, "--tz", "UTC", "--format", "json"] + Self.window)
        guard listed.status == 0 else { throw SandboxAPI.Failed(description: "events \(ref): \(listed.stderr)") }
        return try JSONOutput.object(listed.stdout)["events"] as? [[String: Any]] ?? []
    }

    /// The documented result keys are all there, with the documented types.
    static func expectShape(_ result: [String: Any]) {
        for key in ["source", "target"] { #expect(result[key] is String, "\(key)") }
        for key in ["created", "updated", "unchanged", "deleted", "skipped", "failed"] { #expect(result[key] is Int, "\(key)") }
        #expect(result["errors"] is [Any])
    }

    /// What must match between a source and its copy, sorted: title, instants (UTC), all-day, zone.
    static func signatures(_ events: [[String: Any]], titles: Bool = true) -> [String] {
        events.map { e in
            [
                titles ? e["title"] as? String ?? "" : "", e["start"] as? String ?? "", e["end"] as? String ?? "",
                "\(e["allDay"] as? Bool ?? false)", e["timeZone"] as? String ?? "",
            ].joined(separator: "|")
        }.sorted()
    }

    /// `HH:mm:ss` of an event's start in its own zone.
    static func wallClock(_ event: [String: Any]) -> String? {
        guard let text = event["start"] as? String, let zoneName = event["timeZone"] as? String,
            let zone = TimeZone(identifier: zoneName), let instant = ISO8601DateFormatter().date(from: text)
        else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "HH:mm:ss"
        return formatter.string(from: instant)
    }

    /// How many series masters the target calendar stores.
    static func targetSeriesCount(_ home: SandboxHome, _ ref: String) async throws -> Int {
        if ref.hasPrefix("carol:") {
            return try await home.api.graphEvents().filter { $0["type"] as? String == "seriesMaster" }.count
        }
        let stored = try await home.api.googleStored(ref: ref)
        return stored.filter { $0["recurrence"] != nil }.count
    }

    /// The body (Google description, Graph body content) of the target's event with this title.
    static func targetBody(_ home: SandboxHome, _ ref: String, title: String) async throws -> String {
        if ref.hasPrefix("carol:") {
            let event = try #require(try await home.api.graphEvents().first { $0["subject"] as? String == title })
            #expect((event["attendees"] as? [Any] ?? []).isEmpty)
            return (event["body"] as? [String: Any])?["content"] as? String ?? ""
        }
        let stored = try await home.api.googleStored(ref: ref)
        let event = try #require(stored.first { $0["summary"] as? String == title })
        #expect((event["attendees"] as? [Any] ?? []).isEmpty)
        return event["description"] as? String ?? ""
    }
}

/// Makes the sandbox refuse (400) every event write whose body names `marker`, while `enabled`.
final class RejectingWrites: @unchecked Sendable {
    let marker: String
    private let lock = NSLock()
    private var on = true

    init(marker: String) { self.marker = marker }

    var enabled: Bool {
        get { lock.withLock { on } }
        set { lock.withLock { on = newValue } }
    }

    /// The standard Google emulator, and a Graph emulator that refuses (while enabled) every write
    /// whose body names the marker, also inside `$batch`, as Graph refuses one request of a batch.
    var factory: SandboxComponentFactory {
        { [self] seed, tokens, now in
            try SandboxServices.makeAPIComponents(seed: seed, tokens: tokens, now: now) { [self] body in
                enabled && String(decoding: body, as: UTF8.self).contains(marker)
            }
        }
    }
}
