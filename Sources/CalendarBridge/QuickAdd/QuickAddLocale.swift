/// A language's quick-add vocabulary: phrases and what they mean, zone abbreviations, and an example.
///
/// Adding a language means writing one of these (see `english` and `german`); the grammar is shared.
/// Phrases are matched case-insensitively, token by token (`"a.m."` is the tokens `a . m .`), longest first.
public struct QuickAddLocale: Sendable {
    /// `en`, `de`, ...
    public var identifier: String
    public var phrases: [(String, QuickAddMeaning)]
    /// Abbreviation (any case) -> IANA id; recognised only right after a time ("3pm PST").
    public var zoneAbbreviations: [(String, String)]
    /// Short weekday names that are also ordinary words ("sat", "sun"): they count as weekdays only after
    /// a preposition, "next"/"every" or a list word, or right before a time or number.
    public var weakWords: Set<String>
    /// A phrase that works, shown in error messages.
    public var example: String
    /// Numeric date order when neither `--date-order` nor the environment says.
    public var defaultDateOrder: QuickAddDateOrder
    /// Title words that say which half of the day a bare hour is in ("Dinner at 7" is 19:00, "Frühstück
    /// um 8" 08:00). They stay in the title and never set a time of their own.
    public var kindHints: [String: QuickAddPartOfDay]
    /// Words for a party ("party", "Feier"): after a holiday that is not itself the party's day ("Christmas
    /// party") they name no one day, and the text is refused unless it gives the date.
    public var partyWords: Set<String>
    /// Beginnings of compound words that name a holiday ("silvester" in "Silvesterparty", "weihnachts" in
    /// "Weihnachtsfeier"), for languages that join words: the compound is read as the holiday's name where it
    /// starts the text, and its last part decides whether it is a party (see `partyWords`).
    public var holidayCompounds: [(String, QuickAddHoliday)]
    /// Weak words that are common words even before a number (German "so": "so 20 Leute", "so gegen 6"): a weekday
    /// only after a word such as "am" or a comma, in a list of weekdays, or right before a clock time written with
    /// minutes or "Uhr" ("So 18:30", "So 10 Uhr").
    public var clockOnlyWeakWords: Set<String>
    /// One- and two-letter weekdays (English "M", "T", "Th", "W", "F": 1 is Monday) that mean a day only in a
    /// list joined by slashes ("M/W/F", "T/Th"), as schedules are written.
    public var letterWeekdays: [String: Int]
    /// Last parts of compound words that say which half of the day a bare hour is in, as `kindHints` do for whole
    /// words: German "…abend" is an evening event ("Spieleabend", "Elternabend"), "…frühstück" a morning one
    /// ("Weißwurstfrühstück"). A word the locale gives a meaning of its own ("Feierabend", "Samstagabend") is that.
    public var kindSuffixes: [(String, QuickAddPartOfDay)]
    /// Parts of the day that, right after a word of the title, name the event with it and stay in the title
    /// ("Parents evening", "Quiz evening", "Spiele Abend"), as a leading part of the day does ("Morning run"); they
    /// still give the part of the day.
    public var titlePartWords: Set<String>
    /// Words that end a street's name ("Street", "Ave", German "Straße", "Str"): a number before a name ending in
    /// one ("12 Elm Street") or right after one ("Hauptstr. 12") is a house number, not an hour or a day.
    public var streetWords: Set<String>
    /// Ends of compound words that are streets' names (German "Bahnhofstraße", "Lindenweg", "Marktplatz").
    public var streetSuffixes: [String]
    /// Nouns a number after which names one of a series or a place ("chapter 12", "Room 4", "Gate 12", "Gleis 3"):
    /// the number is part of the title, never an hour or a day.
    public var numberedWords: Set<String>
    /// Articles that make a place's preposition a direction, a part of the title (German "Auto in die Werkstatt" says
    /// where the car goes; "in der Werkstatt" is where the event is).
    public var directionArticles: Set<String>
    /// Endings of the nouns counts are made of ("2 tickets"): right after a day, a number before a word without one is
    /// an hour ("tmrw 3 dentist"). Empty where plurals have no one ending (German): such a number stays a doubt.
    public var countNounEndings: [String]
    /// First parts of compound words that say which half of the day a bare hour is in (German "Frühdienst",
    /// "Frühschicht": morning; "Spätdienst", "Nachtschicht": evening).
    public var kindPrefixes: [(String, QuickAddPartOfDay)]

    public init(
        identifier: String,
        phrases: [(String, QuickAddMeaning)],
        zoneAbbreviations: [(String, String)],
        weakWords: Set<String>,
        example: String,
        defaultDateOrder: QuickAddDateOrder,
        kindHints: [String: QuickAddPartOfDay] = [:],
        partyWords: Set<String> = [],
        holidayCompounds: [(String, QuickAddHoliday)] = [],
        clockOnlyWeakWords: Set<String> = [],
        letterWeekdays: [String: Int] = [:],
        kindSuffixes: [(String, QuickAddPartOfDay)] = [],
        titlePartWords: Set<String> = [],
        streetWords: Set<String> = [],
        streetSuffixes: [String] = [],
        numberedWords: Set<String> = [],
        directionArticles: Set<String> = [],
        countNounEndings: [String] = [],
        kindPrefixes: [(String, QuickAddPartOfDay)] = []
    ) {
        self.kindPrefixes = kindPrefixes
        self.countNounEndings = countNounEndings
        self.directionArticles = directionArticles
        self.numberedWords = numberedWords
        self.streetWords = streetWords
        self.streetSuffixes = streetSuffixes
        self.clockOnlyWeakWords = clockOnlyWeakWords
        self.letterWeekdays = letterWeekdays
        self.kindSuffixes = kindSuffixes
        self.titlePartWords = titlePartWords
        self.kindHints = kindHints
        self.partyWords = partyWords
        self.holidayCompounds = holidayCompounds.sorted { $0.0.count > $1.0.count }
        self.identifier = identifier
        self.phrases = phrases
        self.zoneAbbreviations = zoneAbbreviations
        self.weakWords = weakWords
        self.example = example
        self.defaultDateOrder = defaultDateOrder
    }

    /// The half of the day a title word names (`kindHints`, else `kindSuffixes` or `kindPrefixes` on a longer word), or nil.
    func kindHint(for word: String) -> QuickAddPartOfDay? {
        if let hint = kindHints[word] { return hint }
        for (suffix, hint) in kindSuffixes where word.count > suffix.count + 2 && word.hasSuffix(suffix) { return hint }
        for (prefix, hint) in kindPrefixes where word.count > prefix.count + 3 && word.hasPrefix(prefix) { return hint }
        return nil
    }

    /// The built-in locales.
    public static let all: [QuickAddLocale] = [.english, .german]

    /// The built-in locale with this identifier (`en`, `de`).
    public static func named(_ identifier: String) -> QuickAddLocale? {
        all.first { $0.identifier == identifier }
    }

    /// Helper for tables: one meaning for several spellings.
    static func each(_ words: [String], _ meaning: QuickAddMeaning) -> [(String, QuickAddMeaning)] {
        words.map { ($0, meaning) }
    }

    /// Holiday names as phrases, each also with a typographic apostrophe ("New Year’s Eve").
    static func holidays(_ names: [([String], QuickAddHoliday)]) -> [(String, QuickAddMeaning)] {
        names.flatMap { words, holiday in
            Set(words + words.map { $0.replacingOccurrences(of: "'", with: "’") }).sorted().map { ($0, QuickAddMeaning.holiday(holiday)) }
        }
    }
}
