import CLI
import Accounts
import CalendarBridge
import Foundation
import LoopbackServer
import Sandbox

/// `calbridge-bench sync`: the cost of `calbridge sync` against the in-process sandbox with API latency, in
/// three scenarios: (a) many pairs with nothing changed, (b) one change among many events, (c) the first
/// sync of a calendar against `copy` of the same calendar.
package enum BenchSyncCommand: Command {
    package enum Options {
        package static let pairs = Option.int("pairs", "N", "Pairs in scenario a, each its own two mailboxes (default 100).", in: 1...1000)
        package static let events = Option.int("events", "N", "Events in scenario b's Outlook calendar (default 10000).", in: 1...200_000)
        package static let initial = Option.int("initial", "N", "Events in scenario c's Outlook calendar (default 1000).", in: 1...200_000)
        package static let latencyMs = Option.int("latency-ms", "L", "API latency in milliseconds (default 20).", in: 0...10_000)
        package static let scenario = Option.choice("scenario", "a|b|c|all", "Which scenario to run (default all).", among: ["a", "b", "c", "all"])
        package static let requestTranscript = Option<String>(
            "request-transcript", "FILE", "Write every API request the timed syncs sent (sorted, tokens and boundaries left out) to FILE.")
        package static let format = OutputFormat.option("table|json", "Output format (default table).", allowed: [.table, .json])
    }

    package static let path = ["sync"]

    package static let spec = CommandSpec(
        path,
        abstract: "Time 'sync' against the sandbox with latency: quiet pairs, one change, a first sync vs copy.",
        discussion: """
            Every scenario starts its own sandbox with --latency-ms (default 20) on every API response and a \
            temporary home, and runs 'calbridge sync --format json' in-process. (a) --pairs (100) two-way pairs, \
            each between its own Outlook mailbox and its own Google account (two events each), synced once, then \
            timed with nothing changed: requests per pair (goal 2: one change read per side) and wall time (goal \
            <= 0.5 s for the whole cycle). (b) one two-way pair over an Outlook calendar with --events (10000) \
            events (the mix 'calbridge-bench copy' seeds), synced once, then one event is added on Outlook and the \
            sync that carries it is timed (goal <= 5 requests). (c) --initial (1000) events: 'copy' to one Google \
            calendar and the first 'sync' (a-to-b) to another, both timed. API requests are counted from the \
            sandbox's log (sign-in traffic excluded). Two --request-transcript files of the same code are \
            identical (the seeded events, their copies and the services' change tokens named alike), so diff \
            shows whether a change sends other requests.
            """,
        options: [
            Options.pairs, Options.events, Options.initial, Options.latencyMs, Options.scenario, Options.requestTranscript, Options.format,
        ],
        program: "calbridge-bench"
    )

    /// One timed `calbridge sync`.
    struct Timed {
        var wallMs: Double
        var requests: BenchRequests
        /// The entries of the JSON document, one per pair.
        var entries: [[String: Any]]

        /// The sum of one count over every pair and both directions.
        func total(_ key: String) -> Int {
            entries.reduce(0) { sum, entry in
                sum + ["aToB", "bToA"].reduce(0) { $0 + (((entry[$1] as? [String: Any])?[key] as? Int) ?? 0) }
            }
        }

        var json: [String: Any] {
            [
                "wallMs": (wallMs * 10).rounded() / 10, "requests": requests.total, "requestsByKind": requests.byKind,
                "created": total("created"), "updated": total("updated"), "deleted": total("deleted"),
                "unchanged": total("unchanged"), "failed": total("failed"),
            ]
        }

        var line: String {
            String(format: "%8.1f ms, %5d requests", wallMs, requests.total)
                + "; \(total("created")) created, \(total("updated")) updated, \(total("unchanged")) unchanged, \(total("failed")) failed"
        }
    }

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let latency = arguments[Options.latencyMs] ?? 20
        let scenario = arguments[Options.scenario] ?? "all"
        let json = arguments[Options.format] == .json
        var document: [String: Any] = ["latencyMs": latency]
        let transcript = arguments[Options.requestTranscript].map { _ in BenchRequestTranscript() }
        transcript?.stop()
        let run = Run(transcript: transcript)
        var allMet = true
        func say(_ text: String) { if !json { context.print(text) } }

        if scenario == "a" || scenario == "all" {
            let count = arguments[Options.pairs] ?? 100
            let (first, quiet) = try await quietPairs(count, latency: latency, run: run, context: context)
            let perPair = Double(quiet.requests.total) / Double(count)
            let met = perPair <= 2 && quiet.wallMs <= 500
            allMet = allMet && met
            document["a"] = [
                "pairs": count, "first": first.json, "quiet": quiet.json, "requestsPerPair": perPair,
                "goal": "<= 2 requests per pair and <= 500 ms", "goalMet": met,
            ] as [String: Any]
            say("(a) \(count) two-way pairs, each its own Outlook and Google mailbox, \(latency) ms API latency")
            say("  first sync:      " + first.line)
            say("  nothing changed: " + quiet.line)
            say(String(format: "  %.2f requests per pair, %.0f ms for the cycle (goal <= 2 and <= 500 ms: %@)", perPair, quiet.wallMs, met ? "met" : "NOT met"))
            breakdown(quiet.requests, say)
        }
        if scenario == "b" || scenario == "all" {
            let count = arguments[Options.events] ?? 10_000
            let (first, quiet, change) = try await oneChange(count, latency: latency, run: run, context: context)
            let met = change.requests.total <= 5
            allMet = allMet && met
            document["b"] = [
                "events": count, "first": first.json, "quiet": quiet.json, "oneChange": change.json, "goal": "<= 5 requests", "goalMet": met,
            ] as [String: Any]
            say("(b) one two-way pair, \(count) events seeded in Outlook, \(latency) ms API latency")
            say("  first sync:      " + first.line)
            say("  nothing changed: " + quiet.line)
            say("  one event added: " + change.line + " (goal <= 5 requests: \(met ? "met" : "NOT met"))")
            breakdown(change.requests, say)
        }
        if scenario == "c" || scenario == "all" {
            let count = arguments[Options.initial] ?? 1000
            let (copy, sync) = try await initialSync(count, latency: latency, run: run, context: context)
            document["c"] = [
                "events": count, "copy": ["wallMs": (copy.wallMs * 10).rounded() / 10, "requests": copy.requests, "result": copy.counts],
                "sync": sync.json, "wallRatio": copy.wallMs > 0 ? (sync.wallMs / copy.wallMs * 100).rounded() / 100 : 0,
            ] as [String: Any]
            say("(c) \(count) events seeded in Outlook, first run of each, \(latency) ms API latency")
            say(String(format: "  copy:  %8.1f ms, %5d requests; %d created", copy.wallMs, copy.requests, copy.counts["created"] ?? 0))
            say("  sync:  " + sync.line)
            breakdown(sync.requests, say)
        }
        if let transcript, let path = arguments[Options.requestTranscript] {
            try transcript.write(to: URL(fileURLWithPath: path))
        }
        if json {
            document["goalsMet"] = allMet
            context.print(try JSONText.render(document, pretty: false))
        }
        return .success
    }

    private static func breakdown(_ requests: BenchRequests, _ say: (String) -> Void) {
        for (kind, n) in requests.byKind.sorted(by: { $0.value > $1.value }) {
            say(String(format: "      %5d %@  (server %.0f ms in all)", n, kind, requests.serverMs[kind] ?? 0))
        }
    }

    // MARK: Scenarios

    /// (a): `count` pairs, each between its own Outlook mailbox and its own Google account.
    static func quietPairs(_ count: Int, latency: Int, run: Run, context: CommandContext) async throws -> (Timed, Timed) {
        let seed = try BenchSyncSeed.mailboxes(count)
        return try await BenchSandbox.with(latencyMs: latency, seed: seed, observer: run.observer) { sandbox, directory in
            let environment = try storeAccounts(sandbox, directory, context: context) { user in
                user.hasPrefix("outlook") || user.hasPrefix("google") ? String(user.prefix { $0 != "@" }) : nil
            }
            for index in 0..<count {
                try await calbridge(
                    ["sync", "add", "p\(index)", "--a", "outlook\(index):Calendar", "--b", "google\(index):primary", "--direction", "both"],
                    environment: environment, context: context)
            }
            let first = try await timedSync(sandbox: sandbox, environment: environment, run: run, context: context)
            let quiet = try await timedSync(sandbox: sandbox, environment: environment, run: run, context: context)
            for index in 0..<count {
                try await run.aliasCopies(
                    on: "google\(index):primary", named: [:], prefix: "a\(index)-", environment: environment, context: context)
            }
            return (first, quiet)
        }
    }

    /// (b): one pair over `count` events; one event added on Outlook after the first sync.
    static func oneChange(_ count: Int, latency: Int, run: Run, context: CommandContext) async throws -> (Timed, Timed, Timed) {
        try await BenchSandbox.with(latencyMs: latency, observer: run.observer) { sandbox, directory in
            let environment = try storeBuiltInAccounts(sandbox, directory, context: context)
            let sub = CommandContext(stdout: BufferSink(), stderr: BufferSink(), environment: environment, now: context.now)
            let seeded = try await BenchCopyCommand.seed(count: count, into: BenchCopyCommand.sourceRef, context: sub)
            try await calbridge(
                ["sync", "add", "big", "--a", BenchCopyCommand.sourceRef, "--b", BenchCopyCommand.targetRef, "--direction", "both"],
                environment: environment, context: context)
            let first = try await timedSync(sandbox: sandbox, environment: environment, run: run, context: context)
            let quiet = try await timedSync(sandbox: sandbox, environment: environment, run: run, context: context)
            let added = try await BenchCopyCommand.seed(count: 1, into: BenchCopyCommand.sourceRef, context: sub)
            let change = try await timedSync(sandbox: sandbox, environment: environment, run: run, context: context)
            try await run.aliasCopies(
                on: BenchCopyCommand.targetRef, named: Run.names(seeded + added, prefix: "b-"), prefix: "b-unnamed-",
                environment: environment, context: context)
            guard change.total("created") == 1 else {
                throw InputError("the sync after one added event created \(change.total("created")) copies, not 1", exitCode: .failure)
            }
            return (first, quiet, change)
        }
    }

    /// (c): `count` events copied to one Google calendar and synced (a-to-b, first run) to another.
    static func initialSync(_ count: Int, latency: Int, run: Run, context: CommandContext) async throws -> (BenchCopyCommand.Run, Timed) {
        try await BenchSandbox.with(latencyMs: latency, observer: run.observer) { sandbox, directory in
            let environment = try storeBuiltInAccounts(sandbox, directory, context: context)
            let sub = CommandContext(stdout: BufferSink(), stderr: BufferSink(), environment: environment, now: context.now)
            let seeded = try await BenchCopyCommand.seed(count: count, into: BenchCopyCommand.sourceRef, context: sub)
            let copy = try await BenchCopyCommand.copy(
                BenchCopyCommand.sourceRef, "google:Family", sandbox: sandbox, environment: environment, latency: latency,
                child: nil, name: "sync-bench-copy", context: context)
            try await calbridge(
                ["sync", "add", "first", "--a", BenchCopyCommand.sourceRef, "--b", BenchCopyCommand.targetRef],
                environment: environment, context: context)
            let sync = try await timedSync(sandbox: sandbox, environment: environment, run: run, context: context)
            try await run.aliasCopies(
                on: BenchCopyCommand.targetRef, named: Run.names(seeded, prefix: "c-"), prefix: "c-unnamed-", environment: environment,
                context: context)
            return (copy, sync)
        }
    }

    // MARK: Helpers

    /// What the scenarios share: the request transcript, when one was asked for.
    struct Run: Sendable {
        var transcript: BenchRequestTranscript?

        var observer: (@Sendable (ServerRequest) -> Void)? {
            guard let transcript else { return nil }
            return { @Sendable request in transcript.record(request) }
        }

        /// `ids` named `prefix` and their position.
        static func names(_ ids: [String], prefix: String) -> [String: String] {
            Dictionary(ids.enumerated().map { ($1, prefix + String($0)) }, uniquingKeysWith: { a, _ in a })
        }

        /// Names the sources in `named` (ids the sandbox made up at random), the other events of `target` that
        /// are not copies (`prefix`, `original-` and their position by start and title), and the copies on
        /// `target` after their sources (their ids and keys derive from the source's id): the source's name
        /// from `named`, else `prefix` and the copy's position. Read after the timed syncs, so not recorded.
        func aliasCopies(on target: String, named: [String: String], prefix: String, environment: [String: String], context: CommandContext)
            async throws
        {
            guard let transcript else { return }
            for (id, name) in named { transcript.alias(id, as: name) }
            let sub = CommandContext(stdout: BufferSink(), stderr: BufferSink(), environment: environment, now: context.now)
            let ref = try CalendarRef(parsing: target)
            let provider = try AccountProviders(context: sub, verbose: false).provider(for: ref)
            let calendar = try ref.resolve(in: try await provider.listCalendars())
            let now = context.now()
            let range = TimeRange(start: now.addingTimeInterval(-400 * 86_400), end: now.addingTimeInterval(800 * 86_400))
            let utc = TimeZone(secondsFromGMT: 0)!
            let listed = try await provider.listEvents(calendarID: calendar.id, range: range, expand: false)
                .sorted { ($0.start.instant(allDayZone: utc), $0.title) < ($1.start.instant(allDayZone: utc), $1.title) }
            // The calendar's own events that `named` does not name (the sandbox's seed): by position.
            for (position, event) in listed.filter({ $0.origin == nil && named[$0.id] == nil }).enumerated() {
                transcript.alias(event.id, as: prefix + "original-" + String(position))
            }
            let copies = listed.filter { $0.origin != nil }
            for (position, copy) in copies.enumerated() {
                guard let origin = copy.origin else { continue }
                let name = named[origin.eventID] ?? prefix + String(position)
                transcript.alias(origin.eventID, as: name)
                transcript.alias(copy.id, as: "copy-of-\(name)")
                transcript.alias(origin.eventKey, as: "key-of-\(name)")
            }
        }
    }

    /// Stores the sandbox's users whose account name `name(user)` gives, in the home `directory`; returns
    /// the environment that points calbridge at it.
    private static func storeAccounts(
        _ sandbox: SandboxServer, _ directory: URL, context: CommandContext, name: (String) -> String?
    ) throws -> [String: String] {
        let seeder = SandboxAccountSeeder(sandbox: sandbox, home: CalbridgeHome(directory: directory))
        for account in sandbox.info.accounts {
            if let local = name(account.user) { try seeder.store(user: account.user, as: local) }
        }
        var environment = context.environment
        environment["CALBRIDGE_HOME"] = directory.path
        return environment
    }

    /// The built-in seed's first Outlook user as `outlook`, its first Google user as `google` (as `copy`'s benchmark).
    private static func storeBuiltInAccounts(_ sandbox: SandboxServer, _ directory: URL, context: CommandContext) throws -> [String: String] {
        guard let outlook = sandbox.info.accounts.first(where: { $0.provider == .microsoft })?.user,
            let google = sandbox.info.accounts.first(where: { $0.provider == .google })?.user
        else { throw InputError("the sandbox seeds no Outlook or no Google user", exitCode: .failure) }
        return try storeAccounts(sandbox, directory, context: context) { user in
            user == outlook ? "outlook" : user == google ? "google" : nil
        }
    }

    /// Runs one calbridge command in-process; it must succeed.
    private static func calbridge(_ arguments: [String], environment: [String: String], context: CommandContext) async throws {
        let err = BufferSink()
        let sub = CommandContext(stdout: BufferSink(), stderr: err, environment: environment, now: context.now)
        let code = await CalbridgeCLI.run(arguments, context: sub)
        guard code == .success else {
            throw InputError("'calbridge \(arguments.joined(separator: " "))' failed (\(code)): \(err.text.prefix(500))", exitCode: .failure)
        }
    }

    /// `calbridge sync --format json`, in-process, timed; it must exit 0.
    private static func timedSync(
        sandbox: SandboxServer, environment: [String: String], run: Run, context: CommandContext
    ) async throws -> Timed {
        run.transcript?.resume()
        defer { run.transcript?.stop() }
        let out = BufferSink()
        let err = BufferSink()
        let sub = CommandContext(stdout: out, stderr: err, environment: environment, now: context.now)
        let mark = sandbox.log.count
        let started = ContinuousClock.now
        let code = await CalbridgeCLI.run(["sync", "--format", "json"], context: sub)
        let elapsed = ContinuousClock.now - started
        let requests = BenchRequests(since: mark, in: sandbox)
        guard code == .success else {
            throw InputError("'calbridge sync' failed (\(code)): \(err.text.prefix(500))", exitCode: .failure)
        }
        guard let document = try JSONSerialization.jsonObject(with: Data(out.text.utf8)) as? [String: Any],
            let entries = document["pairs"] as? [[String: Any]]
        else { throw InputError("'calbridge sync' printed no JSON document", exitCode: .failure) }
        return Timed(wallMs: BenchRequests.milliseconds(elapsed), requests: requests, entries: entries)
    }
}

/// Seed data for scenario (a): `count` Outlook mailboxes (`outlook<i>@contoso.sandbox`, a default calendar
/// with two events this week) and `count` Google accounts (`google<i>@gmail.sandbox`, an empty primary calendar).
enum BenchSyncSeed {
    static func mailboxes(_ count: Int) throws -> SandboxSeed {
        var googleUsers: [[String: Any]] = []
        var googleCalendars: [[String: Any]] = []
        var outlookUsers: [[String: Any]] = []
        for index in 0..<count {
            let gmail = "google\(index)@gmail.sandbox"
            googleUsers.append(["email": gmail, "displayName": "Google \(index)", "calendars": [["id": gmail, "accessRole": "owner", "primary": true]]])
            googleCalendars.append(["id": gmail, "summary": gmail, "timeZone": "UTC", "events": []])
            let events: [[String: Any]] = [
                ["key": "standup", "subject": "Standup \(index)", "start": "week+1d 09:00", "end": "week+1d 09:30", "timeZone": "UTC"],
                ["key": "review", "subject": "Review \(index)", "start": "week+3d 14:00", "end": "week+3d 15:00", "timeZone": "UTC"],
            ]
            outlookUsers.append([
                "id": String(format: "00000000-0000-4000-8000-%012d", index), "displayName": "Outlook \(index)",
                "mail": "outlook\(index)@contoso.sandbox", "mailboxSettings": ["timeZone": "UTC"],
                "calendars": [["key": "calendar", "name": "Calendar", "isDefaultCalendar": true, "isRemovable": false, "events": events]],
            ])
        }
        return SandboxSeed(
            google: try JSONSerialization.data(withJSONObject: ["users": googleUsers, "calendars": googleCalendars]),
            microsoft: try JSONSerialization.data(withJSONObject: ["users": outlookUsers]))
    }
}
