import Foundation
import Sandbox
import TestSupport
import Testing

/// `calbridge import` of files beyond its limits, the built binary against the sandbox: each one exit 2 with
/// one line saying what was wrong and where, in bounded time, and nothing written to the calendar.
@Suite("calbridge import: the limits of a file, end to end")
struct ImportLimitsEndToEndTests {
    static func calendar(_ body: [String]) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//limits//EN"] + body + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
    }

    /// Imports `text` as a file and expects exit 2, nothing written, and `words` in the one error line.
    func refused(_ home: SandboxHome, _ name: String, _ text: String, saying words: [String]) async throws {
        let file = home.directory.url.appendingPathComponent(name)
        try text.write(to: file, atomically: false, encoding: .utf8)
        let mark = home.sandbox.log.count
        let started = Date()
        let run = try await home.run(["import", file.path, "ann:primary"])
        #expect(run.status == 2, "\(name): exit \(run.status): \(run.stderr)")
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(name): \(run.stderr)")
        for word in words { #expect(run.stderr.contains(word), "\(name): '\(word)' not in \(run.stderr)") }
        #expect(home.apiMethods(since: mark).isDisjoint(with: ["POST", "PATCH", "PUT", "DELETE"]), "\(name) wrote")
        #expect(Date().timeIntervalSince(started) < 60, "\(name) took \(Date().timeIntervalSince(started)) s")
    }

    @Test(
        "over 50 MB, nested 100,000 deep, a million-occurrence rule, dates and times that do not exist: exit 2, the line named", .ownThread)
    func limits() async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            // 51 MB: refused by its size, before it is parsed (a size has no line: the message names the limit).
            let event = ["BEGIN:VEVENT", "UID:big", "DTSTART:20270410T090000Z", "SUMMARY:Big"]
            let padding = String(repeating: "DESCRIPTION:" + String(repeating: "x", count: 60) + "\r\n", count: 51 * 1_048_576 / 74 + 1)
            try await refused(
                home, "big.ics", Self.calendar(event) + padding + "END:VEVENT\r\n",
                saying: ["big.ics", "larger than 50 MB", "split the file"])

            // Components nested 100,000 deep (libical would overflow its stack freeing them): the deepest level's line.
            let nested = Array(repeating: "BEGIN:X-DEEP", count: 100_000) + Array(repeating: "END:X-DEEP", count: 100_000)
            let deep = Self.calendar(["BEGIN:VEVENT"] + nested + ["END:VEVENT"])
            try await refused(home, "deep.ics", deep, saying: ["deep", "100002 deep (line 100004)"])

            // A rule with a million occurrences in the import's window (every minute, for years).
            let minutely = [
                "BEGIN:VEVENT", "UID:every-minute", "DTSTAMP:20270101T000000Z", "DTSTART:20270101T000000Z", "DURATION:PT1M",
                "RRULE:FREQ=MINUTELY;COUNT=1000000", "SUMMARY:Every minute", "END:VEVENT",
            ]
            try await refused(
                home, "minutely.ics", Self.calendar(minutely), saying: ["every-minute", "line 4", "more than 10000 occurrences"])

            // Dates and times that do not exist.
            let february = ["BEGIN:VEVENT", "UID:feb", "DTSTART:20270231T090000Z", "END:VEVENT"]
            try await refused(home, "february.ics", Self.calendar(february), saying: ["line 6", "not a real date"])
            let hour = ["BEGIN:VEVENT", "UID:hour", "DTSTART:20270210T090000Z", "DTEND:20270210T250000Z", "END:VEVENT"]
            try await refused(home, "hour.ics", Self.calendar(hour), saying: ["line 7"])
            let exdate = [
                "BEGIN:VEVENT", "UID:ex", "DTSTART:20270210T090000Z", "RRULE:FREQ=DAILY;COUNT=3", "EXDATE:20271345T090000Z", "END:VEVENT",
            ]
            try await refused(home, "exdate.ics", Self.calendar(exdate), saying: ["line 8"])
        }
    }
}
