extension QuickAddParser {
    /// Hours written without am/pm that the default clock rule reads (7-11 morning, 12 noon, 1-6 afternoon) but
    /// that people as often mean in the other half of the day: 6 (6am runs, 6pm dinners), 7 and 8 (breakfast or
    /// evening). "at 4:30" is 16:30 and "at 10" is 10:00 without a doubt.
    static let doubtfulDefaultHours: Set<Int> = [6, 7, 8]

    /// The doubts about one reading (`QuickAddDoubt`), in the order of the text; general signals about how the
    /// words were read, never about particular phrases. Builds no string unless it finds a doubt.
    /// `firstDay`: the event's first day as read.
    func doubts(
        _ grammar: QuickAddGrammar, consumed: [Bool], collected: QuickAddCollected, firstDay: QuickAddDate, zone: QuickAddZone
    ) -> [QuickAddDoubt] {
        let german = options.locale.identifier == "de"
        let tokens = grammar.tokens
        var doubts: [QuickAddDoubt] = []
        func add(_ code: QuickAddDoubt.Code, _ english: @autoclosure () -> String, _ germanReason: @autoclosure () -> String) {
            guard !doubts.contains(where: { $0.code == code }) else { return }
            doubts.append(QuickAddDoubt(code, german ? germanReason() : english()))
        }
        /// A consumed token right next to `index` (no space between): the date or time took part of a word.
        func touchesConsumed(_ index: Int) -> Bool {
            (index > 0 && consumed[index - 1] && !tokens[index].spaceBefore)
                || (index + 1 < tokens.count && consumed[index + 1] && !tokens[index + 1].spaceBefore)
        }
        /// The date or time took part of the word at `index`; the rest stayed in the title.
        func addSplitWord(_ index: Int) {
            let word = grammar.text(index, index + 1)
            add(
                .splitWord, "\"\(word)\" was left in the title beside the date or time",
                "„\(word)“ blieb neben Datum oder Uhrzeit im Titel")
        }
        /// A consumed token that says when (not only a connecting word such as "on" or "am") at `index`.
        func saysWhen(_ index: Int) -> Bool {
            guard index >= 0, index < tokens.count, consumed[index] else { return false }
            guard let meaning = grammar.meanings[index] else { return true }
            return !Self.isConnecting(meaning)
        }
        /// The end of a holiday's name that stayed in the title: its words are the name's ("Black Friday shopping").
        var holidayEnd = 0
        for index in tokens.indices where !consumed[index] && index >= holidayEnd {
            let token = tokens[index]
            if case .holiday? = grammar.meanings[index] {
                holidayEnd = grammar.next(index)
                continue
            }
            switch token.kind {
            case .symbol:
                continue
            case .number:
                if collected.time == nil, token.digits <= 2, token.value <= 24, grammar.isSymbol(index + 1, "-"),
                    grammar.attached(index + 1),
                    grammar.attached(index + 2), grammar.isNumber(index + 2), tokens[index + 2].digits <= 2, tokens[index + 2].value <= 24,
                    !grammar.isCode(at: index), !(index > 0 && grammar.attached(index) && grammar.isSymbol(index - 1, "-")),
                    Self.isPlausibleSpan(from: token.value, to: tokens[index + 2].value)
                {
                    // "Workshop 10-2 in room 3B fri": a range of hours the grammar did not take, and the event has no time.
                    let range = grammar.text(index, index + 3)
                    add(
                        .numberInTitle, "\"\(range)\" stayed in the title; if it is a time, write \(range)pm or from \(range)",
                        "„\(range)“ blieb im Titel; ist es eine Uhrzeit, schreib \(range) Uhr")
                } else if touchesConsumed(index) {
                    addSplitWord(index)
                } else if token.digits <= 2, token.value <= 24, !grammar.isCode(at: index), !grammar.isUnit(index - 1),
                    !(grammar.attached(index + 1) && (grammar.isSymbol(index + 1, ".") || grammar.isSymbol(index + 1, ","))),
                    !grammar.isOrdinaryWord(at: index + 1) || grammar.isDay(endingAt: index), saysWhen(index - 1) || saysWhen(index + 1)
                {
                    // "Dentist Tuesday 2", "Vorstellungsgespräch Donnerstag 9": an hour or a day, or part of the title?
                    let word = grammar.text(index, index + 1)
                    add(
                        .numberInTitle,
                        token.value > 12
                            ? "\"\(word)\" next to the date stayed in the title; if it is a time, write at \(word):00"
                            : "\"\(word)\" next to the date stayed in the title; if it is a time, write \(word)pm, \(word)am or at \(word):00",
                        "„\(word)“ neben dem Datum blieb im Titel; ist es eine Uhrzeit, schreib \(word) Uhr")
                } else if index + 1 < tokens.count, !consumed[index + 1], case .unit? = grammar.meanings[index + 1] {
                    // "Follow-up visit 2 weeks from today": an amount of time the grammar did not take.
                    let amount = grammar.text(index, min(grammar.next(index + 1), tokens.count))
                    add(
                        .amountInTitle,
                        "\"\(amount)\" stayed in the title; if it says when or how long, write in \(amount) or for \(amount)",
                        "„\(amount)“ blieb im Titel; ist es ein Zeitpunkt oder eine Dauer, schreib in \(amount) oder für \(amount)")
                }
            case .word:
                if touchesConsumed(index) {
                    addSplitWord(index)
                    continue
                }
                guard let meaning = grammar.meanings[index] else { continue }
                if isDateWord(meaning, grammar, at: index) {
                    let word = grammar.text(index, min(grammar.next(index), tokens.count))
                    add(
                        .dateWordInTitle, "\"\(word)\" stayed in the title and was not read as a date or time",
                        "„\(word)“ blieb im Titel und wurde nicht als Datum oder Uhrzeit gelesen")
                } else if Self.isStranding(meaning) {
                    // "Submit report by": the connecting word lost its date; or it stands right before one it did not take.
                    var after = grammar.next(index)
                    while after < tokens.count, tokens[after].kind == .symbol, !consumed[after] { after += 1 }
                    if after >= tokens.count || consumed[after] {
                        let word = grammar.text(index, min(grammar.next(index), tokens.count))
                        add(
                            .strandedWord, "\"\(word)\" stayed in the title without the date or time it introduces",
                            "„\(word)“ blieb ohne das Datum oder die Uhrzeit, die es einleitet, im Titel")
                    }
                }
            }
        }
        if let (hour, fragment) = collected.hourByDefault,
            Self.doubtfulDefaultHours.contains(hour) || placeNamesOtherHalf(collected, read: QuickAddCollected.defaultHour(hour))
        {
            let read = QuickAddCollected.defaultHour(hour)
            add(
                .defaultHour, "\"\(fragment)\" has no am/pm, so the default rule read \(hour) as \(read < 12 ? "am" : "pm"); add am or pm",
                "„\(fragment)“ nennt keine Tageszeit, die Grundregel las \(read) Uhr; schreib \(hour % 12) Uhr oder \(hour % 12 + 12) Uhr")
        }
        if collected.time == nil, collected.relativeTime == nil, let (place, number) = Self.placeEndingInHour(collected.location) {
            // "Meet Liz at the gym 6 tomorrow": the place ran up to the day and took the hour with it.
            add(
                .numberInPlace,
                "\"\(place)\" ends in \(number), which may be the time; if it is, write \(number)pm, \(number)am or at \(number):00",
                "„\(place)“ endet mit \(number), vielleicht die Uhrzeit; ist sie es, schreib um \(number) Uhr")
        }
        if !(options.dateOrder == .mdy && Self.writesMonthFirst(zone)),
            let fragment = ambiguousNumericDate(grammar, consumed: consumed, firstDay: firstDay)
        {
            add(
                .dateOrder, "\"\(fragment)\" is another date in the other day/month order; write the month's name or use --date-order",
                "„\(fragment)“ ist in der anderen Reihenfolge von Tag und Monat ein anderes Datum; schreib den Monat aus")
        }
        if collected.time != nil, !collected.hasFrequency, let duration = collected.duration,
            duration.seconds >= 86_400 || duration.wholeDays != nil
        {
            // "Daily vitamin 8am for 30 days": one event of 30 days, or every day for 30 days?
            add(
                .longEvent,
                "\"\(duration.fragment)\" makes one event that long; for a series write every day ... \(duration.fragment)",
                "„\(duration.fragment)“ macht einen Termin dieser Länge; für eine Serie schreib täglich ... \(duration.fragment)")
        }
        if let fragment = collected.recentlyPassed {
            add(
                .nextYear, "\"\(fragment)\" passed only days ago, so it was read as next year's; add the year if that is meant",
                "„\(fragment)“ ist erst vor Kurzem vorbei und wurde als nächstes Jahr gelesen; gib das Jahr an, wenn das gemeint ist")
        }
        return doubts
    }

    /// Two hours on a 12-hour clock that make an event of one to nine hours read as a range ("10-2", "9-5", "5-7");
    /// scores such as "3-2" (eleven hours) or "4-0" do not.
    static func isPlausibleSpan(from first: Int, to second: Int) -> Bool {
        guard (1...12).contains(first), (1...12).contains(second) else { return false }
        return (1...9).contains((second - first + 12) % 12)
    }

    /// A zone of the United States, where numeric dates are written month first: there "11/2" is November 2
    /// without a doubt (elsewhere an English text may be written day first).
    static func writesMonthFirst(_ zone: QuickAddZone) -> Bool {
        let id = zone.identifier
        if id.hasPrefix("US/") || id.hasPrefix("America/Indiana/") || id.hasPrefix("America/Kentucky/")
            || id.hasPrefix("America/North_Dakota/")
        {
            return true
        }
        return unitedStatesZones.contains(id)
    }

    /// The tz database's zones in the United States (zone1970.tab, country US) outside the folders above.
    private static let unitedStatesZones: Set<String> = [
        "America/New_York", "America/Detroit", "America/Chicago", "America/Menominee", "America/Denver", "America/Boise",
        "America/Phoenix", "America/Los_Angeles", "America/Anchorage", "America/Juneau", "America/Sitka",
        "America/Metlakatla", "America/Yakutat", "America/Nome", "America/Adak", "Pacific/Honolulu", "America/Indianapolis",
        "America/Louisville", "America/Fort_Wayne", "America/Knox_IN", "Navajo", "America/Shiprock",
    ]

    /// A place of more than one word whose last word is a number that could be an hour (1-23): "the gym 6".
    static func placeEndingInHour(_ place: String?) -> (String, String)? {
        guard let place, let space = place.lastIndex(of: " ") else { return nil }
        let last = place[place.index(after: space)...]
        guard (1...2).contains(last.count), last.allSatisfy({ $0.isASCII && $0.isNumber }), let hour = Int(last), (1...23).contains(hour)
        else { return nil }
        return (place, String(last))
    }

    /// A word of the place that names a kind of event in the other half of the day than the default rule's reading:
    /// "at the pub at 9" was read 09:00.
    private func placeNamesOtherHalf(_ collected: QuickAddCollected, read hour: Int) -> Bool {
        guard let place = collected.location?.lowercased() else { return false }
        return place.split(separator: " ").contains { word in
            options.locale.kindHint(for: String(word)).map { !$0.contains(hour) } ?? false
        }
    }

    /// A day, time or part of the day that the grammar did not take: "Meet morning", "Kino Abend". A leading part
    /// of the day that names the next word ("Morning run") and a frequency before a word ("Daily standup") are
    /// titles by rule; holidays inside the text are words of the title by rule; "sat" and "sun" are ordinary
    /// words, and month names ("May", "Jan"), "pm" and "Uhr" are too unless a number stands next to them.
    private func isDateWord(_ meaning: QuickAddMeaning, _ grammar: QuickAddGrammar, at index: Int) -> Bool {
        switch meaning {
        case .weekday, .weekdays, .weekdayPart, .relativeDay, .namedTime, .calendarWeek, .endOfMonth:
            return !grammar.weakWords.contains(grammar.tokens[index].text)
        case .partOfDay:
            return !grammar.partOfDayNamesTitle(at: index)
        case .month, .meridiem, .oclock:
            // "PM" (a project manager) and "Uhr" (a watch) are words too; "Aunt May 11am": a clock time is no day.
            let after = grammar.next(index)
            return (index > 0 && grammar.isNumber(index - 1)) || (grammar.isNumber(after) && !grammar.hasClockMark(after: after))
        default:
            return false
        }
    }

    /// Words that only connect a date, time, place or span to the rest ("on", "at", "by", "um", "the").
    static func isConnecting(_ meaning: QuickAddMeaning) -> Bool {
        switch meaning {
        case .at, .atTime, .onDate, .deadline, .from, .starting, .untilOrTo, .rangeTo, .between, .inRelative, .inRelativeOrLocation,
            .location, .the, .of, .with, .forDuration, .and, .approximately:
            true
        default: false
        }
    }

    /// Connecting words that introduce a date or time and mean nothing without one ("by", "at", "um", "ab").
    static func isStranding(_ meaning: QuickAddMeaning) -> Bool {
        switch meaning {
        case .at, .atTime, .onDate, .deadline, .from, .starting, .untilOrTo, .between: true
        default: false
        }
    }

    /// A numeric date the grammar read ("5/6") whose two numbers are both months and differ: the other order is
    /// another date. Dotted dates (5.6.) are day first everywhere and not doubted.
    /// A weekday in the text that agrees with the date read (a weekday that does not is refused) and not with the
    /// other order's date settles the order ("Review Friday 12/11": Dec 11 is a Friday, Nov 12 a Thursday).
    private func ambiguousNumericDate(_ grammar: QuickAddGrammar, consumed: [Bool], firstDay: QuickAddDate) -> String? {
        let tokens = grammar.tokens
        var index = 0
        while index + 2 < tokens.count {
            defer { index += 1 }
            guard consumed[index], grammar.isNumber(index), tokens[index].digits <= 2, grammar.isSymbol(index + 1, "/"),
                grammar.attached(index + 1), grammar.attached(index + 2), grammar.isNumber(index + 2), tokens[index + 2].digits <= 2,
                !(index > 0 && grammar.isSymbol(index - 1, "/") && grammar.attached(index))
            else { continue }
            let (first, second) = (tokens[index].value, tokens[index + 2].value)
            guard (1...12).contains(first), (1...12).contains(second), first != second else { continue }
            if let weekday = tokens.indices.lazy.compactMap({ consumed[$0] ? grammar.weekdayNumber($0) : nil }).first {
                let other = firstDay.month == first ? (month: second, day: first) : (month: first, day: second)
                let settled = (firstDay.year - 1...firstDay.year + 1).allSatisfy {
                    QuickAddDate(year: $0, month: other.month, day: other.day).weekday != weekday
                }
                if settled { continue }
            }
            var end = index + 3
            if grammar.isSymbol(end, "/"), grammar.attached(end), grammar.isNumber(end + 1), grammar.attached(end + 1) { end += 2 }
            return grammar.text(index, end)
        }
        return nil
    }
}
