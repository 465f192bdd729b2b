import CalendarBridge
import Foundation
import Testing

@Suite("Quick-add parser rules")
struct QuickAddParserTests {
    let newYork = QuickAddZone(identifier: "America/New_York")!
    /// Thursday 2026-03-05 10:00 EST.
    let now = QuickAddTestSupport.instant("2026-03-05T15:00:00Z")

    @Test("civil dates: day numbers round-trip and weekdays are ISO numbered")
    func civilDates() {
        #expect(QuickAddDate(year: 1970, month: 1, day: 1).dayNumber == 0)
        #expect(QuickAddDate(dayNumber: 0) == QuickAddDate(year: 1970, month: 1, day: 1))
        #expect(QuickAddDate(year: 2026, month: 3, day: 5).weekday == 4)
        #expect(QuickAddDate(year: 1969, month: 12, day: 31).weekday == 3)
        for n in stride(from: -800_000, through: 800_000, by: 997) {
            #expect(QuickAddDate(dayNumber: n).dayNumber == n)
        }
        #expect(QuickAddDate(year: 2026, month: 1, day: 31).adding(months: 1) == QuickAddDate(year: 2026, month: 2, day: 28))
        #expect(QuickAddDate(year: 2028, month: 1, day: 31).adding(months: 1) == QuickAddDate(year: 2028, month: 2, day: 29))
        #expect(!QuickAddDate.isValid(year: 2100, month: 2, day: 29))
        #expect(QuickAddDate.isValid(year: 2000, month: 2, day: 29))
    }

    @Test("a wall time in a spring-forward gap moves forward by the gap; an ambiguous one is the first")
    func daylightSavingRule() {
        let gap = newYork.instant(QuickAddDate(year: 2026, month: 3, day: 8), hour: 2, minute: 30)
        #expect(newYork.rfc3339(gap) == "2026-03-08T03:30:00-04:00")
        let overlap = newYork.instant(QuickAddDate(year: 2026, month: 11, day: 1), hour: 1, minute: 30)
        #expect(newYork.rfc3339(overlap) == "2026-11-01T01:30:00-04:00")
        #expect(newYork.rfc3339(overlap + 3600) == "2026-11-01T01:30:00-05:00")
        let lordHowe = QuickAddZone(identifier: "Australia/Lord_Howe")!  // a 30-minute change
        let halfGap = lordHowe.instant(QuickAddDate(year: 2026, month: 10, day: 4), hour: 2, minute: 15)
        #expect(lordHowe.rfc3339(halfGap) == "2026-10-04T02:45:00+11:00")
    }

    @Test("the same input always gives the same result; the parser reads no clock")
    func deterministic() throws {
        let parser = QuickAddParser()
        let first = try parser.parse("Lunch with Ann tomorrow 1pm at Cafe Luna", now: now, zone: newYork)
        let second = try parser.parse("Lunch with Ann tomorrow 1pm at Cafe Luna", now: now, zone: newYork)
        #expect(first == second)
        let later = try parser.parse("Lunch with Ann tomorrow 1pm at Cafe Luna", now: now + 86_400, zone: newYork)
        #expect(later.start.description == "2026-03-07T13:00:00-05:00")
    }

    @Test("Windows zone names need a resolver; without one they stay in the title")
    func windowsNamesNeedResolver() throws {
        let text = "Sync tomorrow 3pm W. Europe Standard Time"
        let without = try QuickAddParser().parse(text, now: now, zone: newYork)
        #expect(without.timeZone == "America/New_York")
        #expect(without.title == "Sync W. Europe Standard Time")
        let with = try QuickAddTestSupport.parser(lang: "en").parse(text, now: now, zone: newYork)
        #expect(with.timeZone == "Europe/Berlin")
        #expect(with.start.description == "2026-03-06T15:00:00+01:00")
        #expect(with.title == "Sync")
    }

    @Test("numeric dates follow the configured order")
    func dateOrder() throws {
        let us = QuickAddParser(options: QuickAddOptions(locale: .english, dateOrder: .mdy))
        let uk = QuickAddParser(options: QuickAddOptions(locale: .english, dateOrder: .dmy))
        #expect(try us.parse("Party 4/1", now: now, zone: newYork).start.description == "2026-04-01")
        #expect(try uk.parse("Party 4/1", now: now, zone: newYork).start.description == "2027-01-04")
        #expect(QuickAddOptions(locale: .german).dateOrder == .dmy)
        #expect(QuickAddOptions(locale: .english).dateOrder == .mdy)
    }

    @Test("errors are one line, name the problem, and offer an example in the text's language")
    func errorMessages() {
        let cases: [(QuickAddLocale, String, QuickAddError.Code)] = [
            (.english, "Buy milk", .nothingToSchedule), (.english, "Party Feb 30", .invalidDate),
            (.english, "Run tomorrow morning 9pm", .conflict), (.german, "Einkaufen", .nothingToSchedule),
        ]
        for (locale, text, code) in cases {
            let parser = QuickAddParser(options: QuickAddOptions(locale: locale))
            #expect {
                _ = try parser.parse(text, now: now, zone: newYork)
            } throws: { error in
                guard let error = error as? QuickAddError else { return false }
                return error.code == code && !error.description.contains("\n")
                    && error.description.contains(locale.identifier == "de" ? "zum Beispiel „\(locale.example)“" : "\"\(locale.example)\"")
            }
        }
        let error = #expect(throws: QuickAddError.self) {
            try QuickAddParser().parse("Party Feb 30", now: now, zone: newYork)
        }
        #expect(error?.message.contains("Feb 30") == true)
    }

    @Test("every locale phrase tokenizes to something and no phrase is claimed twice with different meanings")
    func localeTables() {
        for locale in QuickAddLocale.all {
            var seen: [String: QuickAddMeaning] = [:]
            for (phrase, meaning) in locale.phrases {
                if let earlier = seen[phrase] {
                    #expect(earlier == meaning, "\(locale.identifier): '\(phrase)' has two meanings")
                }
                seen[phrase] = meaning
            }
            for (_, id) in locale.zoneAbbreviations {
                #expect(QuickAddZone(identifier: id) != nil, "\(locale.identifier): \(id) is not in the tz database")
            }
        }
    }

    @Test("text longer than the maximum is refused before any work")
    func tooLong() {
        let text = String(repeating: "a", count: QuickAddParser.maximumLength + 1)
        let error = #expect(throws: QuickAddError.self) { try QuickAddParser().parse(text, now: now, zone: newYork) }
        #expect(error?.code == .tooLong)
    }
}

@Suite("Quick-add tokenizer edge cases")
struct QuickAddTokenizerEdgeTests {
    @Test(
        "control characters are spaces, not an endless loop (found by the fuzz test)",
        arguments: [
            "Call\u{7F}tomorrow 3pm", "Call\u{0}tomorrow 3pm", "Call\u{1B}tomorrow\u{85}3pm", "Call\u{8}tomorrow 3pm",
        ])
    func controlCharacters(text: String) throws {
        let zone = QuickAddZone(identifier: "UTC")!
        let result = try QuickAddParser().parse(text, now: Date(timeIntervalSince1970: 1_772_700_000), zone: zone)
        #expect(result.title == "Call")
        #expect(result.start.description.hasSuffix("T15:00:00+00:00"))
    }

    /// German refusals speak German: none of the English message words, and the right code.
    @Test(
        "German refusals are in German",
        arguments: [
            ("Meeting Montag Dienstag 10 Uhr", "conflict"), ("Termin morgen 10 Uhr 14 Uhr", "conflict"),
            ("Termin morgen 10 Uhr für 2 Stunden für 1 Stunde", "conflict"), ("Joggen morgen früh um 20 Uhr", "conflict"),
            ("Urlaub ganztägig morgen 10 Uhr", "conflict"), ("Party 31. April", "invalidDate"),
            ("Urlaub 16.-14. Dezember", "invalidRange"), ("Brot kaufen", "nothingToSchedule"),
            ("nächsten Freitag", "missingTitle"), ("Termin Freitag, 6. März 2026 Montag", "conflict"),
        ])
    func germanMessages(_ text: String, _ code: String) {
        let parser = QuickAddTestSupport.parser(lang: "de")
        let zone = QuickAddZone(identifier: "Europe/Berlin")!
        let now = QuickAddTestSupport.instant("2026-03-05T15:00:00Z")
        let outcome = Result { () throws(QuickAddError) in try parser.parse(text, now: now, zone: zone) }
        guard case .failure(let error) = outcome else {
            Issue.record("\(text) was not refused")
            return
        }
        #expect(error.code.rawValue == code)
        for english in ["give", "two ", " not ", "date", "found", "says"] {
            #expect(!error.message.contains(english), "\(text): \(error.message)")
        }
    }
}
