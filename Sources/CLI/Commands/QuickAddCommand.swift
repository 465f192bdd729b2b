import CalendarBridge
import Foundation
import TimeZones

/// `calbridge quick-add`: one line of text to an event; `--dry-run` shows the interpretation without an account.
package enum QuickAddCommand: Command {
    /// The options and arguments, declared once: the spec, help and parser read these, and so does `run`.
    package enum Options {
        package static let dryRun = Flag(
            "dry-run", "Only print the event the run would write; writes nothing (with a calendar it reads the calendar's zone).")
        package static let now = Option<String>("now", "ISO8601", "Reference time, e.g. 2026-03-10T09:00:00Z (default: the current time).")
        package static let tz = ZoneOptions.option(
            "Zone to read the text in (default: the calendar's zone; without a calendar $TZ, else the system zone)."
        )
        package static let lang = Option.choice(
            "lang", "en|de", "Language of the text (default: from $LC_ALL or $LANG; de_* is German).",
            among: QuickAddLocale.all.map(\.identifier))
        package static let dateOrder = Option.choice(
            "date-order", "mdy|dmy", "Order of numeric dates like 12/5 (default: mdy for en_US, else dmy).",
            among: QuickAddDateOrder.allCases.map(\.rawValue))
        package static let parser = Option.choice(
            "parser", "auto|local|google",
            "Who reads the text: local is calbridge, google is Google's quick add (Google calendars only); auto (default) lets Google read English on Google calendars unless --lang de, --tz, --now or --date-order ask for calbridge.",
            among: ParserChoice.allCases.map(\.rawValue))
        package static let allowPast = Flag("allow-past", "Create the event even when it starts before now (otherwise refused).")
        package static let yes = Flag("yes", "Create the event even when the reading has doubts (otherwise refused; --dry-run shows them).")
        package static let format = OutputFormat.option("table|json|tsv", "Output format (default table).")
        package static let noHeader = OutputFormat.noHeader
        package static let calendarRef = OptionalArgument(
            "CALENDAR_REF", "account:calendar to create the event in (optional with --dry-run)")
        package static let text = OptionalArgument("TEXT", "The event in words, quoted")
    }

    /// `--parser`.
    package enum ParserChoice: String, CaseIterable, Sendable {
        case auto, local, google
    }

    package static let path = ["quick-add"]

    package static let spec = CommandSpec(
        path,
        abstract: "Create an event from one line of text, or preview it with --dry-run.",
        discussion: """
            Reads dates, times, ranges, durations, parts of the day, deadlines ("by Friday"), zones, a location
            ("at ..." / "@ ...") and repeat rules ("every Monday", "until ...", "for N times"); the rest is the
            title. docs/quick-add.md lists every rule. The text is read in the calendar's zone (the mailbox's
            for Outlook, the calendar's own for Google) unless --tz names another, in --dry-run and in the real
            run alike: --dry-run prints exactly the event the run would write. An event that would start in
            the past is refused unless --allow-past. When calbridge is unsure of its reading (a number or date
            word left in the title, an hour the default rule read, a day/month order that reads two ways, ...) the
            result lists its doubts and the run refuses to create it unless --yes. On Google calendars Google's own quick add reads English
            text (--parser google); --parser local, --lang de, --tz, --now or --date-order make calbridge read
            it. Every result names the parser and shows the repeat rule; when Google drops a repeat the text
            asks for, the command says so and exits 4. --format tsv prints one header line and one row:
            calendar id title start end all_day time_zone location recurrence repeat past parser read_in link
            doubts (calendar, id and link empty in a dry run).

            Examples:
              calbridge quick-add work:Calendar "Lunch with Ann tomorrow 1pm at Cafe Luna"
              calbridge quick-add work:Calendar --dry-run "Standup every weekday 9:30"
              calbridge quick-add --dry-run --lang de "Zahnarzt morgen 15 Uhr"
            """,
        options: [
            Options.dryRun, Options.now, Options.tz, Options.lang, Options.dateOrder, Options.parser, Options.allowPast, Options.yes,
            Options.format,
            Options.noHeader,
        ],
        positionals: [Options.calendarRef, Options.text]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        // One argument is TEXT, two are CALENDAR_REF and TEXT (the parser fills the rightmost first).
        guard let text = arguments[Options.text] else {
            throw UsageError(
                "missing TEXT: quote the event, e.g. calbridge quick-add --dry-run \"Dentist tomorrow 3pm\"", command: spec.name)
        }
        let dryRun = arguments[Options.dryRun]
        let format = (arguments[Options.format] ?? .table)
        let header = !arguments[Options.noHeader]
        let choice = arguments[Options.parser].flatMap(ParserChoice.init(rawValue:)) ?? .auto
        let settings = try languageSettings(arguments, context.environment)
        guard let reference = arguments[Options.calendarRef] else {
            guard dryRun else {
                throw UsageError(
                    "creating the event needs a CALENDAR_REF before the text (calbridge quick-add work:Calendar \"\(text)\"); use --dry-run to preview it",
                    command: spec.name)
            }
            guard choice != .google else {
                throw UsageError(
                    "--parser google needs a Google calendar (calbridge quick-add ann:Family --parser google \"\(text)\")",
                    command: spec.name)
            }
            let zone = try userZone(arguments, context.environment)
            let source = arguments[Options.tz] != nil ? "--tz" : ((context.environment["TZ"] ?? "").isEmpty ? "the system zone" : "$TZ")
            let now = try referenceTime(arguments[Options.now], zone: zone) ?? context.now()
            let result = try parser(settings).parse(text, now: now, zone: zone)
            try show(result, readIn: "\(zone.identifier) (\(source))", created: nil, format: format, header: header, context: context)
            return .success
        }

        let accounts = AccountProviders(context: context, verbose: arguments[CommonOptions.verbose])
        let target = try await CalendarTarget.open(reference, accounts: accounts)
        try target.requireWritable()
        let (zone, source) = try await readingZone(arguments, target: target, context: context)
        let isGoogle = target.provider.capabilities.serverQuickAdd
        let localOnly = localOnlyOptions(arguments, settings)
        if choice == .google {
            guard isGoogle else {
                throw UsageError("--parser google works on Google calendars only; \(target.label) is read by calbridge", command: spec.name)
            }
            if let option = localOnly.first {
                throw UsageError(
                    "Google's quick add reads English at the current time in the calendar's zone; it cannot take \(option) (use --parser local)",
                    command: spec.name)
            }
            if dryRun {
                throw UsageError(
                    "Google's quick add cannot be previewed without creating the event; use --parser local to preview (and create) calbridge's reading",
                    command: spec.name)
            }
        }
        let useGoogle = isGoogle && (choice == .google || (choice == .auto && localOnly.isEmpty && !dryRun))
        let readIn = "\(zone.identifier) (\(source))"
        let now = try referenceTime(arguments[Options.now], zone: zone) ?? context.now()

        if useGoogle {
            let created = try await target.provider.quickAdd(text: text, in: target.calendar.id)
            let view = QuickAddResult(
                created: created, parser: "google", fallbackZone: zone.identifier, now: now, isSameZone: WindowsZones.areSameZone)
            try show(view, readIn: readIn, created: (created, target), format: format, header: header, context: context)
            // Google's answer is shown; calbridge's grammar only checks that a repeat asked for was kept. The
            // words are looked for even where calbridge's parser refuses the text (no title, a conflict), so a
            // text calbridge cannot read does not let a dropped repeat pass unnoticed.
            guard view.recurrence.isEmpty, let asked = askedRepeat(text, settings: settings, now: now, zone: zone) else {
                return .success
            }
            context.printError(
                "calbridge quick-add: Google's quick add dropped the repeat the text asks for (\(asked)) and created one event; "
                    + "delete it (\(created.id)) and run again with --parser local to create the series")
            return .partial
        }

        let result = try parser(settings).parse(text, now: now, zone: zone)
        if dryRun {
            if isGoogle, choice == .auto, localOnly.isEmpty {
                context.printError(
                    "note: this is calbridge's reading; without --dry-run Google's quick add reads the text (add --parser local to create exactly this event)"
                )
            }
            try show(result, readIn: readIn, created: nil, format: format, header: header, context: context)
            return .success
        }
        if result.isPast && !arguments[Options.allowPast] {
            // In the text's language, as the parser's own refusals are.
            throw UsageError(
                settings.locale.identifier == "de"
                    ? "„\(text)“ beginnt in der Vergangenheit (\(result.start.description)); nenne einen späteren Tag oder gib --allow-past an, um den Termin trotzdem anzulegen"
                    : "\"\(text)\" starts in the past (\(result.start.description)); name a later day, or add --allow-past to create it anyway",
                command: spec.name)
        }
        if !result.doubts.isEmpty && !arguments[Options.yes] {
            let reasons = result.doubts.map(\.reason).joined(separator: "; ")
            throw UsageError(
                settings.locale.identifier == "de"
                    ? "„\(text)“ ist vielleicht nicht so gemeint, wie es gelesen wurde: \(reasons); prüf es mit --dry-run, formulier es um oder gib --yes an, um es so anzulegen"
                    : "\"\(text)\" may not be read as meant: \(reasons); check it with --dry-run, reword it, or add --yes to create it as read",
                command: spec.name)
        }
        let created = try await target.provider.createEvent(result.event, in: target.calendar.id)
        var view = QuickAddResult(
            created: created, parser: "calbridge", fallbackZone: result.timeZone, now: now, isSameZone: WindowsZones.areSameZone)
        // The doubts the user accepted with --yes stay on the record of what was created.
        view.doubts = result.doubts
        try show(view, readIn: readIn, created: (created, target), format: format, header: header, context: context)
        return .success
    }

    /// The repeat `text` asks for, in words ("every Monday at 18:00"), else the words that ask for it ("every
    /// Monday") when calbridge's parser refuses the text as a whole; nil when it asks for none.
    static func askedRepeat(
        _ text: String, settings: (locale: QuickAddLocale, dateOrder: QuickAddDateOrder), now: Date, zone: QuickAddZone
    ) -> String? {
        let reader = parser(settings)
        if let reading = try? reader.parse(text, now: now, zone: zone) {
            guard !reading.recurrence.isEmpty else { return nil }
            return reading.repeatDescription ?? reading.recurrence[0]
        }
        return reader.repeatFragment(in: text).map { "\"\($0)\"" }
    }

    /// The options that only calbridge's parser takes, as the user wrote them (empty: Google may read it).
    static func localOnlyOptions(_ arguments: ParsedArguments, _ settings: (locale: QuickAddLocale, dateOrder: QuickAddDateOrder))
        -> [String]
    {
        var options: [String] = []
        if settings.locale.identifier != "en" { options.append("--lang \(settings.locale.identifier)") }
        if arguments[Options.tz] != nil { options.append("--tz") }
        if arguments[Options.now] != nil { options.append("--now") }
        if arguments[Options.dateOrder] != nil { options.append("--date-order") }
        return options
    }

    /// The zone the text is read in, and where it came from: `--tz`, else the calendar's (Google: the
    /// calendar's own zone; Outlook: the mailbox's), else the user's.
    static func readingZone(_ arguments: ParsedArguments, target: CalendarTarget, context: CommandContext) async throws
        -> (QuickAddZone, String)
    {
        if arguments[Options.tz] != nil { return (try userZone(arguments, context.environment), "--tz") }
        if let own = try await target.readingZone(), let zone = QuickAddZone(identifier: own.name) { return (zone, own.source) }
        return (try userZone(arguments, context.environment), "your zone: the calendar states none")
    }

    /// Prints a reading (and, after a write, the created event's calendar, id and link) as a table, JSON or TSV.
    /// The dry run and the real run print the same fields, so that the preview can be compared with the result.
    static func show(
        _ result: QuickAddResult, readIn: String, created: (Event, CalendarTarget)?, format: OutputFormat, header: Bool = true,
        context: CommandContext
    ) throws {
        switch format {
        case .tsv:
            context.printTable(tsv(result, readIn: readIn, created: created), format: .tsv, header: header)
        case .json:
            let data = try JSONEncoder().encode(result)
            guard var object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { return }
            object["readIn"] = readIn
            if let (event, target) = created {
                object["id"] = event.id
                object["calendar"] = target.label
                if let link = event.webURL { object["link"] = link.absoluteString }
            }
            context.print(try JSONText.render(object))
        default:
            var rows = table(result, readIn: readIn).rows
            if let (event, target) = created {
                rows.insert(["calendar", target.label], at: 0)
                rows.append(["id", event.id])
            }
            context.printTable(Table(columns: table(result, readIn: readIn).columns, rows: rows), format: .table, header: header)
            // The link is opened or copied whole: a row under the table, in its columns, that the width never cuts.
            if let link = created?.0.webURL {
                let width = (rows.map { $0.first?.count ?? 0 } + ["link".count]).max() ?? 0
                context.print("link".padding(toLength: width + 2, withPad: " ", startingAt: 0) + link.absoluteString)
            }
            // A reason is a sentence that a table cell would cut with "…": each is printed whole below the table,
            // wrapped to the terminal's width (unwrapped into a pipe).
            for doubt in result.doubts {
                let line = "doubt: \(doubt.reason)"
                guard let width = context.tableWidth else {
                    context.print(line)
                    continue
                }
                for part in TextWrap.lines(line, width: width, indent: "       ") { context.print(part) }
            }
        }
    }

    /// The parser for the language settings, with Windows zone names ("Pacific Standard Time") read through CLDR.
    static func parser(_ settings: (locale: QuickAddLocale, dateOrder: QuickAddDateOrder)) -> QuickAddParser {
        QuickAddParser(
            options: QuickAddOptions(
                locale: settings.locale, dateOrder: settings.dateOrder,
                windowsZoneResolver: { WindowsZones.ianaIdentifier(forWindowsName: $0) }))
    }

    /// The TSV row: the JSON's values under stable column keys (docs/quick-add.md).
    static func tsv(_ result: QuickAddResult, readIn: String, created: (Event, CalendarTarget)?) -> Table {
        let columns = [
            "calendar", "id", "title", "start", "end", "all_day", "time_zone", "location", "recurrence", "repeat", "past", "parser",
            "read_in", "link", "doubts",
        ]
        let row = [
            created?.1.label ?? "", created?.0.id ?? "", result.title, result.start.description, result.end.description,
            result.isAllDay ? "true" : "false", result.timeZone, result.location ?? "", result.recurrence.joined(separator: " "),
            result.repeatDescription ?? "", result.isPast ? "true" : "false", result.parser, readIn,
            created?.0.webURL?.absoluteString ?? "", result.doubts.map(\.reason).joined(separator: "; "),
        ]
        return Table(columns: columns.map { Table.Column($0, $0.uppercased()) }, rows: [row])
    }

    static func table(_ result: QuickAddResult, readIn: String) -> Table {
        let repeats =
            result.recurrence.isEmpty
            ? "no" : "\(result.repeatDescription ?? "") (\(result.recurrence.joined(separator: " ")))"
        // The codes here; each reason whole below the table (`show`).
        let codes = result.doubts.map(\.code.rawValue).joined(separator: ", ")
        let doubts = result.doubts.isEmpty ? "none" : "\(result.doubts.count), reasons below: \(codes)"
        return Table(
            columns: [Table.Column("field", "FIELD", shrinkable: false), Table.Column("value", "VALUE")],
            rows: [
                ["title", result.title],
                ["start", result.start.description],
                ["end", result.end.description + (result.isAllDay ? " (exclusive)" : "")],
                ["all day", result.isAllDay ? "yes" : "no"],
                ["time zone", result.timeZone],
                ["location", result.location ?? "-"],
                ["repeats", repeats],
                ["past", result.isPast ? "yes: it starts before now" : "no"],
                ["doubts", doubts],
                ["read by", "\(result.parser), in \(readIn)"],
            ])
    }

    /// `--tz`, else `$TZ`, else the system zone (`ZoneOptions.userZone`), as the parser's zone.
    static func userZone(_ arguments: ParsedArguments, _ environment: [String: String]) throws -> QuickAddZone {
        let (name, zone) = try ZoneOptions.userZone(arguments[Options.tz], environment: environment, command: spec.name)
        return QuickAddZone(identifier: name) ?? QuickAddZone(identifier: zone.identifier) ?? QuickAddZone(identifier: "UTC")!
    }

    /// The locale and numeric date order from the options, else `$LC_ALL` / `$LANG`.
    static func languageSettings(_ arguments: ParsedArguments, _ environment: [String: String]) throws
        -> (locale: QuickAddLocale, dateOrder: QuickAddDateOrder)
    {
        let posix = [environment["LC_ALL"], environment["LANG"]].compactMap { $0 }.first { !$0.isEmpty } ?? ""
        let language: String
        if let chosen = arguments[Options.lang] {
            language = chosen
        } else {
            language = posix.hasPrefix("de") ? "de" : "en"
        }
        let locale = QuickAddLocale.named(language)!
        if let order = arguments[Options.dateOrder] {
            return (locale, QuickAddDateOrder(rawValue: order)!)
        }
        // de_DE.UTF-8 -> region DE; a locale without a region uses the language's own default.
        let name = posix.split(separator: ".").first.map(String.init) ?? ""
        let parts = name.split(separator: "_")
        if parts.count >= 2 { return (locale, parts[1].hasPrefix("US") ? .mdy : .dmy) }
        return (locale, locale.defaultDateOrder)
    }

    /// `--now`: `YYYY-MM-DDTHH:MM[:SS][.fff](Z|+HH:MM)`; without an offset it is a wall time in the user's zone.
    static func referenceTime(_ text: String?, zone: QuickAddZone) throws -> Date? {
        guard let text else { return nil }
        let bad = UsageError("--now takes an ISO 8601 time such as 2026-03-10T09:00:00Z, not '\(text)'", command: spec.name)
        let chars = Array(text.utf8)
        func number(_ from: Int, _ length: Int) -> Int? {
            guard from + length <= chars.count else { return nil }
            var value = 0
            for c in chars[from..<(from + length)] {
                guard c >= 48 && c <= 57 else { return nil }
                value = value * 10 + Int(c - 48)
            }
            return value
        }
        guard chars.count >= 16, let y = number(0, 4), chars[4] == 45, let mo = number(5, 2), chars[7] == 45,
            let d = number(8, 2), chars[10] == 84 || chars[10] == 116 || chars[10] == 32, let h = number(11, 2),
            chars[13] == 58, let mi = number(14, 2), QuickAddDate.isValid(year: y, month: mo, day: d), h < 24, mi < 60
        else { throw bad }
        var index = 16
        var second = 0
        if index < chars.count, chars[index] == 58 {
            guard let s = number(index + 1, 2), s < 60 else { throw bad }
            second = s
            index += 3
            if index < chars.count, chars[index] == 46 {
                index += 1
                while index < chars.count, chars[index] >= 48, chars[index] <= 57 { index += 1 }
            }
        }
        let date = QuickAddDate(year: y, month: mo, day: d)
        let local = date.dayNumber * 86_400 + h * 3600 + mi * 60 + second
        if index == chars.count {
            return Date(timeIntervalSince1970: TimeInterval(zone.instant(date, hour: h, minute: mi, second: second)))
        }
        if chars[index] == 90 || chars[index] == 122, index + 1 == chars.count {
            return Date(timeIntervalSince1970: TimeInterval(local))
        }
        guard chars[index] == 43 || chars[index] == 45, let oh = number(index + 1, 2) else { throw bad }
        var om = 0
        if index + 3 < chars.count {
            guard chars[index + 3] == 58, let minutes = number(index + 4, 2), index + 6 == chars.count else { throw bad }
            om = minutes
        } else if index + 3 != chars.count {
            throw bad
        }
        let offset = (oh * 3600 + om * 60) * (chars[index] == 45 ? -1 : 1)
        return Date(timeIntervalSince1970: TimeInterval(local - offset))
    }
}
