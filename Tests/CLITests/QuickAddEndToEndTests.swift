import Foundation
import TestSupport
import Testing

@Suite("calbridge quick-add --dry-run (the built binary)")
struct QuickAddEndToEndTests {
    let fixed = ["--now", "2026-03-05T10:00:00-05:00", "--tz", "America/New_York"]

    func json(_ stdout: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
    }

    @Test("JSON has exactly the documented keys, RFC 3339 times and a null location")
    func jsonShape() async throws {
        let result = try await CalbridgeBinary.run(
            ["quick-add", "--dry-run", "Lunch with Ann tomorrow 1pm"] + fixed + ["--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try json(result.stdout)
        #expect(
            Set(object.keys) == [
                "title", "start", "end", "allDay", "timeZone", "location", "recurrence", "repeat", "past", "parser", "readIn", "doubts",
            ])
        #expect(object["readIn"] as? String == "America/New_York (--tz)")
        #expect(object["parser"] as? String == "calbridge")
        #expect(object["past"] as? Bool == false)
        #expect((object["doubts"] as? [Any])?.isEmpty == true)
        #expect(object["repeat"] is NSNull)
        #expect(object["title"] as? String == "Lunch with Ann")
        #expect(object["start"] as? String == "2026-03-06T13:00:00-05:00")
        #expect(object["end"] as? String == "2026-03-06T14:00:00-05:00")
        #expect(object["allDay"] as? Bool == false)
        #expect(object["timeZone"] as? String == "America/New_York")
        #expect(object["location"] is NSNull)
        #expect((object["recurrence"] as? [Any])?.isEmpty == true)
    }

    @Test("all-day events print plain dates with an exclusive end; repeats print RRULE lines")
    func allDayAndRepeat() async throws {
        let range = try await CalbridgeBinary.run(["quick-add", "--dry-run", "Conference Dec 14-16", "--format", "json"] + fixed)
        let days = try json(range.stdout)
        #expect(days["start"] as? String == "2026-12-14")
        #expect(days["end"] as? String == "2026-12-17")
        #expect(days["allDay"] as? Bool == true)
        let weekly = try await CalbridgeBinary.run(["quick-add", "--dry-run", "Gym every Monday 6pm at the Y", "--format", "json"] + fixed)
        let rule = try json(weekly.stdout)
        #expect(rule["recurrence"] as? [String] == ["RRULE:FREQ=WEEKLY;BYDAY=MO"])
        #expect(rule["repeat"] as? String == "every Monday at 18:00")
        #expect(rule["location"] as? String == "the Y")
    }

    @Test("text without a date or time: exit 2 and one line on stderr with an example")
    func rejection() async throws {
        let result = try await CalbridgeBinary.run(["quick-add", "--dry-run", "Buy milk"] + fixed)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(result.stderr.contains("\"Buy milk\""))
        #expect(result.stderr.contains("for example \"Lunch with Ann tomorrow 1pm at Cafe Luna\""))
    }

    @Test("--lang de, or a German $LANG, reads German; the example in errors is German too")
    func german() async throws {
        let explicit = try await CalbridgeBinary.run(
            ["quick-add", "--dry-run", "Zahnarzt morgen 15 Uhr", "--lang", "de", "--format", "json"] + fixed)
        #expect(try json(explicit.stdout)["start"] as? String == "2026-03-06T15:00:00-05:00")
        let fromEnvironment = try await CalbridgeBinary.run(
            ["quick-add", "--dry-run", "Zahnarzt 5.12. 15 Uhr", "--format", "json"] + fixed,
            environment: ["LANG": "de_DE.UTF-8", "LC_ALL": ""])
        #expect(try json(fromEnvironment.stdout)["start"] as? String == "2026-12-05T15:00:00-05:00")
        let rejected = try await CalbridgeBinary.run(["quick-add", "--dry-run", "Einkaufen", "--lang", "de"] + fixed)
        #expect(rejected.status == 2)
        #expect(rejected.stderr.contains("zum Beispiel „Zahnarzt morgen 15 Uhr“"), "\(rejected.stderr)")
    }

    @Test("numeric date order: mdy for en_US, dmy for en_GB, --date-order wins")
    func dateOrder() async throws {
        let text = ["quick-add", "--dry-run", "Party 4/1", "--format", "json"] + fixed
        let us = try await CalbridgeBinary.run(text, environment: ["LANG": "en_US.UTF-8", "LC_ALL": ""])
        #expect(try json(us.stdout)["start"] as? String == "2026-04-01")
        let uk = try await CalbridgeBinary.run(text, environment: ["LANG": "en_GB.UTF-8", "LC_ALL": ""])
        #expect(try json(uk.stdout)["start"] as? String == "2027-01-04")
        let forced = try await CalbridgeBinary.run(text + ["--date-order", "mdy"], environment: ["LANG": "en_GB.UTF-8", "LC_ALL": ""])
        #expect(try json(forced.stdout)["start"] as? String == "2026-04-01")
    }

    @Test("--tz defaults to $TZ; --now without an offset is a wall time in that zone")
    func zoneDefaults() async throws {
        let result = try await CalbridgeBinary.run(
            ["quick-add", "--dry-run", "Call tomorrow 9am", "--now", "2026-03-05T23:30", "--format", "json"],
            environment: ["TZ": "Asia/Tokyo"])
        let object = try json(result.stdout)
        #expect(object["timeZone"] as? String == "Asia/Tokyo")
        #expect(object["start"] as? String == "2026-03-06T09:00:00+09:00")
    }

    @Test("the table format lists every field for people")
    func table() async throws {
        let result = try await CalbridgeBinary.run(["quick-add", "--dry-run", "Lunch tomorrow 1pm at Cafe Luna"] + fixed)
        #expect(result.status == 0)
        for field in ["title", "start", "end", "all day", "time zone", "location", "repeats"] {
            #expect(result.stdout.contains(field), "missing \(field)")
        }
        #expect(result.stdout.contains("Cafe Luna"))
    }

    @Test("usage mistakes: no --dry-run, bad --tz, bad --now, bad --lang are exit 2 with one line")
    func usageErrors() async throws {
        let cases: [([String], String)] = [
            (["quick-add", "Lunch tomorrow 1pm"], "--dry-run"),
            (["quick-add", "--dry-run", "Lunch tomorrow 1pm", "--tz", "Mars/Base"], "--tz"),
            (["quick-add", "--dry-run", "Lunch tomorrow 1pm", "--now", "yesterday"], "--now"),
            (["quick-add", "--dry-run", "Lunch tomorrow 1pm", "--lang", "fr"], "--lang"),
            (["quick-add", "--dry-run"], "TEXT"),
        ]
        for (arguments, mentioned) in cases {
            let result = try await CalbridgeBinary.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(mentioned), "\(arguments): \(result.stderr)")
        }
    }

    @Test("with a calendar, --dry-run reads that calendar's zone, so an unknown account is exit 2")
    func calendarRefThenText() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("calbridge-qa-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let result = try await CalbridgeBinary.run(
            ["quick-add", "work:primary", "Lunch tomorrow 1pm", "--dry-run", "--format", "json"] + fixed,
            environment: ["CALBRIDGE_HOME": home.path])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("work"))
    }

    @Test("a preview without a calendar says which zone it read the text in")
    func zoneNamed() async throws {
        let result = try await CalbridgeBinary.run(
            ["quick-add", "--dry-run", "Dinner tomorrow 7pm", "--now", "2026-12-04T17:30:00"], environment: ["TZ": "Europe/Berlin"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("calbridge, in Europe/Berlin ($TZ)"), "\(result.stdout)")
        #expect(result.stdout.contains("2026-12-05T19:00:00+01:00"))
    }

    @Test("bench quick-add runs the corpus and reports phrases per second and the exact rates per language and held out")
    func bench() async throws {
        let result = try await CalbridgeBinary.run(["quick-add", "--seconds", "0.2", "--no-ctparse"], executable: "calbridge-bench")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("corpus phrases"))
        #expect(result.stdout.contains("phrases/s"))
        for label in [
            "English (hand-labelled)", "German (hand-labelled)", "held-out 2026-12-06c (sixth) English",
            "held-out 2026-12-06c (sixth) German", "held-out 2026-12-06c (sixth) ", "spent held-out 2026-12-06b ",
            "spent held-out 1 ", "doubts dev set 6 ",
        ] {
            #expect(result.stdout.contains("exact: \(label)"), "\(result.stdout)")
        }
    }
}
