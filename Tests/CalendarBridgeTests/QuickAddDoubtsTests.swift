import CalendarBridge
import Foundation
import Testing

/// Doubts: a reading the parser is unsure of is flagged (and the CLI refuses it without --yes), a sure one is not.
@Suite("Quick-add doubts (docs/quick-add.md, \"Doubts\")")
struct QuickAddDoubtsTests {
    /// Tuesday 2026-03-10 09:00 in New York / Berlin.
    static let now = QuickAddTestSupport.instant("2026-03-10T09:00:00-04:00")

    static func codes(_ text: String, lang: String = "en", dateOrder: String? = nil, now: Date = now) throws -> [String] {
        let zone = try #require(QuickAddZone(identifier: lang == "de" ? "Europe/Berlin" : "America/New_York"))
        let result = try QuickAddTestSupport.parser(lang: lang, dateOrder: dateOrder).parse(text, now: now, zone: zone)
        return result.doubts.map(\.code.rawValue)
    }

    @Test(
        "each kind of doubt is found where the reading is unsure",
        arguments: [
            ("Dentist Tuesday 2", "en", "numberInTitle"),
            ("Hair cut Sat 11", "en", "numberInTitle"),
            ("Meeting 3 Thursday", "en", "numberInTitle"),
            ("Vorstellungsgespräch Donnerstag 9", "de", "numberInTitle"),
            ("Book club 7:30 on the 15th", "en", "defaultHour"),
            ("Meet Sarah at 6 Friday", "en", "defaultHour"),
            ("Run at 8 tomorrow", "en", "defaultHour"),
            ("Swap shifts 5/6", "en", "dateOrder"),
            ("Call with Tom March 3", "en", "nextYear"),
        ])
    func flagged(_ text: String, _ lang: String, _ code: String) throws {
        #expect(try Self.codes(text, lang: lang).contains(code), "\(text)")
    }

    @Test(
        "a sure reading has no doubts: counts, versions, rooms, codes, titles by rule, hours the rule reads without doubt",
        arguments: [
            ("Pick up 2 tickets Friday", "en"), ("Release 2.4 on Monday", "en"), ("Room 204 booked for workshop tomorrow 9-11", "en"),
            ("Sprint 14 demo Wednesday 3pm", "en"), ("Deploy v1.2.3 Monday 9am", "en"), ("PR #481 review tomorrow 10am", "en"),
            ("Morning run tomorrow", "en"), ("Daily standup 9:30", "en"), ("Call at 4:30", "en"), ("Dinner at 7", "en"),
            ("Interview 10/14 at 1pm", "en"), ("Lunch with Jan tomorrow 1pm", "en"), ("Sync with PM tomorrow 3pm", "en"),
            ("Buy Christmas tree Saturday", "en"),
            ("Abgabe Projekt 2 am Freitag", "de"), ("Version 4.2 ausrollen am Montag", "de"), ("3 Flaschen Wein kaufen morgen", "de"),
            ("Team-Meeting um 10 Uhr in Raum 12", "de"), ("Flug nach Rom Montag 6:40", "de"), ("Geburtstag Oma 12.3.", "de"),
            ("Doctor appointment March 18 at 2:45pm", "en"), ("7-Eleven run tomorrow 5pm", "en"),
        ])
    func sure(_ text: String, _ lang: String) throws {
        #expect(try Self.codes(text, lang: lang).isEmpty, "\(text)")
    }

    @Test("a numeric date is doubted only when both orders are dates and differ; a day named a month ago is not 'next year'")
    func orderAndYear() throws {
        #expect(try Self.codes("Swap shifts 5/5").isEmpty)
        #expect(try Self.codes("Swap shifts 5/13").isEmpty)
        #expect(try Self.codes("Swap shifts 5/6", dateOrder: "dmy") == ["dateOrder"])
        #expect(try Self.codes("Call with Tom Feb 3").isEmpty, "Feb 3 passed 35 days before March 10")
        #expect(try Self.codes("Call with Tom March 3 2027").isEmpty, "a year is given")
    }

    @Test("doubts are in the text's language and name the words at fault, in JSON as code and reason")
    func reasons() throws {
        let zone = try #require(QuickAddZone(identifier: "Europe/Berlin"))
        let german = try QuickAddTestSupport.parser(lang: "de").parse("Zahnarzt Dienstag 3", now: Self.now, zone: zone)
        #expect(german.doubts.first?.reason.contains("„3“") == true, "\(german.doubts)")
        #expect(german.doubts.first?.reason.contains("Uhr") == true, "\(german.doubts)")
        let data = try JSONEncoder().encode(german)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let doubts = try #require(object["doubts"] as? [[String: String]])
        #expect(doubts.first?["code"] == "numberInTitle")
        #expect(doubts.first?["reason"] == german.doubts.first?.reason)
    }
}

/// What the doubts cost and catch on the labelled sets (the bench prints the same figures for every set).
@Suite("Quick-add doubts on the labelled sets")
struct QuickAddDoubtsCorpusTests {
    static func score(_ name: String) throws -> QuickAddCorpus.Score {
        let url = QuickAddTestSupport.corpusDirectory.appendingPathComponent("\(name).jsonl")
        return try QuickAddCorpus(contentsOf: url).score { QuickAddTestSupport.windowsNames[$0] }
    }

    @Test(
        "few right readings are flagged: under 3% false alarms on the phrases the parser reads right",
        arguments: ["moments-en", "moments-de"])
    func falseAlarms(_ name: String) throws {
        let score = try Self.score(name)
        #expect(score.right > 400)
        #expect(score.falseAlarmRate < 0.03, "\(score.flaggedRight) of \(score.right) right readings flagged")
    }
}
