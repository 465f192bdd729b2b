import Foundation
import Testing
import TestSupport

/// `calbridge copy`'s progress bar, which it draws on stderr only when stderr is a terminal: the built
/// binary run with its stderr on a pseudo-terminal, and on a pipe.
@Suite("calbridge copy's progress bar, end to end against the sandbox")
struct CopyProgressBarEndToEndTests {
    /// More than one batch of writes (Google batches take 50, Graph's 20), so the bar is drawn mid-way too.
    static let events = 120

    @Test("on a terminal: one bar redrawn after carriage returns, counts up to 120/120, a rate, an ETA while unfinished, then a newline; on a pipe, a dry run or with nothing to write: no bar")
    func progressBar() async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            for i in 0..<Self.events {
                let day = "2027-06-" + (i % 28 < 9 ? "0" : "") + "\(i % 28 + 1)"
                _ = try await home.api.graphCreate([
                    "subject": "Progress \(i)",
                    "start": ["dateTime": day + "T\(10 + i % 10):00:00", "timeZone": "W. Europe Standard Time"],
                    "end": ["dateTime": day + "T\(10 + i % 10):30:00", "timeZone": "W. Europe Standard Time"],
                ])
            }
            let copy = ["copy", "carol:Calendar"]

            // Not a terminal (a pipe, as in every other test): the same copy prints nothing on stderr.
            let piped = try await home.run(copy + ["ann:Family"] + CopyFixtures.windowOptions)
            #expect(piped.status == 0, "\(piped.stderr)")
            #expect(piped.stdout.contains(": \(Self.events) created"), "\(piped.stdout)")
            #expect(piped.stderr.isEmpty, "\(piped.stderr.debugDescription)")

            let shown = try await home.run(copy + ["ann:primary"] + CopyFixtures.windowOptions, stderrOnTerminal: true)
            #expect(shown.status == 0, "\(shown.stderr.debugDescription)")
            #expect(shown.stdout.contains(": \(Self.events) created"), "\(shown.stdout)")
            #expect(!shown.stdout.contains("\r"), "\(shown.stdout.debugDescription)")
            let bar = shown.stderr
            // Every drawing starts at the line's beginning, and the last one is ended with a newline.
            #expect(bar.hasPrefix("\r["), "\(bar.debugDescription)")
            #expect(bar.hasSuffix("\u{1B}[K\n"), "\(bar.debugDescription)")
            let drawings = try bar.dropFirst().split(separator: "\r", omittingEmptySubsequences: false).map(Self.drawing)
            #expect(drawings.count >= 2, "\(bar.debugDescription)")
            #expect(drawings.map(\.completed) == drawings.map(\.completed).sorted(), "\(bar.debugDescription)")
            #expect(drawings.allSatisfy { $0.total == Self.events && $0.rate > 0 })
            let last = try #require(drawings.last)
            #expect(last.completed == Self.events && last.filled == 24 && last.eta == nil, "\(bar.debugDescription)")
            // Before the end the bar is partly filled and tells how long the rest takes.
            let unfinished = drawings.dropLast()
            #expect(!unfinished.isEmpty && unfinished.allSatisfy { $0.completed < Self.events && $0.filled < 24 && $0.eta != nil },
                    "\(bar.debugDescription)")

            // Nothing to write, or only a plan: no bar (and no stray newline), even on a terminal.
            for extra in [[], ["--dry-run"]] {
                let quiet = try await home.run(copy + ["ann:primary"] + CopyFixtures.windowOptions + extra, stderrOnTerminal: true)
                #expect(quiet.status == 0, "\(quiet.stderr.debugDescription)")
                #expect(quiet.stdout.contains("\(Self.events) unchanged"), "\(quiet.stdout)")
                #expect(quiet.stderr.isEmpty, "\(extra): \(quiet.stderr.debugDescription)")
            }
        }
    }

    /// One drawing of the bar: `[#####-------------------] 20/50  123.4/s  ETA 1s` + erase-to-end-of-line.
    struct Drawing {
        var filled: Int
        var completed: Int
        var total: Int
        var rate: Double
        var eta: Int?
    }

    struct Unreadable: Error, CustomStringConvertible {
        var description: String
    }

    static func drawing(_ text: Substring) throws -> Drawing {
        let pattern = #/^\[(#*)(-*)\] (\d+)/(\d+)  (\d+\.\d)/s(?:  ETA (\d+)s)?\x{1B}\[K\n?$/#
        guard let match = text.wholeMatch(of: pattern), match.1.count + match.2.count == 24,
              let completed = Int(match.3), let total = Int(match.4), let rate = Double(match.5)
        else { throw Unreadable(description: "not a progress bar: \(String(text).debugDescription)") }
        return Drawing(filled: match.1.count, completed: completed, total: total, rate: rate, eta: match.6.flatMap { Int($0) })
    }
}
