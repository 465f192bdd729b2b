extension QuickAddLocale {
    /// German: 24-hour clock with "Uhr", day-first dates, "am 5. Dezember", "jeden Montag".
    public static let german = QuickAddLocale(
        identifier: "de",
        phrases: germanPhrases,
        // "IST" is left out: "ist" is an everyday German word.
        zoneAbbreviations: commonZoneAbbreviations + [
            ("MEZ", "Europe/Berlin"), ("MESZ", "Europe/Berlin"),
            ("WEZ", "Europe/Lisbon"), ("WESZ", "Europe/Lisbon"),
            ("OEZ", "Europe/Athens"), ("OESZ", "Europe/Athens"),
            ("deutscher Zeit", "Europe/Berlin"), ("deutsche Zeit", "Europe/Berlin"),
            ("New Yorker Zeit", "America/New_York"), ("Londoner Zeit", "Europe/London"),
        ],
        weakWords: ["mo", "di", "mi", "do", "fr", "sa", "so"],
        example: "Zahnarzt morgen 15 Uhr",
        defaultDateOrder: .dmy,
        kindHints: [
            "frühstück": .morning, "fruehstück": .morning, "brunch": .morning,
            "mittagessen": .noon,
            "abendessen": .evening, "essen": .evening, "kino": .evening, "konzert": .evening, "party": .evening,
            "theater": .evening, "stammtisch": .evening, "kneipe": .evening, "bar": .evening,
        ],
        partyWords: ["party", "feier", "fete", "empfang"],
        holidayCompounds: germanHolidayCompounds,
        clockOnlyWeakWords: ["so"],
        kindSuffixes: [("abend", .evening), ("frühstück", .morning), ("fruehstück", .morning), ("fruehstueck", .morning)],
        titlePartWords: ["abend"],
        // The same words end compounds: "Hauptstraße 5", "Bahnhofstr. 12", "Lindenweg 3".
        streetWords: Set(germanStreetWords),
        streetSuffixes: germanStreetWords,
        // Not "Gruppe" or "Kurs": "Kurs 7 morgen" may give the hour.
        numberedWords: [
            "kapitel", "lektion", "folge", "teil", "seite", "seiten", "raum", "zimmer", "gleis", "tor", "gate", "haus", "etage",
            "stock", "saal", "halle", "runde", "spieltag", "staffel", "modul", "einheit", "bahnsteig", "tisch", "reihe", "sitz",
            "bus", "linie", "flug", "ausgang", "terminal", "block", "klasse", "stufe", "level", "sprint", "version", "release",
            "ticket", "bauabschnitt", "wohnung", "whg", "station", "zug",
        ],
        directionArticles: ["die", "das", "den", "ein", "eine", "einen"],
        kindPrefixes: [("früh", .morning), ("frueh", .morning), ("spät", .evening), ("spaet", .evening), ("nacht", .evening)]
    )

    /// Words that end a street's name, alone ("Berliner Straße 5") or as the last part of a compound ("Hauptstr. 12").
    static let germanStreetWords = ["straße", "strasse", "str", "weg", "platz", "allee", "gasse", "ring", "damm", "ufer"]

    /// The beginnings of compounds that name a holiday: every one-word name, alone and with the linking "s"
    /// ("Silvesterparty", "Muttertagsbrunch"), and the stems of the names of several days ("Weihnachtsfeier",
    /// "Osterbrunch", "Pfingstferien", "Adventskaffee": no one day). "Nikolausfeier" is St. Nicholas' Day.
    static let germanHolidayCompounds: [(String, QuickAddHoliday)] = {
        var stems: [(String, QuickAddHoliday)] = []
        for (name, meaning) in germanHolidays where !name.contains(" ") && !name.contains(".") {
            guard case .holiday(let holiday) = meaning else { continue }
            stems += [(name, holiday), (name + "s", holiday)]
        }
        stems += [("weihnachts", .severalDays), ("oster", .severalDays), ("pfingst", .severalDays), ("advents", .severalDays)]
        stems.append(("nikolaus", .fixed(12, 6)))
        return stems
    }()

    /// Germany's nationwide holidays and widely kept days. "Weihnachten", "Ostern" and "Pfingsten" name several
    /// days; "Nikolaus" alone is also a first name, so only "Nikolaustag" is the day.
    static let germanHolidays: [(String, QuickAddMeaning)] = holidays([
        (["neujahr", "neujahrstag"], .fixed(1, 1)), (["heilige drei könige", "dreikönigstag"], .fixed(1, 6)),
        (["valentinstag"], .fixed(2, 14, partyOnTheDay: true)),
        (["rosenmontag"], QuickAddHoliday(.easter(plusDays: -48), partyOnTheDay: true)), (["aschermittwoch"], .easter(-46)),
        (["gründonnerstag"], .easter(-3)),
        (["karfreitag"], .easter(-2)), (["ostersonntag"], .easter(0)), (["ostermontag"], .easter(1)),
        (["tag der arbeit"], .fixed(5, 1)), (["christi himmelfahrt", "himmelfahrt", "vatertag"], .easter(39)),
        (["muttertag"], .nth(2, 7, of: 5)), (["pfingstsonntag"], .easter(49)), (["pfingstmontag"], .easter(50)),
        (["fronleichnam"], .easter(60)), (["tag der deutschen einheit"], .fixed(10, 3)),
        (["reformationstag", "halloween"], .fixed(10, 31)), (["allerheiligen"], .fixed(11, 1)), (["nikolaustag"], .fixed(12, 6)),
        (["heiligabend", "heiliger abend", "heiligen abend"], .fixed(12, 24, partyOnTheDay: true)),
        (
            [
                "erster weihnachtstag", "ersten weihnachtstag", "1. weihnachtstag", "erster weihnachtsfeiertag",
                "ersten weihnachtsfeiertag",
                "1. weihnachtsfeiertag",
            ], .fixed(12, 25)
        ),
        (
            [
                "zweiter weihnachtstag", "zweiten weihnachtstag", "2. weihnachtstag", "zweiter weihnachtsfeiertag",
                "zweiten weihnachtsfeiertag",
                "2. weihnachtsfeiertag",
            ], .fixed(12, 26)
        ),
        (["silvester", "silvesterabend"], .fixed(12, 31, partyOnTheDay: true)),
        (["1. advent", "erster advent", "ersten advent"], QuickAddHoliday(.advent(1))),
        (["2. advent", "zweiter advent", "zweiten advent"], QuickAddHoliday(.advent(2))),
        (["3. advent", "dritter advent", "dritten advent"], QuickAddHoliday(.advent(3))),
        (["4. advent", "vierter advent", "vierten advent"], QuickAddHoliday(.advent(4))),
        (["weihnachten", "weihnachtsfeiertage", "ostern", "osterwochenende", "pfingsten", "osterferien"], .severalDays),
    ])

    private static let germanPhrases: [(String, QuickAddMeaning)] = {
        var table: [(String, QuickAddMeaning)] = [
            ("heute", .relativeDay(0)), ("heut", .relativeDay(0)), ("morgen", .relativeDay(1)), ("übermorgen", .relativeDay(2)),
            ("uebermorgen", .relativeDay(2)),
            ("nächsten", .next), ("nächste", .next), ("nächster", .next), ("naechsten", .next), ("übernächsten", .afterNext),
            ("uebernaechsten", .afterNext),
            ("kommenden", .next), ("kommende", .next), ("diesen", .this), ("diese", .this),
            ("in", .inRelativeOrLocation), ("im", .location), ("half", .half),
            ("halbe", .half), ("halben", .half), ("uhr", .oclock),
            ("mittag", .partOfDay(.noon)), ("mittags", .partOfDay(.noon)), ("am mittag", .partOfDay(.noon)),
            ("früh", .partOfDay(.earlyMorning)), ("frueh", .partOfDay(.earlyMorning)),
            ("morgens", .partOfDay(.earlyMorning)), ("am morgen", .partOfDay(.morning)),
            ("heute morgen", .partOfDay(QuickAddPartOfDay.morning.on(0))),
            ("heute früh", .partOfDay(QuickAddPartOfDay.earlyMorning.on(0))),
            ("vormittag", .partOfDay(.forenoon)), ("vormittags", .partOfDay(.forenoon)),
            ("am vormittag", .partOfDay(.forenoon)),
            ("nachmittag", .partOfDay(.afternoon)), ("nachmittags", .partOfDay(.afternoon)),
            ("am nachmittag", .partOfDay(.afternoon)),
            ("abend", .partOfDay(.evening)), ("abends", .partOfDay(.evening)), ("am abend", .partOfDay(.evening)),
            ("nachts", .partOfDay(.night)), ("in der nacht", .partOfDay(.night)),
            ("heute nacht", .partOfDay(QuickAddPartOfDay.night.on(0))),
            ("morgen nacht", .partOfDay(QuickAddPartOfDay.night.on(1))),
            ("heute abend", .partOfDay(QuickAddPartOfDay.evening.on(0))),
            ("morgen abend", .partOfDay(QuickAddPartOfDay.evening.on(1))),
            ("morgen früh", .partOfDay(QuickAddPartOfDay.earlyMorning.on(1))),
            ("morgen frueh", .partOfDay(QuickAddPartOfDay.earlyMorning.on(1))),
            ("feierabend", .partOfDay(.endOfDay)), ("dienstschluss", .partOfDay(.endOfDay)),
            ("monatsende", .endOfMonth), ("ende des monats", .endOfMonth), ("ende monat", .endOfMonth), ("ende", .endOf),
            ("fällig", .deadline), ("fällig am", .deadline), ("faellig", .deadline), ("faellig am", .deadline),
            ("spätestens", .deadline), ("spätestens am", .deadline), ("bis spätestens", .deadline),
            ("mitternacht", .namedTime(hour: 0, minute: 0)),
            ("-", .rangeTo), ("bis", .untilOrTo), ("bis zum", .untilOrTo), ("bis zur", .untilOrTo),
            ("bis einschließlich", .untilOrTo),
            ("von", .from), ("vom", .from), ("zwischen", .between), ("zw.", .between), ("am", .onDate), ("den", .onDate),
            ("@", .at), ("um", .atTime), ("gegen", .atTime),
            ("ganztägig", .allDay), ("ganztaegig", .allDay), ("ganztags", .allDay), ("den ganzen tag", .allDay),
            ("für", .forDuration), ("fuer", .forDuration),
            ("jeden", .every), ("jede", .every), ("jedes", .every), ("alle", .every),
            ("täglich", .frequency(.daily, interval: 1)), ("taeglich", .frequency(.daily, interval: 1)),
            ("wöchentlich", .frequency(.weekly, interval: 1)), ("woechentlich", .frequency(.weekly, interval: 1)),
            ("zweiwöchentlich", .frequency(.weekly, interval: 2)),
            ("vierteljährlich", .frequency(.monthly, interval: 3)), ("quartalsweise", .frequency(.monthly, interval: 3)),
            ("halbjährlich", .frequency(.monthly, interval: 6)),
            ("monatlich", .frequency(.monthly, interval: 1)), ("jährlich", .frequency(.yearly, interval: 1)),
            ("jaehrlich", .frequency(.yearly, interval: 1)),
            ("werktag", .workdays(plural: false)), ("arbeitstag", .workdays(plural: false)),
            ("werktags", .workdays(plural: true)), ("wochentags", .workdays(plural: true)),
            ("mo-fr", .workdays(plural: true)), ("mo.-fr.", .workdays(plural: true)),
            ("mal", .times), ("x", .times), ("termine", .times), ("und", .and), ("&", .and), ("oder", .or),
            ("ab", .starting), ("beginnend", .starting), ("ab dem", .starting),
            ("mit", .with), ("der", .the), ("dem", .the),
            // "halb 8" is 7:30, "viertel nach 3" 3:15, "viertel vor 9" 8:45 (the bare-hour rule reads the hour).
            ("halb", .clockOffset(minutes: -30)), ("dreiviertel", .clockOffset(minutes: -15)), ("viertel nach", .clockOffset(minutes: 15)),
            ("viertel vor", .clockOffset(minutes: -15)),
            // "10 nach 8", "fünf vor 12", "zwanzig nach 4".
            ("5 nach", .clockOffset(minutes: 5)), ("10 nach", .clockOffset(minutes: 10)), ("20 nach", .clockOffset(minutes: 20)),
            ("5 vor", .clockOffset(minutes: -5)), ("10 vor", .clockOffset(minutes: -10)), ("20 vor", .clockOffset(minutes: -20)),
            ("fünf nach", .clockOffset(minutes: 5)), ("zehn nach", .clockOffset(minutes: 10)), ("zwanzig nach", .clockOffset(minutes: 20)),
            ("fünf vor", .clockOffset(minutes: -5)), ("zehn vor", .clockOffset(minutes: -10)), ("zwanzig vor", .clockOffset(minutes: -20)),
            ("in der früh", .partOfDay(.earlyMorning)), ("in der frueh", .partOfDay(.earlyMorning)),
            ("jeden morgen", .everyPart(.morning)), ("jeden vormittag", .everyPart(.forenoon)),
            ("jeden mittag", .everyPart(.noon)), ("jeden nachmittag", .everyPart(.afternoon)),
            ("jeden abend", .everyPart(.evening)), ("jede nacht", .everyPart(.night)),
            ("etwa", .approximately), ("ca.", .approximately), ("circa", .approximately), ("zirka", .approximately),
            ("ungefähr", .approximately), ("ungefaehr", .approximately), ("~", .approximately),
            ("nächste woche", .calendarWeek(1)), ("nächster woche", .calendarWeek(1)), ("naechste woche", .calendarWeek(1)),
            ("kommende woche", .calendarWeek(1)), ("kommender woche", .calendarWeek(1)),
            ("diese woche", .calendarWeek(0)), ("dieser woche", .calendarWeek(0)),
            ("übernächste woche", .calendarWeek(2)), ("übernächster woche", .calendarWeek(2)), ("uebernaechste woche", .calendarWeek(2)),
            ("am wochenende", .vagueDate), ("dieses wochenende", .vagueDate), ("nächstes wochenende", .vagueDate),
            ("übers wochenende", .vagueDate), ("nächsten monat", .monthsAhead(1)), ("diesen monat", .monthsAhead(0)),
            ("kommenden monat", .monthsAhead(1)), ("naechsten monat", .monthsAhead(1)), ("nächsten monats", .monthsAhead(1)),
            ("naechsten monats", .monthsAhead(1)), ("kommenden monats", .monthsAhead(1)), ("diesen monats", .monthsAhead(0)),
            ("dieses monats", .monthsAhead(0)), ("übernächsten monat", .monthsAhead(2)), ("übernächsten monats", .monthsAhead(2)),
            ("des nächsten monats", .monthsAhead(1)), ("des kommenden monats", .monthsAhead(1)),
            ("des übernächsten monats", .monthsAhead(2)), ("im nächsten monat", .monthsAhead(1)),
            ("im kommenden monat", .monthsAhead(1)), ("nächstem monat", .monthsAhead(1)), ("naechstem monat", .monthsAhead(1)),
            ("kommendem monat", .monthsAhead(1)),
            ("außer", .except), ("ausser", .except), ("außer am", .except), ("ausser am", .except), ("ausgenommen", .except),
            ("außer am wochenende", .exceptWeekend), ("ausser am wochenende", .exceptWeekend),
            ("außer an wochenenden", .exceptWeekend), ("ausser an wochenenden", .exceptWeekend),
            ("außer wochenends", .exceptWeekend), ("ausser wochenends", .exceptWeekend),
            ("letzten", .lastOrdinal), ("vergangenen", .lastOrdinal), ("vorigen", .lastOrdinal),
            ("im monat", .monthlyMarker(every: true)), ("jeden monats", .monthlyMarker(every: true)),
            ("des monats", .monthlyMarker(every: false)),
            ("anderthalb", .oneAndAHalf), ("eineinhalb", .oneAndAHalf),
            ("14-tägig", .frequency(.weekly, interval: 2)), ("14-taegig", .frequency(.weekly, interval: 2)),
            ("14-täglich", .frequency(.weekly, interval: 2)), ("vierzehntägig", .frequency(.weekly, interval: 2)),
            ("vierzehntaegig", .frequency(.weekly, interval: 2)),
        ]
        let weekdays = [
            ["montag", "mo"], ["dienstag", "di"], ["mittwoch", "mi"], ["donnerstag", "do"], ["freitag", "fr"],
            ["samstag", "sonnabend", "sa"], ["sonntag", "so"],
        ]
        let plurals = [
            ["montags"], ["dienstags"], ["mittwochs"], ["donnerstags"], ["freitags"], ["samstags", "sonnabends"],
            ["sonntags"],
        ]
        // "Freitagabend", "Sonntagvormittag", "Samstag Nacht": a weekday and a part of it ("Nacht" alone is a word).
        let parts: [(String, QuickAddPartOfDay)] = [
            ("morgen", .morning), ("früh", .earlyMorning), ("frueh", .earlyMorning), ("vormittag", .forenoon),
            ("mittag", .noon), ("nachmittag", .afternoon), ("abend", .evening), ("nacht", .night),
        ]
        for (index, names) in weekdays.enumerated() {
            for name in names where name.count > 2 {
                for (suffix, part) in parts { table.append((name + suffix, .weekdayPart(index + 1, part))) }
                table.append((name + " nacht", .weekdayPart(index + 1, .night)))
            }
            table += each(names, .weekday(index + 1))
            table += each(names.filter { $0.count == 2 }.map { $0 + "." }, .weekday(index + 1))
            table += each(plurals[index], .weekdays(index + 1))
        }
        let months = [
            ["januar", "jänner", "jan"], ["februar", "feb"], ["märz", "maerz", "mär", "mrz"], ["april", "apr"],
            ["mai"], ["juni", "jun"], ["juli", "jul"], ["august", "aug"], ["september", "sep", "sept"],
            ["oktober", "okt"], ["november", "nov"], ["dezember", "dez"],
        ]
        for (index, names) in months.enumerated() {
            table += each(names, .month(index + 1))
            table += each(names.filter { $0.count <= 4 && $0 != "mai" && $0 != "juni" && $0 != "juli" }.map { $0 + "." }, .month(index + 1))
        }
        table += each(["minute", "minuten", "min", "min."], .unit(.minute))
        table += each(["stunde", "stunden", "std", "std.", "h"], .unit(.hour))
        table += each(["tag", "tage", "tagen"], .unit(.day))
        table += each(["woche", "wochen"], .unit(.week))
        table += each(["kw", "kalenderwoche"], .isoWeek)
        table += each(["monat", "monate", "monaten"], .unit(.month))
        table += each(["jahr", "jahre", "jahren"], .unit(.year))
        let numbers = ["eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn", "elf", "zwölf"]
        for (index, word) in numbers.enumerated() { table.append((word, .number(index + 1))) }
        table += each(["ein", "eine", "einer", "einen"], .number(1))
        let ordinals = [
            ["ersten", "erster", "erste"], ["zweiten", "zweiter", "zweite"], ["dritten", "dritter", "dritte"],
            ["vierten", "vierter", "vierte"],
        ]
        for (index, words) in ordinals.enumerated() { table += each(words, .ordinal(index + 1)) }
        return table + germanHolidays
    }()
}
