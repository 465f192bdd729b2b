/// The parts of a quick-add line the grammar recognises, before they are resolved against "now".
enum QuickAddDateSpec: Sendable, Equatable {
    case relative(days: Int)
    case relativeMonths(Int)
    /// The last day of today's month.
    case endOfMonth
    /// The last day of that month (1-12), the next one on or after today.
    case endOfNamedMonth(Int)
    case weekday(Int, next: Bool)
    /// "this Friday", "diesen Freitag": this week's, even when it has passed today.
    case thisWeekday(Int)
    /// "last Friday", "letzten Freitag": the latest one before today (a past event).
    case previousWeekday(Int)
    /// "Friday after next", "übernächsten Freitag": a week after the first one after today.
    case weekdayAfterNext(Int)
    case absolute(year: Int?, month: Int, day: Int)
    case dayOfMonth(Int)
    /// That weekday of the calendar week (Monday to Sunday) this many weeks from today's: "Tuesday next week" (1).
    case weekdayOfWeek(Int, weeksAhead: Int)
    /// The n-th (1-4, or -1 for the last: what Outlook can repeat on) weekday of a month: "the last Friday of the
    /// month", the next one on or after today.
    case nthWeekday(Int, weekday: Int)
    /// A named holiday's next day on or after today ("on Christmas Eve", "bis Heiligabend").
    case holiday(QuickAddHoliday)
    indirect case range(QuickAddDateSpec, QuickAddDateSpec)
    /// The n-th (1-4, -1 last) weekday of a named month (1-12), the next one on or after today: "first Monday in January".
    case nthWeekdayOfMonth(Int, weekday: Int, month: Int)
    /// A weekday (1-7) of an ISO week (1-53), the next such day: "KW 51 Mittwoch", "Wednesday CW 51".
    case weekdayOfIsoWeek(week: Int, weekday: Int)
    /// Days and months after a day: "a week from Friday", "2 weeks from today".
    indirect case offset(days: Int, months: Int, from: QuickAddDateSpec)
    /// A day (1-31) of the month this many months after today's: "the 15th of next month" (15, 1).
    case dayMonthsAhead(Int, months: Int)
    /// The n-th (1-4, -1 last) weekday of the month this many months after today's: "the first Monday of next month".
    case nthWeekdayMonthsAhead(Int, weekday: Int, months: Int)
}

/// A clock time as written: hour as typed, am/pm if given, and what marks it as a time.
struct QuickAddTimePoint: Sendable, Equatable {
    var hour: Int
    var minute: Int
    var pm: Bool?
    var hasMinutes: Bool
    /// "Uhr" or a named time ("noon"): on the 24-hour clock, never ambiguous.
    var explicit: Bool
    var end: Int
    /// "o'clock": a time, read by the bare-hour rule.
    var marked = false
    /// Written with two digits and a leading zero ("07:30"): on the 24-hour clock.
    var leadingZero = false

    /// A lone hour with nothing that says it is a time.
    var isBare: Bool { pm == nil && !hasMinutes && !explicit && !marked }
    /// Minutes after midnight where the text settles them (am/pm, or an hour only a 24-hour clock has); else nil.
    var clockMinutes: Int? {
        if let pm { return ((hour % 12) + (pm ? 12 : 0)) * 60 + minute }
        if explicit || hour > 12 || leadingZero { return hour * 60 + minute }
        return nil
    }
}

/// One piece of a repeat rule; several pieces ("every Monday", "until Dec 1", "5 times") merge.
struct QuickAddRecurrencePart: Sendable, Equatable {
    var frequency: QuickAddFrequency?
    var interval = 1
    var byDay: [Int] = []
    var byMonthDay: Int?
    var until: QuickAddDateSpec?
    var count: Int?
    /// The first date implied by the rule itself ("every Dec 5").
    var start: QuickAddDateSpec?
    /// "the first Monday of every month": the one weekday in `byDay` is the n-th (-1: last) of its month.
    var byDayOrdinal: Int?
    /// "every morning", "every Friday night": the part of the day the repeat is at.
    var partOfDay: QuickAddPartOfDay?
    /// "except Sunday": weekdays left out of a daily or weekly series; empty when "except" names something else
    /// ("except holidays"), which is refused.
    var excludedDays: [Int]?
}

enum QuickAddElement: Sendable, Equatable {
    case date(QuickAddDateSpec)
    /// "Friday night", "Freitagabend": a day and a part of it.
    case dateAndPart(QuickAddDateSpec, QuickAddPartOfDay)
    /// "next week", "this weekend", "nächsten Monat": a span that names no one day.
    case vague
    case time(QuickAddTimePoint, QuickAddTimePoint?, zone: String?, prefixed: Bool)
    /// `months`: "for 6 months" (a calendar span, only meaningful as the length of a repeat).
    case duration(seconds: Int, wholeDays: Int?, months: Int? = nil)
    /// "in 2 hours", "in 30 minutes": a start that long after now.
    case relativeTime(seconds: Int)
    /// An IANA id, or nil for an Area/Location name the tz database does not know.
    case zone(String?)
    case location(String)
    case recurrence(QuickAddRecurrencePart)
    case allDay
    case partOfDay(QuickAddPartOfDay)
    /// "at 3:30 or 4", "um 14 oder 15 Uhr": two times to choose from, which no one event can be (refused).
    case alternativeTimes
}

struct QuickAddMatch: Sendable {
    var end: Int
    var element: QuickAddElement
}

/// Recognisers over one tokenised line. Each `match...` is a pure function of a token position: it
/// says what element starts there and where it ends, and changes nothing, so the location recogniser
/// can ask "does something temporal start here?" freely.
struct QuickAddGrammar {
    let scalars: [Unicode.Scalar]
    let tokens: [QuickAddToken]
    let meanings: [QuickAddMeaning?]
    let lengths: [Int]
    let weakWords: Set<String>
    /// Weak words that count before a clock time only (`QuickAddLocale.clockOnlyWeakWords`).
    var clockOnlyWeakWords: Set<String> = []
    /// One- and two-letter weekdays of slash lists (`QuickAddLocale.letterWeekdays`).
    var letterWeekdays: [String: Int] = [:]
    let dateOrder: QuickAddDateOrder
    /// Windows zone names found in the text: start token -> (end token, IANA id).
    var windowsZones: [Int: (end: Int, id: String)] = [:]
    /// Compound words that begin with a holiday's name ("Silvesterparty"; marked `.holiday` in `meanings`):
    /// token -> whether the compound names a party ("…party", "…feier").
    var holidayCompounds: [Int: Bool] = [:]
    /// Parts of the day that name the event after a word of the title (`QuickAddLocale.titlePartWords`).
    var titlePartWords: Set<String> = []
    /// Words and compound ends of streets' names (`QuickAddLocale.streetWords`, `streetSuffixes`).
    var streetWords: Set<String> = []
    var streetSuffixes: [String] = []
    /// Nouns whose number is part of the title (`QuickAddLocale.numberedWords`).
    var numberedWords: Set<String> = []
    /// Endings of counted nouns (`QuickAddLocale.countNounEndings`).
    var countNounEndings: [String] = []
    /// Words of the text that name a kind of event in one half of the day ("Dinner", "Frühstück"), in order, with the
    /// half each names: found once, read by the time rules and by the parser's kind hint.
    var kindWords: [(index: Int, hint: QuickAddPartOfDay)] = []
    /// Articles that make "in" a direction (`QuickAddLocale.directionArticles`).
    var directionArticles: Set<String> = []

    static let ianaAreas: Set<String> = [
        "africa", "america", "antarctica", "arctic", "asia", "atlantic", "australia", "europe", "indian",
        "pacific", "etc",
    ]

    var count: Int { tokens.count }

    // MARK: token helpers

    @inline(__always) func meaning(_ i: Int) -> QuickAddMeaning? { i < count && i >= 0 ? meanings[i] : nil }
    @inline(__always) func next(_ i: Int) -> Int { i < count ? i + lengths[i] : i + 1 }
    @inline(__always) func isNumber(_ i: Int) -> Bool { i < count && tokens[i].kind == .number && tokens[i].value >= 0 }
    @inline(__always) func value(_ i: Int) -> Int { tokens[i].value }
    @inline(__always) func isSymbol(_ i: Int, _ text: String) -> Bool {
        i < count && tokens[i].kind == .symbol && tokens[i].text == text
    }
    /// Token `i` touches the token before it (no space between).
    @inline(__always) func attached(_ i: Int) -> Bool { i < count && !tokens[i].spaceBefore }

    func isRangeSeparator(_ i: Int) -> Bool {
        switch meaning(i) {
        case .rangeTo?, .untilOrTo?: true
        default: false
        }
    }

    func weekdayNumber(_ i: Int) -> Int? {
        switch meaning(i) {
        case .weekday(let w)?, .weekdays(let w)?, .weekdayPart(let w, _)?: w
        default: nil
        }
    }

    /// The part of the day a weekday list names with one of its days ("every Friday night"), if any.
    func partOfDay(inList from: Int, _ to: Int) -> QuickAddPartOfDay? {
        for k in from..<min(to, count) { if case .weekdayPart(_, let part)? = meanings[k] { return part } }
        return nil
    }

    /// "Friday night", "on Freitagabend", "next Friday night", "this Sunday afternoon" in one word or phrase.
    func matchWeekdayPart(at i: Int) -> QuickAddMatch? {
        var j = i
        var prefix: QuickAddMeaning?
        switch meaning(i) {
        case .onDate?, .next?, .this?, .from?, .deadline?:
            prefix = meaning(i)
            j = next(i)
        default: break
        }
        guard case .weekdayPart(let w, let part)? = meaning(j) else { return nil }
        let spec: QuickAddDateSpec
        switch prefix {
        case .next?: spec = .weekday(w, next: true)
        case .this?: spec = .thisWeekday(w)
        default: spec = .weekday(w, next: false)
        }
        return QuickAddMatch(end: next(j), element: .dateAndPart(spec, part))
    }

    /// "the first Monday of every month", "every last Friday of the month", "monthly on the 2nd Tuesday", German
    /// "jeden ersten Freitag im Monat": a monthly repeat on the n-th weekday. Without a repeat word ("the last
    /// Friday of the month") it is one date, the next such day. "every second Monday" without "month" keeps its
    /// meaning of every other week; "every third Thursday" without it is monthly.
    func matchNthWeekday(at i: Int) -> QuickAddMatch? {
        var j = i
        var repeats = false
        var monthly = false
        switch meaning(j) {
        case .every?:
            repeats = true
            j = next(j)
        case .frequency(.monthly, 1)?:
            repeats = true
            monthly = true
            j = next(j)
        default: break
        }
        // "by the last Friday of the month": a deadline on that day.
        if !repeats, case .deadline? = meaning(j) { j = next(j) }
        if case .onDate? = meaning(j) { j = next(j) }
        if case .the? = meaning(j) { j = next(j) }
        var n: Int
        var k: Int
        switch meaning(j) {
        case .ordinal(let o)? where o <= 4 && tokens[j].text != "other":
            n = o
            k = next(j)
        case .lastOrdinal?:
            n = -1
            k = next(j)
        default:
            // "3rd", "1." (German ordinals are written with a dot).
            guard isNumber(j), (1...4).contains(value(j)), attached(j + 1) else { return nil }
            if case .ordinalSuffix? = meaning(j + 1) {} else if !isSymbol(j + 1, ".") { return nil }
            n = value(j)
            k = next(j + 1)
        }
        guard case .weekday(let w)? = meaning(k) else { return nil }
        var end = next(k)
        // "First Monday in January", "der erste Montag im Mai": that day of the named month, the next one; "the first
        // Monday of next month", "am ersten Montag nächsten Monats": that day of that month.
        if !repeats, !monthly {
            var monthWord = end
            switch meaning(end) {
            case .inRelative?, .inRelativeOrLocation?, .of?, .location?: monthWord = next(end)
            default: break
            }
            switch meaning(monthWord) {
            case .month(let month)? where monthWord != end:
                return QuickAddMatch(end: next(monthWord), element: .date(.nthWeekdayOfMonth(n, weekday: w, month: month)))
            case .monthsAhead(let months)?:
                return QuickAddMatch(end: next(monthWord), element: .date(.nthWeekdayMonthsAhead(n, weekday: w, months: months)))
            default: break
            }
        }
        if case .monthlyMarker(let every)? = meaning(end) {
            repeats = repeats || every
            end = next(end)
        } else if !repeats, case .frequency(.monthly, 1)? = meaning(end) {
            // "2nd Wed monthly": the frequency after the day.
            repeats = true
            end = next(end)
        } else if !monthly && !(repeats && n != 2) {
            // "every first Monday", "every 3rd Thursday", "jeden letzten Freitag": the n-th weekday of every month (as
            // Todoist reads "every 3rd friday"); "every second Monday" keeps its meaning of every other week.
            return nil
        }
        guard repeats else { return QuickAddMatch(end: end, element: .date(.nthWeekday(n, weekday: w))) }
        var part = QuickAddRecurrencePart()
        part.frequency = .monthly
        part.byDay = [w]
        part.byDayOrdinal = n
        return QuickAddMatch(end: end, element: .recurrence(part))
    }

    /// The original text of tokens `from..<to`, whitespace collapsed to single spaces.
    func text(_ from: Int, _ to: Int) -> String {
        guard from < to, to <= count else { return "" }
        var result = ""
        var pendingSpace = false
        for scalar in scalars[tokens[from].start..<tokens[to - 1].end] {
            if QuickAddTokenizer.isSpace(scalar) {
                pendingSpace = true
            } else {
                if pendingSpace { result.unicodeScalars.append(" ") }
                pendingSpace = false
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    // MARK: elements

    /// The element that starts at token `i`, if any (locations excepted).
    func element(at i: Int) -> QuickAddMatch? {
        if isCode(at: i) { return nil }
        if let zone = matchZone(at: i) { return zone }
        if case .vagueDate? = meaning(i) { return QuickAddMatch(end: next(i), element: .vague) }
        if let nth = matchNthWeekday(at: i) { return nth }
        if let recurrence = matchRecurrence(at: i) { return recurrence }
        if let dayPart = matchWeekdayPart(at: i) { return dayPart }
        if let duration = matchDuration(at: i) { return duration }
        if let relative = matchRelativeTime(at: i) { return relative }
        if let date = matchDate(at: i) { return date }
        if case .calendarWeek? = meaning(i) { return QuickAddMatch(end: next(i), element: .vague) }
        if case .monthsAhead? = meaning(i) { return QuickAddMatch(end: next(i), element: .vague) }
        // "Urlaub KW 52": a week, no one day.
        if case .isoWeek? = meaning(i), isoWeekNumber(at: i) != nil { return QuickAddMatch(end: next(i) + 1, element: .vague) }
        // "Umbau Küche Ende August", "Road trip end of August": without "by"/"bis" it names no one day.
        if case .endOf? = meaning(i), case .month? = meaning(next(i)) { return QuickAddMatch(end: next(next(i)), element: .vague) }
        if let time = matchTime(at: i) { return time }
        if case .allDay? = meaning(i) { return QuickAddMatch(end: next(i), element: .allDay) }
        if let part = matchPartOfDay(at: i) { return part }
        return nil
    }

    /// A number that is part of a name or code, not a date or time: right after letters or `#` ("v1.2.3",
    /// "Q3", "B12", "PR #481"), after a dotted number ("3.10.1"), or before a dash and a word ("7-Eleven").
    func isCode(at i: Int) -> Bool {
        guard isNumber(i) else { return false }
        // A phrase of the locale that starts with digits ("14-tägig") is that phrase.
        if lengths[i] > 1, meanings[i] != nil { return false }
        // "1:1", "3:2": a ratio or a score (minutes have two digits), neither number an hour.
        if i >= 2, attached(i), isSymbol(i - 1, ":"), attached(i - 1), isNumber(i - 2), tokens[i].digits == 1 { return true }
        if isSymbol(i + 1, ":"), attached(i + 1), isNumber(i + 2), attached(i + 2), tokens[i + 2].digits == 1 { return true }
        if i > 0, attached(i) {
            let before = tokens[i - 1]
            if before.kind == .word || (before.kind == .symbol && ["#", "_", "$", "€", "£"].contains(before.text)) { return true }
            if before.kind == .symbol, before.text == ".", i > 1, attached(i - 1), tokens[i - 2].kind == .number { return true }
        }
        if isSymbol(i + 1, "-"), attached(i + 1), attached(i + 2), i + 2 < count, tokens[i + 2].kind == .word {
            switch meaning(i + 2) {
            case nil, .number?: return true
            default: break
            }
        }
        // "ch. 5-7": the end of a range of numbered things.
        if i >= 2, isSymbol(i - 1, "-"), attached(i - 1), attached(i), isNumber(i - 2),
            !(i >= 3 && attached(i - 2) && tokens[i - 3].kind == .symbol),
            isCode(at: i - 2)
        {
            return true
        }
        // "chapter 12", "Room 4", "Gleis 3", "ch. 7": the number of one of a series or a place ("Flight 6:05 am" is a time).
        let noun = i > 1 && isSymbol(i - 1, ".") && attached(i - 1) ? i - 2 : i - 1
        if noun >= 0, !attached(i), tokens[noun].kind == .word, meanings[noun] == nil, numberedWords.contains(tokens[noun].text) {
            return !hasClockMark(after: i)
        }
        return isHouseNumber(at: i)
    }

    /// Is the number at `i` written as a clock time: minutes, am/pm, "Uhr" or "o'clock" after it?
    func hasClockMark(after i: Int) -> Bool {
        switch meaning(i + 1) {
        case .meridiem?, .oclock?, .hourMark?: return true
        default: return isSymbol(i + 1, ":") && attached(i + 1)
        }
    }

    /// A house number: before a street's name of one to three words ("at 12 Elm Street", "1600 Pennsylvania Ave"),
    /// or right after one ("Hauptstr. 12", "Berliner Straße 5") unless a clock's mark follows ("Main St 5pm").
    func isHouseNumber(at i: Int) -> Bool {
        guard !streetWords.isEmpty else { return false }
        var k = i + 1
        while k < count, k <= i + 3 {
            if k > i + 1, streetWords.contains(tokens[k].text) { return true }
            guard isOrdinaryWord(at: k) else { break }
            k += 1
        }
        var before = i - 1
        if before > 0, isSymbol(before, "."), attached(before) { before -= 1 }
        guard before >= 0, tokens[before].kind == .word else { return false }
        let word = tokens[before].text
        guard streetWords.contains(word) || streetSuffixes.contains(where: { word.count > $0.count + 2 && word.hasSuffix($0) })
        else { return false }
        return !hasClockMark(after: i)
    }

    /// "in 2 hours", "in 30 minutes", "in an hour", "in 2 Stunden": hours and minutes from now (days and longer
    /// are dates, read by `dateAtom`).
    func matchRelativeTime(at i: Int) -> QuickAddMatch? {
        switch meaning(i) {
        case .inRelative?, .inRelativeOrLocation?: break
        default: return nil
        }
        // Hours and minutes as a duration reads them: "in 2 hours", "in half an hour", "in 1h30", "in einer halben Stunde".
        guard let duration = matchDuration(at: next(i), afterIn: true), case .duration(let seconds, nil, nil) = duration.element else {
            return nil
        }
        return QuickAddMatch(end: duration.end, element: .relativeTime(seconds: seconds))
    }

    /// A one-word part of the day at `k` that names the event and stays in the title, while it still gives the
    /// part of the day: the first word before a word of the title ("Morning run tomorrow", "Evening walk Friday"),
    /// or one of the locale's `titlePartWords` right after a word of the title ("Parents evening next Wednesday
    /// 6:30pm", "Parents' evening", "Spiele Abend").
    func partOfDayNamesTitle(at k: Int) -> Bool {
        guard k < count, lengths[k] == 1, case .partOfDay(let part)? = meanings[k], part.day == nil else { return false }
        if k == 0 { return count > 1 && tokens[1].kind == .word && meanings[1] == nil }
        guard titlePartWords.contains(tokens[k].text), tokens[k].spaceBefore else { return false }
        var before = k - 1
        // "Parents' evening": past a possessive apostrophe written onto the word.
        if tokens[before].kind == .symbol, tokens[before].text == "'" || tokens[before].text == "\u{2019}", attached(before), before > 0 {
            before -= 1
        }
        return tokens[before].kind == .word && meanings[before] == nil && holidayCompounds[before] == nil
    }

    /// "morning", "in the evening", "this afternoon", "tonight", "abends", "by end of day".
    func matchPartOfDay(at i: Int) -> QuickAddMatch? {
        var j = i
        var today = false
        switch meaning(i) {
        case .deadline?, .at?, .atTime?, .onDate?, .untilOrTo?: j = next(i)
        case .this?:
            j = next(i)
            today = true
        default: break
        }
        guard case .partOfDay(var part)? = meaning(j) else { return nil }
        if today { part.day = 0 }
        return QuickAddMatch(end: next(j), element: .partOfDay(part))
    }

    // MARK: zones

    func matchZone(at i: Int) -> QuickAddMatch? {
        if let windows = windowsZones[i] { return QuickAddMatch(end: windows.end, element: .zone(windows.id)) }
        guard i + 2 < count, tokens[i].kind == .word, isSymbol(i + 1, "/"), attached(i + 1), attached(i + 2),
            tokens[i + 2].kind != .symbol
        else { return nil }
        // Outside the tz database's areas, a pair of capitalised names right after a clock time is meant as a zone too
        // ("3pm US/Pacific"; "3pm Mars/Olympus" is refused as an unknown zone, not kept in the title).
        if !Self.ianaAreas.contains(tokens[i].text) {
            guard i > 0, tokens[i + 2].kind == .word, isCapitalized(i), isCapitalized(i + 2) else { return nil }
            switch meanings[i - 1] {
            case .meridiem?, .oclock?: break
            case nil where tokens[i - 1].kind == .number && i >= 3 && isSymbol(i - 2, ":"): break
            default: return nil
            }
        }
        var end = i + 1
        while end < count, attached(end) {
            let token = tokens[end]
            guard token.kind != .symbol || token.text == "/" || token.text == "-" || token.text == "+" else { break }
            end += 1
        }
        var identifier = ""
        identifier.unicodeScalars.append(contentsOf: scalars[tokens[i].start..<tokens[end - 1].end])
        let known = QuickAddZone(identifier: identifier) != nil
        return QuickAddMatch(end: end, element: .zone(known ? identifier : nil))
    }

    /// Was the word at `k` written with a capital first letter?
    func isCapitalized(_ k: Int) -> Bool { scalars[tokens[k].start].properties.isUppercase }

    // MARK: dates

    /// A day number 1-31, with an optional ordinal mark ("5th", German "5."), that is not a time.
    func bareDay(at k: Int) -> (day: Int, end: Int, marked: Bool)? {
        guard isNumber(k), tokens[k].digits <= 2, (1...31).contains(value(k)) else { return nil }
        var end = k + 1
        if case .ordinalSuffix? = meaning(end), attached(end) {
            return (value(k), next(end), true)
        }
        if isSymbol(end, "."), attached(end), !(isNumber(end + 1) && attached(end + 1)) {
            end += 1
            return (value(k), end, true)
        }
        if isSymbol(end, ":") && attached(end) { return nil }
        switch meaning(end) {
        case .meridiem?, .oclock?, .unit?, .times?: return nil
        default: return (value(k), end, false)
        }
    }

    /// An optional year after a month-day: `, 2026` or ` 2026`.
    func year(at k: Int) -> (year: Int, end: Int)? {
        var j = k
        if isSymbol(j, ",") { j += 1 }
        guard isNumber(j), tokens[j].digits == 4, value(j) >= 1000 else { return nil }
        // "Jan 14 0800-1200": a range of clock times, not a year.
        if isSymbol(j + 1, "-"), attached(j + 1), isNumber(j + 2), tokens[j + 2].digits == 4 { return nil }
        // "Dec 5 2026:..." would be odd; a four-digit number followed by ':' is not a year.
        if isSymbol(j + 1, ":") && attached(j + 1) { return nil }
        return (value(j), j + 1)
    }

    /// "in 2 weeks", "in zwei Wochen": the number of weeks and where the phrase ends.
    func weeksAhead(at k: Int) -> (weeks: Int, end: Int)? {
        switch meaning(k) {
        case .inRelative?, .inRelativeOrLocation?: break
        default: return nil
        }
        guard let (n, unitAt) = amount(at: next(k)), n <= 520, case .unit(.week)? = meaning(unitAt) else { return nil }
        return (n, next(unitAt))
    }

    /// "KW 51", "CW51", "week 51": an ISO week number 1-53 (a bare "week" needs its number spaced: "week 3" of a course is
    /// a word of the title unless a weekday goes with it, which the callers check).
    func isoWeekNumber(at k: Int) -> (week: Int, end: Int)? {
        switch meaning(k) {
        case .isoWeek?, .unit(.week)?: break
        default: return nil
        }
        let n = next(k)
        guard isNumber(n), tokens[n].digits <= 2, (1...53).contains(value(n)) else { return nil }
        if case .unit(.week)? = meaning(k), tokens[k].text != "week" { return nil }
        return (value(n), n + 1)
    }

    /// A whole amount: digits or a number word.
    func amount(at k: Int) -> (value: Int, end: Int)? {
        if isNumber(k), value(k) <= 100_000 { return (value(k), k + 1) }
        if case .number(let n)? = meaning(k) { return (n, next(k)) }
        return nil
    }

    /// Is a lone ordinal day ("the 15th") followed by something that lets it be a date?
    /// ("the 3rd floor" is not a date.)
    func loneOrdinalMayEndAt(_ k: Int) -> Bool {
        guard k < count else { return true }
        return tokens[k].kind != .word || meanings[k] != nil
    }

    func weekdayIsAllowed(at j: Int) -> Bool {
        guard weakWords.contains(tokens[j].text) else { return true }
        // "7p-7a sat", "7pm London time sat", "in der Frueh Sa": right after a time's letter or a phrase of several words.
        if endsClockOrZone(j), !isOrdinaryWord(at: next(j)) { return true }
        if j > 0 {
            if tokens[j - 1].kind == .symbol && tokens[j - 1].text == "," { return true }
            switch meanings[j - 1] {
            // "8 am Sat", "10 Uhr Sa": right after a time's am/pm or "Uhr" too.
            case .onDate?, .next?, .this?, .every?, .from?, .starting?, .untilOrTo?, .rangeTo?, .and?, .or?, .deadline?, .meridiem?,
                .oclock?, .namedTime?, .allDay?:
                return true
            // "8:15 Sat w/ parents", "Shift 2-10 sat", "7:30 Sa", "18 Uhr MEZ Do": right after a time, unless a word
            // of the title follows ("2 sat phones").
            case .zone?:
                if !isOrdinaryWord(at: next(j)) { return true }
            case nil where tokens[j - 1].kind == .number:
                if !isOrdinaryWord(at: next(j)) { return true }
            case nil where next(j) >= count && tokens[j - 1].kind == .word && !clockOnlyWeakWords.contains(tokens[j].text):
                // "Pick up dry cleaning Sat": the last word of the text after a word of the title ("Lunch with Sun"
                // has "with" before it; German "so" ends many a sentence).
                return true
            default: break
            }
        }
        let after = next(j)
        // "Mo-Mi": the first day of a range of days; "Mo., 14.12.": a weekday a comma joins to its date.
        if isSymbol(after, "-"), attached(after), attached(after + 1), weekdayNumber(after + 1) != nil { return true }
        // "Do bis So", "Thu to Sun": the first day of a span of days written out.
        switch meaning(after) {
        case .rangeTo?, .untilOrTo?: if weekdayNumber(next(after)) != nil { return true }
        default: break
        }
        if isSymbol(after, ","), dateAtom(at: after + 1, prefixed: true) != nil { return true }
        // "Di und Do": two weekdays joined by "and" (read as two dates, which the text must settle).
        if case .and? = meaning(after), weekdayNumber(next(after)) != nil { return true }
        // "Mo oder Di": two weekdays to choose from (refused as two dates).
        if case .or? = meaning(after), weekdayNumber(next(after)) != nil { return true }
        // "Sat morning", "Sun evening": right before a part of the day.
        if case .partOfDay? = meaning(after) { return true }
        // "Sat Jan 9": right before a month and its day (the weekday must agree with the date).
        if case .month? = meaning(after), bareDay(at: next(after)) != nil { return true }
        if clockOnlyWeakWords.contains(tokens[j].text) {
            // "So 18:30", "So 10 Uhr": a clock time right after it, not a count or an approximate hour.
            guard isNumber(after), let point = timePoint(at: after) else { return false }
            if point.hasMinutes || point.explicit { return true }
            // "So 8-14 Uhr": a range whose end has the mark.
            guard isRangeSeparator(point.end), let end = timePoint(at: next(point.end), prefixed: true) else { return false }
            return end.hasMinutes || end.explicit
        }
        return isNumber(after) || matchTime(at: after) != nil
    }

    /// Does a time's letter ("7a", "7p") or a phrase of several words for a zone or a part of the day ("London time",
    /// "in der Frueh") end right before `j`?
    func endsClockOrZone(_ j: Int) -> Bool {
        if j >= 2, attached(j - 1), isNumber(j - 2), tokens[j - 1].text == "a" || tokens[j - 1].text == "p" { return true }
        return phraseEnds(at: j) {
            switch $0 {
            case .zone, .partOfDay, .namedTime, .allDay: true
            default: false
            }
        }
    }

    /// Does a phrase of the locale whose meaning passes `test` end right before `k` (the longest are four words)?
    func phraseEnds(at k: Int, _ test: (QuickAddMeaning) -> Bool) -> Bool {
        for t in max(0, k - 4)..<k where next(t) == k {
            if let meaning = meanings[t], test(meaning) { return true }
        }
        return false
    }

    /// One date without a range: "tomorrow", "next Friday", "Dec 5th, 2026", "5.12.", "12/5", "the 15th".
    func dateAtom(at j: Int, prefixed: Bool) -> (spec: QuickAddDateSpec, end: Int)? {
        guard j < count else { return nil }
        // "+3d", "+2w", "+1m", "+1y": today plus that many days, weeks, months or years (both languages).
        if isSymbol(j, "+"), isNumber(j + 1), attached(j + 1), j + 2 < count, attached(j + 2), value(j + 1) <= 100_000,
            !(j + 3 < count && attached(j + 3) && tokens[j + 3].kind != .symbol)
        {
            let n = value(j + 1)
            switch tokens[j + 2].text {
            case "d", "t": return (.relative(days: n), j + 3)
            case "w": return (.relative(days: n * 7), j + 3)
            case "m": return (.relativeMonths(n), j + 3)
            case "y", "j": return (.relativeMonths(n * 12), j + 3)
            default: break
            }
        }
        // "3 Tage ab 9.1.", "2 weeks starting Monday": that many days from the day on, a span.
        if let (n, unitEnd) = amount(at: j), (1...366).contains(n), case .unit(let unit)? = meaning(unitEnd),
            unit == .day || unit == .week, case .starting? = meaning(next(unitEnd)),
            let (first, end) = dateAtom(at: next(next(unitEnd)), prefixed: true)
        {
            return (.range(first, .offset(days: (unit == .week ? 7 : 1) * n - 1, months: 0, from: first)), end)
        }
        // "a week from Friday", "2 weeks from today", "3 days from tomorrow": that long after the day.
        if let (n, unitEnd) = amount(at: j), n <= 10_000, case .unit(let unit)? = meaning(unitEnd), case .from? = meaning(next(unitEnd)),
            let (base, end) = dateAtom(at: next(next(unitEnd)), prefixed: true)
        {
            switch unit {
            case .day: return (.offset(days: n, months: 0, from: base), end)
            case .week: return (.offset(days: 7 * n, months: 0, from: base), end)
            case .month: return (.offset(days: 0, months: n, from: base), end)
            case .year: return (.offset(days: 0, months: 12 * n, from: base), end)
            case .minute, .hour: break
            }
        }
        switch meaning(j) {
        case .relativeDay(let n)?:
            return (.relative(days: n), next(j))
        case .endOfMonth?:
            return (.endOfMonth, next(j))
        case .endOf?:
            // "until end of January", "bis Ende März": only after a word that makes it a date's limit; alone, "Ende März"
            // names no one day (refused as vague).
            guard prefixed, case .month(let month)? = meaning(next(j)) else { return nil }
            return (.endOfNamedMonth(month), next(next(j)))
        case .holiday(let holiday)?:
            // After "on", "am", "by": the holiday's day. Alone it is read only at the start of the text (see
            // `QuickAddParser.readHoliday`); elsewhere it is a word of the title ("Buy Christmas tree").
            // A compound ("am Weihnachtsmarkt") is a place or a title word, never the holiday's day.
            return prefixed && holidayCompounds[j] == nil ? (.holiday(holiday), next(j)) : nil
        case .afterNext?:
            // "übernächsten Freitag".
            guard case .weekday(let w)? = meaning(next(j)) else { return nil }
            return (.weekdayAfterNext(w), next(next(j)))
        case .next?, .this?:
            let k = next(j)
            if case .weekday(let w)? = meaning(k) {
                if case .next? = meaning(j) { return (.weekday(w, next: true), next(k)) }
                return (.thisWeekday(w), next(k))
            }
            return nil
        case .lastOrdinal?:
            // "last Friday" (not "the last Friday of the month": `matchNthWeekday` takes that first).
            guard case .weekday(let w)? = meaning(next(j)) else { return nil }
            return (.previousWeekday(w), next(next(j)))
        case .weekday(let w)?:
            // "Tuesday next week", "Dienstag nächster Woche".
            if case .calendarWeek(let weeks)? = meaning(next(j)) { return (.weekdayOfWeek(w, weeksAhead: weeks), next(next(j))) }
            // "Tuesday in 2 weeks", "Dienstag in zwei Wochen": that weekday of the calendar week that many weeks on.
            if let (weeks, end) = weeksAhead(at: next(j)) { return (.weekdayOfWeek(w, weeksAhead: weeks), end) }
            // "Mittwoch KW 51", "Wednesday week 51".
            if let (week, end) = isoWeekNumber(at: next(j)) { return (.weekdayOfIsoWeek(week: week, weekday: w), end) }
            // "Friday after next".
            if case .afterNext? = meaning(next(j)) { return (.weekdayAfterNext(w), next(next(j))) }
            guard weekdayIsAllowed(at: j) else { return nil }
            return (.weekday(w, next: false), next(j))
        case .isoWeek?, .unit(.week)?:
            // "KW 51 Mittwoch", "CW 51, Wed", "week 51 Wednesday".
            guard let (week, k) = isoWeekNumber(at: j) else { return nil }
            var day = k
            if isSymbol(day, ",") { day += 1 }
            if case .onDate? = meaning(day) { day = next(day) }
            guard case .weekday(let w)? = meaning(day) else { return nil }
            return (.weekdayOfIsoWeek(week: week, weekday: w), next(day))
        case .calendarWeek(let weeks)?:
            // "next week Tuesday", "next week on Tuesday", "nächste Woche Dienstag".
            var k = next(j)
            if case .onDate? = meaning(k) { k = next(k) }
            guard case .weekday(let w)? = meaning(k) else { return nil }
            return (.weekdayOfWeek(w, weeksAhead: weeks), next(k))
        case .inRelative?, .inRelativeOrLocation?:
            guard let (n, k) = amount(at: next(j)), case .unit(let unit)? = meaning(k) else { return nil }
            // "in 2 weeks on Tuesday", "in zwei Wochen Dienstag": that weekday of the calendar week that many weeks on.
            if unit == .week {
                var day = next(k)
                if case .onDate? = meaning(day) { day = next(day) }
                if case .weekday(let w)? = meaning(day) { return (.weekdayOfWeek(w, weeksAhead: n), next(day)) }
            }
            switch unit {
            case .day: return (.relative(days: n), next(k))
            case .week: return (.relative(days: n * 7), next(k))
            case .month: return (.relativeMonths(n), next(k))
            case .year: return (.relativeMonths(n * 12), next(k))
            default: return nil
            }
        case .month(let m)?:
            var k = next(j)
            if isSymbol(k, ".") && attached(k) { k += 1 }
            guard let (d, end, _) = bareDay(at: k) else { return nil }
            if let (y, yearEnd) = year(at: end) { return (.absolute(year: y, month: m, day: d), yearEnd) }
            return (.absolute(year: nil, month: m, day: d), end)
        case .ordinal(let d)? where tokens[j].text != "other":
            // "the first of next month", "the second of January": an ordinal word names a day only with "of" and its month.
            guard case .of? = meaning(next(j)) else { return nil }
            let k = next(next(j))
            switch meaning(k) {
            case .monthsAhead(let months)?: return (.dayMonthsAhead(d, months: months), next(k))
            case .month(let m)?: return (.absolute(year: nil, month: m, day: d), next(k))
            default: return nil
            }
        default:
            break
        }
        guard isNumber(j) else { return nil }
        let digits = tokens[j].digits
        // ISO 2026-12-05 (or 2026/12/05).
        if digits == 4, j + 4 < count, isSymbol(j + 1, "-") || isSymbol(j + 1, "/"), tokens[j + 3].text == tokens[j + 1].text,
            attached(j + 1), attached(j + 2), attached(j + 3), attached(j + 4),
            isNumber(j + 2), isNumber(j + 4), tokens[j + 2].digits <= 2, tokens[j + 4].digits <= 2
        {
            return (.absolute(year: value(j), month: value(j + 2), day: value(j + 4)), j + 5)
        }
        guard digits <= 2 else { return nil }
        // Numeric 12/5 or 12/5/2026 in the configured order.
        if isSymbol(j + 1, "/"), attached(j + 1), isNumber(j + 2), attached(j + 2), tokens[j + 2].digits <= 2 {
            var year: Int?
            var end = j + 3
            if isSymbol(j + 3, "/"), attached(j + 3), isNumber(j + 4), attached(j + 4),
                tokens[j + 4].digits == 2 || tokens[j + 4].digits == 4
            {
                year = tokens[j + 4].digits == 2 ? 2000 + value(j + 4) : value(j + 4)
                end = j + 5
            }
            let first = value(j), second = value(j + 2)
            // "24/7" is always a phrase; a day-month pair that is no date in either order is not a date.
            if year == nil, first == 24, second == 7 { return nil }
            if year == nil, first > 12, second > 12 { return nil }
            // "22/12" in a month-first text, "5/13" in a day-first one: the only order that is a date.
            let monthFirst = dateOrder == .mdy ? !(first > 12 && second <= 12) : (second > 12 && first <= 12)
            return (.absolute(year: year, month: monthFirst ? first : second, day: monthFirst ? second : first), end)
        }
        // Dotted 5.12. or 5.12.2026, always day first.
        if isSymbol(j + 1, "."), attached(j + 1), isNumber(j + 2), attached(j + 2), tokens[j + 2].digits <= 2,
            isSymbol(j + 3, "."), attached(j + 3)
        {
            // "1.2.3" is a version, not 1 February.
            if isNumber(j + 4), attached(j + 4), tokens[j + 4].digits != 2 && tokens[j + 4].digits != 4 { return nil }
            if isNumber(j + 4), attached(j + 4), isSymbol(j + 5, "."), attached(j + 5), isNumber(j + 6), attached(j + 6) { return nil }
            if isNumber(j + 4), attached(j + 4), tokens[j + 4].digits == 2 || tokens[j + 4].digits == 4 {
                let y = tokens[j + 4].digits == 2 ? 2000 + value(j + 4) : value(j + 4)
                return (.absolute(year: y, month: value(j + 2), day: value(j)), j + 5)
            }
            return (.absolute(year: nil, month: value(j + 2), day: value(j)), j + 4)
        }
        // 5 December, 5th of December, 5. Dezember 2026.
        guard let (d, end, marked) = bareDay(at: j) else { return nil }
        var k = end
        if marked, case .of? = meaning(k) { k = next(k) }
        // "the 15th of next month", "am 1. nächsten Monats".
        if marked, case .monthsAhead(let months)? = meaning(k) { return (.dayMonthsAhead(d, months: months), next(k)) }
        if case .month(let m)? = meaning(k) {
            let monthEnd = next(k)
            if let (y, yearEnd) = year(at: monthEnd) { return (.absolute(year: y, month: m, day: d), yearEnd) }
            // "9-10 March 15", "at 7 Oct 28": a month followed by its own day takes that day, not this one.
            if !marked, let (_, _, dayMarked) = bareDay(at: monthEnd), !dayMarked { return nil }
            return (.absolute(year: nil, month: m, day: d), monthEnd)
        }
        // A lone ordinal: "15th" anywhere, "15." only after a preposition.
        guard marked, loneOrdinalMayEndAt(end) else { return nil }
        if case .ordinalSuffix? = meaning(j + 1) { return (.dayOfMonth(d), end) }
        return prefixed ? (.dayOfMonth(d), end) : nil
    }

    func matchDate(at i: Int) -> QuickAddMatch? {
        var j = i
        var prefixed = false
        switch meaning(j) {
        case .onDate?, .from?, .starting?, .deadline?:
            j = next(j)
            prefixed = true
            // "due on Friday", "fällig am 5.": the second preposition belongs to the deadline.
            if case .deadline? = meaning(i), case .onDate? = meaning(j) { j = next(j) }
        default: break
        }
        if case .the? = meaning(j) {
            j = next(j)
            prefixed = true
        }
        // "every other Friday starting next week", "ab nächstem Monat": a series begins on the first of its days in that
        // week or month (alone, a week or a month names no one day).
        if case .starting? = meaning(i), hasRepeatWord {
            switch meaning(j) {
            case .calendarWeek(let weeks)?: return QuickAddMatch(end: next(j), element: .date(.weekdayOfWeek(1, weeksAhead: weeks)))
            case .monthsAhead(let months)?: return QuickAddMatch(end: next(j), element: .date(.dayMonthsAhead(1, months: months)))
            default: break
            }
        }
        // "14-16 December", "14. bis 16. Dezember": the first day borrows the month of the second.
        if let (d1, end, _) = bareDay(at: j), isRangeSeparator(end),
            let (second, secondEnd) = dateAtom(at: next(end), prefixed: true),
            case .absolute(let y, let m, _) = second
        {
            return QuickAddMatch(end: secondEnd, element: .date(.range(.absolute(year: y, month: m, day: d1), second)))
        }
        if let (first, end) = dateAtom(at: j, prefixed: prefixed) {
            if case .dayOfMonth = first { return QuickAddMatch(end: end, element: .date(first)) }
            guard isRangeSeparator(end) else { return QuickAddMatch(end: end, element: .date(first)) }
            let k = next(end)
            if let (second, secondEnd) = dateAtom(at: k, prefixed: true), second != first {
                if case .dayOfMonth = second {
                } else if case .absolute(nil, let m1, let d1) = first, case .absolute(let y2?, let m2, let d2) = second {
                    // "27.3.-29.3.2027", "Dec 28 - Jan 2, 2027": the year written once is the range's end's.
                    let y1 = (m1, d1) > (m2, d2) ? y2 - 1 : y2
                    return QuickAddMatch(end: secondEnd, element: .date(.range(.absolute(year: y1, month: m1, day: d1), second)))
                } else {
                    return QuickAddMatch(end: secondEnd, element: .date(.range(first, second)))
                }
            }
            if case .absolute(let y, let m, let d1) = first, let (d2, secondEnd, _) = bareDay(at: k),
                !(isSymbol(secondEnd, ":") && attached(secondEnd))
            {
                if case .month? = meaning(secondEnd) {
                } else if y == nil, let (year, yearEnd) = year(at: secondEnd) {
                    // "Mar 3-5, 2027": the year after the range is both days'.
                    let range = QuickAddDateSpec.range(.absolute(year: year, month: m, day: d1), .absolute(year: year, month: m, day: d2))
                    return QuickAddMatch(end: yearEnd, element: .date(range))
                } else {
                    return QuickAddMatch(end: secondEnd, element: .date(.range(first, .absolute(year: y, month: m, day: d2))))
                }
            }
            return QuickAddMatch(end: end, element: .date(first))
        }
        return nil
    }

    // MARK: times

    func timePoint(at j: Int, prefixed: Bool = false) -> QuickAddTimePoint? {
        guard j < count, !isCode(at: j) else { return nil }
        if case .namedTime(let h, let m)? = meaning(j) {
            return QuickAddTimePoint(hour: h, minute: m, pm: nil, hasMinutes: true, explicit: true, end: next(j))
        }
        if case .clockOffset(let offset)? = meaning(j) { return clockPhrase(at: j, offset: offset) }
        // "half 3": half past three, as the British say it ("half 2 hours", "half 5k" are amounts).
        if case .half? = meaning(j), let point = clockPhrase(at: j, offset: 30), !attached(point.end), !isOrdinaryWord(at: point.end) {
            if case .unit? = meaning(point.end) { return nil }
            return point
        }
        if prefixed, let point = hourWord(at: j) { return point }
        if let point = militaryTime(at: j, prefixed: prefixed) { return point }
        guard isNumber(j), tokens[j].digits <= 2 else { return nil }
        // "12 noon", "12 midnight": the number only repeats the named time.
        if value(j) == 12, case .namedTime(let h, let m)? = meaning(j + 1), h == 12 || h == 0 {
            return QuickAddTimePoint(hour: h, minute: m, pm: nil, hasMinutes: true, explicit: true, end: next(j + 1))
        }
        var point = QuickAddTimePoint(hour: value(j), minute: 0, pm: nil, hasMinutes: false, explicit: false, end: j + 1)
        point.leadingZero = tokens[j].digits == 2 && value(j) < 10
        var k = j + 1
        if isSymbol(k, ":"), attached(k), isNumber(k + 1), attached(k + 1), tokens[k + 1].digits == 2 {
            point.minute = value(k + 1)
            point.hasMinutes = true
            k += 2
        } else if isSymbol(k, "."), attached(k), isNumber(k + 1), attached(k + 1), tokens[k + 1].digits == 2 {
            // 15.30 is a time only after "at"/"um", or before "Uhr" or am/pm (else it is a number or version).
            let marked: Bool
            switch meaning(k + 2) {
            case .meridiem?, .oclock?, .hourMark?: marked = true
            // "13.15-14.45 Uhr": the range's end carries the mark.
            case _ where isRangeSeparator(k + 2) && isNumber(k + 3) && isSymbol(k + 4, ".") && isNumber(k + 5) && tokens[k + 5].digits == 2:
                switch meaning(k + 6) {
                case .meridiem?, .oclock?: marked = true
                default: marked = prefixed
                }
            default: marked = prefixed && !(isSymbol(k + 2, ".") && attached(k + 2))
            }
            guard marked else { return nil }
            point.minute = value(k + 1)
            point.hasMinutes = true
            k += 2
        }
        switch meaning(k) {
        case .meridiem(let pm)?:
            point.pm = pm
            k = next(k)
            // "1pm-ish": about then; "3 pm sharp".
            if case .hourMark? = meaning(k), attached(k) || tokens[k].kind == .word { k = next(k) }
        case .oclock?:
            point.explicit = true
            k = next(k)
            // "9 Uhr 30": the minutes after "Uhr".
            if !point.hasMinutes, isNumber(k), tokens[k].digits == 2, value(k) <= 59, !(isSymbol(k + 1, ".") && attached(k + 1)) {
                switch meaning(k + 1) {
                case .unit?, .times?, .oclock?: break
                default:
                    point.minute = value(k)
                    point.hasMinutes = true
                    k += 1
                }
            }
        case .hourMark?:
            point.marked = true
            k = next(k)
        case .unit(.hour)? where isClockHourMark(at: k, after: point, prefixed: prefixed):
            // "14h", "09h", "12-13h", "um 9h": the hour mark of a 24-hour clock, as "Uhr"; "14h30" has its minutes after it.
            point.explicit = true
            k = next(k)
            if !point.hasMinutes, isNumber(k), attached(k), tokens[k].digits == 2, value(k) <= 59 {
                point.minute = value(k)
                point.hasMinutes = true
                k += 1
            }
        case .month?:
            // "at 11 May 23": after at/um, an hour before a month that has its own day is still a time.
            if !point.hasMinutes, !(prefixed && bareDay(at: next(k)).map { !$0.marked } == true) { return nil }
        case .ordinalSuffix?, .unit?, .times?:
            if !point.hasMinutes { return nil }
        default:
            // "3p", "9:30a" (as Todoist and Fantastical take them): a letter right after the time, with nothing
            // attached after it. A lone "a" needs minutes, "at" or a range's dash after it ("9a-10a"; "Room 3a" stays
            // a room).
            if k < count, attached(k), tokens[k].kind == .word, tokens[k].text == "p" || tokens[k].text == "a",
                tokens[k].text == "p" || point.hasMinutes || prefixed || isDay(endingAt: j)
                    || ((isSymbol(k + 1, "-") || isSymbol(k + 1, "/")) && attached(k + 1) && isNumber(k + 2)),
                !(k + 1 < count && attached(k + 1) && tokens[k + 1].kind != .symbol),
                !isOrdinaryWord(at: k + 1) || isDay(endingAt: j)
            {
                point.pm = tokens[k].text == "p"
                k += 1
                break
            }
            if !point.hasMinutes, isSymbol(k, "/") || isSymbol(k, "."), attached(k) { return nil }
        }
        point.end = k
        return point
    }

    /// "at 0900", "at 1330", "um 0830 Uhr": four digits right after "at"/"um" are a 24-hour clock time (hours 00-23,
    /// minutes 00-59); so are four digits with a leading zero, right after a day or in a range of two ("0730 thurs",
    /// "wed 1430", "0800-1200"). Elsewhere they stay a number ("by 2027" is a year).
    func militaryTime(at j: Int, prefixed: Bool) -> QuickAddTimePoint? {
        guard j > 0, isNumber(j), tokens[j].digits == 4, value(j) / 100 <= 23, value(j) % 100 <= 59, !isCode(at: j) else { return nil }
        switch meanings[j - 1] {
        case .at?, .atTime?: break
        // "0730 thurs", "wed 1430", "0800-1200": with a leading zero (no year has one), right after a day, or in a range
        // of two such numbers it is a clock time too ("by 2027" stays a year; "555-0142", "0221 123456", "DL 1422
        // Wednesday" are phone and flight numbers).
        case .rangeTo? where prefixed && j >= 2 && isNumber(j - 2) && tokens[j - 2].digits == 4: break
        case _
        where attached(j) || isNumber(j + 1)
            || (isSymbol(j + 1, "-") && attached(j + 1) && !(isNumber(j + 2) && tokens[j + 2].digits == 4)):
            return nil
        case _ where value(j) < 1000 || isDay(endingAt: j): break
        case _ where isSymbol(j + 1, "-") && attached(j + 1) && isNumber(j + 2) && tokens[j + 2].digits == 4: break
        default: return nil
        }
        var k = j + 1
        if case .oclock? = meaning(k) {
            k = next(k)
        } else if k < count, attached(k), tokens[k].text == "h" || tokens[k].text == "hrs" {
            k += 1
        }
        // "at 1600 Pennsylvania Ave": a house number before its street.
        if k == j + 1, isOrdinaryWord(at: k) { return nil }
        return QuickAddTimePoint(hour: value(j) / 100, minute: value(j) % 100, pm: nil, hasMinutes: true, explicit: true, end: k)
    }

    /// An "h" written onto an hour that only a clock has ("14h", "09h", "14:30h"), or onto one after "at"/"um" or
    /// a range's dash ("um 9h", "9-11h"). "2h" alone stays two hours.
    func isClockHourMark(at k: Int, after point: QuickAddTimePoint, prefixed: Bool) -> Bool {
        guard attached(k), tokens[k].text == "h", point.hour <= 23 else { return false }
        return point.hour >= 13 || point.leadingZero || point.hasMinutes || prefixed
    }

    /// Words that are the number one but no hour after "at"/"um" ("at a cafe", "um ein paar Sachen").
    static let articles: Set<String> = ["a", "an", "ein", "eine", "einer", "einen"]

    /// An hour written as a word after "at"/"um" ("at seven", "um neun", "at three pm"): read as its digits would
    /// be, by the same rule. Not an article ("at a cafe"), and not a count before an ordinary word or "of"/"and"
    /// ("at one point", "at one of the cafes").
    func hourWord(at j: Int) -> QuickAddTimePoint? {
        guard case .number(let hour)? = meaning(j), (1...12).contains(hour), lengths[j] == 1 else { return nil }
        let k = next(j)
        var point = QuickAddTimePoint(hour: hour, minute: 0, pm: nil, hasMinutes: false, explicit: false, end: k)
        switch meaning(k) {
        case .meridiem(let pm)?:
            point.pm = pm
            point.end = next(k)
        case .oclock?:
            point.explicit = true
            point.end = next(k)
        case .hourMark?:
            point.end = next(k)
        case .of?, .and?, .half?:
            // "at one of the cafes", "at ten and a half": a count, not an hour.
            return nil
        default:
            guard !Self.articles.contains(tokens[j].text), !isOrdinaryWord(at: k), !isNumber(k) else { return nil }
        }
        // Read by the bare-hour rule, as "at 7" is: a time because "at"/"um" precedes it.
        point.marked = true
        return point
    }

    /// "half past 7", "quarter to 9", "halb 8", "viertel nach 3": minutes from the hour that follows, read by the
    /// bare-hour rule as "7:30" would be (a 12-hour reading; am/pm may follow).
    func clockPhrase(at j: Int, offset: Int) -> QuickAddTimePoint? {
        let k = next(j)
        let hour: Int
        if isNumber(k), tokens[k].digits <= 2, !(isSymbol(k + 1, ":") && attached(k + 1)) {
            hour = value(k)
        } else if case .number(let n)? = meaning(k) {
            hour = n
        } else {
            return nil
        }
        guard (1...12).contains(hour) else { return nil }
        let minutes = (hour * 60 + offset + 720) % 720
        var point = QuickAddTimePoint(
            hour: minutes / 60 == 0 ? 12 : minutes / 60, minute: minutes % 60, pm: nil, hasMinutes: false, explicit: false,
            end: next(k))
        point.marked = true
        if case .meridiem(let pm)? = meaning(point.end) {
            point.pm = pm
            point.end = next(point.end)
        }
        return point
    }

    func matchTime(at i: Int) -> QuickAddMatch? {
        var j = i
        var prefix: QuickAddMeaning?
        switch meaning(i) {
        case .at?, .atTime?, .from?, .between?, .starting?, .deadline?, .approximately?:
            prefix = meaning(i)
            j = next(i)
        case .untilOrTo? where timePoint(at: next(i), prefixed: true).map({ !$0.isBare }) ?? false:
            // "heute bis 20 Uhr", "until 5pm": a time it ends by, read as "by 5pm" is.
            prefix = .deadline
            j = next(i)
        default:
            // "so um 7", "so gegen 3": German for about, before "um"/"gegen"; not first in the text, where "So um 10"
            // may as well be Sunday (it stays what it was: a word, the weekday only before a clock time).
            if i > 0, i < count, clockOnlyWeakWords.contains(tokens[i].text), case .atTime? = meaning(next(i)) {
                prefix = .atTime
                j = next(next(i))
            }
        }
        // "at around 3pm", "ca. um 15 Uhr": the approximation and the preposition in either order.
        var approximate = prefix == .approximately
        switch (prefix, meaning(j)) {
        case (.at?, .approximately?), (.atTime?, .approximately?), (.approximately?, .at?), (.approximately?, .atTime?):
            approximate = true
            j = next(j)
        default: break
        }
        guard let first = timePoint(at: j, prefixed: prefix != nil) else { return nil }
        // "about 2 projects": after an approximation a bare number followed by an ordinary word is a count.
        if approximate, first.isBare, first.end < count, tokens[first.end].kind == .word, meanings[first.end] == nil { return nil }
        // "at 3:30 or 4", "um 14 oder 15 Uhr": a time, "or" and another time are a choice, not one event ("3 or 4
        // chairs" is a count: a bare number needs "at"/"um" before it, and the second none of an ordinary word after).
        // "Meds 8a/8p daily": two clock times joined by a slash are two times, not one event.
        if !first.isBare, isSymbol(first.end, "/"), attached(first.end), let other = timePoint(at: first.end + 1, prefixed: true),
            !other.isBare
        {
            return QuickAddMatch(end: other.end, element: .alternativeTimes)
        }
        if case .or? = meaning(first.end), prefix != nil || !first.isBare || isDay(endingAt: j),
            let other = timePoint(at: next(first.end), prefixed: true), !(other.isBare && isOrdinaryWord(at: other.end))
        {
            return QuickAddMatch(end: other.end, element: .alternativeTimes)
        }
        var end = first.end
        var second: QuickAddTimePoint?
        let separates: Bool
        if case .between? = prefix, case .and? = meaning(end) { separates = true } else { separates = isRangeSeparator(end) }
        if separates, let point = timePoint(at: next(end), prefixed: true) {
            second = point
            end = point.end
        } else if separates, j > 0, let firstDay = weekdayNumber(j - 1), let endDay = weekdayNumber(next(end)), endDay == firstDay % 7 + 1,
            let point = timePoint(at: next(next(end)), prefixed: true), let from = first.clockMinutes,
            (point.clockMinutes ?? ((point.hour % 12 + 12) * 60 + point.minute)) < from
        {
            // "Nachtdienst Fr 21:45 bis Sa 6:15", "Fri 10pm to Sat 2am": a range that ends on the next day, named, read
            // as the clock range that crosses midnight: the start is settled and even the end's later reading is before
            // it ("Fr 8:00 bis Sa 10:00", longer than a day, and "Fri 10pm to Sat 11" stay refused).
            second = point
            end = point.end
        }
        if prefix == nil, first.isBare, second == nil || second!.isBare {
            if second != nil {
                // "Workshop 11-1 tomorrow", "Seminar 1-3 Wednesday": a range of bare hours next to a day is
                // a time range ("Chapters 3-5" alone stays in the title).
                guard isDay(at: end) || isDay(endingAt: i) || isDate(endingAt: i) else { return nil }
            } else if !kindWords.isEmpty, first.hour >= 1, first.hour <= 12, !attached(j), meaning(end) == .at || meaning(end) == .location,
                !isUnit(j - 1),
                !(j > 0 && (meanings[j - 1] == .forDuration || meanings[j - 1] == .at || tokens[j - 1].kind == .number))
            {
                // "Dinner 7 at Luigi's", "Abendessen 7 im Ristorante": a kind of event says the lone hour before its place
                // is the time ("Dinner for 4 at Luigi's" is a count).
            } else if first.hour <= 23, case .zone? = meaning(end), !isPlaceWord(at: end) {
                // "Conf call 11 ET tomorrow", "Call 15 CET": a zone after it makes a lone hour a time.
            } else if first.hour >= 1, first.hour <= 12, isDay(endingAt: i) || isDay(at: end) || partOfDayEnds(at: i), !isUnit(j - 1),
                !attached(j),
                end >= count || !(tokens[end].kind == .word && meanings[end] == nil)
                    || (isDay(endingAt: i) && first.hour >= 2 && namesNoCount(end))
            {
                // "Brunch Sunday 11", "Call tomorrow 9", "Zahnarzt Freitag 9", "Poker at Dave's 8 Friday", "Tennis 7
                // Sunday morning": an hour right after or before a day, as calendar apps read it. "Friday 2 tickets"
                // is a count (an ordinary word follows), "Friday 11 Dec" a date, "chapter 3 Friday" a numbered thing.
            } else {
                // "7 in the evening", "8 abends": a part of the day makes a lone hour a time; "Apollo 13
                // tonight" is a name, 13 being no hour a part of the day needs.
                guard first.hour <= 12, case .partOfDay? = meaning(end) else { return nil }
                // "chapters 4-6 tonight": the end of a range of numbers is no lone hour.
                if j >= 2, isSymbol(j - 1, "-"), attached(j), attached(j - 1), tokens[j - 2].kind == .number { return nil }
            }
        }
        var zone: String?
        if let windows = windowsZones[end] {
            zone = windows.id
            end = windows.end
        } else if case .zone(let id)? = meaning(end), !isPlaceWord(at: end) {
            zone = id
            end = next(end)
        } else if isSymbol(end, "("), case .zone(let id)? = meaning(end + 1), isSymbol(next(end + 1), ")") {
            // "2pm - 3pm (EST)", as calendar invitations write it.
            zone = id
            end = next(end + 1) + 1
        }
        return QuickAddMatch(end: end, element: .time(first, second, zone: zone, prefixed: prefix != nil))
    }

    /// A word of the title rather than of the grammar (a holiday's name counts as one: it is read as a date only
    /// at the start of the text): "Buy 3p stamps" is a count of stamps, not 15:00.
    func isOrdinaryWord(at k: Int) -> Bool {
        guard k < count, tokens[k].kind == .word, matchZone(at: k) == nil else { return false }
        switch meanings[k] {
        case nil, .holiday?: return true
        default: return false
        }
    }

    /// Zone names that are also ordinary words ("3pm Central Park", "9am Pacific Coast Highway"): a zone only when
    /// no ordinary word follows.
    static let weakZoneWords: Set<String> = ["eastern", "central", "mountain", "pacific"]

    func isPlaceWord(at k: Int) -> Bool {
        let after = next(k)
        let wordFollows = after < count && tokens[after].kind == .word && meanings[after] == nil
        // "8:45 pt appt": a short abbreviation written in lower case before a word of the title is that word's.
        if lengths[k] == 1, tokens[k].text.count <= 3, !isCapitalized(k), wordFollows { return true }
        guard lengths[k] == 1, Self.weakZoneWords.contains(tokens[k].text) else { return false }
        return wordFollows
    }

    /// Does a day word ("tomorrow", "Wednesday", "next Monday", "morgen") start at `k`?
    func isDay(at k: Int) -> Bool {
        switch meaning(k) {
        case .relativeDay?, .next?, .this?: true
        // "2 sat phones": a weak weekday only where it counts.
        case .weekday?: weekdayIsAllowed(at: k)
        default: false
        }
    }

    /// Does the text name a repeat ("every", "daily", "Mondays", "weekdays")? Then "through <date>" ends the series.
    var hasRepeatWord: Bool {
        meanings.contains {
            switch $0 {
            case .every?, .frequency?, .weekdays?, .workdays(plural: true)?: true
            default: false
            }
        }
    }

    /// Is the word at `k` no noun of a count: in a language whose counted nouns end alike (English "2 tickets"), a word
    /// without such an ending ("tmrw 3 dentist": the hour). False where plurals have no one ending (German).
    func namesNoCount(_ k: Int) -> Bool {
        guard !countNounEndings.isEmpty, k < count, tokens[k].kind == .word else { return false }
        let word = tokens[k].text
        return !countNounEndings.contains { word.hasSuffix($0) }
    }

    /// Is the word at `k` a unit of time ("Bootcamp week 3 tomorrow": the number is the week's)?
    func isUnit(_ k: Int) -> Bool {
        if case .unit? = meaning(k) { return true }
        return false
    }

    /// Does a written date end right before `k`: "12/12", "Apr. 7th", "15 Mar 2027", "Dec 5", "5.12."? ("Wine tasting 12/12
    /// 6-8": a range of hours after it is a time range.)
    func isDate(endingAt k: Int) -> Bool {
        guard k >= 2 else { return false }
        var last = k - 1
        if case .ordinalSuffix? = meaning(last), attached(last) { last -= 1 }
        if isSymbol(last, "."), attached(last) { last -= 1 }
        guard isNumber(last) else { return false }
        if tokens[last].digits == 4, last >= 1, case .month? = meanings[last - 1] { return true }
        if tokens[last].digits == 4, last >= 2, case .month? = meanings[last - 2] { return true }
        if tokens[last].digits == 4, last >= 2, isSymbol(last - 1, ","), isNumber(last - 2) { return true }
        if last >= 2, attached(last), isSymbol(last - 1, "/") || isSymbol(last - 1, "."), attached(last - 1), isNumber(last - 2) {
            return true
        }
        return phraseEnds(at: last) {
            if case .month = $0 { return true }
            return false
        }
    }

    /// Does a part of the day ("tomorrow morning", "abends") end right before `k`?
    func partOfDayEnds(at k: Int) -> Bool {
        phraseEnds(at: k) {
            if case .partOfDay = $0 { return true }
            return false
        }
    }

    /// Does a one-word day ("tomorrow", "Friday", "Sa.", the last of "Tu/Th") or a repeat's phrase ("of every month",
    /// "weekdays", "daily") end right before `k`?
    func isDay(endingAt k: Int) -> Bool {
        guard k > 0, lengths[k - 1] == 1 else { return false }
        // "Tu/Th 4-5": the last of a slash list of letter weekdays.
        if k >= 3, letterWeekdays[tokens[k - 1].text] != nil, isSymbol(k - 2, "/"), attached(k - 2), attached(k - 1) { return true }
        // "Sa. 9": an abbreviated weekday with its dot.
        if k >= 2, isSymbol(k - 1, "."), attached(k - 1), next(k - 2) == k, case .weekday? = meaning(k - 2) { return true }
        switch meaning(k - 1) {
        case .relativeDay?, .weekday?: return true
        default: break
        }
        // "on the second Saturday of every month 9-12", "weekdays 9-5", "daily 9": the end of a repeat's phrase; "the first
        // Monday of next month 10-11": of a day of a month ("next month 10-11" alone names no one day and is refused).
        return phraseEnds(at: k) {
            switch $0 {
            case .monthlyMarker, .weekdays, .workdays, .frequency, .monthsAhead: true
            default: false
            }
        }
    }

    // MARK: durations

    /// `afterIn`: read for "in 14h" (fourteen hours from now), where an "h" is never a clock's.
    func matchDuration(at i: Int, afterIn: Bool = false) -> QuickAddMatch? {
        var j = i
        let hasFor: Bool
        if case .forDuration? = meaning(i) {
            hasFor = true
            j = next(i)
        } else {
            hasFor = false
        }
        // "14h", "09h", "14h30": the hour mark of a 24-hour clock, a time (`timePoint`), not fourteen hours; "2h"
        // and "for 14h" stay durations. Durations are tried before times, so the clock's "h" is looked for here.
        if !hasFor, !afterIn, isNumber(j), case .unit(.hour)? = meaning(j + 1), let point = timePoint(at: j), point.explicit {
            return nil
        }
        var seconds = 0.0
        var components = 0
        var onlyDays = true
        var clockUnits = true
        var lastUnit: QuickAddUnit?
        while true {
            var amount = 0.0
            var k = j
            var halfOnly = false
            if case .half? = meaning(k) {
                amount = 0.5
                halfOnly = true
                k = next(k)
                if case .number(1)? = meaning(k) { k = next(k) }
            } else if case .oneAndAHalf? = meaning(k) {
                amount = 1.5
                k = next(k)
            } else if case .number(let n)? = meaning(k) {
                amount = Double(n)
                k = next(k)
                if case .half? = meaning(k) {
                    amount *= 0.5
                    halfOnly = n == 1
                    k = next(k)
                }
            } else if isNumber(k), value(k) <= 100_000 {
                amount = Double(value(k))
                k += 1
                if isSymbol(k, ".") || isSymbol(k, ","), attached(k), isNumber(k + 1), attached(k + 1),
                    tokens[k + 1].digits <= 3
                {
                    var fraction = Double(value(k + 1))
                    for _ in 0..<tokens[k + 1].digits { fraction /= 10 }
                    amount += fraction
                    k += 2
                }
            } else {
                break
            }
            guard case .unit(let unit)? = meaning(k) else {
                // "an hour and a half", "2 hours and a half": the half is of the unit before.
                if halfOnly, let lastUnit, components > 0 {
                    seconds += amount * Double(lastUnit.seconds)
                    j = k
                }
                break
            }
            if unit == .month || unit == .year {
                // "for 6 months": a calendar span, the length of a repeat (never of one event).
                guard hasFor, components == 0, amount == amount.rounded(), amount >= 1 else { return nil }
                let months = Int(amount) * (unit == .year ? 12 : 1)
                return QuickAddMatch(end: next(k), element: .duration(seconds: 0, wholeDays: nil, months: months))
            }
            lastUnit = unit
            seconds += amount * Double(unit.seconds)
            components += 1
            if unit != .day && unit != .week { onlyDays = false }
            if unit != .hour && unit != .minute { clockUnits = false }
            j = next(k)
            // "1h30": minutes straight after the hour unit.
            if unit == .hour, isNumber(j), attached(j), tokens[j].digits == 2 {
                if case .unit? = meaning(j + 1) {
                } else {
                    seconds += Double(value(j)) * 60
                    j += 1
                }
            }
            if case .and? = meaning(j), amountStartsAt(next(j)) { j = next(j) }
        }
        guard components > 0 else { return nil }
        if !hasFor && !clockUnits { return nil }
        let whole = Int(seconds.rounded())
        let days = onlyDays && whole % 86_400 == 0 ? whole / 86_400 : nil
        return QuickAddMatch(end: j, element: .duration(seconds: whole, wholeDays: days))
    }

    private func amountStartsAt(_ k: Int) -> Bool {
        if isNumber(k) { return true }
        switch meaning(k) {
        case .number?, .half?: return true
        default: return false
        }
    }

    // MARK: repeats

    /// "Mon, Wed and Fri", "Tue/Thu", "Di+Do", "Dienstag und Donnerstag"; "M/W/F", "T/Th" (`letterWeekdayList`).
    func weekdayList(at k: Int) -> (days: [Int], end: Int)? {
        if let letters = letterWeekdayList(at: k) { return letters }
        guard let first = weekdayNumber(k) else { return nil }
        var days = [first]
        var end = next(k)
        while true {
            var s = end
            if isSymbol(s, ",") || isSymbol(s, "/") || isSymbol(s, "+") { s += 1 }
            if case .and? = meaning(s) { s = next(s) }
            guard s != end, let day = weekdayNumber(s) else { break }
            if !days.contains(day) { days.append(day) }
            end = next(s)
        }
        return (days, end)
    }

    /// "M/W/F", "T/Th", "Tu/Th", "M/W": one- and two-letter weekdays as US schedules write them
    /// (`QuickAddLocale.letterWeekdays`), only two or more joined by slashes with no space.
    func letterWeekdayList(at k: Int) -> (days: [Int], end: Int)? {
        guard !letterWeekdays.isEmpty else { return nil }
        func letter(_ i: Int) -> Int? { i < count && tokens[i].kind == .word ? letterWeekdays[tokens[i].text] : nil }
        guard let first = letter(k) else { return lettersRun(at: k).map { ($0, k + 1) } }
        // "M-Th", "Tu-F": through that day ("M-F" is the locale's own phrase).
        if isSymbol(k + 1, "-"), attached(k + 1), attached(k + 2), let last = letter(k + 2) ?? weekdayNumber(k + 2), last > first {
            return (Array(first...last), letter(k + 2) != nil ? k + 3 : next(k + 2))
        }
        var days = [first]
        var end = k + 1
        // Token by token: a locale phrase may span a letter and its slash ("w/" is "with").
        while isSymbol(end, "/"), attached(end), attached(end + 1) {
            let lettered = letter(end + 1)
            guard let day = lettered ?? weekdayNumber(end + 1) else { break }
            if !days.contains(day) { days.append(day) }
            end = lettered != nil ? end + 2 : next(end + 1)
        }
        return days.count > 1 ? (days, end) : nil
    }

    /// "MWF", "MTWRF", "TTh": one word of letter weekdays written together, capitalised as schedules write them, in
    /// week order, nothing left over; three days or more, or "TTh"/"TuTh" (two-letter runs such as "MW", "TR" or "MT"
    /// are as often a title's acronym; "mwf" lower-case stays a word). Two-letter days are tried first.
    func lettersRun(at k: Int) -> [Int]? {
        guard k < count, tokens[k].kind == .word, meanings[k] == nil, tokens[k].end - tokens[k].start >= 2,
            let initial = scalars[tokens[k].start].properties.isUppercase ? tokens[k].text : nil
        else { return nil }
        var days: [Int] = []
        var rest = Substring(initial)
        while !rest.isEmpty {
            if rest.count >= 2, let day = letterWeekdays[String(rest.prefix(2))] {
                days.append(day)
                rest = rest.dropFirst(2)
            } else if let day = letterWeekdays[String(rest.prefix(1))] {
                days.append(day)
                rest = rest.dropFirst()
            } else {
                return nil
            }
            if days.count > 1, days[days.count - 1] <= days[days.count - 2] { return nil }
        }
        return days.count > 2 || initial == "tth" || initial == "tuth" ? days : nil
    }

    /// "the 15th", "15th", "15." after "on"/"am".
    func ordinalDay(at k: Int) -> (day: Int, end: Int)? {
        var j = k
        if case .the? = meaning(j) { j = next(j) }
        guard let (d, end, marked) = bareDay(at: j), marked else { return nil }
        return (d, end)
    }

    /// "on Monday and Friday" / "on the 15th" after a frequency.
    func onClause(at j: Int, for frequency: QuickAddFrequency, into part: inout QuickAddRecurrencePart) -> Int {
        var k = j
        if case .onDate? = meaning(k) { k = next(k) }
        switch frequency {
        case .weekly:
            if let (days, end) = weekdayList(at: k) {
                part.byDay = days
                return end
            }
            if case .workdays? = meaning(k) {
                part.byDay = [1, 2, 3, 4, 5]
                return next(k)
            }
        case .monthly:
            if let (day, end) = ordinalDay(at: k) {
                part.byMonthDay = day
                return end
            }
        default: break
        }
        return j
    }

    /// "on the 1st of every month", "the 15th of each month", "am 1. jeden Monats": monthly on that day.
    func matchMonthDayOfEveryMonth(at i: Int) -> QuickAddMatch? {
        var j = i
        // "Rent due the 1st of every month": a deadline on each of those days.
        if case .deadline? = meaning(j) { j = next(j) }
        if case .onDate? = meaning(j) { j = next(j) }
        guard let (day, end) = ordinalDay(at: j), case .monthlyMarker(every: true)? = meaning(end) else { return nil }
        var part = QuickAddRecurrencePart()
        part.frequency = .monthly
        part.byMonthDay = day
        return QuickAddMatch(end: next(end), element: .recurrence(part))
    }

    func matchRecurrence(at i: Int) -> QuickAddMatch? {
        if let monthDay = matchMonthDayOfEveryMonth(at: i) { return monthDay }
        var part = QuickAddRecurrencePart()
        switch meaning(i) {
        case .every?:
            var j = next(i)
            // "every 15th": monthly on that day.
            if let (day, end) = ordinalDay(at: j) {
                switch meaning(end) {
                case .unit?, .weekday?, .weekdays?, .workdays?: break
                case .monthlyMarker?:
                    // "every 15th of the month": the marker only repeats what "every 15th" says.
                    part.frequency = .monthly
                    part.byMonthDay = day
                    return QuickAddMatch(end: next(end), element: .recurrence(part))
                default:
                    part.frequency = .monthly
                    part.byMonthDay = day
                    return QuickAddMatch(end: end, element: .recurrence(part))
                }
            }
            var interval: Int?
            if isNumber(j), value(j) >= 0, tokens[j].digits <= 4 {
                interval = value(j)
                j += 1
                if case .ordinalSuffix? = meaning(j), attached(j) {
                    j = next(j)
                } else if isSymbol(j, "."), attached(j), weekdayNumber(j + 1) != nil {
                    // "jeden 2. Dienstag": German writes the ordinal with a dot.
                    j += 1
                }
            } else if case .number(let n)? = meaning(j) {
                interval = n
                j = next(j)
            } else if case .ordinal(let n)? = meaning(j) {
                interval = n
                j = next(j)
            }
            part.interval = interval ?? 1
            switch meaning(j) {
            case .unit(let unit)?:
                switch unit {
                case .day: part.frequency = .daily
                case .week: part.frequency = .weekly
                case .month: part.frequency = .monthly
                case .year: part.frequency = .yearly
                default: return nil
                }
                let end = onClause(at: next(j), for: part.frequency!, into: &part)
                return QuickAddMatch(end: end, element: .recurrence(part))
            case .weekday?, .weekdays?, .weekdayPart?:
                guard let (days, end) = weekdayList(at: j) else { return nil }
                part.frequency = .weekly
                part.byDay = days
                part.partOfDay = partOfDay(inList: j, end)
                return QuickAddMatch(end: end, element: .recurrence(part))
            case .workdays?:
                part.frequency = .weekly
                part.byDay = [1, 2, 3, 4, 5]
                return QuickAddMatch(end: next(j), element: .recurrence(part))
            case .month?:
                guard interval == nil, let (spec, end) = dateAtom(at: j, prefixed: true),
                    case .absolute(nil, _, _) = spec
                else { return nil }
                part.frequency = .yearly
                part.start = spec
                return QuickAddMatch(end: end, element: .recurrence(part))
            default:
                return nil
            }
        case .everyPart(let partOfDay)?:
            part.frequency = .daily
            part.partOfDay = partOfDay
            return QuickAddMatch(end: next(i), element: .recurrence(part))
        case .frequency(let frequency, let interval)?:
            // "Daily standup": a frequency word right before an ordinary word is an adjective of the title.
            let after = next(i)
            if after < count, tokens[after].kind == .word, meanings[after] == nil { return nil }
            part.frequency = frequency
            part.interval = interval
            let end = onClause(at: next(i), for: frequency, into: &part)
            return QuickAddMatch(end: end, element: .recurrence(part))
        case .weekdays?:
            guard let (days, end) = weekdayList(at: i) else { return nil }
            part.frequency = .weekly
            part.byDay = days
            return QuickAddMatch(end: end, element: .recurrence(part))
        case .workdays(plural: true)?:
            // "Klassenfahrt Mo-Fr nächste Woche", "weekdays next week": Monday to Friday of that week, one event.
            if case .calendarWeek(let weeks)? = meaning(next(i)) {
                let span = QuickAddDateSpec.range(.weekdayOfWeek(1, weeksAhead: weeks), .weekdayOfWeek(5, weeksAhead: weeks))
                return QuickAddMatch(end: next(next(i)), element: .date(span))
            }
            part.frequency = .weekly
            part.byDay = [1, 2, 3, 4, 5]
            return QuickAddMatch(end: next(i), element: .recurrence(part))
        case .weekday?:
            // "Tue/Thu 6pm", "Mon, Wed and Fri at 4", "Mo/Mi 18 Uhr": weekdays joined by a slash, plus or comma are a
            // weekly series on those days, as schedules are written without "every". Two joined only by "and"
            // stay two dates (refused: one event over both days is as likely).
            if let (days, end) = weekdayList(at: i), days.count > 1,
                (i..<end).contains(where: { isSymbol($0, "/") || isSymbol($0, ",") || isSymbol($0, "+") })
            {
                part.frequency = .weekly
                part.byDay = days
                return QuickAddMatch(end: end, element: .recurrence(part))
            }
            // "Yoga 6:30pm Mon Wed Fri": three or more weekdays one after another are a weekly series too, unless they are
            // days in a row ("Nights Fri Sat Sun": this weekend's, or every one? refused as several dates).
            var run: [Int] = []
            var k = i
            while let day = weekdayNumber(k), !run.contains(day) {
                run.append(day)
                k = next(k)
            }
            let inARow = zip(run, run.dropFirst()).allSatisfy { $1 == $0 % 7 + 1 }
            guard run.count >= 3, !inARow else { return nil }
            part.frequency = .weekly
            part.byDay = run
            return QuickAddMatch(end: k, element: .recurrence(part))
        case .onDate?:
            let j = next(i)
            if case .weekdays? = meaning(j), let (days, end) = weekdayList(at: j) {
                part.frequency = .weekly
                part.byDay = days
                return QuickAddMatch(end: end, element: .recurrence(part))
            }
            if case .workdays(plural: true)? = meaning(j) {
                part.frequency = .weekly
                part.byDay = [1, 2, 3, 4, 5]
                return QuickAddMatch(end: next(j), element: .recurrence(part))
            }
            return nil
        case .rangeTo? where tokens[i].kind == .word && hasRepeatWord:
            // "every Wed 6:30pm through Feb 24": with a repeat, "through"/"thru" ends the series as "until" does.
            var j = next(i)
            if case .the? = meaning(j) { j = next(j) }
            guard let (spec, end) = dateAtom(at: j, prefixed: true) else { return nil }
            part.until = spec
            return QuickAddMatch(end: end, element: .recurrence(part))
        case .untilOrTo?:
            var j = next(i)
            // "until" marks what follows as a date as "on" does: "bis zum 20." is the 20th.
            let prefixed = true
            if case .the? = meaning(j) { j = next(j) }
            guard let (spec, end) = dateAtom(at: j, prefixed: prefixed) else { return nil }
            part.until = spec
            return QuickAddMatch(end: end, element: .recurrence(part))
        case .forDuration?:
            guard let (n, end) = repeatCount(at: next(i)) else { return nil }
            part.count = n
            return QuickAddMatch(end: end, element: .recurrence(part))
        case .except? where hasRepeatWord:
            // "every day except Sunday", "werktags außer freitags": those weekdays are left out of the series. Anything
            // else after "except" ("except holidays") is kept as an empty list, to be refused: left in the title, the
            // series would silently include what the text excludes.
            var j = next(i)
            if case .onDate? = meaning(j) { j = next(j) }
            // "except Sat-Sun", "außer Mo-Fr": the days from one to the other.
            if let first = weekdayNumber(j), isRangeSeparator(next(j)), let last = weekdayNumber(next(next(j))) {
                part.excludedDays = (0...((last - first + 7) % 7)).map { (first - 1 + $0) % 7 + 1 }
                return QuickAddMatch(end: next(next(next(j))), element: .recurrence(part))
            }
            guard let (days, end) = weekdayList(at: j) else {
                part.excludedDays = []
                return QuickAddMatch(end: next(i), element: .recurrence(part))
            }
            part.excludedDays = days
            return QuickAddMatch(end: end, element: .recurrence(part))
        case .exceptWeekend? where hasRepeatWord:
            part.excludedDays = [6, 7]
            return QuickAddMatch(end: next(i), element: .recurrence(part))
        default:
            // "M/W/F 6am", "T/Th 9:30", "MWF": letter weekdays (words of no meaning of their own).
            if let (days, end) = letterWeekdayList(at: i) {
                part.frequency = .weekly
                part.byDay = days
                return QuickAddMatch(end: end, element: .recurrence(part))
            }
            // "2x Brötchen holen", "Buy 3 x AA batteries": a count before an ordinary word counts things of the
            // title; a repeat's count stands before a rule, a time or at the end ("6x dienstags", "10 times").
            guard let (n, end) = repeatCount(at: i), !isOrdinaryWord(at: end) else { return nil }
            part.count = n
            return QuickAddMatch(end: end, element: .recurrence(part))
        }
    }

    /// "5 times", "5x", "5-mal".
    func repeatCount(at k: Int) -> (Int, Int)? {
        // "x8" after a rule, as a prescription writes it.
        if k < count, tokens[k].text == "x", isNumber(k + 1), attached(k + 1), value(k + 1) <= 999, !attached(k + 2),
            !(k > 0 && attached(k) && isNumber(k - 1))
        {
            return (value(k + 1), k + 2)
        }
        guard let (n, end) = amount(at: k) else { return nil }
        var j = end
        if isSymbol(j, "-"), attached(j) { j += 1 }
        guard case .times? = meaning(j) else { return nil }
        // "16x25x1": a size, not a count.
        if attached(next(j)), isNumber(next(j)) { return nil }
        return (n, next(j))
    }

    // MARK: location

    /// "at Cafe Luna", "@ Room 4", German "in Berlin"/"im Büro": words up to the next temporal element,
    /// "with", or the end.
    func matchLocation(at i: Int) -> QuickAddMatch? {
        switch meaning(i) {
        case .at?, .location?, .inRelativeOrLocation?: break
        default: return nil
        }
        let start = next(i)
        if case .inRelativeOrLocation? = meaning(i), start < count, directionArticles.contains(tokens[start].text) { return nil }
        var end = start
        while end < count {
            if case .with? = meanings[end] { break }
            if element(at: end) != nil { break }
            end += 1
        }
        var last = end
        while last > start, tokens[last - 1].kind == .symbol,
            [",", ";", ":", "-", "(", "@", "&"].contains(tokens[last - 1].text)
        {
            last -= 1
        }
        guard last > start else { return nil }
        return QuickAddMatch(end: end, element: .location(text(start, last)))
    }
}
