import CLI
import CalendarBridge
import Foundation
import ICalendar

/// `calbridge-bench ics`: reading and expanding a generated iCalendar file (10,000 events, 500 of them series,
/// over two years), calbridge's CPU against Python's icalendar + recurring-ical-events doing the same; then
/// importing the file into the sandbox beside a copy of the same events between the sandbox's two services.
package enum BenchICSCommand: Command {
    package enum Options {
        package static let events = Option.int("events", "N", "Events in the file (default 10000).", in: 10...200_000)
        package static let series = Option.int("series", "S", "Of which series (default 500).", in: 0...200_000)
        package static let runs = Option.int("runs", "K", "Timed readings on each side; the median is reported (default 3).", in: 1...50)
        package static let latencyMs = Option.int("latency-ms", "L", "API latency of the sandbox, ms (default 20).", in: 0...10_000)
        package static let python = Option<String>(
            "python", "PATH",
            "Python with icalendar and recurring-ical-events (default: .build/test-python/bin/python3 of this source tree).")
        package static let noImport = Flag("no-import", "Measure the reading only, not the import into the sandbox.")
        package static let keep = Option<String>("keep", "FILE", "Also write the generated file to FILE.")
        package static let clientProcess = Flag(
            "client-process",
            "Run each import and copy as a child 'calbridge' (the one beside this program) and report its own CPU and peak memory.")
    }

    package static let path = ["ics"]

    package static let spec = CommandSpec(
        path,
        abstract: "Time reading and expanding a 10,000-event .ics file (goal: 10x less CPU than Python's icalendar), and importing it.",
        discussion: """
            Generates a file of --events events (default 10000), --series of them series (default 500: weekly, \
            daily, monthly by day and by weekday, yearly; some with EXDATEs and ends), in seven zones and as \
            all-day events, over 2026 and 2027. calbridge reads it as `import` does (libical) and expands every \
            series over the two years (the file provider); the oracle, Python's icalendar and \
            recurring-ical-events, parses and expands the same file over the same window. Each side's CPU time \
            (its own process's user + system time, around the work only: no start-up or imports) is the median \
            of --runs; both sides' occurrence counts are printed and must agree. Then, unless --no-import: the \
            sandbox with --latency-ms on every API answer, the file imported into google:Family and the same \
            events copied from an Outlook calendar (put there by the sandbox's seed, not through Graph) into \
            google:primary: wall time and API requests of each, and with --client-process calbridge's own CPU.
            """,
        options: [
            Options.events, Options.series, Options.runs, Options.latencyMs, Options.python, Options.noImport, Options.keep,
            Options.clientProcess,
        ],
        program: "calbridge-bench"
    )

    static let first = LocalDate(year: 2026, month: 1, day: 1)!
    static let last = LocalDate(year: 2027, month: 12, day: 31)!

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let count = arguments[Options.events] ?? 10_000
        let series = min(arguments[Options.series] ?? 500, count)
        let runs = arguments[Options.runs] ?? 3
        let events = BenchICSFile(count: count, series: series, first: first, last: last).events()
        let text = try ICalendarWriter.write(events, name: "bench", stamp: Date(timeIntervalSince1970: 1_767_225_600))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("calbridge-bench-ics-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("bench.ics")
        try Data(text.utf8).write(to: file)
        if let keep = arguments[Options.keep] { try Data(text.utf8).write(to: URL(fileURLWithPath: keep)) }
        context.print(
            "ics: \(count) events (\(series) series) over \(first)...\(last), \(text.utf8.count / 1024) KB, read and expanded \(runs) times on each side"
        )

        // calbridge: the file read and every series expanded over the two years, as the file provider lists them.
        var ours: [Double] = []
        var occurrences = 0
        for _ in 0..<runs {
            let before = BenchChildUsage.current()?.cpuSeconds ?? 0
            occurrences = try await expand(text)
            ours.append((BenchChildUsage.current()?.cpuSeconds ?? 0) - before)
        }
        context.print("  calbridge (libical): \(occurrences) occurrences, CPU median \(String(format: "%.3f", ours.median)) s")

        let python = URL(
            fileURLWithPath: arguments[Options.python] ?? sourceRoot().appendingPathComponent(".build/test-python/bin/python3").path)
        if FileManager.default.isExecutableFile(atPath: python.path) {
            let script = sourceRoot().appendingPathComponent("Tests/ICalendarTests/Oracle/ics_expand_bench.py")
            let output = try runPython(python, [script.path, file.path, first.description, last.adding(days: 1).description, "\(runs)"])
            guard let object = output.flatMap({ try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }),
                let theirs = object["cpuSeconds"] as? [Double], let counted = object["occurrences"] as? Int
            else { throw InputError("the Python oracle (\(script.path)) failed", exitCode: .failure) }
            let ratio = ours.median > 0 ? theirs.median / ours.median : 0
            context.print(
                "  Python (icalendar + recurring-ical-events): \(counted) occurrences, CPU median \(String(format: "%.3f", theirs.median)) s"
            )
            context.print(
                "  calbridge uses \(String(format: "%.1f", ratio))x less CPU (goal >= 10x: \(ratio >= 10 ? "met" : "NOT met")); occurrence counts \(counted == occurrences ? "agree" : "DIFFER")"
            )
        } else {
            context.print("  Python: not compared (no \(python.path); .ci/install-deps makes it, or pass --python)")
        }
        if !arguments[Options.noImport] {
            try await BenchICSImport.measure(
                file: file, events: events, latency: arguments[Options.latencyMs] ?? 20, clientProcess: arguments[Options.clientProcess],
                context: context)
        }
        return .success
    }

    /// Reads `text` as `import` does and lists every occurrence in the two years; returns how many.
    static func expand(_ text: String) async throws -> Int {
        let file = try ICalendarReader.read(text, floatingZone: TimeZone(identifier: "UTC")!)
        let provider = ICalendarFileProvider(file: file, account: "bench")
        let utc = TimeZone(secondsFromGMT: 0)!
        let range = TimeRange(start: first.startInstant(in: utc), end: last.adding(days: 1).startInstant(in: utc))
        return try await provider.listEvents(calendarID: ICalendarFileProvider.calendarID, range: range, expand: true).count
    }

    /// The script's standard output; nil when it failed (its warnings and errors go to this stderr).
    static func runPython(_ python: URL, _ arguments: [String]) throws -> Data? {
        let process = Process()
        process.executableURL = python
        process.arguments = ["-W", "ignore"] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? data : nil
    }

    /// The package root of this source tree.
    static func sourceRoot() -> URL { QuickAddBenchCommand.defaultCorpus().deletingLastPathComponent().deletingLastPathComponent() }
}

/// The generated file's events: a deterministic mix over `first`...`last`.
struct BenchICSFile {
    let count: Int
    let series: Int
    let first: LocalDate
    let last: LocalDate

    static let zones = BenchCopySeed.zones
    static let weekdays = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]

    func events() -> [Event] {
        let days = first.days(to: last) + 1
        // Series spread evenly through the file; singles fill the rest.
        let every = series > 0 ? max(1, count / series) : Int.max
        var made: [Event] = []
        made.reserveCapacity(count)
        var seriesMade = 0
        for index in 0..<count {
            let isSeries = seriesMade < series && index % every == 0
            if isSeries { seriesMade += 1 }
            var event = single(index, day: first.adding(days: (index * 7919) % (isSeries ? min(days, 300) : days)))
            if isSeries { repeatEvent(&event, index: index) }
            event.id = "bench-\(index)"
            event.iCalUID = "bench-\(index)@calbridge.invalid"
            made.append(event)
        }
        return made
    }

    func single(_ index: Int, day: LocalDate) -> Event {
        if index % 20 == 7 {
            return Event(
                title: "Day \(index)", start: .allDay(date: day), end: .allDay(date: day.adding(days: 1 + index % 3)), showAs: .free)
        }
        let zoneName = Self.zones[index % Self.zones.count]
        let zone = TimeZone(identifier: zoneName)!
        let start = LocalDateTime(date: day, hour: 7 + index % 11, minute: (index % 4) * 15).instant(in: zone)
        var event = Event(
            title: "Meeting \(index)", location: "Room \(index % 17)", start: .timed(instant: start, zone: zoneName),
            end: .timed(instant: start.addingTimeInterval(Double(30 + (index % 3) * 30) * 60), zone: zoneName),
            reminders: [Reminder(minutesBefore: 10)])
        event.body = .text("Agenda for \(index)")
        return event
    }

    /// Makes the event a series: one of five rules by index, a third of them ended, every fourth with two EXDATEs.
    func repeatEvent(_ event: inout Event, index: Int) {
        let local = event.start.localText.flatMap(LocalDateTime.init) ?? LocalDateTime(date: first)
        let weekday = Self.weekdays[
            Calendar(identifier: .gregorian).component(.weekday, from: local.date.startInstant(in: TimeZone(secondsFromGMT: 0)!)) - 1]
        var rule: String
        switch index % 5 {
        case 0: rule = "FREQ=WEEKLY;BYDAY=\(weekday)"
        case 1: rule = "FREQ=DAILY;INTERVAL=\(1 + index % 3);COUNT=\(60 + index % 200)"
        case 2: rule = "FREQ=MONTHLY;BYMONTHDAY=\(min(local.date.day, 28))"
        case 3: rule = "FREQ=MONTHLY;BYDAY=2\(weekday)"
        default: rule = "FREQ=YEARLY"
        }
        if index % 3 == 0, !rule.contains("COUNT") { rule += ";UNTIL=20271001T000000Z" }
        var lines = ["RRULE:" + rule]
        if index % 4 == 0, case .timed(let instant, let zone) = event.start {
            for weeks in [1, 3] {
                let excluded = RecurrenceExpansionText.local(instant.addingTimeInterval(Double(weeks) * 7 * 86_400), zone: zone)
                lines.append("EXDATE;TZID=\(zone):\(excluded)")
            }
        }
        event.title = "Series \(index)"
        event.recurrence = Recurrence(lines: lines)
    }
}

/// `20260105T090000`: an instant on `zone`'s clock, as EXDATE values are written.
enum RecurrenceExpansionText {
    static func local(_ instant: Date, zone: String) -> String {
        let local = LocalDateTime(instant: instant, in: TimeZone(identifier: zone) ?? TimeZone(secondsFromGMT: 0)!)
        return local.format(fractionDigits: 0).filter { $0.isNumber }.enumerated().map {
            $0.offset == 8 ? "T\($0.element)" : "\($0.element)"
        }
        .joined()
    }
}
