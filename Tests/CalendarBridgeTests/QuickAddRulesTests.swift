import CalendarBridge
import Foundation
import Testing

/// The rules of issue 36, each with the phrases a user typed: one test row per defect found.
@Suite("Quick-add rules: clock times, parts of the day, past times, look-alikes, deadlines")
struct QuickAddRulesTests {
    /// Friday 2026-12-04 at 17:30 in Berlin: the evening the defects were found on.
    static let fridayEvening = "2026-12-04T17:30:00+01:00"
    /// Tuesday 2026-03-10 at 09:00 in Berlin.
    static let weekdayMorning = "2026-03-10T09:00:00+01:00"

    struct Case: Sendable, CustomStringConvertible {
        var lang = "en"
        var text: String
        var now = QuickAddRulesTests.fridayEvening
        var title: String
        var start: String
        var end: String
        var location: String? = nil
        var past = false
        var description: String { "[\(lang)] \(text)" }
    }

    static let cases: [Case] = [
        // Ranges read relative to their start.
        Case(text: "Lunch 12:30-1:30 tomorrow", title: "Lunch", start: "2026-12-05T12:30:00+01:00", end: "2026-12-05T13:30:00+01:00"),
        Case(text: "Workshop from 11-1 tomorrow", title: "Workshop", start: "2026-12-05T11:00:00+01:00", end: "2026-12-05T13:00:00+01:00"),
        Case(text: "Party Saturday 10pm-2am", title: "Party", start: "2026-12-05T22:00:00+01:00", end: "2026-12-06T02:00:00+01:00"),
        Case(
            text: "Office hours Monday from 9-5", title: "Office hours", start: "2026-12-07T09:00:00+01:00",
            end: "2026-12-07T17:00:00+01:00"),
        Case(
            lang: "de", text: "Sprechstunde Montag 10-12 Uhr", title: "Sprechstunde", start: "2026-12-07T10:00:00+01:00",
            end: "2026-12-07T12:00:00+01:00"),
        // One rule for bare hours: 7-11 morning, 12 noon, 1-6 afternoon; a past time today means tomorrow.
        Case(text: "Call at 4:30", title: "Call", start: "2026-12-05T16:30:00+01:00", end: "2026-12-05T17:30:00+01:00"),
        Case(text: "Call at 7", title: "Call", start: "2026-12-05T07:00:00+01:00", end: "2026-12-05T08:00:00+01:00"),
        Case(text: "Lunch at 12", title: "Lunch", start: "2026-12-05T12:00:00+01:00", end: "2026-12-05T13:00:00+01:00"),
        Case(text: "Dinner at 7", title: "Dinner", start: "2026-12-04T19:00:00+01:00", end: "2026-12-04T20:00:00+01:00"),
        Case(text: "Standup at 09:30 tomorrow", title: "Standup", start: "2026-12-05T09:30:00+01:00", end: "2026-12-05T10:30:00+01:00"),
        Case(text: "Call at 7.30 tomorrow", title: "Call", start: "2026-12-05T07:30:00+01:00", end: "2026-12-05T08:30:00+01:00"),
        // Parts of the day: default times, and never left in the title.
        Case(
            text: "Meet at Starbucks tomorrow morning", title: "Meet", start: "2026-12-05T09:00:00+01:00", end: "2026-12-05T10:00:00+01:00",
            location: "Starbucks"),
        Case(
            text: "Call Mom tomorrow at 7 in the evening", title: "Call Mom", start: "2026-12-05T19:00:00+01:00",
            end: "2026-12-05T20:00:00+01:00"),
        Case(text: "Drinks tonight", title: "Drinks", start: "2026-12-04T20:00:00+01:00", end: "2026-12-04T21:00:00+01:00"),
        Case(
            text: "Send invoice by end of day Monday", title: "Send invoice", start: "2026-12-07T17:00:00+01:00",
            end: "2026-12-07T18:00:00+01:00"),
        Case(
            lang: "de", text: "Kino heute Abend um 20 Uhr", title: "Kino", start: "2026-12-04T20:00:00+01:00",
            end: "2026-12-04T21:00:00+01:00"),
        Case(
            lang: "de", text: "Frühstück morgen früh um 8", title: "Frühstück", start: "2026-12-05T08:00:00+01:00",
            end: "2026-12-05T09:00:00+01:00"),
        Case(
            lang: "de", text: "Anruf morgen um 8 Uhr abends", title: "Anruf", start: "2026-12-05T20:00:00+01:00",
            end: "2026-12-05T21:00:00+01:00"),
        Case(
            lang: "de", text: "Joggen Montag vormittags", title: "Joggen", start: "2026-12-07T10:00:00+01:00",
            end: "2026-12-07T11:00:00+01:00"),
        // Past times: a bare weekday means the next one; today/this is kept and flagged.
        Case(text: "Dentist Friday 3pm", title: "Dentist", start: "2026-12-11T15:00:00+01:00", end: "2026-12-11T16:00:00+01:00"),
        Case(text: "Dentist today 3pm", title: "Dentist", start: "2026-12-04T15:00:00+01:00", end: "2026-12-04T16:00:00+01:00", past: true),
        Case(
            text: "Dentist this Friday 3pm", title: "Dentist", start: "2026-12-04T15:00:00+01:00", end: "2026-12-04T16:00:00+01:00",
            past: true),
        Case(
            lang: "de", text: "Zahnarzt Freitag 15 Uhr", title: "Zahnarzt", start: "2026-12-11T15:00:00+01:00",
            end: "2026-12-11T16:00:00+01:00"),
        Case(
            lang: "de", text: "Zahnarzt heute 15 Uhr", title: "Zahnarzt", start: "2026-12-04T15:00:00+01:00",
            end: "2026-12-04T16:00:00+01:00", past: true),
        // Words that are not dates stay words.
        Case(
            text: "Deploy v1.2.3 Monday 9am", title: "Deploy v1.2.3", start: "2026-12-07T09:00:00+01:00", end: "2026-12-07T10:00:00+01:00"),
        Case(text: "Release 2.0 tomorrow 10am", title: "Release 2.0", start: "2026-12-05T10:00:00+01:00", end: "2026-12-05T11:00:00+01:00"),
        Case(
            text: "Buy 2 tickets tomorrow 10am", title: "Buy 2 tickets", start: "2026-12-05T10:00:00+01:00",
            end: "2026-12-05T11:00:00+01:00"),
        Case(
            text: "Review PR #481 Monday 2pm", title: "Review PR #481", start: "2026-12-07T14:00:00+01:00", end: "2026-12-07T15:00:00+01:00"
        ),
        Case(
            text: "Q3 planning Room B12 Monday 10am", title: "Q3 planning Room B12", start: "2026-12-07T10:00:00+01:00",
            end: "2026-12-07T11:00:00+01:00"),
        Case(
            text: "Snacks from 7-Eleven tomorrow 6pm", title: "Snacks from 7-Eleven", start: "2026-12-05T18:00:00+01:00",
            end: "2026-12-05T19:00:00+01:00"),
        Case(
            text: "24/7 support rota Monday 9am", title: "24/7 support rota", start: "2026-12-07T09:00:00+01:00",
            end: "2026-12-07T10:00:00+01:00"),
        Case(
            text: "Dinner for 3 people Saturday 7pm", title: "Dinner for 3 people", start: "2026-12-05T19:00:00+01:00",
            end: "2026-12-05T20:00:00+01:00"),
        // Deadlines: all-day on that day unless a time is given; the connecting word leaves the title.
        Case(text: "Submit report by Friday", now: weekdayMorning, title: "Submit report", start: "2026-03-13", end: "2026-03-14"),
        Case(
            text: "Submit report by Monday 5pm", title: "Submit report", start: "2026-12-07T17:00:00+01:00",
            end: "2026-12-07T18:00:00+01:00"),
        Case(text: "Rent due Monday", title: "Rent", start: "2026-12-07", end: "2026-12-08"),
        Case(text: "Essay until Dec 10", title: "Essay", start: "2026-12-10", end: "2026-12-11"),
        Case(lang: "de", text: "Bericht bis Mittwoch", title: "Bericht", start: "2026-12-09", end: "2026-12-10"),
        Case(lang: "de", text: "Steuererklärung fällig am 15.12.", title: "Steuererklärung", start: "2026-12-15", end: "2026-12-16"),
        // Four digits after "at"/"um" are a 24-hour time ("by 2027" stays a year); "9a-10a" is a range; "-ish" after am/pm.
        Case(
            text: "Standup at 0900 tomorrow", title: "Standup", start: "2026-12-05T09:00:00+01:00", end: "2026-12-05T10:00:00+01:00"),
        Case(
            lang: "de", text: "Zug um 0830 Uhr Montag", title: "Zug", start: "2026-12-07T08:30:00+01:00", end: "2026-12-07T09:30:00+01:00"),
        Case(text: "Call 9a-10a Monday", title: "Call", start: "2026-12-07T09:00:00+01:00", end: "2026-12-07T10:00:00+01:00"),
        Case(text: "Workshop 9a-5p Thursday", title: "Workshop", start: "2026-12-10T09:00:00+01:00", end: "2026-12-10T17:00:00+01:00"),
        Case(text: "Call 1pm-ish Monday", title: "Call", start: "2026-12-07T13:00:00+01:00", end: "2026-12-07T14:00:00+01:00"),
        // German weekday abbreviations in a range or joined to their date by a comma; "in der Früh"; "20 nach 8".
        Case(lang: "de", text: "Kurztrip Mo-Mi", title: "Kurztrip", start: "2026-12-07", end: "2026-12-10"),
        Case(
            lang: "de", text: "Arzt Mo., 14.12. 10 Uhr", title: "Arzt", start: "2026-12-14T10:00:00+01:00", end: "2026-12-14T11:00:00+01:00"
        ),
        Case(
            lang: "de", text: "Treffen in der Früh morgen", title: "Treffen", start: "2026-12-05T08:00:00+01:00",
            end: "2026-12-05T09:00:00+01:00"),
        Case(
            lang: "de", text: "Zug fünf vor 12 morgen", title: "Zug", start: "2026-12-05T11:55:00+01:00", end: "2026-12-05T12:55:00+01:00"),
        Case(text: "Call at ten past 4 tomorrow", title: "Call", start: "2026-12-05T16:10:00+01:00", end: "2026-12-05T17:10:00+01:00"),
        // "end of January", "Ende März" after by/until/bis: that month's last day; "at 1600 Pennsylvania Ave" is a place.
        Case(text: "Finish report by end of February", title: "Finish report", start: "2027-02-28", end: "2027-03-01"),
        Case(lang: "de", text: "Abgabe bis Ende Februar", title: "Abgabe", start: "2027-02-28", end: "2027-03-01"),
        Case(
            text: "Drop off at 1600 Pennsylvania Ave Tuesday 2pm", title: "Drop off", start: "2026-12-08T14:00:00+01:00",
            end: "2026-12-08T15:00:00+01:00", location: "1600 Pennsylvania Ave"),
        // Shorthand: "2morrow", "Sat morning" (a weak weekday before a part of the day), "9:00 sharp".
        Case(text: "Call mom 2morrow 5pm", title: "Call mom", start: "2026-12-05T17:00:00+01:00", end: "2026-12-05T18:00:00+01:00"),
        Case(text: "Oil change Sat morning", title: "Oil change", start: "2026-12-05T09:00:00+01:00", end: "2026-12-05T10:00:00+01:00"),
        Case(
            text: "Call the bank at 9:00 sharp Monday", title: "Call the bank", start: "2026-12-07T09:00:00+01:00",
            end: "2026-12-07T10:00:00+01:00"),
        // The week after next; German ordinals with a dot in a monthly repeat.
        Case(
            lang: "de", text: "Treffen übernächste Woche Mittwoch 10 Uhr", title: "Treffen", start: "2026-12-16T10:00:00+01:00",
            end: "2026-12-16T11:00:00+01:00"),
        Case(
            text: "Sync week after next Monday 9am", title: "Sync", start: "2026-12-14T09:00:00+01:00", end: "2026-12-14T10:00:00+01:00"),
        // "Friday after next", "übernächsten Freitag": a week after the next one.
        Case(text: "Trip Friday after next", title: "Trip", start: "2026-12-18", end: "2026-12-19"),
        Case(
            lang: "de", text: "Zahnarzt übernächsten Freitag 10 Uhr", title: "Zahnarzt", start: "2026-12-18T10:00:00+01:00",
            end: "2026-12-18T11:00:00+01:00"),
        // "last Friday": the latest one before today, a past event (shown so, and refused without --allow-past).
        Case(text: "Haircut last Friday", title: "Haircut", start: "2026-11-27", end: "2026-11-28", past: true),
        Case(
            text: "Lunch last Monday 12:30", now: weekdayMorning, title: "Lunch", start: "2026-03-09T12:30:00+01:00",
            end: "2026-03-09T13:30:00+01:00", past: true),
        Case(
            lang: "de", text: "Sitzung vergangenen Dienstag 10 Uhr", title: "Sitzung", start: "2026-12-01T10:00:00+01:00",
            end: "2026-12-01T11:00:00+01:00", past: true),
        // Colloquial German: "heut" is today, "so um"/"so gegen" is about (not Sunday, not a title word).
        Case(
            lang: "de", text: "Kaffee heut um 19 Uhr", title: "Kaffee", start: "2026-12-04T19:00:00+01:00", end: "2026-12-04T20:00:00+01:00"
        ),
        Case(
            lang: "de", text: "Papa anrufen so um 7 heute Abend", title: "Papa anrufen", start: "2026-12-04T19:00:00+01:00",
            end: "2026-12-04T20:00:00+01:00"),
        Case(
            lang: "de", text: "Treffen so gegen 15 Uhr morgen", title: "Treffen", start: "2026-12-05T15:00:00+01:00",
            end: "2026-12-05T16:00:00+01:00"),
        // An hour right after a day, as calendar apps read it; before a day only with a part of the day after it.
        Case(
            text: "Brunch with friends Sunday 11", title: "Brunch with friends", start: "2026-12-06T11:00:00+01:00",
            end: "2026-12-06T12:00:00+01:00"),
        Case(text: "Dentist Tuesday 2", title: "Dentist", start: "2026-12-08T14:00:00+01:00", end: "2026-12-08T15:00:00+01:00"),
        Case(text: "Call Verizon tomorrow 9", title: "Call Verizon", start: "2026-12-05T09:00:00+01:00", end: "2026-12-05T10:00:00+01:00"),
        Case(
            text: "Tennis w/ Raj 7 Sunday morning", title: "Tennis w/ Raj", start: "2026-12-06T07:00:00+01:00",
            end: "2026-12-06T08:00:00+01:00"),
        Case(
            lang: "de", text: "Zahnarzt Freitag 9", title: "Zahnarzt", start: "2026-12-11T09:00:00+01:00", end: "2026-12-11T10:00:00+01:00"),
        Case(text: "Pick up tickets Friday 2 tickets", title: "Pick up tickets 2 tickets", start: "2026-12-04", end: "2026-12-05"),
        Case(text: "Party Friday 13", title: "Party 13", start: "2026-12-04", end: "2026-12-05"),
        // A span of weekdays written out, with German two-letter names.
        Case(lang: "de", text: "Kurzurlaub Ostsee Do bis So", title: "Kurzurlaub Ostsee", start: "2026-12-10", end: "2026-12-14"),
        Case(lang: "de", text: "Messe Mi bis Fr", title: "Messe", start: "2026-12-09", end: "2026-12-12"),
        // House numbers, numbered things and holidays' names stay in the title or the place.
        Case(
            text: "Bday party at 12 Elm Street Saturday 2pm", title: "Bday party", start: "2026-12-05T14:00:00+01:00",
            end: "2026-12-05T15:00:00+01:00", location: "12 Elm Street"),
        Case(
            text: "Visit 1600 Pennsylvania Ave tomorrow 10am", title: "Visit 1600 Pennsylvania Ave", start: "2026-12-05T10:00:00+01:00",
            end: "2026-12-05T11:00:00+01:00"),
        Case(text: "Dinner at 7 my place", title: "Dinner my place", start: "2026-12-04T19:00:00+01:00", end: "2026-12-04T20:00:00+01:00"),
        Case(
            lang: "de", text: "Party Lindenweg 3 Samstag 20 Uhr", title: "Party Lindenweg 3", start: "2026-12-05T20:00:00+01:00",
            end: "2026-12-05T21:00:00+01:00"),
        Case(text: "Study lesson 3 tomorrow", title: "Study lesson 3", start: "2026-12-05", end: "2026-12-06"),
        Case(text: "Flight 6:05 am Monday", title: "Flight", start: "2026-12-07T06:05:00+01:00", end: "2026-12-07T07:05:00+01:00"),
        Case(text: "Cyber Monday deals tomorrow", title: "Cyber Monday deals", start: "2026-12-05", end: "2026-12-06"),
        // Fixed from the third doubts dev set (dev-doubts-3.jsonl): weak weekdays after a time or ending the text.
        Case(
            text: "Dinner @ Nonna's 8:15 Sat w/ parents", title: "Dinner w/ parents", start: "2026-12-05T20:15:00+01:00",
            end: "2026-12-05T21:15:00+01:00", location: "Nonna's"),
        Case(
            text: "Shift at Target 2-10 sat", title: "Shift", start: "2026-12-05T14:00:00+01:00", end: "2026-12-05T22:00:00+01:00",
            location: "Target"),
        Case(text: "Pick up dry cleaning Sat", title: "Pick up dry cleaning", start: "2026-12-05", end: "2026-12-06"),
        Case(text: "Buy 2 sat phones Friday", title: "Buy 2 sat phones", start: "2026-12-04", end: "2026-12-05"),
        Case(
            lang: "de", text: "Call mit Kunde 18 Uhr MEZ Do", title: "Call mit Kunde", start: "2026-12-10T18:00:00+01:00",
            end: "2026-12-10T19:00:00+01:00"),
        Case(lang: "de", text: "Frisör Sa. 9", title: "Frisör", start: "2026-12-05T09:00:00+01:00", end: "2026-12-05T10:00:00+01:00"),
        // A day counted from another; "zw." is "zwischen"; "jeden 2. Dienstag" is every other Tuesday's first.
        Case(
            text: "Coffee w/ Priya a week from Friday 9am", title: "Coffee w/ Priya", start: "2026-12-11T09:00:00+01:00",
            end: "2026-12-11T10:00:00+01:00"),
        Case(text: "Follow-up visit 2 weeks from today", title: "Follow-up visit", start: "2026-12-18", end: "2026-12-19"),
        Case(
            lang: "de", text: "Heizungsableser kommt zw. 8 und 12 Uhr am Mo", title: "Heizungsableser kommt",
            start: "2026-12-07T08:00:00+01:00", end: "2026-12-07T12:00:00+01:00"),
        // "in die Werkstatt" is where the car goes, a part of the title; "in der Werkstatt" a place.
        Case(
            lang: "de", text: "Auto in die Werkstatt Montag früh", title: "Auto in die Werkstatt", start: "2026-12-07T08:00:00+01:00",
            end: "2026-12-07T09:00:00+01:00"),
        Case(text: "4th of July BBQ 3pm", title: "4th of July BBQ", start: "2027-07-04T15:00:00+02:00", end: "2027-07-04T16:00:00+02:00"),
        // Probes of kinds people type (2026-12-06, second session): a day of a named month or ISO week, "half 3", a
        // zone after a bare hour, a numbered week of a course.
        Case(
            text: "First Monday in January staff mtg 9am", title: "staff mtg", start: "2027-01-04T09:00:00+01:00",
            end: "2027-01-04T10:00:00+01:00"),
        Case(
            lang: "de", text: "Treffen erster Montag im Mai 10 Uhr", title: "Treffen", start: "2027-05-03T10:00:00+02:00",
            end: "2027-05-03T11:00:00+02:00"),
        Case(lang: "de", text: "Meeting KW 51 Mittwoch", title: "Meeting", start: "2026-12-16", end: "2026-12-17"),
        Case(lang: "de", text: "Abgabe KW 2 Freitag", title: "Abgabe", start: "2027-01-15", end: "2027-01-16"),
        Case(text: "Sync week 51 Wednesday", title: "Sync", start: "2026-12-16", end: "2026-12-17"),
        Case(text: "Meet half 3 tomorrow", title: "Meet", start: "2026-12-05T15:30:00+01:00", end: "2026-12-05T16:30:00+01:00"),
        Case(text: "Run half 5k Saturday", title: "Run half 5k", start: "2026-12-05", end: "2026-12-06"),
        Case(text: "Conf call 11 ET tomorrow", title: "Conf call", start: "2026-12-05T11:00:00-05:00", end: "2026-12-05T12:00:00-05:00"),
        Case(text: "Bootcamp week 3 tomorrow", title: "Bootcamp week 3", start: "2026-12-05", end: "2026-12-06"),
        // From the fourth doubts dev set (dev-doubts-4.jsonl): weak weekdays after a time's letter or a zone or part of
        // the day of several words, 24-hour times without "at", the only order a slash date has, lower-case "pt"
        // before a word, an hour right after a day before a singular word, a comma that joins two parts of the title.
        Case(
            text: "night shift 7p-7a sat", title: "night shift", start: "2026-12-05T19:00:00+01:00", end: "2026-12-06T07:00:00+01:00"),
        Case(
            text: "Call home 7pm London time sat", title: "Call home", start: "2026-12-05T19:00:00+00:00",
            end: "2026-12-05T20:00:00+00:00"),
        Case(
            lang: "de", text: "Laufen gehen in der Frueh Sa", title: "Laufen gehen", start: "2026-12-05T08:00:00+01:00",
            end: "2026-12-05T09:00:00+01:00"),
        Case(
            text: "Charge nurse mtg 0730 thurs", title: "Charge nurse mtg", start: "2026-12-10T07:30:00+01:00",
            end: "2026-12-10T08:30:00+01:00"),
        Case(
            text: "BLS recert class Jan 14 0800-1200 @ St. Luke's", title: "BLS recert class", start: "2027-01-14T08:00:00+01:00",
            end: "2027-01-14T12:00:00+01:00", location: "St. Luke's"),
        Case(
            text: "Call 555-0123 tomorrow 10am", title: "Call 555-0123", start: "2026-12-05T10:00:00+01:00",
            end: "2026-12-05T11:00:00+01:00"),
        Case(
            text: "Flight DL 1422 Wednesday 4:50pm", title: "Flight DL 1422", start: "2026-12-09T16:50:00+01:00",
            end: "2026-12-09T17:50:00+01:00"),
        Case(text: "Calc quiz ch. 7 friday", title: "Calc quiz ch. 7", start: "2026-12-04", end: "2026-12-05"),
        Case(
            text: "Reading group ch. 5-7 Wednesday 6pm", title: "Reading group ch. 5-7", start: "2026-12-09T18:00:00+01:00",
            end: "2026-12-09T19:00:00+01:00"),
        Case(text: "Eurostar 8:01 GMT 22/12", title: "Eurostar", start: "2026-12-22T08:01:00+00:00", end: "2026-12-22T09:01:00+00:00"),
        Case(text: "tmr 6a run w/ Jess", title: "run w/ Jess", start: "2026-12-05T06:00:00+01:00", end: "2026-12-05T07:00:00+01:00"),
        Case(text: "tmrw 3 dentist", title: "dentist", start: "2026-12-05T15:00:00+01:00", end: "2026-12-05T16:00:00+01:00"),
        Case(text: "sat 3 kids party", title: "3 kids party", start: "2026-12-05", end: "2026-12-06"),
        Case(
            lang: "de", text: "Schiri-Lehrgang 3 Tage ab 9.1.", title: "Schiri-Lehrgang", start: "2027-01-09", end: "2027-01-12"),
        Case(
            lang: "de", text: "Arbeitseinsatz Sa 9-13 Uhr, Handschuhe mitbringen", title: "Arbeitseinsatz, Handschuhe mitbringen",
            start: "2026-12-05T09:00:00+01:00", end: "2026-12-05T13:00:00+01:00"),
        Case(
            text: "Invitation: Q4 planning @ Thu Dec 10, 2026 2pm - 3pm (EST)", title: "Invitation: Q4 planning",
            start: "2026-12-10T14:00:00-05:00", end: "2026-12-10T15:00:00-05:00"),
        Case(
            text: "Updated invitation: 1:1 Tue 10:30-11", title: "Updated invitation: 1:1", start: "2026-12-08T10:30:00+01:00",
            end: "2026-12-08T11:00:00+01:00"),
        Case(text: "Renew license before Jan 31", title: "Renew license", start: "2027-01-31", end: "2027-02-01"),
        // From the fifth doubts dev set (dev-doubts-5.jsonl): weak weekdays after "midnight" or "ganztägig", a range of
        // hours after a repeat's phrase, "bis 20 Uhr" as a deadline's time, "Früh-" compounds, a year written once.
        Case(
            text: "Late shift 4pm-midnight Sat", title: "Late shift", start: "2026-12-05T16:00:00+01:00", end: "2026-12-06T00:00:00+01:00"),
        Case(lang: "de", text: "Inventur ganztägig Sa", title: "Inventur", start: "2026-12-05", end: "2026-12-06"),
        Case(
            lang: "de", text: "Abholung Paket Packstation 104 heute bis 20 Uhr", title: "Abholung Paket Packstation 104",
            start: "2026-12-04T20:00:00+01:00", end: "2026-12-04T21:00:00+01:00"),
        Case(
            lang: "de", text: "Frühdienst morgen ab 6", title: "Frühdienst", start: "2026-12-05T06:00:00+01:00",
            end: "2026-12-05T07:00:00+01:00"),
        Case(lang: "de", text: "Kurztrip Amsterdam 27.3.-29.3.2027", title: "Kurztrip Amsterdam", start: "2027-03-27", end: "2027-03-30"),
        Case(lang: "de", text: "Urlaub 28.12.-2.1.2027", title: "Urlaub", start: "2026-12-28", end: "2027-01-03"),
        // From the sixth doubts dev set (dev-doubts-6.jsonl): a range of hours after a written date, dotted times in a
        // range with "Uhr", "So" before a range that ends in "Uhr", sizes, "check-in", Monday to Friday of a week.
        Case(text: "Wine tasting 12/12 6-8", title: "Wine tasting", start: "2026-12-12T18:00:00+01:00", end: "2026-12-12T20:00:00+01:00"),
        Case(
            text: "Open house 15 Mar 2027 1-3", title: "Open house", start: "2027-03-15T13:00:00+01:00", end: "2027-03-15T15:00:00+01:00"),
        Case(
            text: "Landscaper coming Apr. 7th 8-10", title: "Landscaper coming", start: "2027-04-07T08:00:00+02:00",
            end: "2027-04-07T10:00:00+02:00"),
        Case(
            lang: "de", text: "Sprechstunde Prof. Weber Do 13.15-14.45 Uhr", title: "Sprechstunde Prof. Weber",
            start: "2026-12-10T13:15:00+01:00", end: "2026-12-10T14:45:00+01:00"),
        Case(
            lang: "de", text: "Flohmarkt So 8-14 Uhr", title: "Flohmarkt", start: "2026-12-06T08:00:00+01:00",
            end: "2026-12-06T14:00:00+01:00"),
        Case(text: "Replace furnace filter 16x25x1 sat", title: "Replace furnace filter 16x25x1", start: "2026-12-05", end: "2026-12-06"),
        Case(text: "Quarterly check-in 2 weeks from Monday", title: "Quarterly check-in", start: "2026-12-21", end: "2026-12-22"),
        Case(lang: "de", text: "Klassenfahrt Mo-Fr nächste Woche", title: "Klassenfahrt", start: "2026-12-07", end: "2026-12-12"),
        Case(lang: "de", text: "Version 3.10.1-2 Freitag", title: "Version 3.10.1-2", start: "2026-12-04", end: "2026-12-05"),
        Case(
            lang: "de", text: "Nachtdienst Fr 21:45 bis Sa 6:15", title: "Nachtdienst", start: "2026-12-04T21:45:00+01:00",
            end: "2026-12-05T06:15:00+01:00"),
        Case(text: "Party Fri 10pm to Sat 2am", title: "Party", start: "2026-12-04T22:00:00+01:00", end: "2026-12-05T02:00:00+01:00"),
        Case(
            text: "Dinner 7 at Luigi's", title: "Dinner", start: "2026-12-04T19:00:00+01:00", end: "2026-12-04T20:00:00+01:00",
            location: "Luigi's"),
        Case(
            lang: "de", text: "Abendessen 7 im Ristorante", title: "Abendessen", start: "2026-12-04T19:00:00+01:00",
            end: "2026-12-04T20:00:00+01:00", location: "Ristorante"),
        Case(text: "Dinner for 4 at Luigi's Friday", title: "Dinner for 4", start: "2026-12-04", end: "2026-12-05", location: "Luigi's"),
        Case(
            text: "Breakfast tomorrow morning 8", title: "Breakfast", start: "2026-12-05T08:00:00+01:00", end: "2026-12-05T09:00:00+01:00"),
        Case(text: "Brunch Sunday afternoon", title: "Brunch", start: "2026-12-06T15:00:00+01:00", end: "2026-12-06T16:00:00+01:00"),
        // An hour before a day, and a place that ends right before one.
        Case(text: "Meeting 3 Thursday", title: "Meeting", start: "2026-12-10T15:00:00+01:00", end: "2026-12-10T16:00:00+01:00"),
        Case(
            text: "Brunch at Cafe Rose 11 Sunday", title: "Brunch", start: "2026-12-06T11:00:00+01:00", end: "2026-12-06T12:00:00+01:00",
            location: "Cafe Rose"),
        Case(
            lang: "de", text: "Aschermittwoch Fischessen 19 Uhr", title: "Aschermittwoch Fischessen", start: "2027-02-10T19:00:00+01:00",
            end: "2027-02-10T20:00:00+01:00"),
    ]

    @Test("each phrase means what the user typed", arguments: cases)
    func phrase(_ row: Case) throws {
        let parser = QuickAddTestSupport.parser(lang: row.lang)
        let zone = try #require(QuickAddZone(identifier: "Europe/Berlin"))
        let result = try parser.parse(row.text, now: QuickAddTestSupport.instant(row.now), zone: zone)
        #expect(result.title == row.title)
        #expect(result.start.description == row.start)
        #expect(result.end.description == row.end)
        #expect(result.location == row.location)
        #expect(result.isPast == row.past)
        #expect(result.isAllDay == (row.start.count == 10))
    }

    @Test("an ordinal with a dot repeats every other week; a letter list takes a range of bare hours; choices and spans are refused")
    func thirdDevSet() throws {
        // From the third doubts dev set (dev-doubts-3.jsonl).
        let trash = try Self.read("de", "Müll rausstellen jeden 2. Dienstag").get()
        #expect(trash.recurrence == ["RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU"] && trash.title == "Müll rausstellen")
        let shots = try Self.read("en", "Allergy shots every mon 5:30pm x8").get()
        #expect(shots.recurrence == ["RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=8"] && shots.title == "Allergy shots")
        let physio = try Self.read("en", "8:45 pt appt mon").get()
        #expect(physio.title == "pt appt" && physio.timeZone == "Europe/Berlin")
        let volunteer = try Self.read("en", "Volunteer at the food bank on the second Saturday of every month 9-12").get()
        #expect(volunteer.start.description == "2026-12-12T09:00:00+01:00" && volunteer.end.description == "2026-12-12T12:00:00+01:00")
        #expect(volunteer.recurrence == ["RRULE:FREQ=MONTHLY;BYDAY=2SA"], "\(volunteer.recurrence)")
        let yoga = try Self.read("en", "Yoga 6:30-7:30pm Mon Wed Fri").get()
        #expect(yoga.recurrence == ["RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR"] && yoga.title == "Yoga")
        let training = try Self.read("de", "Training Mo Mi Fr 18 Uhr").get()
        #expect(training.recurrence == ["RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR"] && training.title == "Training")
        let pottery = try Self.read("en", "Pottery class every Wed 6:30-8:30pm through Feb 24").get()
        #expect(pottery.recurrence == ["RRULE:FREQ=WEEKLY;BYDAY=WE;UNTIL=20270224T225959Z"], "\(pottery.recurrence)")
        let lunch = try Self.read("en", "Lunch & learn 2nd Wed monthly noon").get()
        #expect(lunch.recurrence == ["RRULE:FREQ=MONTHLY;BYDAY=2WE"] && lunch.start.description == "2026-12-09T12:00:00+01:00")
        let taxes = try Self.read("en", "Taxes quarterly on the 15th").get()
        #expect(taxes.recurrence == ["RRULE:FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=15"] && taxes.title == "Taxes")
        let tutoring = try Self.read("en", "Math tutoring Tu/Th 4-5").get()
        #expect(tutoring.start.description == "2026-12-08T16:00:00+01:00" && tutoring.end.description == "2026-12-08T17:00:00+01:00")
        try Self.expectRefused([
            ("en", "Meeting tomorrow 10 or 11", QuickAddError.Code.conflict), ("en", "Road trip over Memorial Day weekend", .vagueDate),
            ("en", "BBQ 4th of July weekend", .vagueDate),
            ("en", "Road trip over Presidents Day weekend", .vagueDate), ("de", "Frühstück mit Tina heute abend 8 Uhr", .conflict),
            ("en", "Dinner tomorrow morning", .conflict), ("de", "Nachtdienst Fr 8:00 bis Sa 10:00", .conflict),
            ("en", "Party Fri 10pm to Sat 11", .conflict),
            ("en", "Meds 8a/8p daily", .conflict), ("de", "Zahnarzt Mo oder Di 9 Uhr", .conflict),
            ("en", "Road trip end of August", .vagueDate), ("de", "Umbau Küche Ende August", .vagueDate),
            ("de", "Urlaub KW 52", .vagueDate),
        ])
    }

    @Test("a pair of capitalised names right after a clock time is a zone: known, it is used; unknown, the text is refused")
    func slashZones() throws {
        let zone = try #require(QuickAddZone(identifier: "America/New_York"))
        let now = QuickAddTestSupport.instant(Self.fridayEvening)
        let parser = QuickAddTestSupport.parser(lang: "en")
        #expect(try parser.parse("Call 3pm US/Pacific", now: now, zone: zone).timeZone == "US/Pacific")
        #expect(throws: QuickAddError.self) { try parser.parse("Call Wendy 3pm Mars/Olympus", now: now, zone: zone) }
        #expect(throws: QuickAddError.self) { try parser.parse("Call Wendy 15:00 Mars/Olympus", now: now, zone: zone) }
        #expect(try parser.parse("Read Mars/Olympus notes 3pm", now: now, zone: zone).title == "Read Mars/Olympus notes")
        #expect(try parser.parse("Sync 3pm eng/design", now: now, zone: zone).title == "Sync eng/design")
    }

    @Test("a part of the day that contradicts the time is refused, in the text's language")
    func contradictions() throws {
        let zone = try #require(QuickAddZone(identifier: "Europe/Berlin"))
        let now = QuickAddTestSupport.instant(Self.fridayEvening)
        for (lang, text, word) in [("en", "Run tomorrow morning 9pm", "is not in"), ("de", "Laufen morgen früh um 20 Uhr", "liegt nicht")] {
            #expect(throws: QuickAddError.self) { try QuickAddTestSupport.parser(lang: lang).parse(text, now: now, zone: zone) }
            do {
                _ = try QuickAddTestSupport.parser(lang: lang).parse(text, now: now, zone: zone)
            } catch {
                #expect(error.code == .conflict)
                #expect(error.message.contains(word), "\(error.message)")
                #expect(!error.message.contains("am/pm"))
            }
        }
    }

    @Test(
        "every refusal of German text is German (the message and the advice around the example), never English",
        arguments: [
            "Laufen morgen früh um 20 Uhr", "Party 30.2.", "Kurs jeden Montag 10 Mal bis 31.12.", "Urlaub 31.12.1800",
            "Reise in 500000 Tagen", "Yoga bis 31.12. 5 Mal", "Seminar morgen für 400 Tage", "Projekt Montag für 500 Tage",
            "Training jeden Montag 1000 Mal", "Kurs alle 1000 Wochen", "Kaufen", "morgen 15 Uhr",
            "Feier " + String(repeating: "x", count: 600), "Seminar 3 Tage", "Essen Heiligabend 19 Uhr",
        ])
    func germanRefusals(text: String) throws {
        let zone = try #require(QuickAddZone(identifier: "Europe/Berlin"))
        let now = QuickAddTestSupport.instant(Self.fridayEvening)
        do {
            let result = try QuickAddTestSupport.parser(lang: "de").parse(text, now: now, zone: zone)
            Issue.record("\(text) was read as \(result.title) \(result.start.description)")
        } catch {
            #expect(error.language == "de", "\(text): \(error.description)")
            #expect(error.description.contains("zum Beispiel"), "\(text): \(error.description)")
            // English words of the English messages and their advice.
            for english in ["the ", " is ", "try", "give ", "needs", "must", "repeat", "outside", "add "] {
                #expect(!error.description.contains(english), "\(text): \(error.description)")
            }
        }
    }

    @Test("a holiday inside the text with a time is refused with how to mean its day; after 'on'/'am' it is that day")
    func holidayInsideText() throws {
        let zone = try #require(QuickAddZone(identifier: "Europe/Berlin"))
        let now = QuickAddTestSupport.instant(Self.fridayEvening)
        for (lang, text, advice, meant) in [
            ("en", "Dinner Christmas Eve 7pm", "write \"on Christmas Eve\"", "Dinner on Christmas Eve 7pm"),
            ("de", "Essen Heiligabend 19 Uhr", "schreib „am Heiligabend“", "Essen am Heiligabend 19 Uhr"),
        ] {
            let parser = QuickAddTestSupport.parser(lang: lang)
            do {
                let result = try parser.parse(text, now: now, zone: zone)
                Issue.record("\(text) was read as \(result.title) \(result.start.description)")
            } catch {
                #expect(error.code == .vagueDate)
                #expect(error.message.contains(advice), "\(error.message)")
            }
            // The advice works.
            let result = try parser.parse(meant, now: now, zone: zone)
            #expect(result.start.description == "2026-12-24T19:00:00+01:00", "\(meant)")
        }
    }

    @Test("the words that ask for a repeat are found even where the whole text is refused")
    func repeatFragment() {
        let english = QuickAddTestSupport.parser(lang: "en"), german = QuickAddTestSupport.parser(lang: "de")
        #expect(english.repeatFragment(in: "every weekday 9:30")?.hasPrefix("every weekday") == true)
        #expect(english.repeatFragment(in: "Gym every Monday 6pm")?.hasPrefix("every Monday") == true)
        #expect(english.repeatFragment(in: "Standup daily at 9") != nil)
        #expect(english.repeatFragment(in: "Dentist tomorrow 3pm") == nil)
        #expect(english.repeatFragment(in: "Everyone's lunch Friday") == nil)
        #expect(german.repeatFragment(in: "Teammeeting jeden Montag um 9 Uhr")?.hasPrefix("jeden Montag") == true)
        #expect(german.repeatFragment(in: "Kino morgen um 20 Uhr") == nil)
    }

    @Test("a repeat shows its rule in words; one past today starts on its next day")
    func repeats() throws {
        let zone = try #require(QuickAddZone(identifier: "Europe/Berlin"))
        let now = QuickAddTestSupport.instant(Self.fridayEvening)
        let weekday = try QuickAddTestSupport.parser(lang: "en").parse("Standup every weekday 9:30", now: now, zone: zone)
        #expect(weekday.repeatDescription == "every weekday at 09:30")
        #expect(weekday.start.description == "2026-12-07T09:30:00+01:00")
        #expect(!weekday.isPast)
        let german = try QuickAddTestSupport.parser(lang: "de").parse("Teammeeting jeden Montag um 9 Uhr", now: now, zone: zone)
        #expect(german.title == "Teammeeting")
        #expect(german.recurrence == ["RRULE:FREQ=WEEKLY;BYDAY=MO"])
        #expect(german.repeatDescription == "every Monday at 09:00")
        let until = try QuickAddTestSupport.parser(lang: "en").parse("Gym every Tue and Thu 6pm until Dec 31", now: now, zone: zone)
        #expect(until.repeatDescription == "every week on Tuesday and Thursday at 18:00 until 2026-12-31")
        // Five or six days a week read as what was left out.
        let sixDays = try QuickAddTestSupport.parser(lang: "en").parse("Gym 6am every day except Sunday", now: now, zone: zone)
        #expect(sixDays.repeatDescription == "every day except Sunday at 06:00")
        let fiveDays = try QuickAddTestSupport.parser(lang: "de").parse("Laufen täglich außer Mi und So 7 Uhr", now: now, zone: zone)
        #expect(fiveDays.repeatDescription == "every day except Wednesday and Sunday at 07:00")
        // The n-th weekday of a month, and a repeat for a span (its last day, not each event's length).
        let nth = try QuickAddTestSupport.parser(lang: "en").parse("Book club last Friday of every month 7pm", now: now, zone: zone)
        #expect(nth.recurrence == ["RRULE:FREQ=MONTHLY;BYDAY=-1FR"])
        #expect(nth.repeatDescription == "every month on the last Friday at 19:00")
        #expect(nth.start.description == "2026-12-25T19:00:00+01:00")
        let span = try QuickAddTestSupport.parser(lang: "de").parse("Physio jeden Dienstag 10 Uhr für 6 Wochen", now: now, zone: zone)
        #expect(span.end.description == "2026-12-08T11:00:00+01:00")
        #expect(span.repeatDescription == "every Tuesday at 10:00 until 2027-01-18")
    }

    @Test("weekdays joined by a slash or comma repeat weekly; two joined by 'and' are refused with both ways to write them")
    func weekdayLists() throws {
        let zone = try #require(QuickAddZone(identifier: "Europe/Berlin"))
        let now = QuickAddTestSupport.instant(Self.fridayEvening)
        let english = QuickAddTestSupport.parser(lang: "en"), german = QuickAddTestSupport.parser(lang: "de")
        let slash = try english.parse("Yoga Tue/Thu 6pm", now: now, zone: zone)
        #expect(slash.title == "Yoga")
        #expect(slash.recurrence == ["RRULE:FREQ=WEEKLY;BYDAY=TU,TH"])
        #expect(slash.start.description == "2026-12-08T18:00:00+01:00")
        let comma = try english.parse("Gym Mon, Wed and Fri at 7am", now: now, zone: zone)
        #expect(comma.recurrence == ["RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR"])
        // One- and two-letter weekdays, as US schedules write them; only joined by slashes ("w/ Tom" is "with").
        let letters = try english.parse("Gym M/W/F 6am", now: now, zone: zone)
        #expect(letters.title == "Gym")
        #expect(letters.recurrence == ["RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR"])
        #expect(letters.start.description == "2026-12-07T06:00:00+01:00")
        #expect(try english.parse("Lecture T/Th 9:30am", now: now, zone: zone).recurrence == ["RRULE:FREQ=WEEKLY;BYDAY=TU,TH"])
        #expect(try english.parse("Team standup M-Th 9:30", now: now, zone: zone).recurrence == ["RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH"])
        #expect(try english.parse("Buy T-shirt Friday", now: now, zone: zone).title == "Buy T-shirt")
        #expect(try english.parse("Gym MWF 6am", now: now, zone: zone).recurrence == ["RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR"])
        #expect(try english.parse("Class TTh 11am", now: now, zone: zone).recurrence == ["RRULE:FREQ=WEEKLY;BYDAY=TU,TH"])
        let stammtisch = try german.parse("Stammtisch jeden 1. Freitag im Monat 19 Uhr", now: now, zone: zone)
        #expect(stammtisch.title == "Stammtisch")
        #expect(stammtisch.recurrence == ["RRULE:FREQ=MONTHLY;BYDAY=1FR"])
        // Two weak German weekdays joined by "und" are two dates, refused as "Monday and Tuesday" is.
        #expect(throws: QuickAddError.self) { try german.parse("Sport Di und Do 18 Uhr", now: now, zone: zone) }
        let acronym = try english.parse("Order 5 MW turbine Friday", now: now, zone: zone)
        #expect(acronym.title == "Order 5 MW turbine")
        #expect(acronym.recurrence.isEmpty)
        let with = try english.parse("Coffee w/ Tom Friday 3pm", now: now, zone: zone)
        #expect(with.title == "Coffee w/ Tom")
        #expect(with.recurrence.isEmpty)
        let weak = try german.parse("Chor Mo/Mi 19 Uhr", now: now, zone: zone)
        #expect(weak.title == "Chor")
        #expect(weak.recurrence == ["RRULE:FREQ=WEEKLY;BYDAY=MO,WE"])
        #expect(weak.start.description == "2026-12-07T19:00:00+01:00")
        do {
            let result = try english.parse("Workshop Monday and Tuesday", now: now, zone: zone)
            Issue.record("read as \(result.start.description) \(result.recurrence)")
        } catch {
            #expect(error.code == .conflict)
            #expect(error.message.contains("\"every\"") && error.message.contains("\"to\""), "\(error.message)")
        }
    }

    @Test("a count before a noun is a title word; before a rule it is the repeat's count")
    func countsInTitles() throws {
        let zone = try #require(QuickAddZone(identifier: "Europe/Berlin"))
        let now = QuickAddTestSupport.instant(Self.fridayEvening)
        let german = QuickAddTestSupport.parser(lang: "de")
        let count = try german.parse("2x Brötchen holen morgen 8 Uhr", now: now, zone: zone)
        #expect(count.title == "2x Brötchen holen")
        #expect(count.recurrence.isEmpty)
        let spaced = try QuickAddTestSupport.parser(lang: "en").parse("Order 3 x toner Monday", now: now, zone: zone)
        #expect(spaced.title == "Order 3 x toner")
        let repeatCount = try german.parse("Physio 6x dienstags 10 Uhr", now: now, zone: zone)
        #expect(repeatCount.title == "Physio")
        #expect(repeatCount.recurrence == ["RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=6"])
    }

    @Test("a German compound that starts with a holiday is that day, or refused where it names no one day")
    func holidayCompounds() throws {
        let zone = try #require(QuickAddZone(identifier: "Europe/Berlin"))
        let now = QuickAddTestSupport.instant(Self.fridayEvening)
        let german = QuickAddTestSupport.parser(lang: "de")
        let party = try german.parse("Silvesterparty 20 Uhr", now: now, zone: zone)
        #expect(party.title == "Silvesterparty")
        #expect(party.start.description == "2026-12-31T20:00:00+01:00")
        let midnight = try german.parse("Silvesterparty um Mitternacht", now: now, zone: zone)
        #expect(midnight.start.description == "2027-01-01T00:00:00+01:00")
        let brunch = try german.parse("Muttertagsbrunch 10 Uhr", now: now, zone: zone)
        #expect(brunch.start.description == "2027-05-09T10:00:00+02:00")
        for text in ["Weihnachtsfeier 18 Uhr", "Neujahrsempfang 18 Uhr", "Halloweenparty 20 Uhr"] {
            do {
                let result = try german.parse(text, now: now, zone: zone)
                Issue.record("\(text) was read as \(result.start.description)")
            } catch {
                #expect(error.code == .vagueDate, "\(text)")
            }
        }
        // With another date, or not at the start, a compound is a word of the title.
        let market = try german.parse("Weihnachtsmarkt Samstag 16 Uhr", now: now, zone: zone)
        #expect(market.title == "Weihnachtsmarkt")
        #expect(market.start.description == "2026-12-05T16:00:00+01:00")
        let name = try german.parse("Tom Ostermann anrufen 10 Uhr", now: now, zone: zone)
        #expect(name.start.description == "2026-12-05T10:00:00+01:00")
        let english = try QuickAddTestSupport.parser(lang: "en").parse("NYE-party 9pm", now: now, zone: zone)
        #expect(english.start.description == "2026-12-31T21:00:00+01:00")
    }

    /// Parses `text` at Friday evening in Berlin, or returns the refusal's code.
    /// Each text is refused, with its code.
    static func expectRefused(
        _ cases: [(lang: String, text: String, code: QuickAddError.Code)], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for (lang, text, code) in cases {
            guard case .failure(let error) = try read(lang, text) else {
                Issue.record("\(text) was read", sourceLocation: sourceLocation)
                continue
            }
            #expect(error.code == code, "\(text): \(error)", sourceLocation: sourceLocation)
        }
    }

    static func read(_ lang: String, _ text: String, now: String = fridayEvening) throws -> Result<QuickAddResult, QuickAddError> {
        let zone = try #require(QuickAddZone(identifier: "Europe/Berlin"))
        let parser = QuickAddTestSupport.parser(lang: lang)
        return Result { () throws(QuickAddError) in try parser.parse(text, now: QuickAddTestSupport.instant(now), zone: zone) }
    }

    @Test("a time next to a part of the day must be in the part's own hours, not only in the half of the day it picks")
    func ownHoursOfParts() throws {
        for (lang, text) in [
            ("de", "Essen 14 Uhr abends"), ("en", "Run tomorrow morning 2pm"), ("en", "Call at 3 in the evening"),
            ("de", "Lernen morgen Nachmittag 20 Uhr"), ("en", "Tea this afternoon 8pm"),
        ] {
            switch try Self.read(lang, text) {
            case .success(let result): Issue.record("\(text) was read as \(result.start.description)")
            case .failure(let error): #expect(error.code == .conflict, "\(text)")
            }
        }
        for (lang, text, start) in [
            ("en", "Drinks tonight 5pm", "2026-12-04T17:00:00+01:00"), ("de", "Anruf morgen um 8 Uhr abends", "2026-12-05T20:00:00+01:00"),
            ("en", "Party tonight at 1am", "2026-12-05T01:00:00+01:00"), ("de", "Essen heute Abend 17 Uhr", "2026-12-04T17:00:00+01:00"),
            ("en", "Brunch tomorrow morning 12:30", "2026-12-05T12:30:00+01:00"),
        ] {
            #expect(try Self.read(lang, text).get().start.description == start, "\(text)")
        }
    }

    @Test("two times joined by 'or' are a choice, refused; 'or' between counts stays in the title")
    func alternativeTimes() throws {
        for (lang, text) in [
            ("en", "Pick up Sam at 3:30 or 4"), ("de", "Treffen um 14 oder 15 Uhr"), ("en", "Call Ann 3pm or 4pm tomorrow"),
        ] {
            switch try Self.read(lang, text) {
            case .success(let result): Issue.record("\(text) was read as \(result.start.description)")
            case .failure(let error): #expect(error.code == .conflict, "\(text)")
            }
        }
        #expect(try Self.read("en", "Buy 3 or 4 chairs tomorrow").get().title == "Buy 3 or 4 chairs")
        #expect(try Self.read("en", "Trick or treat on Halloween 5pm").get().title == "Trick or treat")
    }

    @Test("a weak weekday name counts right before a month and its day, and must agree with it")
    func weakWeekdayBeforeDate() throws {
        let party = try Self.read("en", "Dad's retirement party Sat Jan 9 6pm").get()
        #expect(party.title == "Dad's retirement party")
        #expect(party.start.description == "2027-01-09T18:00:00+01:00")
        switch try Self.read("en", "Brunch Sun Jan 9 11am") {
        case .success(let result): Issue.record("read as \(result.start.description)")
        case .failure(let error): #expect(error.code == .conflict)
        }
    }

    @Test("the n-th day of every month, and every third or fourth weekday, repeat monthly; every second weekday is every other week")
    func monthlyOrdinals() throws {
        for (lang, text, rule) in [
            ("en", "Pay bills on the 1st of every month", "RRULE:FREQ=MONTHLY;BYMONTHDAY=1"),
            ("en", "Rent every 1st of the month", "RRULE:FREQ=MONTHLY;BYMONTHDAY=1"),
            ("de", "Miete am 1. jeden Monats", "RRULE:FREQ=MONTHLY;BYMONTHDAY=1"),
            ("en", "Book club every 3rd Thursday 7pm", "RRULE:FREQ=MONTHLY;BYDAY=3TH"),
            ("en", "Meetup every fourth Tuesday 6pm", "RRULE:FREQ=MONTHLY;BYDAY=4TU"),
            ("de", "Stammtisch jeden dritten Donnerstag 19 Uhr", "RRULE:FREQ=MONTHLY;BYDAY=3TH"),
            ("en", "Standup every second Monday 9am", "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO"),
            ("de", "Putzen jeden zweiten Freitag 10 Uhr", "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=FR"),
        ] {
            let result = try Self.read(lang, text).get()
            #expect(result.recurrence == [rule], "\(text)")
            #expect(!result.title.contains(" of") && !result.title.contains("Monats"), "\(text): \(result.title)")
        }
    }

    @Test("a part of the day right after a title word names the event with it, and still gives the part of the day")
    func partOfDayInTitle() throws {
        for (lang, text, title, start) in [
            ("en", "Parents evening next Wednesday 6:30pm", "Parents evening", "2026-12-09T18:30:00+01:00"),
            ("en", "Parents' evening Thursday at 7", "Parents' evening", "2026-12-10T19:00:00+01:00"),
            ("en", "Quiz evening Friday", "Quiz evening", "2026-12-04T19:00:00+01:00"),
            ("de", "Spiele Abend Freitag um 8", "Spiele Abend", "2026-12-04T20:00:00+01:00"),
            ("en", "Call Mom tomorrow evening", "Call Mom", "2026-12-05T19:00:00+01:00"),
            ("en", "Stretching in the evening", "Stretching", "2026-12-04T19:00:00+01:00"),
            // Another part of the day is the event's; the one in the title is only a word of it.
            ("en", "Parents evening tonight 7pm", "Parents evening", "2026-12-04T19:00:00+01:00"),
            ("en", "Morning run tomorrow morning", "Morning run", "2026-12-05T09:00:00+01:00"),
            ("de", "Spiele Abend morgen Abend", "Spiele Abend", "2026-12-05T19:00:00+01:00"),
        ] {
            let result = try Self.read(lang, text).get()
            #expect(result.title == title, "\(text)")
            #expect(result.start.description == start, "\(text)")
            #expect(result.doubts.isEmpty, "\(text): \(result.doubts)")
        }
    }

    @Test("a compound ending in -abend is an evening event, one ending in -frühstück a morning one; 'night' is evening")
    func kindCompounds() throws {
        for (lang, text, start) in [
            ("de", "Spieleabend Freitag um 8", "2026-12-04T20:00:00+01:00"),
            ("de", "Elternabend Donnerstag um 7", "2026-12-10T19:00:00+01:00"),
            ("de", "Filmabend bei Tom Samstag um 8", "2026-12-05T20:00:00+01:00"),
            ("de", "Grillabend Samstag um 6", "2026-12-05T18:00:00+01:00"),
            ("de", "Weißwurstfrühstück Sonntag um 10", "2026-12-06T10:00:00+01:00"),
            ("de", "Teamfrühstück Montag um 8", "2026-12-07T08:00:00+01:00"),
            ("en", "Game night Friday at 8", "2026-12-04T20:00:00+01:00"), ("en", "Movie night at 8 Saturday", "2026-12-05T20:00:00+01:00"),
            ("en", "Parents' night Thursday at 7", "2026-12-10T19:00:00+01:00"),
        ] {
            let result = try Self.read(lang, text).get()
            #expect(result.start.description == start, "\(text)")
            #expect(!result.doubts.contains { $0.code == .defaultHour }, "\(text)")
        }
        // A word with a meaning of its own is that: "Feierabend" is the end of the working day.
        let deadline = try Self.read("de", "Bericht bis Feierabend", now: Self.weekdayMorning).get()
        #expect(deadline.start.description == "2026-03-10T17:00:00+01:00")
    }

    @Test("an 'h' on an hour only a clock has is the 24-hour clock's mark; '2h', 'for 14h' and 'in 14h' stay amounts of time")
    func clockHourMark() throws {
        for (lang, text, start, end) in [
            ("de", "Meeting 14h Donnerstag", "2026-12-10T14:00:00+01:00", "2026-12-10T15:00:00+01:00"),
            ("de", "Termin 09h morgen", "2026-12-05T09:00:00+01:00", "2026-12-05T10:00:00+01:00"),
            ("de", "Termin 14h30 morgen", "2026-12-05T14:30:00+01:00", "2026-12-05T15:30:00+01:00"),
            ("de", "Mittagspause 12-13h morgen", "2026-12-05T12:00:00+01:00", "2026-12-05T13:00:00+01:00"),
            ("de", "Treffen um 9h morgen", "2026-12-05T09:00:00+01:00", "2026-12-05T10:00:00+01:00"),
            ("de", "Telko 9:30h morgen", "2026-12-05T09:30:00+01:00", "2026-12-05T10:30:00+01:00"),
            ("en", "Meeting 16h Thursday", "2026-12-10T16:00:00+01:00", "2026-12-10T17:00:00+01:00"),
            ("de", "Meeting 14h Donnerstag 2h", "2026-12-10T14:00:00+01:00", "2026-12-10T16:00:00+01:00"),
            ("en", "Focus block 2h tomorrow 3pm", "2026-12-05T15:00:00+01:00", "2026-12-05T17:00:00+01:00"),
            ("de", "Lernen morgen 15 Uhr für 14h", "2026-12-05T15:00:00+01:00", "2026-12-06T05:00:00+01:00"),
            ("de", "Erinnerung in 14h", "2026-12-05T07:30:00+01:00", "2026-12-05T08:30:00+01:00"),
        ] {
            let result = try Self.read(lang, text).get()
            // The whole time left the title: no digits, no lone "h".
            #expect(!result.title.contains { $0.isNumber } && !result.title.split(separator: " ").contains("h"), "\(text): \(result.title)")
            #expect(result.start.description == start, "\(text)")
            #expect(result.end.description == end, "\(text)")
            #expect(result.doubts.isEmpty, "\(text): \(result.doubts)")
        }
        // Without a start time a bare amount of hours is still a duration, and says so.
        switch try Self.read("en", "Study 2h tomorrow") {
        case .success(let result): Issue.record("read as \(result.start.description)")
        case .failure(let error): #expect(error.code == .durationWithoutTime)
        }
    }

    @Test("'except' leaves weekdays out of a daily or weekly series; anything else after it, or on another series, is refused")
    func exceptWeekdays() throws {
        for (lang, text, rule, start) in [
            ("en", "Gym at 6am every day except Sunday", "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SA", "2026-12-05T06:00:00+01:00"),
            ("en", "Running club every weekday except Friday 6:30am", "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH", "2026-12-07T06:30:00+01:00"),
            (
                "en", "Walk the dog daily except Saturdays and Sundays 7am", "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
                "2026-12-07T07:00:00+01:00"
            ),
            ("en", "Yoga every Mon, Wed and Fri except on Wed 6pm", "RRULE:FREQ=WEEKLY;BYDAY=MO,FR", "2026-12-04T18:00:00+01:00"),
            (
                "en", "Swim every other Mon/Wed/Fri excluding Fri 7am", "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE",
                "2026-12-07T07:00:00+01:00"
            ),
            ("en", "Standup every day except Sat-Sun 9:15am", "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "2026-12-07T09:15:00+01:00"),
            ("en", "Night shift every day except Sun-Tue 10pm", "RRULE:FREQ=WEEKLY;BYDAY=WE,TH,FR,SA", "2026-12-04T22:00:00+01:00"),
            ("de", "Joggen täglich außer sonntags 7 Uhr", "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SA", "2026-12-05T07:00:00+01:00"),
            ("de", "Teamrunde werktags außer freitags 9 Uhr", "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH", "2026-12-07T09:00:00+01:00"),
            ("en", "Run every day except weekends 6am", "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "2026-12-07T06:00:00+01:00"),
            ("en", "Stretch daily 7:15am except on the weekend", "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "2026-12-07T07:15:00+01:00"),
            ("de", "Laufen täglich 6:30 außer am Wochenende", "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "2026-12-07T06:30:00+01:00"),
        ] {
            let result = try Self.read(lang, text).get()
            #expect(result.recurrence == [rule], "\(text): \(result.recurrence)")
            #expect(result.start.description == start, "\(text)")
            // The excluded day is no word of the title and no date of the event.
            #expect(
                !result.title.lowercased().contains("except") && !result.title.lowercased().contains("außer"), "\(text): \(result.title)")
        }
        // Without a repeat, "except" is a word of the title.
        let lunch = try Self.read("en", "Lunch with everyone except Bob tomorrow noon").get()
        #expect(lunch.title == "Lunch with everyone except Bob" && lunch.recurrence.isEmpty)
        try Self.expectRefused([
            ("en", "Gym every day except holidays 6am", QuickAddError.Code.unsupportedException),
            ("en", "Rent every month except July", .unsupportedException),
            ("en", "Report every 2 days except Sunday", .unsupportedException),
            ("en", "Staff meeting every first Monday of the month except Monday", .unsupportedException),
            ("en", "Shift every weekday except Mon-Fri 9am", .conflict),
            ("de", "Sport täglich außer feiertags 7 Uhr", .unsupportedException),
        ])
    }

    @Test("this and next month name a day with its number or its n-th weekday, and start a series; alone they are refused")
    func monthsAhead() throws {
        for (lang, text, start, end) in [
            ("en", "Quarterly review first Monday of next month 10-11", "2027-01-04T10:00:00+01:00", "2027-01-04T11:00:00+01:00"),
            ("en", "Review the last Friday of next month 3pm", "2027-01-29T15:00:00+01:00", "2027-01-29T16:00:00+01:00"),
            ("en", "Party on the 15th of next month 8pm", "2027-01-15T20:00:00+01:00", "2027-01-15T21:00:00+01:00"),
            ("en", "Product launch on the first of next month", "2027-01-01", "2027-01-02"),
            ("en", "Meeting on the second of January 3pm", "2027-01-02T15:00:00+01:00", "2027-01-02T16:00:00+01:00"),
            ("en", "Cleanup the last Friday of this month 4pm", "2026-12-25T16:00:00+01:00", "2026-12-25T17:00:00+01:00"),
            ("de", "Elternabend am ersten Montag nächsten Monats 19 Uhr", "2027-01-04T19:00:00+01:00", "2027-01-04T20:00:00+01:00"),
            ("de", "Elternabend am ersten Montag im nächsten Monat 19 Uhr", "2027-01-04T19:00:00+01:00", "2027-01-04T20:00:00+01:00"),
            ("de", "Treffen am 15. des nächsten Monats", "2027-01-15", "2027-01-16"),
            ("de", "Miete am 1. nächsten Monats", "2027-01-01", "2027-01-02"),
        ] {
            let result = try Self.read(lang, text).get()
            #expect(result.start.description == start && result.end.description == end, "\(text): \(result.start) - \(result.end)")
            #expect(result.recurrence.isEmpty && !result.title.lowercased().contains("month") && !result.title.contains("Monat"), "\(text)")
        }
        // A series "starting next week/month" begins on its first day in that week or month.
        let retro = try Self.read("en", "Retro every other Friday at 4pm starting next week").get()
        #expect(retro.start.description == "2026-12-11T16:00:00+01:00" && retro.recurrence == ["RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=FR"])
        let piano = try Self.read("en", "Piano every Tuesday 5pm starting next month").get()
        #expect(piano.start.description == "2027-01-05T17:00:00+01:00" && piano.recurrence == ["RRULE:FREQ=WEEKLY;BYDAY=TU"])
        let kurs = try Self.read("de", "Kurs jeden Dienstag ab nächstem Monat 18 Uhr").get()
        #expect(kurs.start.description == "2027-01-05T18:00:00+01:00" && kurs.recurrence == ["RRULE:FREQ=WEEKLY;BYDAY=TU"])
        try Self.expectRefused([
            ("en", "Out of office next month", QuickAddError.Code.vagueDate), ("en", "Vacation starting next week", .vagueDate),
            ("de", "Urlaub nächsten Monat", .vagueDate), ("en", "Deadline the 30th of the month after next", .invalidDate),
            ("en", "Second round interviews next month", .vagueDate),
        ])
    }

    @Test(
        "a lone frequency word and a rule of the same interval are one rule, the word kept in the title; it must not say another interval")
    func frequencyWordAndRule() throws {
        for (lang, text, title, rule) in [
            ("en", "Weekly 1:1 with manager Tuesdays 10am", "Weekly 1:1 with manager", "RRULE:FREQ=WEEKLY;BYDAY=TU"),
            ("en", "Biweekly 1:1 every other Tuesday 3pm", "Biweekly 1:1", "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU"),
            ("en", "Biweekly sync every other Monday 11am", "Biweekly sync", "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO"),
            ("en", "Weekly review Fridays 4pm", "Weekly review", "RRULE:FREQ=WEEKLY;BYDAY=FR"),
            ("en", "Daily standup weekdays 9am", "Daily standup", "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
            ("de", "Wöchentlich Jour fixe dienstags 10 Uhr", "Wöchentlich Jour fixe", "RRULE:FREQ=WEEKLY;BYDAY=TU"),
        ] {
            let result = try Self.read(lang, text).get()
            #expect(result.title == title && result.recurrence == [rule], "\(text): \(result.title) \(result.recurrence)")
        }
        try Self.expectRefused([
            ("en", "Biweekly meeting Tuesdays 10am", .conflict), ("en", "Biweekly sync every Monday 11am", .conflict),
            ("en", "Weekly every other Tuesday", .conflict),
            ("en", "Monthly every week on Monday", .conflict), ("de", "14-tägig Treffen dienstags 10 Uhr", .conflict),
        ])
    }

    @Test("a weekday with 'in N weeks' is that weekday of the calendar week N weeks on; 'first thing' is early morning")
    func weekdayInWeeks() throws {
        for (lang, text, title, start) in [
            ("en", "Dentist Tuesday in 2 weeks 10am", "Dentist", "2026-12-15T10:00:00+01:00"),
            ("en", "Dentist in two weeks on Tuesday 10am", "Dentist", "2026-12-15T10:00:00+01:00"),
            ("de", "Zahnarzt in zwei Wochen Dienstag 10 Uhr", "Zahnarzt", "2026-12-15T10:00:00+01:00"),
            ("de", "Zahnarzt Dienstag in 2 Wochen 10 Uhr", "Zahnarzt", "2026-12-15T10:00:00+01:00"),
            ("en", "Call back first thing tomorrow", "Call back", "2026-12-05T08:00:00+01:00"),
            ("en", "First thing Monday review budget", "review budget", "2026-12-07T08:00:00+01:00"),
        ] {
            let result = try Self.read(lang, text).get()
            #expect(result.title == title && result.start.description == start, "\(text): \(result.title) \(result.start)")
        }
        // Without a weekday, "in 2 weeks" is still fourteen days on.
        #expect(try Self.read("en", "Lunch in 2 weeks").get().start.description == "2026-12-18")
    }
}
