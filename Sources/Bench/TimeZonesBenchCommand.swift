import CLI
import CalbridgeSupport
import Foundation
import TimeZones

/// `calbridge-bench timezones`: lookup throughput over the compiled table, and the binary's start-up time.
package enum TimeZonesBenchCommand: Command {
    /// The options and arguments, declared once: the spec, help and parser read these, and so does `run`.
    package enum Options {
        package static let lookups = Option.int("lookups", "N", "How many lookups (default 1000000).", in: 1...1_000_000_000)
        package static let runs = Option.int("runs", "N", "How many process starts to time (default 20).", in: 1...1000)
        package static let custom = Option.int("custom", "N", "How many custom-zone searches of each kind to time (default 50).", in: 1...100_000)
    }

    package static let path = ["timezones"]

    package static let spec = CommandSpec(
        path,
        abstract: "Benchmark Windows <-> IANA lookups and the start-up time of 'calbridge timezones'.",
        discussion: """
            Runs LOOKUPS mixed lookups (Windows names in several spellings and territories, IANA ids and their \
            tz database aliases, Graph and legacy names), then starts this binary RUNS times as \
            'calbridge timezones "Pacific Standard Time"' and reports the median wall time. Also times the \
            search for the IANA zone equal to a custom (tzone://Microsoft/Custom) zone definition, for a definition \
            that matches early, one that matches late and one that matches nothing (every candidate tried).
            """,
        options: [Options.lookups, Options.runs, Options.custom],
        program: "calbridge-bench"
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let lookups = arguments[Options.lookups] ?? 1_000_000
        let runs = arguments[Options.runs] ?? 20
        let customSearches = arguments[Options.custom] ?? 50

        let queries = mixedQueries()
        // Build the index (and read the tz links) before timing, as a long-running process would have.
        _ = WindowsZones.windowsName(forIANA: "Asia/Kolkata")
        let clock = ContinuousClock()
        var hits = 0
        let elapsed = clock.measure {
            for i in 0..<lookups {
                switch queries[i % queries.count] {
                case .windows(let name, let territory):
                    if WindowsZones.ianaIdentifier(forWindowsName: name, territory: territory) != nil { hits += 1 }
                case .iana(let id):
                    if WindowsZones.windowsName(forIANA: id) != nil { hits += 1 }
                }
            }
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        context.print("lookups:        \(lookups) mixed over \(queries.count) distinct queries, \(hits) found")
        context.print(String(format: "lookup rate:    %.0f lookups/s (%.1f ns each)", Double(lookups) / seconds,
                             seconds / Double(lookups) * 1e9))

        for (name, definition) in customDefinitions() {
            var found: String?
            let took = clock.measure {
                for _ in 0..<customSearches { found = WindowsZones.ianaZone(equivalentTo: definition, over: customSpan) }
            }
            let each = (Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18) / Double(customSearches)
            context.print(String(format: "custom zone:    %@ -> %@: %.2f ms a search", name, found ?? "none", each * 1000))
        }

        let executable = try CalbridgeExecutable.url()
        var times: [Double] = []
        for _ in 0..<runs {
            let process = SpawnedProcess()
            process.executableURL = executable
            process.arguments = ["timezones", "Pacific Standard Time"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let start = clock.now
            try process.run()
            process.waitUntilExit()
            let took = clock.now - start
            guard process.terminationStatus == 0 else {
                throw InputError("'calbridge timezones \"Pacific Standard Time\"' exited with \(process.terminationStatus)", exitCode: .failure)
            }
            times.append(Double(took.components.seconds) * 1000 + Double(took.components.attoseconds) / 1e15)
        }
        times.sort()
        let median = times.median
        context.print(String(
            format: "start-up:       median %.1f ms over %d runs of 'calbridge timezones \"Pacific Standard Time\"' (min %.1f, max %.1f)",
            median, runs, times.first!, times.last!
        ))
        return .success
    }

    /// Three years, as the Graph provider checks for an event.
    private static let customSpan = DateInterval(start: Date(timeIntervalSince1970: 1_798_761_600), duration: 3 * 366 * 86_400)

    /// Custom zones as Outlook stores them: US rules (an early candidate), fixed +05:45 (a late one), and US
    /// offsets with the changes a week off (no zone has them, so every candidate is tried).
    private static func customDefinitions() -> [(String, WindowsZoneDefinition)] {
        typealias AnnualDate = WindowsZoneRule.AnnualDate
        func us(startWeek: Int) -> WindowsZoneRule {
            WindowsZoneRule(bias: 480, daylightBias: -60, daylightTime: .init(
                start: AnnualDate(month: 3, weekday: 0, week: startWeek, secondOfDay: 7200),
                end: AnnualDate(month: 11, weekday: 0, week: 1, secondOfDay: 7200)))
        }
        return [("US rules", us(startWeek: 2)), ("fixed +05:45", WindowsZoneRule(bias: -345)), ("unmatched", us(startWeek: 3))]
            .map { ($0.0, WindowsZoneDefinition(keyName: "Customized Time Zone", rules: [.init(fromYear: 1601, rule: $0.1)])!) }
    }

    private enum Query {
        case windows(String, territory: String?)
        case iana(String)
    }

    /// Every Windows name as spelled, lower-cased and with its territories; every IANA id of the table;
    /// tz database aliases; Graph, display and legacy names; a few unknown names.
    private static func mixedQueries() -> [Query] {
        var queries: [Query] = []
        for mapping in WindowsZones.mappings {
            queries.append(.windows(mapping.windows, territory: mapping.territory == "001" ? nil : mapping.territory))
            queries.append(.windows(mapping.windows.lowercased(), territory: nil))
            for id in mapping.iana { queries.append(.iana(id)) }
        }
        for alias in ["Asia/Kolkata", "Europe/Kyiv", "America/Nuuk", "Asia/Ho_Chi_Minh", "UTC", "Etc/GMT", "GMT",
                      "Asia/Yangon", "America/Argentina/Buenos_Aires", "asia/kolkata"] {
            queries.append(.iana(alias))
        }
        for name in ["tzone://Microsoft/Utc", "tzone://Microsoft/Custom", "UTC", "Alberta Standard Time",
                     "(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna", "Nowhere Standard Time"] {
            queries.append(.windows(name, territory: nil))
        }
        queries.append(.iana("Mars/Olympus_Mons"))
        // Interleave the kinds so that branch prediction does not see long runs of one kind.
        var generator = SplitMix64(seed: 42)
        for index in queries.indices.reversed() where index > 0 {
            queries.swapAt(index, Int(generator.next() % UInt64(index + 1)))
        }
        return queries
    }
}
