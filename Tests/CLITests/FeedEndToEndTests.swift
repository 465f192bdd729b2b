import CalbridgeSupport
import Foundation
import HTTP
import LoopbackServer
import Sandbox
import TestSupport
import Testing

/// A feed served on 127.0.0.1 with ETags, as a subscribed calendar would be: what it serves, and what it
/// was asked.
final class FeedServer: Sendable {
    enum Mode { case serve, fail, truncate }

    /// What is served and what was asked, behind a lock (the server's handler runs on its own threads).
    final class State: @unchecked Sendable {
        let lock = NSLock()
        var body = ""
        var mode = Mode.serve
        var requests = 0
        var notModified = 0
        var conditional = 0

        func answer(_ request: ServerRequest) -> ServerResponse {
            lock.withLock {
                requests += 1
                guard request.path == "/calendars/\(FeedServer.token)/basic.ics" else { return .text(404, "no such feed") }
                if request.headers["If-None-Match"] != nil { conditional += 1 }
                switch mode {
                case .fail: return .text(503, "the feed is down")
                case .truncate:
                    let cut = String(body.prefix(body.count / 2))
                    return ServerResponse(status: 200, headers: ["Content-Type": "text/calendar", "ETag": "\"cut\""], body: Data(cut.utf8))
                case .serve:
                    let etag = "\"\(SHA256.hex(body).prefix(16))\""
                    if request.headers["If-None-Match"] == etag {
                        notModified += 1
                        return ServerResponse(status: 304, headers: ["ETag": etag])
                    }
                    return ServerResponse(status: 200, headers: ["Content-Type": "text/calendar", "ETag": etag], body: Data(body.utf8))
                }
            }
        }
    }

    private let state: State
    private let server: LoopbackHTTPServer

    /// The token in the feed's address: the secret that must never be printed.
    static let token = "s3cr3t-f33d-t0k3n"

    init() throws {
        let state = State()
        self.state = state
        server = LoopbackHTTPServer { request in state.answer(request) }
        try server.start()
    }

    deinit { server.stop() }

    var url: String { "http://127.0.0.1:\(server.port)/calendars/\(Self.token)/basic.ics" }

    func serve(_ text: String, mode: Mode = .serve) { state.lock.withLock { (state.body, state.mode) = (text, mode) } }

    /// Requests so far, those that were conditional and those answered 304.
    var counts: (requests: Int, conditional: Int, notModified: Int) {
        state.lock.withLock { (state.requests, state.conditional, state.notModified) }
    }

    /// A feed of `events`: (UID, title, day of April 2027, location), an hour each at 09:00 UTC.
    static func calendar(_ events: [(uid: String, title: String, day: Int, location: String)]) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//feed//EN", "X-WR-CALNAME:Team"]
        for event in events {
            let day = String(format: "%02d", event.day)
            lines += [
                "BEGIN:VEVENT", "UID:\(event.uid)", "DTSTAMP:20270101T000000Z", "DTSTART:202704\(day)T090000Z",
                "DTEND:202704\(day)T100000Z", "SUMMARY:\(event.title)", "LOCATION:\(event.location)", "END:VEVENT",
            ]
        }
        lines.append("END:VCALENDAR")
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// `count` events with UIDs `prefix-N`, titled "Match N" on day N.
    static func matches(_ range: ClosedRange<Int>, prefix: String = "uid") -> [(uid: String, title: String, day: Int, location: String)] {
        range.map { (uid: "\(prefix)-\($0)@league.example", title: "Match \($0)", day: $0, location: "Field \($0 % 3)") }
    }
}

/// `accounts add ics URL`, and a feed as the source of `copy`, against the sandbox: nothing lost or
/// duplicated whatever the feed does.
@Suite("subscribed iCalendar feeds, end to end")
struct FeedEndToEndTests {
    func titles(_ home: SandboxHome, _ ref: String) async throws -> [String] {
        let listed = try await home.run(["events", ref, "--tz", "UTC", "--format", "json"] + CopyFixtures.windowOptions)
        guard listed.status == 0 else { throw SandboxHome.CopyFailed(description: "events \(ref): \(listed.stderr)") }
        let events = try JSONOutput.object(listed.stdout)["events"] as? [[String: Any]] ?? []
        return events.compactMap { $0["title"] as? String }.sorted()
    }

    /// A copy that must be refused (exit 4) and write nothing.
    func refused(_ home: SandboxHome, _ options: [String] = [], saying words: String) async throws {
        let mark = home.sandbox.log.count
        let run = try await home.run(
            ["copy", "team:primary", "ann:primary", "--format", "json", "--prune"] + CopyFixtures.windowOptions + options)
        #expect(run.status == 4, "\(run.stdout) \(run.stderr)")
        #expect(run.stderr.contains("account 'team'") && run.stderr.contains(words), "\(run.stderr)")
        #expect(!run.stderr.contains(FeedServer.token) && !run.stdout.contains(FeedServer.token))
        #expect(home.apiMethods(since: mark).isSubset(of: ["GET"]), "a refused feed wrote: \(home.apiMethods(since: mark))")
    }

    @Test("changed, unchanged (one request), failing, truncated, emptied, halved, UIDs rotated: nothing lost or duplicated")
    func feedLifecycle() async throws {
        let feed = try FeedServer()
        try await SandboxHome.with(seed: .withoutEvents) { home in
            feed.serve(FeedServer.calendar(FeedServer.matches(1...10)))
            let added = try await home.run(["accounts", "add", "ics", feed.url, "--name", "team"])
            #expect(added.status == 0, "\(added.stderr)")
            #expect(added.stdout.contains("10 events") && added.stdout.contains("team:primary"), "\(added.stdout)")
            #expect(!added.stdout.contains(FeedServer.token) && !added.stderr.contains(FeedServer.token))

            // The URL is kept like a password: 0600, not in accounts.json, not listed.
            let homeDirectory = try #require(home.environment["CALBRIDGE_HOME"])
            let urlFile = URL(fileURLWithPath: homeDirectory).appendingPathComponent("feed-team.json")
            let mode = try FileManager.default.attributesOfItem(atPath: urlFile.path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            let accountsFile = try String(
                contentsOf: URL(fileURLWithPath: homeDirectory).appendingPathComponent("accounts.json"), encoding: .utf8)
            #expect(!accountsFile.contains(FeedServer.token))
            let list = try await home.run(["accounts", "list"])
            #expect(list.status == 0 && list.stdout.contains("team") && list.stdout.contains("ok (feed)"), "\(list.stdout)")
            #expect(!list.stdout.contains(FeedServer.token))
            let calendars = try await home.run(["calendars", "--account", "team"])
            #expect(calendars.status == 0 && calendars.stdout.contains("Team"), "\(calendars.stdout) \(calendars.stderr)")

            // First copy: all ten.
            let first = try await home.copy("team:primary", "ann:primary")
            #expect(first["created"] as? Int == 10, "\(first)")
            #expect(try await titles(home, "ann:primary").count == 10)

            // Unchanged: exactly one conditional request, answered 304; nothing written.
            let before = feed.counts
            var mark = home.sandbox.log.count
            let again = try await home.copy("team:primary", "ann:primary", ["--prune"])
            #expect(again["created"] as? Int == 0 && again["updated"] as? Int == 0 && again["deleted"] as? Int == 0, "\(again)")
            let after = feed.counts
            #expect(after.requests - before.requests == 1, "an unchanged feed cost \(after.requests - before.requests) requests")
            #expect(after.notModified - before.notModified == 1 && after.conditional - before.conditional == 1)
            #expect(home.apiMethods(since: mark) == ["GET"], "\(home.apiMethods(since: mark))")

            // Changed: one renamed, one added.
            var events = FeedServer.matches(1...11)
            events[2].title = "Match 3 (moved indoors)"
            feed.serve(FeedServer.calendar(events))
            let changed = try await home.copy("team:primary", "ann:primary", ["--prune"])
            #expect(changed["created"] as? Int == 1 && changed["updated"] as? Int == 1 && changed["deleted"] as? Int == 0, "\(changed)")
            let eleven = try await titles(home, "ann:primary")
            #expect(eleven.count == 11 && eleven.contains("Match 3 (moved indoors)"))

            // Failing, truncated, emptied, halved: refused with exit 4, nothing written.
            feed.serve(FeedServer.calendar(events), mode: .fail)
            try await refused(home, saying: "the feed was answered with HTTP 503")
            feed.serve(FeedServer.calendar(events), mode: .truncate)
            try await refused(home, saying: "cut short")
            feed.serve(FeedServer.calendar([]))
            try await refused(home, saying: "no events")
            let halved = Array(events.prefix(4))
            feed.serve(FeedServer.calendar(halved))
            try await refused(home, saying: "more than half gone")
            #expect(try await titles(home, "ann:primary") == eleven, "a refused feed changed the target")
            // The refusals did not move the baseline: the same halved feed is refused again.
            try await refused(home, saying: "more than half gone")

            // Accepted once: the seven gone events are deleted (with --prune), nothing else.
            let accepted = try await home.copy("team:primary", "ann:primary", ["--prune", "--accept-shrink"])
            #expect(accepted["deleted"] as? Int == 7 && accepted["created"] as? Int == 0, "\(accepted)")
            #expect(try await titles(home, "ann:primary") == halved.map(\.title).sorted())

            // UIDs rotated: every event under a new UID; matched, re-marked, not duplicated, not deleted.
            feed.serve(FeedServer.calendar(halved.map { (uid: "rotated-" + $0.uid, title: $0.title, day: $0.day, location: $0.location) }))
            mark = home.sandbox.log.count
            let rotated = try await home.run(["copy", "team:primary", "ann:primary", "--prune"] + CopyFixtures.windowOptions)
            #expect(rotated.status == 0, "\(rotated.stderr)")
            #expect(rotated.stdout.contains("4 matched by start, title and location"), "\(rotated.stdout)")
            #expect(try await titles(home, "ann:primary") == halved.map(\.title).sorted())
            #expect(!home.apiMethods(since: mark).contains("DELETE"))
            // And in JSON, a second time: the new UIDs are known now, nothing to match.
            let settled = try await home.copy("team:primary", "ann:primary", ["--prune"])
            #expect(
                settled["matchedByContent"] as? Int == 0 && settled["created"] as? Int == 0 && settled["deleted"] as? Int == 0, "\(settled)"
            )
            feed.serve(FeedServer.calendar(halved.map { (uid: "again-" + $0.uid, title: $0.title, day: $0.day, location: $0.location) }))
            let json = try await home.copy("team:primary", "ann:primary", ["--prune"])
            #expect(json["matchedByContent"] as? Int == 4 && json["created"] as? Int == 0 && json["deleted"] as? Int == 0, "\(json)")
            #expect(try await titles(home, "ann:primary").count == 4)

            // --verbose logs the request without the address's secret.
            feed.serve(FeedServer.calendar([]), mode: .fail)
            let verbose = try await home.run(["events", "team:primary", "--verbose"] + CopyFixtures.windowOptions)
            #expect(verbose.status == 4, "\(verbose.stderr)")
            #expect(verbose.stderr.contains("127.0.0.1") && !verbose.stderr.contains(FeedServer.token), "\(verbose.stderr)")

            // Removed: the URL and the cached body go.
            let removed = try await home.run(["accounts", "remove", "team"])
            #expect(removed.status == 0, "\(removed.stderr)")
            let left = try FileManager.default.contentsOfDirectory(atPath: homeDirectory).filter { $0.contains("team") }
            #expect(left.isEmpty, "\(left)")
        }
    }

    @Test("subscribe to a feed served from a file, copy it to a calendar, copy again: nothing written")
    func fileFeed() async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            let file = home.directory.url.appendingPathComponent("league.ics")
            try FeedServer.calendar(FeedServer.matches(1...5)).write(to: file, atomically: true, encoding: .utf8)
            let added = try await home.run(["accounts", "add", "ics", file.path, "--name", "league"])
            #expect(added.status == 0, "\(added.stderr)")
            let first = try await home.copy("league:primary", "carol:Calendar")
            #expect(first["created"] as? Int == 5, "\(first)")
            let mark = home.sandbox.log.count
            let second = try await home.copy("league:primary", "carol:Calendar")
            #expect(second["created"] as? Int == 0 && second["updated"] as? Int == 0, "\(second)")
            #expect(home.apiMethods(since: mark).isSubset(of: ["GET"]), "\(home.apiMethods(since: mark))")
            #expect(try await titles(home, "carol:Calendar").count == 5)
        }
    }

    @Test("a feed as the source of a one-way sync pair: copied, unchanged at one request, halved refused, then accepted")
    func feedSync() async throws {
        let feed = try FeedServer()
        try await SandboxHome.with(seed: .withoutEvents) { home in
            feed.serve(FeedServer.calendar(FeedServer.matches(1...6)))
            let added = try await home.run(["accounts", "add", "ics", feed.url, "--name", "team"])
            #expect(added.status == 0, "\(added.stderr)")
            let pair = try await home.run([
                "sync", "add", "league", "--a", "team:primary", "--b", "ann:primary", "--direction", "a-to-b", "--future", "730",
            ])
            #expect(pair.status == 0, "\(pair.stderr)")
            let first = try await home.run(["sync", "league"])
            #expect(first.status == 0, "\(first.stdout) \(first.stderr)")
            #expect(try await titles(home, "ann:primary").count == 6)

            let before = feed.counts.requests
            let mark = home.sandbox.log.count
            let unchanged = try await home.run(["sync", "league"])
            #expect(unchanged.status == 0, "\(unchanged.stderr)")
            #expect(feed.counts.requests - before == 1)
            #expect(home.apiMethods(since: mark).isSubset(of: ["GET"]), "\(home.apiMethods(since: mark))")

            feed.serve(FeedServer.calendar(FeedServer.matches(1...2)))
            let halved = try await home.run(["sync", "league"])
            #expect(halved.status == 4, "\(halved.stdout) \(halved.stderr)")
            #expect(halved.stderr.contains("more than half gone") && !halved.stderr.contains(FeedServer.token), "\(halved.stderr)")
            #expect(try await titles(home, "ann:primary").count == 6)

            let accepted = try await home.run(["sync", "league", "--accept-shrink"])
            #expect(accepted.status == 0, "\(accepted.stdout) \(accepted.stderr)")
            #expect(try await titles(home, "ann:primary") == ["Match 1", "Match 2"])
        }
    }

    /// One run of the pair `league` as JSON (its entry), and the direction A -> B's counts.
    func syncRun(_ home: SandboxHome) async throws -> [String: Int] {
        let result = try await home.run(["sync", "league", "--format", "json"])
        guard result.status == 0 else { throw SandboxHome.CopyFailed(description: "sync exited \(result.status): \(result.stderr)") }
        let pairs = try JSONOutput.object(result.stdout)["pairs"] as? [[String: Any]] ?? []
        return pairs.first?["aToB"] as? [String: Int] ?? [:]
    }

    @Test("a one-way sync pair from a feed that rotates its UIDs: copies re-linked and updated, none deleted or duplicated")
    func feedSyncRotatedUIDs() async throws {
        let feed = try FeedServer()
        try await SandboxHome.with(seed: .withoutEvents) { home in
            feed.serve(FeedServer.calendar(FeedServer.matches(1...6)))
            #expect(try await home.run(["accounts", "add", "ics", feed.url, "--name", "team"]).status == 0)
            let pair = try await home.run([
                "sync", "add", "league", "--a", "team:primary", "--b", "ann:primary", "--direction", "a-to-b", "--future", "730",
            ])
            #expect(pair.status == 0, "\(pair.stderr)")
            #expect(try await syncRun(home)["created"] == 6)

            // Every UID new, and one event more: six copies re-linked, one created, nothing deleted.
            feed.serve(FeedServer.calendar(FeedServer.matches(1...7, prefix: "rotated")))
            let mark = home.sandbox.log.count
            let rotated = try await syncRun(home)
            #expect(rotated["matchedByContent"] == 6 && rotated["updated"] == 6, "\(rotated)")
            #expect(rotated["created"] == 1 && rotated["deleted"] == 0, "\(rotated)")
            #expect(!home.apiMethods(since: mark).contains("DELETE"))
            #expect(try await titles(home, "ann:primary") == (1...7).map { "Match \($0)" }.sorted())

            // Unchanged: nothing; rotated again: matched again; the table says so.
            #expect(try await syncRun(home)["updated"] == 0)
            feed.serve(FeedServer.calendar(FeedServer.matches(1...7, prefix: "again")))
            let table = try await home.run(["sync", "league"])
            #expect(table.status == 0 && table.stdout.contains("7 matched by start, title and location"), "\(table.stdout)")
            #expect(try await titles(home, "ann:primary") == (1...7).map { "Match \($0)" }.sorted())

            // A rotated UID whose event also moved is another event: its copy is replaced, never kept twice.
            var moved = FeedServer.matches(1...7, prefix: "third")
            moved[0].day = 20
            feed.serve(FeedServer.calendar(moved))
            let third = try await syncRun(home)
            #expect(third["matchedByContent"] == 6 && third["created"] == 1 && third["deleted"] == 1, "\(third)")
            #expect(try await titles(home, "ann:primary").count == 7)
        }
    }

    @Test("bad feed addresses: exit 2, one line, the address not repeated")
    func refusedAddresses() async throws {
        let directory = try TemporaryDirectory(prefix: "calbridge-feed")
        defer { directory.remove() }
        let environment = ["CALBRIDGE_HOME": directory.url.appendingPathComponent("home").path]
        for (arguments, words) in [
            (["http://example.com/private/\(FeedServer.token)/a.ics", "--name", "x"], "only on 127.0.0.1"),
            (["ftp://example.com/\(FeedServer.token)", "--name", "x"], "https://"),
            ([directory.url.appendingPathComponent("\(FeedServer.token).ics").path, "--name", "x"], "no such file"),
            (["https://example.com/\(FeedServer.token)"], "needs a name"),
        ] {
            let run = try await CalbridgeBinary.run(["accounts", "add", "ics"] + arguments, environment: environment)
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains(words), "\(arguments): \(run.stderr)")
            #expect(!run.stderr.contains(FeedServer.token), "\(run.stderr)")
        }
    }
}
