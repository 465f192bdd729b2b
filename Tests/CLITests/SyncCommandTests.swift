import Foundation
import Sync
import Testing

@testable import CLI

/// The sync commands' pure parts: how several pairs' outcomes make one exit code, which pair names are
/// taken, and the watcher's log lines.
@Suite("sync commands, offline parts")
struct SyncCommandTests {
    static let when = Date(timeIntervalSince1970: 1_790_000_000)

    static func result(_ name: String, _ code: ExitCode, ran: Bool = true) -> SyncPairRunner.Result {
        let record = SyncPairRecord(name: name, sideA: "a:1", sideB: "b:2", options: SyncPairOptions.defaults.encoded(), created: when)
        var report = SyncReport(name: name, dryRun: false, started: when)
        report.aToB.created = 2
        report.requests = 3
        if code == .partial { report.errors = [SyncItemError(side: .b, eventID: nil, title: nil, message: "one failed")] }
        let failure = SyncPairFailure(
            error: InputError("it broke", exitCode: code), message: "it broke", needsSignIn: code == .reauthenticate,
            account: code == .reauthenticate ? "work" : nil)
        return SyncPairRunner.Result(
            pair: SyncPair(record: record, options: .defaults), report: ran ? report : nil, failure: ran ? nil : failure, started: when,
            finished: when)
    }

    @Test("one exit code for several pairs", arguments: [
        ([ExitCode.success, .success], [true, true], ExitCode.success),
        ([.success, .partial], [true, true], .partial),
        ([.success, .failure], [true, false], .partial),
        ([.success, .usage], [true, false], .partial),
        ([.failure, .failure], [false, false], .failure),
        ([.usage], [false], .usage),
        ([.usage, .failure], [false, false], .failure),
        ([.success, .reauthenticate], [true, false], .reauthenticate),
        ([.partial, .reauthenticate, .failure], [true, false, false], .reauthenticate),
    ])
    func exitCode(_ codes: [ExitCode], _ ran: [Bool], _ expected: ExitCode) {
        let results = zip(codes, ran).enumerated().map { Self.result("p\($0.offset)", $0.element.0, ran: $0.element.1) }
        #expect(results.map(\.exitCode) == codes)
        #expect(SyncPairRunner.exitCode(results) == expected)
    }

    @Test("pair names", arguments: [
        ("work-home", true), ("a.b_c-9", true), (String(repeating: "x", count: 64), true), ("", false),
        (String(repeating: "x", count: 65), false), ("-x", false), (".x", false), ("a b", false), ("a/b", false),
        ("a:b", false), ("list", false), ("Status", false), ("add", false), ("naïve", false), ("x\u{1B}[2J", false),
    ])
    func names(_ name: String, _ accepted: Bool) {
        let valid = (try? SyncAddCommand.validate(name: name)) != nil
        #expect(valid == accepted)
    }

    @Test("the watcher's log line: text with counts, or one JSON object; a failure says when it is retried")
    func logLines() throws {
        let ok = SyncOutput.logLine(Self.result("p", .success), next: .seconds(300), asJSON: false)
        #expect(ok == "2026-09-21T14:13:20Z sync p: ok: A->B 2 created, 0 updated, 0 deleted, 0 unchanged, 0 failed; B->A 0 created, 0 updated, 0 deleted, 0 unchanged, 0 failed; 0 conflicts, 3 requests")
        let failed = SyncOutput.logLine(Self.result("p", .failure, ran: false), next: .seconds(5400), asJSON: false)
        #expect(failed == "2026-09-21T14:13:20Z sync p: failed: it broke; retrying in 1h30m")
        let json = SyncOutput.logLine(Self.result("p", .failure, ran: false), next: .seconds(90), asJSON: true)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["pair"] as? String == "p" && object["outcome"] as? String == "failed" && object["error"] as? String == "it broke")
        #expect(object["nextRunSeconds"] as? Int == 90)
        #expect(!json.contains("\n"))
    }

    @Test("the sync commands are listed, and 'sync NAME' is not mistaken for a subcommand", arguments: [
        (["sync", "add", "x"], "sync add"), (["sync", "work-home"], "sync"), (["sync", "--watch"], "sync"),
        (["sync", "status", "x"], "sync status"),
    ])
    func dispatch(_ words: [String], _ expected: String) {
        let name: String = CommandSuite.calbridge.match(words).map { matched in matched.command.spec.name } ?? ""
        #expect(name == expected)
    }

    @Test("the progress line of a one-shot sync on a terminal")
    func progressLine() {
        #expect(SyncProgressLine.text(ended: 0, pairs: 1, written: 0, failed: 0, failedPairs: 0) == "sync: 0/1 pair, 0 written")
        #expect(
            SyncProgressLine.text(ended: 2, pairs: 5, written: 340, failed: 1, failedPairs: 2)
                == "sync: 2/5 pairs, 340 written, 1 failed, 2 pairs could not run")
        let sink = BufferSink()
        let line = SyncProgressLine(sink: sink, pairs: 2)
        line.wrote(8, failed: 0)
        line.wrote(4, failed: 1)
        line.pairEnded(failed: false)
        line.finish()
        let expected =
            "\rsync: 0/2 pairs, 8 written\u{1B}[K\rsync: 0/2 pairs, 12 written, 1 failed\u{1B}[K"
            + "\rsync: 1/2 pairs, 12 written, 1 failed\u{1B}[K\r\u{1B}[K"
        #expect(sink.text == expected)
    }

    @Test("the sync group")
    func group() {
        let names: [String] = CommandSuite.calbridge.group("sync").map { command in command.spec.name }
        #expect(names == ["sync add", "sync list", "sync remove", "sync status", "sync edit", "sync conflicts", "sync conflicts restore"])
    }
}
