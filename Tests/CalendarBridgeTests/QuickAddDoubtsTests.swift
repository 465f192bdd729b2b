import CalendarBridge
import Foundation
import Testing

/// Doubts: a reading the parser is unsure of is flagged (and the CLI refuses it without --yes), a sure one is not.
@Suite("Quick-add doubts (docs/quick-add.md, \"Doubts\")")
struct QuickAddDoubtsTests {
    /// Tuesday 2026-03-10 09:00 in New York / Berlin.
    static let now = QuickAddTestSupport.instant("2026-03-10T09:00:00-04:00")

    static func codes(_ text: String, lang: String = "en", dateOrder: String? = nil, now: Date = now, zone: String? = nil) throws
        -> [String]
    {
        let zone = try #require(QuickAddZone(identifier: zone ?? (lang == "de" ? "Europe/Berlin" : "America/New_York")))
        let result = try QuickAddTestSupport.parser(lang: lang, dateOrder: dateOrder).parse(text, now: now, zone: zone)
        return result.doubts.map(\.code.rawValue)
    }

    @Test(
        "each kind of doubt is found where the reading is unsure",
        arguments: [
            ("Party Friday 13", "en", "numberInTitle"),
            ("Friday 2 tickets", "en", "numberInTitle"),
            ("Workshop 10-2 in room 3B fri", "en", "numberInTitle"),
            ("Daily vitamin 8am for 30 days", "en", "longEvent"),
            ("morgen 9 zahnarzt", "de", "numberInTitle"),
            ("Meeting 14 Thursday", "en", "numberInTitle"),
            ("Vorstellungsgespräch Donnerstag 14", "de", "numberInTitle"),
            ("Book club 7:30 on the 15th", "en", "defaultHour"),
            ("Meet Sarah at 6 Friday", "en", "defaultHour"),
            ("Run at 8 tomorrow", "en", "defaultHour"),
            ("Call with Tom March 3", "en", "nextYear"),
            ("Meet Liz at the gym 6 on Friday", "en", "numberInPlace"),
            ("Treffen im Café Central 10 am Montag", "de", "numberInPlace"),
            ("Follow-up visit 2 weeks after Friday", "en", "amountInTitle"),
            ("Arzt 3 Tage nach Freitag", "de", "amountInTitle"),
            ("Meet Chris at the pub at 9 Friday", "en", "defaultHour"),
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
            ("Buy Christmas tree Saturday", "en"), ("Black Friday shopping 5am", "en"), ("Review chapter 12 Tuesday at 8pm", "en"),
            ("Bday party at 12 Elm Street Saturday 2pm", "en"), ("Wohnung besichtigen Hauptstr. 12 morgen 17 Uhr", "de"),
            ("Dentist Tuesday 2", "en"), ("Hair cut Sat 11", "en"), ("Vorstellungsgespräch Donnerstag 9", "de"),
            ("Meeting 3 Thursday", "en"),
            ("Brunch at Cafe Rose 11 Sunday", "en"), ("Frisör Sa. 9", "de"), ("Follow-up visit 2 weeks from today", "en"),
            ("Call mit Kunde 18 Uhr MEZ Do", "de"), ("Call Aunt May 11am Pacific Saturday", "en"), ("Bootcamp day 2 Friday 9am", "en"),
            ("Garage sale Sat 8-1", "en"), ("Email coach re 3-2 loss tomorrow", "en"), ("Conference Dec 7 for 3 days", "en"),
            ("Meeting 10am for 2 hours", "en"), ("Celebrate 4-0 win Friday night", "en"),
            ("Orientation 3/23 8:30-4:30", "en"), ("Platzwart Dienst Samstag 8 bis 12", "de"),
            ("Abgabe Projekt 2 am Freitag", "de"), ("Version 4.2 ausrollen am Montag", "de"), ("3 Flaschen Wein kaufen morgen", "de"),
            ("Team-Meeting um 10 Uhr in Raum 12", "de"), ("Flug nach Rom Montag 6:40", "de"), ("Geburtstag Oma 12.3.", "de"),
            ("Doctor appointment March 18 at 2:45pm", "en"), ("7-Eleven run tomorrow 5pm", "en"),
            ("Meet at Gate 12 tomorrow 3pm", "en"), ("Lunch at the pub at 1", "en"), ("Coffee at the gym Friday", "en"),
            ("Sync at Building 4 tomorrow at 10am", "en"), ("Treffen im Raum 12 um 10 Uhr morgen", "de"),
        ])
    func sure(_ text: String, _ lang: String) throws {
        #expect(try Self.codes(text, lang: lang).isEmpty, "\(text)")
    }

    @Test("a numeric date is doubted only when both orders are dates and differ; only a day named within the last week is 'next year'")
    func orderAndYear() throws {
        #expect(try Self.codes("Swap shifts 5/5").isEmpty)
        #expect(try Self.codes("Swap shifts 5/13").isEmpty)
        #expect(try Self.codes("Swap shifts 5/6", dateOrder: "dmy") == ["dateOrder"])
        #expect(try Self.codes("Swap shifts 5/6", zone: "Europe/London") == ["dateOrder"])
        #expect(try Self.codes("Swap shifts 5/6").isEmpty, "in a zone of the United States dates are written month first")
        #expect(try Self.codes("Swap shifts 5/6", zone: "America/Indiana/Knox").isEmpty)
        // A weekday that only one order's date falls on settles it: March 14, 2026 is a Saturday, December 3 is not (in
        // 2025-2027); November 12, 2027 is a Friday as December 11, 2026 is, so that order stays in doubt.
        #expect(try Self.codes("Dinner Sat 3/14 7pm").isEmpty)
        #expect(
            try Self.codes("Review Friday 12/11 2pm", now: QuickAddTestSupport.instant("2026-12-04T17:30:00-05:00"), zone: "Europe/London")
                == ["dateOrder"])
        #expect(try Self.codes("Call with Tom Feb 3").isEmpty, "Feb 3 passed 35 days before March 10")
        #expect(try Self.codes("Call with Tom Feb 28").isEmpty, "Feb 28 passed 10 days before March 10: planned for next year")
        let newYearsEve = QuickAddTestSupport.instant("2026-12-31T23:30:00-05:00")
        #expect(try Self.codes("Concert Dec 18 8pm", now: newYearsEve).isEmpty)
        #expect(try Self.codes("Konzert 20 Uhr am 18.12.", lang: "de", now: newYearsEve).isEmpty)
        #expect(try Self.codes("Dentist Dec 28 10am", now: newYearsEve) == ["nextYear"])
        #expect(try Self.codes("Call with Tom March 3 2027").isEmpty, "a year is given")
    }

    @Test("doubts are in the text's language and name the words at fault, in JSON as code and reason")
    func reasons() throws {
        let zone = try #require(QuickAddZone(identifier: "Europe/Berlin"))
        let german = try QuickAddTestSupport.parser(lang: "de").parse("Zahnarzt Dienstag 14", now: Self.now, zone: zone)
        #expect(german.doubts.first?.reason.contains("„14“") == true, "\(german.doubts)")
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

    /// The development sets are read while fixing (Fixtures/quickadd/README.md): every miss is listed here.
    @Test(
        "no wrong event without a word on the doubts development sets",
        arguments: ["dev-doubts", "dev-doubts-2", "dev-doubts-3", "dev-doubts-4", "dev-doubts-5", "dev-doubts-6"])
    func developmentSets(_ name: String) throws {
        let score = try Self.score(name)
        let silent = score.misses.filter { !$0.refused && !$0.flagged }
        #expect(silent.isEmpty, "\(silent.count) silent misses:\n\(silent.map(\.description).joined(separator: "\n"))")
    }
}

/// Readings fixed while looking for silent mistakes (Fixtures/quickadd/dev-doubts-2.jsonl): each is now read as meant,
/// without a doubt.
@Suite("Quick-add readings found by the second doubts set")
struct QuickAddSilentReadingTests {
    static func read(_ text: String, lang: String = "en") throws -> QuickAddResult {
        let zone = try #require(QuickAddZone(identifier: lang == "de" ? "Europe/Berlin" : "America/New_York"))
        return try QuickAddTestSupport.parser(lang: lang).parse(text, now: QuickAddDoubtsTests.now, zone: zone)
    }

    @Test(
        "approximate, shorthand and spelled-out times; places ended by w/; weekdays after a time and German So",
        arguments: [
            ("Coffee with Dana 9ish tomorrow", "en", "Coffee with Dana", "2026-03-11T09:00:00-04:00"),
            ("Team dinner Thursday 7ish", "en", "Team dinner", "2026-03-12T19:00:00-04:00"),
            ("Drinks with the team Friday 6-ish", "en", "Drinks with the team", "2026-03-13T18:00:00-04:00"),
            ("Call Ben at 2:30ish", "en", "Call Ben", "2026-03-10T14:30:00-04:00"),
            ("Lunch w/ Ana noonish Friday", "en", "Lunch w/ Ana", "2026-03-13T12:00:00-04:00"),
            ("Call Sam tmr 3pm", "en", "Call Sam", "2026-03-11T15:00:00-04:00"),
            ("Movie tonite 9:40", "en", "Movie", "2026-03-10T21:40:00-04:00"),
            ("Parent call at three tomorrow", "en", "Parent call", "2026-03-11T15:00:00-04:00"),
            ("Dinner at seven Friday", "en", "Dinner", "2026-03-13T19:00:00-04:00"),
            ("Lunch at one with Kim tomorrow", "en", "Lunch with Kim", "2026-03-11T13:00:00-04:00"),
            ("Tennis 8 am Sat", "en", "Tennis", "2026-03-14T08:00:00-04:00"),
            ("Essen bei Oma Sonntag um eins", "de", "Essen bei Oma", "2026-03-15T13:00:00+01:00"),
            ("Meeting um neun morgen", "de", "Meeting", "2026-03-11T09:00:00+01:00"),
            ("Zahnarzt um dreiviertel 10 morgen", "de", "Zahnarzt", "2026-03-11T09:45:00+01:00"),
            ("Essen gehen Do. ca. 12:30", "de", "Essen gehen", "2026-03-12T12:30:00+01:00"),
            ("Abendessen mit Eltern So 18:30", "de", "Abendessen mit Eltern", "2026-03-15T18:30:00+01:00"),
        ])
    func reading(_ text: String, _ lang: String, _ title: String, _ start: String) throws {
        let result = try Self.read(text, lang: lang)
        #expect(result.title == title, "\(text)")
        #expect(result.start.description == start, "\(text)")
        #expect(result.doubts.isEmpty, "\(text): \(result.doubts)")
    }

    @Test("M-F and Mo-Fr repeat on weekdays; w/ ends a place; articles and counts after at/um are no hours; so is a word")
    func words() throws {
        let weekdays = ["RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"]
        #expect(try Self.read("Standup 9:30 M-F").recurrence == weekdays)
        let shift = try Self.read("Frühschicht Mo-Fr 6 Uhr", lang: "de")
        #expect(shift.recurrence == weekdays && shift.title == "Frühschicht")
        let lunch = try Self.read("Lunch 12:30 at Chipotle w/ Raj")
        #expect(lunch.location == "Chipotle" && lunch.title == "Lunch w/ Raj")
        #expect(try Self.read("Coffee at a cafe tomorrow").location == "a cafe")
        #expect(try Self.read("Talk at one point tomorrow").start.description == "2026-03-11")
        #expect(try Self.read("Coffee at one of the cafes tomorrow").start.description == "2026-03-11")
        let grill = try Self.read("Grillen bei Tom Samstag so gegen 6", lang: "de")
        #expect(grill.start.description == "2026-03-14T18:00:00+01:00", "so is no Sunday before an approximate hour")
    }
}
