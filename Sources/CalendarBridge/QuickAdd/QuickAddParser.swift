import Foundation

/// Turns one line of text ("Lunch with Ann tomorrow 1pm at Cafe Luna") into an event.
///
/// Deterministic: the reference instant, the user's zone, the locale and the date order are inputs;
/// the parser never reads the clock or the environment. Every rule is documented in the README's
/// "Quick add" section. Build one parser per configuration and reuse it: building compiles the locale
/// table, parsing is allocation-light and needs no `DateFormatter` or regular expression.
public struct QuickAddParser: Sendable {
    /// Longer text is rejected (`QuickAddError.Code.tooLong`).
    public static let maximumLength = 500

    public let options: QuickAddOptions

    struct Entry: Sendable {
        var rest: [String]
        var meaning: QuickAddMeaning
    }

    /// First token of a phrase -> the phrases starting with it, longest first.
    let table: [String: [Entry]]

    public init(options: QuickAddOptions = QuickAddOptions()) {
        self.options = options
        var table: [String: [Entry]] = [:]
        let phrases =
            options.locale.phrases
            + options.locale.zoneAbbreviations.map { ($0.0, QuickAddMeaning.zone($0.1)) }
        for (phrase, meaning) in phrases {
            let tokens = QuickAddTokenizer.tokenize(Array(phrase.unicodeScalars))
            guard let first = tokens.first else { continue }
            table[first.text, default: []].append(Entry(rest: tokens.dropFirst().map(\.text), meaning: meaning))
        }
        for key in table.keys { table[key]!.sort { $0.rest.count > $1.rest.count } }
        self.table = table
    }

    /// Parses one line.
    ///
    /// - Parameters:
    ///   - text: what the user typed.
    ///   - now: the reference instant; "today" is its date in `zone`.
    ///   - zone: the user's zone; the event's zone unless the text names another.
    /// - Returns: the event.
    /// - Throws: `QuickAddError` naming what could not be understood, with an example that works.
    public func parse(_ text: String, now: Date, zone: QuickAddZone) throws(QuickAddError) -> QuickAddResult {
        var (result, title) = try read(text, now: now, zone: zone)
        guard !title.isEmpty else {
            throw error(
                .missingTitle, "\"\(text)\" says when but not what the event is", de: "„\(text)“ sagt wann, aber nicht was der Termin ist")
        }
        result.title = title
        return result
    }

    /// A date or a date and time alone ("tomorrow", "next monday 9:00", "in 2 weeks", "+3d", "Dec 5",
    /// "morgen 15 Uhr"), read by the same grammar and rules as quick-add text: the date options of the
    /// other commands (`--from`, `--to`, `--start`, `--end`, `--on`).
    ///
    /// - Returns: the day (all day: `start` is a `.date`) or the instant (`start` is a `.dateTime`); `end`
    ///   is the day after, or the one-hour default.
    /// - Throws: `QuickAddError` when the text is no single date or time: words left over (`nothingToSchedule`),
    ///   a repeat, a place, a duration or a range of days (`conflict`), or what `parse` refuses.
    public func parseWhen(_ text: String, now: Date, zone: QuickAddZone) throws(QuickAddError) -> QuickAddResult {
        let (result, title) = try read(text, now: now, zone: zone)
        let german = options.locale.identifier == "de"
        guard title.isEmpty else {
            throw QuickAddError(
                .nothingToSchedule,
                german ? "„\(title)“ in „\(text)“ ist kein Datum und keine Uhrzeit" : "\"\(title)\" in \"\(text)\" is not a date or time",
                example: german ? "morgen 15 Uhr" : "tomorrow 3pm", language: options.locale.identifier)
        }
        let oneDay: Bool = {
            guard case .date(let first) = result.start, case .date(let after) = result.end else { return true }
            return after == first.adding(days: 1)
        }()
        guard result.recurrence.isEmpty, result.location == nil, oneDay else {
            throw QuickAddError(
                .conflict,
                german ? "„\(text)“ ist mehr als ein Datum oder eine Uhrzeit" : "\"\(text)\" is more than one date or time",
                example: german ? "morgen 15 Uhr" : "tomorrow 3pm", language: options.locale.identifier)
        }
        return result
    }

    /// The reading of `text` and the words left for the title.
    private func read(_ text: String, now: Date, zone: QuickAddZone) throws(QuickAddError) -> (QuickAddResult, String) {
        let example = options.locale.example
        let scalars = Array(text.unicodeScalars)
        guard scalars.count <= Self.maximumLength else {
            throw error(
                .tooLong, "the text is \(scalars.count) characters long, more than \(Self.maximumLength)",
                de: "der Text ist \(scalars.count) Zeichen lang, mehr als \(Self.maximumLength)")
        }
        let grammar = makeGrammar(scalars)
        let (tokens, meanings) = (grammar.tokens, grammar.meanings)

        var collected = QuickAddCollected(example: example, language: options.locale.identifier)
        var consumed = [Bool](repeating: false, count: tokens.count)
        var index = 0
        /// A part of the day that names the event and stays in the title ("Parents evening"): its part of the day
        /// counts only when the text names no other ("Parents evening tonight 7pm" is tonight's).
        var titlePart: (element: QuickAddElement, fragment: String)?
        /// The repeat rules found, by their first token: a lone frequency word merged with a rule that names the days
        /// goes back to the title ("Weekly 1:1 Tuesdays 10am" is titled "Weekly 1:1", as "Weekly review Fridays" is).
        var rules: [(index: Int, bare: Bool)] = []
        while index < tokens.count {
            if let match = grammar.element(at: index) ?? grammar.matchLocation(at: index) {
                let fragment = grammar.text(index, min(match.end, tokens.count))
                // "Morning run tomorrow", "Parents evening next Wednesday": a part of the day that names the event
                // gives the time and stays in the title.
                let namesTitle: Bool = {
                    guard match.end == index + 1, case .partOfDay = match.element else { return false }
                    return grammar.partOfDayNamesTitle(at: index)
                }()
                if namesTitle {
                    if titlePart == nil { titlePart = (match.element, fragment) }
                } else {
                    try collected.add(match.element, fragment: fragment)
                    for k in index..<min(match.end, tokens.count) { consumed[k] = true }
                    if case .recurrence(let part) = match.element, part.frequency != nil {
                        rules.append((index, match.end == grammar.next(index) && meanings[index].isFrequency))
                    }
                }
                index = max(match.end, index + 1)
            } else if case .holiday? = meanings[index] {
                // A holiday's name is one word of the title ("Good Friday" has no weekday in it).
                index = grammar.next(index)
            } else {
                index += 1
            }
        }
        if let titlePart, collected.partOfDay == nil { try collected.add(titlePart.element, fragment: titlePart.fragment) }
        if rules.count > 1, let bare = rules.first(where: \.bare) {
            for k in bare.index..<grammar.next(bare.index) { consumed[k] = false }
        }
        // "Biweekly meeting Tuesdays 10am": a frequency word kept in the title ("Daily standup") must not say another
        // interval than the rule, or the series would silently repeat at the other.
        if collected.hasFrequency, let index = tokens.indices.first(where: { !consumed[$0] && meanings[$0].isFrequency }),
            case .frequency(let frequency, let interval)? = meanings[index],
            frequency == collected.recurrence.frequency, interval != collected.recurrence.interval
        {
            let (word, rule) = (grammar.text(index, grammar.next(index)), collected.recurrenceFragment ?? "")
            throw error(
                .conflict, "\"\(word)\" and \"\(rule)\" repeat at different intervals; give one rule",
                de: "„\(word)“ und „\(rule)“ wiederholen verschieden oft; gib eine Wiederholung an")
        }
        try readHoliday(grammar, consumed: consumed, into: &collected)
        let title = Self.title(grammar, consumed: consumed)
        // The first word naming a kind of event that nothing else took ("Dinner at the pub": "pub" is the place's).
        if let (index, hint) = grammar.kindWords.first(where: { !consumed[$0.index] }) {
            collected.kindHint = hint
            if let (part, fragment) = collected.partOfDay, (hint.hour < 12 && part.hour >= 17) || (hint.hour >= 17 && part.hour < 12) {
                // "Frühstück heute Abend", "Dinner tomorrow morning": the kind of event and the part of the day disagree.
                let word = grammar.text(index, index + 1)
                throw error(
                    .conflict, "\"\(word)\" and \"\(fragment)\" name different parts of the day; give the time",
                    de: "„\(word)“ und „\(fragment)“ passen nicht zusammen; gib die Uhrzeit an")
            }
        }
        var result = try collected.resolve(
            now: Int(now.timeIntervalSince1970.rounded(.down)), userZone: zone, text: text)
        let firstDay: QuickAddDate
        switch result.start {
        case .date(let date): firstDay = date
        case .dateTime(let seconds, _): firstDay = zone.date(at: seconds)
        }
        result.doubts = doubts(grammar, consumed: consumed, collected: collected, firstDay: firstDay, zone: zone)
        return (result, title)
    }

    /// A holiday's name that nothing else took, when the text gives no other day: at the start of the text it is
    /// the date and stays in the title ("Christmas Eve dinner at 6" is December 24 at 18:00); a name of several
    /// days, or a party only named after the holiday ("Christmas party"), is refused; elsewhere, with a time, it
    /// is refused too ("Dinner Christmas Eve 7pm": write "on Christmas Eve"), never read as today.
    private func readHoliday(_ grammar: QuickAddGrammar, consumed: [Bool], into collected: inout QuickAddCollected) throws(QuickAddError) {
        guard collected.dates.isEmpty, !collected.hasFrequency, collected.relativeTime == nil,
            let index = grammar.tokens.indices.first(where: {
                guard !consumed[$0], case .holiday? = grammar.meanings[$0] else { return false }
                return true
            }),
            case .holiday(let holiday)? = grammar.meanings[index]
        else { return }
        let end = grammar.next(index)
        let name = grammar.text(index, min(end, grammar.count))
        func noOneDay(_ fragment: String) -> QuickAddError {
            error(
                .vagueDate, "\"\(fragment)\" names no one day; give the date, such as \"\(fragment) Dec 18 7pm\"",
                de: "„\(fragment)“ nennt keinen bestimmten Tag; gib das Datum an, zum Beispiel „\(fragment) am 18.12. um 19 Uhr“")
        }
        if let party = grammar.holidayCompounds[index] {
            // A compound names the holiday only where it starts the text ("Silvesterparty 20 Uhr"); elsewhere it
            // is a word of the title, as often a name ("Tom Ostermann").
            guard index == 0 else { return }
            if holiday.rule == .severalDays || (party && !holiday.partyOnTheDay) {
                // "Weihnachtsgeschenke kaufen" has nothing to schedule; "Weihnachtsfeier 18 Uhr" names no one day.
                guard collected.time != nil || collected.partOfDay != nil else { return }
                throw noOneDay(name)
            }
            try collected.add(.date(.holiday(holiday)), fragment: name)
        } else if index == 0 {
            if holiday.rule == .severalDays { throw noOneDay(name) }
            // "Christmas party", "Christmas-party", "Silvester-Party": the word after the name, past a joining dash.
            var after = end
            if grammar.isSymbol(after, "-"), grammar.attached(after), grammar.attached(after + 1) { after += 1 }
            if !holiday.partyOnTheDay, after < grammar.count, options.locale.partyWords.contains(grammar.tokens[after].text) {
                throw noOneDay(grammar.text(index, after + 1))
            }
            try collected.add(.date(.holiday(holiday)), fragment: name)
        } else if holiday.rule == .severalDays {
            // "Road trip over Memorial Day weekend": days, not one day, wherever it stands.
            throw noOneDay(name)
        } else if collected.time != nil || collected.partOfDay != nil {
            // The day is meant, but a name inside a title is as often the event's name: say how to mean it.
            throw error(
                .vagueDate, "\"\(name)\" inside the text is not read as a day; write \"on \(name)\" or give the date",
                de: "„\(name)“ mitten im Text wird nicht als Tag gelesen; schreib „am \(name)“ oder das Datum")
        }
    }

    /// An error in the locale's language, with its example.
    private func error(_ code: QuickAddError.Code, _ english: String, de german: String) -> QuickAddError {
        QuickAddError(
            code, options.locale.identifier == "de" ? german : english, example: options.locale.example, language: options.locale.identifier
        )
    }

    /// The words of `scalars` with the locale's phrases marked: what the grammar reads elements from.
    private func makeGrammar(_ scalars: [Unicode.Scalar]) -> QuickAddGrammar {
        let tokens = QuickAddTokenizer.tokenize(scalars)
        var meanings = [QuickAddMeaning?](repeating: nil, count: tokens.count)
        var lengths = [Int](repeating: 1, count: tokens.count)
        for index in tokens.indices {
            guard let entries = table[tokens[index].text] else { continue }
            for entry in entries where index + entry.rest.count < tokens.count {
                var matches = true
                for (offset, word) in entry.rest.enumerated() where tokens[index + 1 + offset].text != word {
                    matches = false
                    break
                }
                if matches {
                    meanings[index] = entry.meaning
                    lengths[index] = entry.rest.count + 1
                    break
                }
            }
        }
        // "check-in", "drop-off", "pre-Christmas": the second part of a word joined by a dash is that word's, not a
        // preposition or a day of its own (a phrase that begins with the first part, "all-day", "Mo-Fr", keeps its meaning).
        for index in tokens.indices.dropFirst(2)
        where tokens[index].kind == .word && tokens[index - 1].text == "-" && !tokens[index - 1].spaceBefore
            && !tokens[index].spaceBefore && tokens[index - 2].kind == .word && meanings[index - 2] == nil
        {
            meanings[index] = nil
            lengths[index] = 1
        }
        var compounds: [Int: Bool] = [:]
        if !options.locale.holidayCompounds.isEmpty {
            for index in tokens.indices where tokens[index].kind == .word && meanings[index] == nil {
                guard let (holiday, party) = holidayCompound(tokens, at: index) else { continue }
                meanings[index] = .holiday(holiday)
                compounds[index] = party
            }
        }
        var grammar = QuickAddGrammar(
            scalars: scalars, tokens: tokens, meanings: meanings, lengths: lengths,
            weakWords: options.locale.weakWords, dateOrder: options.dateOrder)
        grammar.holidayCompounds = compounds
        grammar.clockOnlyWeakWords = options.locale.clockOnlyWeakWords
        grammar.letterWeekdays = options.locale.letterWeekdays
        grammar.titlePartWords = options.locale.titlePartWords
        grammar.streetWords = options.locale.streetWords
        grammar.streetSuffixes = options.locale.streetSuffixes
        grammar.numberedWords = options.locale.numberedWords
        grammar.directionArticles = options.locale.directionArticles
        grammar.countNounEndings = options.locale.countNounEndings
        grammar.kindWords = tokens.indices.compactMap { index in
            guard tokens[index].kind == .word, meanings[index] == nil, let hint = options.locale.kindHint(for: tokens[index].text)
            else { return nil }
            return (index, hint)
        }
        if let resolver = options.windowsZoneResolver { grammar.windowsZones = findWindowsZones(grammar, resolver) }
        return grammar
    }

    /// The holiday a compound word at `index` begins with, and whether the compound is a party: "Silvesterparty"
    /// (New Year's Eve, a party), "Muttertagsbrunch" (Mother's Day), "Weihnachts-Feier" (several days, a party).
    /// The rest must be a word of its own (three letters or more, or joined by a dash), so "Ostern" or a name
    /// such as "Silvestri" is no compound.
    private func holidayCompound(_ tokens: [QuickAddToken], at index: Int) -> (QuickAddHoliday, Bool)? {
        let word = tokens[index].text
        let dashed =
            index + 2 < tokens.count && tokens[index + 1].text == "-" && !tokens[index + 1].spaceBefore
            && !tokens[index + 2].spaceBefore && tokens[index + 2].kind == .word
        // The first byte rules out most stems cheaply (every stem begins with an ASCII letter, which is the same byte
        // in any normal form); `hasPrefix` compares the rest as Unicode text.
        let firstByte = word.utf8.first
        for (stem, holiday) in options.locale.holidayCompounds where stem.utf8.first == firstByte && word.hasPrefix(stem) {
            let rest = String(word.dropFirst(stem.count))
            if rest.isEmpty, dashed {
                return (holiday, options.locale.partyWords.contains(tokens[index + 2].text))
            }
            guard rest.count >= 3, rest.allSatisfy(\.isLetter) else { continue }
            return (holiday, options.locale.partyWords.contains { rest.hasSuffix($0) })
        }
        return nil
    }

    /// The words of `text` that ask for a repeat ("every Monday", "weekly", "jeden Montag"), or nil: read by the
    /// same grammar as `parse`, but without resolving the rest, so that a text `parse` refuses still says whether
    /// it asks for a repeat (`quick-add` checks Google's answer against it).
    public func repeatFragment(in text: String) -> String? {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count <= Self.maximumLength else { return nil }
        let grammar = makeGrammar(scalars)
        var index = 0
        while index < grammar.tokens.count {
            guard let match = grammar.element(at: index) ?? grammar.matchLocation(at: index) else {
                index += 1
                continue
            }
            if case .recurrence(let part) = match.element, part.frequency != nil {
                return grammar.text(index, min(match.end, grammar.tokens.count))
            }
            index = max(match.end, index + 1)
        }
        return nil
    }

    /// Windows zone names end in "Standard Time"; try the longest name ending there that the resolver knows.
    private func findWindowsZones(
        _ grammar: QuickAddGrammar, _ resolver: @Sendable (String) -> String?
    ) -> [Int: (end: Int, id: String)] {
        var found: [Int: (end: Int, id: String)] = [:]
        let tokens = grammar.tokens
        for index in tokens.indices.dropLast() where tokens[index].text == "standard" && tokens[index + 1].text == "time" {
            for start in max(0, index - 5)..<index {
                let name = grammar.text(start, index + 2)
                if let id = resolver(name), QuickAddZone(identifier: id) != nil {
                    found[start] = (index + 2, id)
                    break
                }
            }
        }
        return found
    }

    static let separators: Set<String> = [",", ";", ":", "-", ".", "/", "@", "&", "(", ")", "!", "?", "+", "|"]

    /// The words nothing else took, in order, with single spaces. Punctuation right after a removed part
    /// ("Nov 6, 10:00" -> the comma) is dropped, and so is punctuation left hanging at either end.
    static func title(_ grammar: QuickAddGrammar, consumed: [Bool]) -> String {
        let tokens = grammar.tokens
        func isSeparator(_ index: Int) -> Bool { tokens[index].kind == .symbol && separators.contains(tokens[index].text) }
        var kept: [Int] = []
        for index in tokens.indices where !consumed[index] {
            if isSeparator(index) && (index == 0 || consumed[index - 1]) {
                // "Sa 9-13 Uhr, Handschuhe mitbringen": a comma between two parts of the title still joins them.
                if tokens[index].text == ",", !kept.isEmpty, index + 1 < tokens.count, !consumed[index + 1] { kept.append(index) }
                continue
            }
            kept.append(index)
        }
        while let first = kept.first, isSeparator(first), tokens[first].text != "(" { kept.removeFirst() }
        while let last = kept.last, isSeparator(last) {
            let closes = [".", "!", "?", ")"].contains(tokens[last].text)
            if closes, !tokens[last].spaceBefore, kept.count > 1, kept[kept.count - 2] == last - 1 { break }
            kept.removeLast()
        }
        var title = ""
        var previous = -2
        for index in kept {
            let joined = tokens[index].text == "," && previous != index - 1
            if !title.isEmpty && !joined && (previous != index - 1 || tokens[index].spaceBefore) { title += " " }
            title += grammar.text(index, index + 1)
            previous = index
        }
        return title
    }
}
