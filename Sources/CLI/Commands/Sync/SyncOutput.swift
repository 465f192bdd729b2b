import CalendarBridge
import Foundation
import Sync

/// How the `sync` commands print: JSON documents, summaries, times and ages.
enum SyncOutput {
    /// `value` as JSON (sorted keys; pretty unless told), control characters escaped for a terminal.
    static func json(_ value: some Encodable, pretty: Bool = true) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return TerminalText.escapeJSON(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// What the listings (`sync status`, `sync conflicts`) print in each format: `{key: entries}` as JSON, the
    /// `tsv` rows, or for a table the listing's own lines (`table`).
    static func printListing<Entry: Encodable>(
        _ entries: [Entry], key: String, format: OutputFormat?, header: Bool, tsv: @autoclosure () -> Table, context: CommandContext,
        table: () -> Void
    ) throws {
        switch format ?? .table {
        case .json: context.print(try json([key: entries]))
        case .tsv: context.printTable(tsv(), format: .tsv, header: header)
        case .table: table()
        }
    }

    /// An instant as RFC 3339 in UTC, seconds precision.
    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(secondsFromGMT: 0) ?? .current))
    }

    /// `3 h 5 min`, `42 s`, `2 d 4 h`: an age for people.
    static func age(_ seconds: Int) -> String {
        switch seconds {
        case ..<60: "\(seconds) s"
        case ..<3600: "\(seconds / 60) min"
        case ..<86_400: "\(seconds / 3600) h \(seconds % 3600 / 60) min"
        default: "\(seconds / 86_400) d \(seconds % 86_400 / 3600) h"
        }
    }

    /// `1 created, 2 updated, 0 deleted, 40 unchanged, 0 failed` (and `, 2 matched by start, title and location`
    /// when a feed gave events new ids).
    static func counts(_ counts: SyncCounts) -> String {
        "\(counts.created) created, \(counts.updated) updated, \(counts.deleted) deleted, \(counts.unchanged) unchanged, \(counts.failed) failed"
            + (counts.matchedByContent > 0 ? ", \(counts.matchedByContent) matched by start, title and location (new UIDs)" : "")
    }

    /// `A->B 1 created, ...; B->A ...; 1 conflict, 2 requests`.
    static func summary(_ counts: SyncRunCounts) -> String {
        "A->B " + Self.counts(counts.aToB) + "; B->A " + Self.counts(counts.bToA)
            + "; \(counts.conflicts) conflict\(counts.conflicts == 1 ? "" : "s"), \(counts.requests) requests"
    }

    /// The result of one pair as `sync` prints it in a table run.
    static func describe(_ result: SyncPairRunner.Result, context: CommandContext) {
        let pair = result.pair
        let arrow = pair.options.direction.arrow
        guard let report = result.report else {
            context.print("\(pair.name): A \(pair.labelA) \(arrow) B \(pair.labelB): \(result.outcome.rawValue)")
            return
        }
        let would = report.dryRun ? " (dry run: nothing written)" : ""
        context.print("\(pair.name): A \(pair.labelA) \(arrow) B \(pair.labelB)\(would)")
        if pair.options.direction.carries(from: .a) { context.print("  A -> B: " + counts(report.aToB)) }
        if pair.options.direction.carries(from: .b) { context.print("  B -> A: " + counts(report.bToA)) }
        for conflict in report.conflicts {
            let winner = conflict.winner == .a ? "A" : "B"
            let loser = conflict.winner == .a ? "B" : "A"
            if conflict.loser.status == .cancelled {
                context.print(
                    "  conflict '\(conflict.title)': \(conflict.reason); \(loser)'s deletion is kept in sync.db "
                        + "('calbridge sync conflicts' lists it, 'sync conflicts restore ID' deletes it again)")
                continue
            }
            context.print(
                "  conflict '\(conflict.title)': changed on both sides; \(winner)'s version won (\(conflict.reason)), "
                    + "\(loser)'s is kept in sync.db")
        }
        for notice in report.notices { context.print("  note: \(notice)") }
        if report.interrupted == true {
            context.print("  interrupted: the writes in flight finished and were recorded; run it again to finish")
        }
        context.print("  \(report.requests) requests")
    }

    /// The document `sync --format json` prints: one entry per pair.
    struct Document: Encodable {
        var dryRun: Bool
        var pairs: [Entry]
    }

    /// One pair's entry: the engine's report (name, per direction counts, conflicts with both versions and
    /// the winner, requests, ...) and its outcome, or for a pair that could not run, its error.
    struct Entry: Encodable {
        var result: SyncPairRunner.Result

        private enum Keys: String, CodingKey {
            case name, outcome, error, exitCode, a, b, aName, bName
        }

        func encode(to encoder: any Encoder) throws {
            if let report = result.report { try report.encode(to: encoder) }
            var container = encoder.container(keyedBy: Keys.self)
            if result.report == nil { try container.encode(result.pair.name, forKey: .name) }
            try container.encode(result.outcome.rawValue, forKey: .outcome)
            try container.encode(result.exitCode.rawValue, forKey: .exitCode)
            try container.encodeIfPresent(result.error, forKey: .error)
            try container.encode(result.pair.record.sideA, forKey: .a)
            try container.encode(result.pair.record.sideB, forKey: .b)
            try container.encode(result.pair.labelA, forKey: .aName)
            try container.encode(result.pair.labelB, forKey: .bName)
        }
    }

    /// One line for the watcher's log: what a pair's run did, or why it failed, and when it runs next.
    static func logLine(_ result: SyncPairRunner.Result, next: Duration, asJSON: Bool) -> String {
        if asJSON {
            let entry = LogEntry(
                time: timestamp(result.finished), pair: result.pair.name, outcome: result.outcome.rawValue,
                counts: SyncRunCounts(result.report), error: result.error ?? result.report?.errors.first?.message,
                nextRunSeconds: Int(next.components.seconds))
            return (try? json(entry, pretty: false)) ?? #"{"pair":"?","outcome":"unencodable"}"#
        }
        var line = "\(timestamp(result.finished)) sync \(result.pair.name): \(result.outcome.rawValue)"
        if let counts = SyncRunCounts(result.report) { line += ": " + summary(counts) }
        if let error = result.error { line += ": " + error }
        line += result.exitCode == .success || result.exitCode == .partial ? "" : "; retrying in \(DurationText.format(next))"
        return line
    }

    struct LogEntry: Encodable {
        var time: String
        var pair: String
        var outcome: String
        var counts: SyncRunCounts?
        var error: String?
        var nextRunSeconds: Int
    }
}

/// The watcher's log on stderr: one line per pair run and per event of the watcher itself (text, or NDJSON
/// with `--format json`).
struct SyncWatchLog: Sendable {
    var json: Bool
    var context: CommandContext

    func write(_ event: SyncWatchEvent) {
        switch event {
        case .started(let pairs, let interval):
            let pid = Int(getpid())
            line(
                event: "start",
                text: "watching \(pairs.count) sync pair\(pairs.count == 1 ? "" : "s") every \(DurationText.format(interval)) "
                    + "(pid \(pid)); SIGINT or SIGTERM stops it",
                fields: ["pid": pid, "pairs": pairs, "intervalSeconds": Int(interval.components.seconds)])
        case .pairFinished(let result, let next):
            context.printError(SyncOutput.logLine(result, next: next, asJSON: json))
        case .cannotReadPairs(let error):
            line(event: "error", text: "cannot read the sync pairs: " + ErrorReporting.message(for: error), fields: [:])
        case .stopped(let reason):
            line(event: "stop", text: "stopping on \(reason): the runs in flight finished", fields: ["signal": reason])
        }
    }

    /// A line about the watcher itself (not a pair): text, or an NDJSON object with `event`.
    func line(event: String, text: String, fields: [String: Any]) {
        let time = SyncOutput.timestamp(context.now())
        guard json else {
            context.printError("\(time) sync --watch: \(text)")
            return
        }
        var object = fields
        object["time"] = time
        object["event"] = event
        object["message"] = text
        context.printError((try? JSONText.render(object, pretty: false)) ?? #"{"event":"\#(event)"}"#)
    }
}
