import CalbridgeSupport
@testable import CalendarBridge
import Foundation
import Testing

/// Dates and times are written on bytes now; request bodies (and so the requests sent) must not change:
/// the string-padding versions, kept here as they were, are the oracle.
@Suite("Date and time formatting: the same text as the string-padding versions")
struct DateFormattingOracleTests {
    static func pad(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }

    static func oracleDate(_ d: LocalDate) -> String { "\(pad(d.year, 4))-\(pad(d.month, 2))-\(pad(d.day, 2))" }

    static func oracleFormat(_ t: LocalDateTime, fractionDigits: Int) -> String {
        var text = "\(oracleDate(t.date))T\(pad(t.hour, 2)):\(pad(t.minute, 2)):\(pad(t.second, 2))"
        if fractionDigits > 0 { text += "." + String(pad(t.nanosecond, 9).prefix(fractionDigits)) }
        return text
    }

    static func oracleRFC3339(_ instant: Date, in zone: TimeZone, fractionDigits: Int) -> String {
        let local = LocalDateTime(instant: instant, in: zone)
        let offset = zone.secondsFromGMT(for: instant)
        let sign = offset < 0 ? "-" : "+"
        let minutes = abs(offset) / 60
        func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return oracleFormat(local, fractionDigits: fractionDigits) + "\(sign)\(pad(minutes / 60)):\(pad(minutes % 60))"
    }

    @Test("random dates, times and instants are written as before", arguments: [61, 62] as [UInt64])
    func sameAsOracle(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        func number(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(random.next() % UInt64(range.count)) }
        let zones = try ["UTC", "Asia/Kolkata", "America/St_Johns", "Pacific/Chatham", "America/Los_Angeles"].map {
            try #require(TimeZone(identifier: $0))
        }
        for _ in 0..<5_000 {
            // Years outside 1...9999 too (dates computed by arithmetic), one to five digits.
            let year = [number(1...9999), number(-999...0), number(10_000...99_999)][number(0...2)]
            let date = LocalDate(unchecked: year, month: number(1...12), day: number(1...31))
            #expect(date.description == Self.oracleDate(date))
            let time = LocalDateTime(
                date: date, hour: number(0...23), minute: number(0...59), second: number(0...60),
                nanosecond: [0, number(0...999_999_999), number(1...9) * 100_000_000][number(0...2)])
            let digits = number(0...9)
            #expect(time.format(fractionDigits: digits) == Self.oracleFormat(time, fractionDigits: digits))
            let instant = Date(timeIntervalSince1970: Double(number(-4_000_000_000...4_000_000_000)) + Double(number(0...999)) / 1000)
            let zone = zones[number(0...zones.count - 1)]
            #expect(RFC3339.format(instant, in: zone, fractionDigits: digits) == Self.oracleRFC3339(instant, in: zone, fractionDigits: digits))
        }
    }
}
