import CalbridgeSupport
import CalendarBridge
import Foundation
import Testing
import TestSupport

@Suite("Quick-add parser under random input")
struct QuickAddFuzzTests {
    static let pieces: [String] = {
        var words = QuickAddLocale.english.phrases.map(\.0) + QuickAddLocale.german.phrases.map(\.0)
        words += QuickAddLocale.english.zoneAbbreviations.map(\.0)
        words += [
            "Lunch", "with", "Ann", "Europe/London", "America/Argentina/Buenos_Aires", "Europe/Nowhere", "Standard",
            "Time", "W.", "0", "00", "1", "12", "13", "24", "29", "31", "99", "2026", "1850", "999999999999", "3pm",
            "15:00", "9:30-10:15", "12/5", "5.12.", "2026-02-29", "1h30", "1,5", "½", "é", "e\u{301}", "日本", "🎉",
            "\u{200B}", "\u{00A0}", "\t", "\n", "—", "–", "’", "'", "\"", "(", ")", ":", ".", ",", "-", "/", "@", "#",
            "+", "&", "x", "mal", "Uhr",
        ]
        return words
    }()

    /// What the fuzz run found: counts, the slowest parse, and every broken rule, described.
    struct Findings: Sendable {
        var accepted = 0
        var slowest = Duration.zero
        var problems: [String] = []
    }

    @Test("100,000 random strings never crash, never hang, and fail only with QuickAddError", .ownThread)
    func randomStrings() {
        let findings = Self.fuzz()
        #expect(findings.problems.isEmpty, "\(findings.problems.prefix(5))")
        // Guards against a generator that only ever produces rejected noise.
        #expect(findings.accepted > 1000)
        print("quick-add fuzz: \(findings.accepted) of 100000 accepted, slowest parse \(findings.slowest)")
    }

    /// The CPU time this thread has used.
    static func threadCPUTime() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    static func fuzz() -> Findings {
        var random = SplitMix64(seed: 0x5EED_CA1B_0001)
        let zone = QuickAddZone(identifier: "Europe/Berlin")!
        let parsers = [
            QuickAddTestSupport.parser(lang: "en"), QuickAddTestSupport.parser(lang: "en", dateOrder: "dmy"),
            QuickAddTestSupport.parser(lang: "de"),
        ]
        var findings = Findings()
        for _ in 0..<100_000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...12, using: &random) {
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<6: text += pieces.randomElement(using: &random)!
                case 6..<8: text += String(Int.random(in: 0...3000, using: &random))
                default:
                    let scalar = Unicode.Scalar(UInt32.random(in: 0...0x2FFF, using: &random)) ?? "?"
                    text.unicodeScalars.append(scalar)
                }
                if Int.random(in: 0..<4, using: &random) != 0 { text += " " }
            }
            let parser = parsers.randomElement(using: &random)!
            let now = Date(timeIntervalSince1970: TimeInterval(Int.random(in: 0...4_000_000_000, using: &random)))
            let start = threadCPUTime()
            let outcome = Result { () throws(QuickAddError) in try parser.parse(text, now: now, zone: zone) }
            let elapsed = threadCPUTime() - start
            findings.slowest = max(findings.slowest, elapsed)
            // A ceiling only a hang or a runaway loop would exceed (the 1 ms goal is the benchmark's). The
            // thread's CPU time, not the wall clock: on a loaded machine a descheduled thread waited 500 ms.
            if elapsed >= .milliseconds(500) { findings.problems.append("parse took \(elapsed) for \(text.debugDescription)") }
            guard case .success(let result) = outcome else { continue }
            findings.accepted += 1
            if result.title.isEmpty { findings.problems.append("empty title for \(text.debugDescription)") }
            if case .dateTime(let start, _) = result.start, case .dateTime(let end, _) = result.end, end <= start {
                findings.problems.append("end before start for \(text.debugDescription)")
            }
            if case .date(let start) = result.start, case .date(let end) = result.end, end <= start {
                findings.problems.append("end before start for \(text.debugDescription)")
            }
        }
        return findings
    }
}
