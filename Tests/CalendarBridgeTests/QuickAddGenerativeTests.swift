import CalendarBridge
import Foundation
import Testing

/// Phrases built from parts whose meaning is known (title words with look-alikes, dates in several forms,
/// times in every clock form, ranges, zones; English and German), seeded and replayable: the parse must
/// equal the meaning computed here with Foundation's calendar, independently of the parser.
/// Replay one run with `QUICKADD_GEN_SEED=<seed> swift test --filter QuickAddGenerativeTests`.
@Suite("Quick-add generative test: 20,000 phrases of known meaning")
struct QuickAddGenerativeTests {
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let englishTitles = [
        "Team sync", "Deploy v1.2.3", "Review PR #481", "Q3 planning", "Buy 2 tickets", "Room 101 sync", "Ship v2.0", "Call Sam",
        "Room 4a sync", "Buy 2x4 boards", "Catch-22 club",
        // Counts and sizes written with a letter: title words, not times or repeat counts.
        "Buy 3p stamps", "5k run", "10k training", "Print 2x posters", "Order 3 x toner",
    ]
    static let germanTitles = [
        "Zahnarzt", "Release v2.1.0", "Besprechung Raum B12", "Teammeeting", "Q4 Planung", "2 Karten kaufen", "Raum 4a buchen",
        "2x Brötchen holen", "3 x Milch kaufen", "10k Lauf", "5k Training",
    ]

    /// A holiday's name and its day, found here without the parser: a fixed month and day, or the n-th weekday
    /// (ISO, 1 = Monday) of a month.
    struct Holiday {
        var name: String
        var month: Int
        var day: Int?
        var nth: (n: Int, weekday: Int)?

        /// Its first day on or after `today` (year, month, day), counted in `calendar`.
        func next(from today: DateComponents, _ calendar: Calendar) -> DateComponents {
            for year in [today.year!, today.year! + 1] {
                var day = DateComponents(year: year, month: month, day: self.day ?? 1)
                if let nth {
                    var seen = 0
                    for d in 1...28 {
                        let date = calendar.date(from: DateComponents(year: year, month: month, day: d))!
                        guard (calendar.component(.weekday, from: date) + 5) % 7 + 1 == nth.weekday else { continue }
                        seen += 1
                        if seen == nth.n {
                            day.day = d
                            break
                        }
                    }
                }
                if (day.month!, day.day!) >= (today.month!, today.day!) || year > today.year! { return day }
            }
            fatalError("unreachable")
        }
    }

    /// Named after "on"/"am" (any title), or starting the text as the title's first words.
    static let englishHolidays = [
        Holiday(name: "Christmas Eve", month: 12, day: 24), Holiday(name: "Halloween", month: 10, day: 31),
        Holiday(name: "Independence Day", month: 7, day: 4), Holiday(name: "Valentine's Day", month: 2, day: 14),
        Holiday(name: "St. Patrick's Day", month: 3, day: 17), Holiday(name: "Veterans Day", month: 11, day: 11),
        Holiday(name: "Thanksgiving", month: 11, nth: (4, 4)), Holiday(name: "Labor Day", month: 9, nth: (1, 1)),
        Holiday(name: "Mother's Day", month: 5, nth: (2, 7)), Holiday(name: "MLK Day", month: 1, nth: (3, 1)),
    ]
    static let germanHolidays = [
        Holiday(name: "Heiligabend", month: 12, day: 24), Holiday(name: "Valentinstag", month: 2, day: 14),
        Holiday(name: "Tag der Arbeit", month: 5, day: 1), Holiday(name: "Reformationstag", month: 10, day: 31),
        Holiday(name: "Nikolaustag", month: 12, day: 6), Holiday(name: "Tag der Deutschen Einheit", month: 10, day: 3),
        Holiday(name: "Muttertag", month: 5, nth: (2, 7)), Holiday(name: "Silvester", month: 12, day: 31),
    ]
    /// Titles that start with a holiday's name (German ones as compounds): the holiday is the day. No word here
    /// says which half of the day a bare hour is in ("dinner" would; the generator keeps to the default rule).
    static let englishHolidayTitles = [("parade", "St. Patrick's Day"), ("hike", "Labor Day"), ("walk", "Mother's Day")]
    static let germanHolidayTitles = [("party", "Silvester"), ("sbrunch", "Muttertag"), ("-Gottesdienst", "Heiligabend")]
    static let englishWeekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    static let germanWeekdays = ["Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag"]
    static let englishMonths = ["Jan", "Feb", "March", "April", "May", "June", "July", "Aug", "Sept", "Oct", "Nov", "December"]
    static let germanMonths = ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"]

    struct Meaning {
        var text: String
        var title: String
        var start: DateComponents
        var end: DateComponents
        var zone: String
        var past: Bool
    }

    /// One phrase and its meaning, at `now` in `userZone`.
    static func phrase(_ rng: inout SplitMix, german: Bool, now: Date, userZone: TimeZone) -> Meaning {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = userZone
        let today = calendar.dateComponents([.year, .month, .day, .weekday], from: now)
        func day(_ offset: Int) -> DateComponents {
            calendar.dateComponents([.year, .month, .day], from: calendar.date(byAdding: .day, value: offset, to: now)!)
        }
        var title = german ? germanTitles.randomElement(using: &rng)! : englishTitles.randomElement(using: &rng)!

        // The clock: start and end minutes, and how the text writes them.
        var start = 0, end = 0
        var clock = ""
        /// The documented rule for an hour from 1 to 12 with nothing else to go by.
        func bareRule(_ hour: Int) -> Int { (1...6).contains(hour) ? hour + 12 : hour }
        // A weekday with its part of the day in one phrase ("Friday night", "Freitagabend") sets the date too.
        var weekdayPart: (weekday: Int, text: String)?
        var isRange = false
        switch Int.random(in: 0..<9, using: &rng) {
        case 0:  // 24-hour with minutes
            start = Int.random(in: 13...22, using: &rng) * 60 + [0, 15, 30, 45].randomElement(using: &rng)!
            end = start + 60
            clock = "\(start / 60):\(String(format: "%02d", start % 60))" + (german ? " Uhr" : "")
        case 1:  // am/pm (English) or "um H Uhr" (German)
            let hour = Int.random(in: 9...21, using: &rng)
            start = hour * 60
            end = start + 60
            clock = german ? "um \(hour) Uhr" : "\(hour % 12 == 0 ? 12 : hour % 12)\(hour < 12 ? "am" : "pm")"
            // An approximation before it changes nothing: "around 3pm", "ca. um 15 Uhr".
            if Int.random(in: 0..<4, using: &rng) == 0 { clock = (german ? "ca. " : "around ") + clock }
        case 2:  // a bare hour after at/um: 7-11 morning, 12 noon, 1-6 afternoon
            let hour = Int.random(in: 1...11, using: &rng)
            start = ((1...6).contains(hour) ? hour + 12 : hour) * 60
            end = start + 60
            clock = (german ? "um " : "at ") + "\(hour)"
        case 3:  // a range whose end is read after its start: "12:30-1:30", "11-1"
            let hour = Int.random(in: 9...12, using: &rng)
            let minutes = [0, 30].randomElement(using: &rng)!
            let length = Int.random(in: 1...3, using: &rng)
            start = hour * 60 + minutes
            end = start + length * 60
            isRange = true
            let endHour = (end / 60) % 12 == 0 ? 12 : (end / 60) % 12
            let m = minutes == 0 ? "" : ":30"
            clock = (german ? "von " : "from ") + "\(hour)\(m)-\(endHour)\(m)"
        case 5:  // "half past 7", "quarter to 9", "halb 8", "viertel nach 3": the bare-hour rule on the clock phrase's time
            let hour = Int.random(in: 1...12, using: &rng)
            let kind = Int.random(in: 0..<3, using: &rng)
            let offset = [30, 15, -15][kind]
            let twelve = (hour * 60 + (german && kind == 0 ? -30 : offset) + 720) % 720
            let shown = twelve / 60 == 0 ? 12 : twelve / 60
            start = bareRule(shown) % 24 * 60 + twelve % 60
            if shown == 12 { start = 12 * 60 + twelve % 60 }
            end = start + 60
            let phrase = german ? ["halb", "viertel nach", "viertel vor"][kind] : ["half past", "quarter past", "quarter to"][kind]
            clock = (german ? "um " : "at ") + "\(phrase) \(hour)"
        case 6:  // "3p", "9:30a" (English); "um 9 Uhr 30" (German)
            let hour = Int.random(in: 7...20, using: &rng)
            let minutes = [0, 30].randomElement(using: &rng)!
            start = hour * 60 + minutes
            end = start + 60
            let twelve = hour % 12 == 0 ? 12 : hour % 12
            clock =
                german
                ? "um \(hour) Uhr" + (minutes == 0 ? "" : " 30")
                : "\(twelve)" + (minutes == 0 ? "" : ":30") + (hour < 12 ? "a" : "p")
            if !german, minutes == 0, hour < 12 { clock = "at " + clock }
        case 7:  // a weekday and its part: "Friday night" 21:00, "Freitagabend" 19:00, "Sonntagnachmittag" 15:00
            let weekday = Int.random(in: 1...7, using: &rng)
            if german {
                let parts: [(String, Int)] = [("abend", 19), ("nachmittag", 15), ("vormittag", 10)]
                let part = parts.randomElement(using: &rng)!
                start = part.1 * 60
                weekdayPart = (weekday, germanWeekdays[weekday - 1] + part.0)
            } else {
                start = 21 * 60
                weekdayPart = (weekday, englishWeekdays[weekday - 1] + " night")
            }
            end = start + 60
        default:  // a part of the day and nothing else
            let parts: [(String, String, Int)] = [("in the afternoon", "nachmittags", 15 * 60), ("in the evening", "abends", 19 * 60)]
            let part = parts.randomElement(using: &rng)!
            start = part.2
            end = start + 60
            clock = german ? part.1 : part.0
        }

        // The zone: the user's, or an IANA name in the text (the date still counts from the user's today).
        let zone = Bool.random(using: &rng) ? userZone.identifier : ["Europe/London", "Asia/Tokyo", "America/Chicago"].randomElement(using: &rng)!
        var eventCalendar = Calendar(identifier: .gregorian)
        eventCalendar.timeZone = TimeZone(identifier: zone)!
        func components(_ offset: Int, _ minutes: Int) -> DateComponents {
            var value = day(offset)
            value.hour = minutes / 60
            value.minute = minutes % 60
            return value
        }
        func instant(_ offset: Int) -> Date { eventCalendar.date(from: components(offset, start))! }

        // The date; a time already past moves on only without a date (a day) or with a bare weekday (a week).
        var offset = 0
        var dateText = ""
        let todayISO = (today.weekday! + 5) % 7 + 1
        switch weekdayPart == nil ? Int.random(in: 0..<7, using: &rng) : -1 {
        case -1:
            let weekday = weekdayPart!.weekday
            offset = (weekday - todayISO + 7) % 7
            if instant(offset) < now { offset += 7 }
            clock = weekdayPart!.text
        case 5:
            // "Tuesday next week", "nächste Woche Dienstag": that day of the next calendar week (Monday to Sunday).
            let weekday = Int.random(in: 1...7, using: &rng)
            offset = 7 - (todayISO - 1) + (weekday - 1)
            dateText = german ? "nächste Woche " + germanWeekdays[weekday - 1] : englishWeekdays[weekday - 1] + " next week"
        case 0:
            if instant(0) < now { offset = 1 }
        case 1:
            offset = 1
            dateText = german ? "morgen" : "tomorrow"
        case 2:
            let weekday = Int.random(in: 1...7, using: &rng)  // ISO
            offset = (weekday - todayISO + 7) % 7
            dateText = german ? germanWeekdays[weekday - 1] : englishWeekdays[weekday - 1]
            // Past already (today's, or in a zone ahead of the user's): the one a week later.
            if instant(offset) < now { offset += 7 }
        case 3:
            offset = Int.random(in: 2...40, using: &rng)
            dateText = german ? "in \(offset) Tagen" : "in \(offset) days"
        case 6:
            // A holiday: "on Thanksgiving", "am Heiligabend", or a title that starts with it ("Thanksgiving dinner",
            // "Silvesterparty"); its next day on or after today, kept (and flagged past) when that is today.
            let holidays = german ? germanHolidays : englishHolidays
            var holiday = holidays.randomElement(using: &rng)!
            if Bool.random(using: &rng) {
                let (rest, name) = (german ? germanHolidayTitles : englishHolidayTitles).randomElement(using: &rng)!
                holiday = holidays.first { $0.name == name }!
                title = german ? name + rest : name + " " + rest
            } else {
                dateText = (german ? "am " : "on ") + holiday.name
            }
            let target = holiday.next(from: today, calendar)
            offset = calendar.dateComponents([.day], from: calendar.date(from: day(0))!, to: calendar.date(from: target)!).day!
        default:
            offset = Int.random(in: 1...300, using: &rng)
            let target = day(offset)
            dateText = german ? "am \(target.day!). \(germanMonths[target.month! - 1])" : "\(englishMonths[target.month! - 1]) \(target.day!)"
        }
        let zoneText = zone == userZone.identifier ? "" : zone
        // A duration of an hour and a half on a single time: "for an hour and a half", "für anderthalb Stunden".
        if !isRange, Int.random(in: 0..<6, using: &rng) == 0 {
            end = start + 90
            clock += german ? " für anderthalb Stunden" : " for an hour and a half"
        }
        var parts = [dateText, clock, zoneText].filter { !$0.isEmpty }
        parts.shuffle(using: &rng)
        let text = ([title] + parts).joined(separator: " ")
        return Meaning(
            text: text, title: title, start: components(offset, start), end: components(offset, end), zone: zone,
            past: instant(offset) < now)
    }

    @Test("20,000 generated phrases parse to their meaning")
    func generated() throws {
        let seed = ProcessInfo.processInfo.environment["QUICKADD_GEN_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
        var rng = SplitMix(state: seed)
        let english = QuickAddTestSupport.parser(lang: "en")
        let german = QuickAddTestSupport.parser(lang: "de")
        let zones = ["Europe/Berlin", "America/New_York"]
        var failures: [String] = []
        for _ in 0..<20_000 {
            let isGerman = Bool.random(using: &rng)
            let userZoneID = zones.randomElement(using: &rng)!
            let userZone = TimeZone(identifier: userZoneID)!
            // A reference moment in 2026-2027 on a whole minute.
            let now = Date(timeIntervalSince1970: TimeInterval(1_767_225_600 + Int.random(in: 0..<(700 * 1440), using: &rng) * 60))
            let meaning = Self.phrase(&rng, german: isGerman, now: now, userZone: userZone)
            let parser = isGerman ? german : english
            do {
                let result = try parser.parse(meaning.text, now: now, zone: QuickAddZone(identifier: userZoneID)!)
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = TimeZone(identifier: meaning.zone)!
                let start = calendar.date(from: meaning.start)!
                let end = calendar.date(from: meaning.end)!
                let sameTitle = result.title == meaning.title
                let sameTimes = result.start.instant == start && result.end.instant == end
                let sameRest = result.timeZone == meaning.zone && result.isPast == meaning.past
                if !(sameTitle && sameTimes && sameRest) {
                    failures.append("\(meaning.text) at \(now) in \(userZoneID): got \(result.title) \(result.start) \(result.end) \(result.timeZone) past \(result.isPast), expected \(start) \(end) \(meaning.zone)")
                }
            } catch {
                failures.append("\(meaning.text) at \(now) in \(userZoneID): \(error)")
            }
            if failures.count >= 20 { break }
        }
        #expect(failures.isEmpty, Comment(rawValue: "seed \(seed):\n" + failures.joined(separator: "\n")))
    }
}
