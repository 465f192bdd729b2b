import CalendarBridge
import Foundation
import TimeZones

/// `calbridge quick-add`: one line of text to an event; `--dry-run` shows the interpretation without an account.
package enum QuickAddCommand: Command {
    /// The options and arguments, declared once: the spec, help and parser read these, and so does `run`.
    package enum Options {
        package static let dryRun = Flag("dry-run", "Only print how the text is understood (in --tz); needs no account.")
        package static let now = Option<String>("now", "ISO8601", "Reference time, e.g. 2026-03-10T09:00:00Z (default: the current time).")
        package static let tz = Option<String>("tz", "IANA", "Your time zone (default: $TZ, else the system zone).")
        package static let lang = Option.choice("lang", "en|de", "Language of the text (default: from $LC_ALL or $LANG; de_* is German).", among: QuickAddLocale.all.map(\.identifier))
        package static let dateOrder = Option.choice("date-order", "mdy|dmy", "Order of numeric dates like 12/5 (default: mdy for en_US, else dmy).", among: QuickAddDateOrder.allCases.map(\.rawValue))
        package static let format = OutputFormat.option("table|json", "Output format (default table).", allowed: [.table, .json])
        package static let calendarRef = OptionalArgument("CALENDAR_REF", "account:calendar to create the event in (not needed with --dry-run)")
        package static let text = OptionalArgument("TEXT", "The event in words, quoted")
    }

    package static let path = ["quick-add"]

    package static let spec = CommandSpec(
        path,
        abstract: "Create an event from one line of text, or preview it with --dry-run.",
        discussion: """
            Reads dates, times, ranges, durations, zones, a location ("at ..." / "@ ...") and repeat rules
            ("every Monday", "until ...", "for N times"); the rest is the title. The README's "Quick add"
            section lists every rule. With a calendar, Google calendars use Google's own quick add; other
            calendars (Outlook) are read by calbridge in the calendar owner's zone (or --tz) and the event is
            created from that. --dry-run shows calbridge's reading in --tz and sends nothing. Examples:
              calbridge quick-add work:Calendar "Lunch with Ann tomorrow 1pm at Cafe Luna"
              calbridge quick-add --dry-run "Lunch with Ann tomorrow 1pm at Cafe Luna"
              calbridge quick-add --dry-run --lang de "Zahnarzt morgen 15 Uhr"
            """,
        options: [Options.dryRun, Options.now, Options.tz, Options.lang, Options.dateOrder, Options.format],
        positionals: [Options.calendarRef, Options.text]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        // One argument is TEXT, two are CALENDAR_REF and TEXT (the parser fills the rightmost first).
        guard let text = arguments[Options.text] else {
            throw UsageError("missing TEXT: quote the event, e.g. calbridge quick-add --dry-run \"Dentist tomorrow 3pm\"", command: spec.name)
        }
        guard arguments[Options.dryRun] else {
            guard let reference = arguments[Options.calendarRef] else {
                throw UsageError(
                    "creating the event needs a CALENDAR_REF before the text (calbridge quick-add work:Calendar \"\(text)\"); use --dry-run to preview it",
                    command: spec.name)
            }
            return try await create(text, in: reference, arguments: arguments, context: context)
        }
        let format = (arguments[Options.format] ?? .table)
        let zone = try userZone(arguments, context.environment)
        let settings = try languageSettings(arguments, context.environment)
        let now = try referenceTime(arguments[Options.now], zone: zone) ?? context.now()
        let result = try parser(settings).parse(text, now: now, zone: zone)
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            context.print(String(decoding: try encoder.encode(result), as: UTF8.self))
        default:
            context.print(table(result).aligned())
        }
        return .success
    }

    /// Creates the event: Google parses the text itself (quickAdd); elsewhere (Outlook) calbridge's parser
    /// reads it in the calendar owner's zone (or --tz) and the event is created from the result.
    static func create(_ text: String, in ref: String, arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let format = (arguments[Options.format] ?? .table)
        let settings = try languageSettings(arguments, context.environment)
        let chosenZone = try arguments[Options.tz].map { _ in try userZone(arguments, context.environment) }
        let display = ZoneOptions.localZone(context.environment)
        let accounts = AccountProviders(context: context, verbose: arguments[CommonOptions.verbose])
        let target = try await CalendarTarget.open(ref, accounts: accounts)
        try target.requireWritable()

        let created: Event
        if target.provider.capabilities.serverQuickAdd {
            created = try await target.provider.quickAdd(text: text, in: target.calendar.id)
            if format == .table { context.print("Created by the provider's own quick add (\(target.calendar.provider)):") }
        } else {
            let owner = try await target.ownerZone()
            let zone = try chosenZone ?? owner.flatMap { QuickAddZone(identifier: $0.identifier) } ?? userZone(arguments, context.environment)
            let now = try referenceTime(arguments[Options.now], zone: zone) ?? context.now()
            let result = try parser(settings).parse(text, now: now, zone: zone)
            created = try await target.provider.createEvent(result.event, in: target.calendar.id)
            if format == .table { context.print("Read by calbridge in \(zone.identifier) and created:") }
        }
        try AddCommand.printCreated(created, target: target, format: format, zone: display, context: context)
        return .success
    }

    /// The parser for the language settings, with Windows zone names ("Pacific Standard Time") read through CLDR.
    static func parser(_ settings: (locale: QuickAddLocale, dateOrder: QuickAddDateOrder)) -> QuickAddParser {
        QuickAddParser(options: QuickAddOptions(
            locale: settings.locale, dateOrder: settings.dateOrder,
            windowsZoneResolver: { WindowsZones.ianaIdentifier(forWindowsName: $0) }))
    }

    static func table(_ result: QuickAddResult) -> Table {
        Table(
            columns: [Table.Column("field", "FIELD", shrinkable: false), Table.Column("value", "VALUE")],
            rows: [
                ["title", result.title],
                ["start", result.start.description],
                ["end", result.end.description + (result.isAllDay ? " (exclusive)" : "")],
                ["all day", result.isAllDay ? "yes" : "no"],
                ["time zone", result.timeZone],
                ["location", result.location ?? "-"],
                ["repeats", result.recurrence.isEmpty ? "no" : result.recurrence.joined(separator: " ")],
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
