import Testing

@testable import CLI

/// `--interval` values: a number with a unit, or several units in decreasing order.
@Suite("Duration text")
struct DurationTextTests {
    @Test("read", arguments: [
        ("30s", 30), ("5m", 300), ("1h", 3600), ("1h30m", 5400), ("2m30s", 150), ("1h0m5s", 3605), ("90s", 90),
    ])
    func parses(_ text: String, _ seconds: Int64) {
        #expect(DurationText.parse(text) == .seconds(seconds))
    }

    @Test("refused", arguments: ["", "5", "m", "5x", "0s", "5m1h", "5m5m", "-5m", "1.5h", "5 m", "1234567890s", "99999999h", "٥m"])
    func refuses(_ text: String) {
        #expect(DurationText.parse(text) == nil)
    }

    @Test("written back the way it is read", arguments: [1, 59, 60, 61, 3600, 5400, 86_399])
    func roundTrip(_ seconds: Int64) {
        let text = DurationText.format(.seconds(seconds))
        #expect(DurationText.parse(text) == .seconds(seconds))
    }

    @Test("as an option: a bad value is a usage error naming the forms")
    func option() throws {
        let interval = Option.duration("interval", "DURATION", "How often.", in: .seconds(1)...(.seconds(86_400)))
        let spec = CommandSpec(["x"], abstract: "x", options: [interval])
        #expect(try ArgumentParser.parse(["--interval", "5m"], for: spec)[interval] == .seconds(300))
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["--interval", "2d"], for: spec) }
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["--interval", "25h"], for: spec) }
    }
}
