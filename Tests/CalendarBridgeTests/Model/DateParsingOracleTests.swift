import CalbridgeSupport
import Foundation
import TestSupport
import Testing
@testable import CalendarBridge

/// The byte-level date parsers (`LocalDate`, `LocalDateTime`, `RFC3339.parse`) against the `Substring` and
/// `Character` versions they replaced (kept here, verbatim but for their names, as the oracle): the same
/// accepted language and the same values, on generated valid, nearly valid and random inputs.
@Suite("Date parsers: the byte-level ones accept and compute what the Substring ones did")
struct DateParsingOracleTests {

    // MARK: the oracle (the Substring parsers the byte-level ones replaced)

    enum Oracle {
        static func localDate(_ text: some StringProtocol) -> LocalDate? {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
                parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
                let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
            else { return nil }
            return LocalDate(year: y, month: m, day: d)
        }

        static func localDateTime(_ text: some StringProtocol) -> LocalDateTime? {
            let text = String(text)
            guard let t = text.firstIndex(of: "T"), let date = localDate(text[..<t]) else { return nil }
            let time = text[text.index(after: t)...]
            var main = Substring(time)
            var fraction: Substring = ""
            if let dot = time.firstIndex(of: ".") {
                main = time[..<dot]
                fraction = time[time.index(after: dot)...]
                guard !fraction.isEmpty, fraction.count <= 9, fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                    return nil
                }
            }
            let fields = main.split(separator: ":", omittingEmptySubsequences: false)
            guard (2...3).contains(fields.count),
                fields.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
                let h = Int(fields[0]), let m = Int(fields[1]), h < 24, m < 60
            else { return nil }
            let s = fields.count == 3 ? Int(fields[2]) ?? 60 : 0
            guard s < 60 else { return nil }
            guard let nanos = fraction.isEmpty ? 0 : Int(fraction + String(repeating: "0", count: 9 - fraction.count))
            else { return nil }
            return LocalDateTime(date: date, hour: h, minute: m, second: s, nanosecond: nanos)
        }

        static func rfc3339(_ text: String) -> Date? {
            guard let t = text.firstIndex(where: { $0 == "T" || $0 == "t" }) else { return nil }
            let time = text[text.index(after: t)...]
            let offsetSeconds: Int
            let localPart: Substring
            if time.last == "Z" || time.last == "z" {
                offsetSeconds = 0
                localPart = text.dropLast()
            } else if let sign = time.lastIndex(where: { $0 == "+" || $0 == "-" }) {
                let offset = time[time.index(after: sign)...]
                let hm = offset.split(separator: ":")
                guard hm.count == 2, hm[0].count == 2, hm[1].count == 2,
                    hm.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }), let h = Int(hm[0]),
                    let m = Int(hm[1]), m < 60, h * 3600 + m * 60 <= RFC3339.maxOffsetSeconds
                else { return nil }
                offsetSeconds = (time[sign] == "-" ? -1 : 1) * (h * 3600 + m * 60)
                localPart = text[..<sign]
            } else {
                return nil
            }
            guard let local = localDateTime(localPart) else { return nil }
            return local.naiveUTC.addingTimeInterval(-Double(offsetSeconds))
        }
    }

    // MARK: inputs

    static func pick<T>(_ items: [T], _ rng: inout SplitMix64) -> T { items[Int.random(in: 0..<items.count, using: &rng)] }

    static func digits(_ count: Int, _ rng: inout SplitMix64) -> String {
        String((0..<count).map { _ in Character(String(Int.random(in: 0...9, using: &rng))) })
    }

    static func two(_ range: ClosedRange<Int>, _ rng: inout SplitMix64) -> String {
        let n = Int.random(in: range, using: &rng)
        return n < 10 ? "0\(n)" : "\(n)"
    }

    /// A timestamp of the accepted shape with fields at and past their limits, and every offset form.
    static func nearlyValid(_ rng: inout SplitMix64) -> String {
        let year = pick(["0000", "0001", "1970", "2026", "2024", "2100", "9999", digits(4, &rng)], &rng)
        var text = "\(year)-\(two(0...13, &rng))-\(two(0...32, &rng))"
        text += pick(["T", "T", "T", "t", " ", ""], &rng) + two(0...25, &rng) + ":" + two(0...61, &rng)
        if Bool.random(using: &rng) { text += ":" + two(0...61, &rng) }
        if Int.random(in: 0..<3, using: &rng) == 0 { text += "." + digits(Int.random(in: 0...11, using: &rng), &rng) }
        switch Int.random(in: 0..<8, using: &rng) {
        case 0: text += "Z"
        case 1: text += "z"
        case 2: break
        case 3: text += pick(["+", "-"], &rng) + two(0...19, &rng) + pick([":", "::", ""], &rng) + two(0...61, &rng)
        case 4: text += pick(["+", "-"], &rng) + pick([":", "", "::"], &rng) + two(0...19, &rng) + ":" + two(0...9, &rng) + pick([":", "", "::"], &rng)
        case 5: text += pick(["+", "-"], &rng) + digits(Int.random(in: 0...5, using: &rng), &rng)
        default: text += pick(["+", "-"], &rng) + two(0...18, &rng) + ":" + two(0...59, &rng)
        }
        return text
    }

    static let alphabet: [Character] = [
        "0", "1", "2", "5", "9", "-", ":", "T", "t", "Z", "z", "+", ".", " ", "x", "é", "\r\n", "\u{301}", "\u{600}", "٣",
    ]

    /// `text` with a few characters replaced, inserted or deleted.
    static func mutated(_ text: String, _ rng: inout SplitMix64) -> String {
        var characters = Array(text)
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            let position = Int.random(in: 0...characters.count, using: &rng)
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: characters.insert(pick(alphabet, &rng), at: position)
            case 1 where position < characters.count: characters[position] = pick(alphabet, &rng)
            default: if position < characters.count { characters.remove(at: position) }
            }
        }
        return String(characters)
    }

    static func random(_ rng: inout SplitMix64) -> String {
        String((0..<Int.random(in: 0...30, using: &rng)).map { _ in pick(alphabet, &rng) })
    }

    static func input(_ rng: inout SplitMix64) -> String {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: nearlyValid(&rng)
        case 1, 2: mutated(nearlyValid(&rng), &rng)
        default: random(&rng)
        }
    }

    @Test("generated inputs: the same answer from both", .ownThread, arguments: [1, 2, 3, 4] as [UInt64])
    func sameAnswers(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var accepted = (rfc3339: 0, local: 0, date: 0)
        for round in 0..<25_000 {
            let text = Self.input(&rng)
            let instant = RFC3339.parse(text)
            #expect(instant == Oracle.rfc3339(text), "seed \(seed), round \(round): RFC3339.parse(\(text.debugDescription))")
            // The whole text, and its first 19 and 10 characters as a Substring (the generic path).
            for candidate in [Substring(text), text.prefix(19), text.prefix(10)] {
                #expect(LocalDateTime(candidate) == Oracle.localDateTime(candidate), "LocalDateTime(\(candidate.debugDescription))")
                #expect(LocalDate(candidate) == Oracle.localDate(candidate), "LocalDate(\(candidate.debugDescription))")
            }
            #expect(LocalDateTime(text) == Oracle.localDateTime(text), "LocalDateTime(\(text.debugDescription))")
            #expect(LocalDate(text) == Oracle.localDate(text), "LocalDate(\(text.debugDescription))")
            if instant != nil { accepted.rfc3339 += 1 }
            if LocalDateTime(text) != nil { accepted.local += 1 }
            if LocalDate(text.prefix(10)) != nil { accepted.date += 1 }
        }
        // The inputs reach both sides of every parser, not only its refusals.
        #expect(accepted.rfc3339 > 300 && accepted.local > 100 && accepted.date > 3_000, "\(accepted)")
    }

    @Test("edge cases by hand", arguments: [
        "2026-01-01T10:00:00Z", "2026-01-01T10:00Z", "2026-01-01T10:00.5Z", "2026-01-01T10:00:00.123456789z",
        "2026-01-01T10:00:00.1234567890Z", "2026-01-01T10:00:00+05::30", "2026-01-01T10:00:00+:05:30:",
        "2026-01-01T10:00:00+0530", "2026-01-01T10:00:00-18:00", "2026-01-01T10:00:00-18:01", "2026-01-01t10:00:00Z",
        "2026-01-01T10:00:00+05:30Z", "2026-02-29T10:00:00Z", "2024-02-29T10:00:00Z", "0000-01-01T00:00:00Z",
        "9999-12-31T23:59:59.999999999-18:00", "2026-01-01T", "2026-01-01TZ", "T", "", "Z", "2026-01-01T10:00:00Z\u{301}",
        "2026-01-01T10:00:00\u{600}Z", "2026-01-01T10:00:00+05:30\r\n", "٢٠٢٦-01-01T10:00:00Z", "2026-01-01T10:00:00+05:3٠",
        "2026-01-01T24:00:00Z", "2026-01-01T10:60:00Z", "2026-01-01T10:00:60Z", "2026-01-01T10:00:", "2026-01-01T10:00:0Z",
        "+2026-01-01T10:00:00Z", "2026-1-01T10:00:00Z", "2026-01-01T10:00:00.+01:00", "2026-01-01T10:00:00-00:00",
    ])
    func edges(text: String) {
        #expect(RFC3339.parse(text) == Oracle.rfc3339(text))
        #expect(LocalDateTime(text) == Oracle.localDateTime(text))
        #expect(LocalDate(text) == Oracle.localDate(text))
        #expect(LocalDate(text.prefix(10)) == Oracle.localDate(text.prefix(10)))
    }
}

/// Found by the `dates` fuzz target: instants before 1582 read back in Foundation's Julian
/// dates while parsing counts proleptic Gregorian ones, two days apart in year 26.
@Suite("Dates before the Gregorian reform read back as they were written")
struct ProlepticGregorianTests {
    @Test("parse and write back: year 26, 1000, 400-02-29, 1582-10-10 (inside the Julian gap), 1970")
    func roundTrip() throws {
        let utc = try #require(TimeZone(secondsFromGMT: 0))
        for text in ["0026-12-01T09:01:00", "1000-02-28T23:59:59", "0400-02-29T00:00:00", "1582-10-10T12:00:00", "1970-01-01T00:00:00"] {
            let instant = try #require(RFC3339.parse(text + "Z"), "\(text)")
            #expect(LocalDateTime(instant: instant, in: utc).format(fractionDigits: 0) == text)
            #expect(LocalDate(instant: instant, in: utc).description == String(text.prefix(10)))
        }
    }
}
