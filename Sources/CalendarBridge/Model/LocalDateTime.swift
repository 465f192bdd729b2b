import CalbridgeSupport
import Foundation

/// A wall-clock date and time with no zone (Graph's `dateTime` strings, RFC 5545 local times).
///
/// Turning one into an instant always needs a zone, given explicitly: never UTC or the machine's zone
/// by accident.
public struct LocalDateTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var date: LocalDate
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// Fractional second in nanoseconds (Graph sends 7 digits: 100 ns steps).
    public var nanosecond: Int

    public init(date: LocalDate, hour: Int = 0, minute: Int = 0, second: Int = 0, nanosecond: Int = 0) {
        self.date = date
        self.hour = hour
        self.minute = minute
        self.second = second
        self.nanosecond = nanosecond
    }

    /// Parses `YYYY-MM-DDTHH:MM[:SS][.f...]` (1 to 9 fraction digits) with no offset; nil for anything else
    /// (including a trailing `Z` or offset, which would mean the text is not a local time).
    public init?(_ text: some StringProtocol) {
        guard let parsed = DateText.withUTF8(text, LocalDateTime.init(utf8:)) else { return nil }
        self = parsed
    }

    /// `init?(_:)` for a `String` (Graph's `dateTime`, every listed event): the generic one is not
    /// specialised across modules.
    public init?(_ text: String) {
        guard let parsed = DateText.withUTF8(text, LocalDateTime.init(utf8:)) else { return nil }
        self = parsed
    }

    /// The grammar of `init?(_:)` on UTF-8 bytes, with integer arithmetic: the `Substring` and `Character`
    /// version was most of `RFC3339.parse`, which runs several times per listed event.
    /// Every index is checked against `bytes.count` before it is read.
    package init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        let n = bytes.count
        // YYYY-MM-DD 'T' HH:MM is 16 bytes; the date is exactly what precedes the first 'T'.
        guard n >= 16, bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
            let date = LocalDate(utf8: UnsafeBufferPointer(rebasing: bytes[0..<10])),
            let h = DateText.twoDigits(bytes, at: 11), let m = DateText.twoDigits(bytes, at: 14), h < 24, m < 60
        else { return nil }
        var index = 16
        var s = 0
        if index < n, bytes[index] == UInt8(ascii: ":") {
            guard n >= 19, let seconds = DateText.twoDigits(bytes, at: 17), seconds < 60 else { return nil }
            s = seconds
            index = 19
        }
        var nanos = 0
        if index < n {
            // Only a fraction may follow: '.' and 1 to 9 digits to the end.
            let digits = n - index - 1
            guard bytes[index] == UInt8(ascii: "."), (1...9).contains(digits) else { return nil }
            for position in (index + 1)..<n {
                guard let digit = DateText.digit(bytes[position]) else { return nil }
                nanos = nanos * 10 + digit
            }
            for _ in digits..<9 { nanos *= 10 }
        }
        self.init(date: date, hour: h, minute: m, second: s, nanosecond: nanos)
    }

    /// The wall-clock time an instant shows in a zone.
    ///
    /// By arithmetic on the zone's offset, in the proleptic Gregorian calendar that parsing uses (RFC 3339,
    /// ISO 8601): Foundation's Gregorian `Calendar` switches to Julian dates before 1582, so a parsed
    /// `0026-12-01T09:01Z` would read back as `0026-12-03` (found by the `dates` fuzz target).
    public init(instant: Date, in zone: TimeZone) {
        // Whole seconds and microseconds (a Date's binary fraction carries noise below them); instants
        // beyond ±10^14 s (3 million years) are clamped, so the arithmetic cannot overflow.
        let time = instant.timeIntervalSince1970
        let clamped = time.isFinite ? min(max(time, -1e14), 1e14) : 0
        var whole = clamped.rounded(.down)
        var micros = ((clamped - whole) * 1e6).rounded()
        if micros >= 1e6 {
            whole += 1
            micros = 0
        }
        let local = Int(whole) + zone.secondsFromGMT(for: instant)
        let days = local >= 0 ? local / 86_400 : -((-local + 86_399) / 86_400)
        let secondOfDay = local - days * 86_400
        // Any instant has a date, even past year 9999 (which `LocalDate(year:month:day:)` refuses as input).
        date = LocalDate(daysSinceEpoch: days)
        hour = secondOfDay / 3600
        minute = secondOfDay / 60 % 60
        second = secondOfDay % 60
        nanosecond = Int(micros) * 1000
    }

    /// The instant this wall-clock time names in `zone`.
    ///
    /// In a DST gap (02:30 on a spring-forward day) the time is read with the offset before the gap,
    /// landing after it (03:30), as calendar servers do; in an overlap the earlier instant is used.
    public func instant(in zone: TimeZone) -> Date {
        let local = date.daysSinceEpoch * 86_400 + hour * 3600 + minute * 60 + second
        // UTC, the zone Graph answers in ("UTC", which CLDR maps to Etc/UTC): no offset to look up (four of
        // ICU's lookups a call otherwise, per listed Outlook event).
        let identifier = zone.identifier
        let utc =
            identifier == "Etc/UTC" || identifier == "UTC" || identifier == "GMT" || identifier == "Etc/GMT"
            ? local : CivilDate.instant(local: local) { zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval($0))) }
        return Date(timeIntervalSince1970: TimeInterval(utc) + Double(nanosecond) / 1e9)
    }

    /// `YYYY-MM-DDTHH:MM:SS`, plus `.fffffff` (7 digits, Graph's form) when there is a fraction.
    public var description: String { format(fractionDigits: nanosecond == 0 ? 0 : 7) }

    /// The text with exactly `fractionDigits` (0...9) fractional digits.
    public func format(fractionDigits: Int) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        append(to: &bytes, fractionDigits: fractionDigits)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `format(fractionDigits:)`'s bytes, appended.
    func append(to bytes: inout [UInt8], fractionDigits: Int) {
        let twoDigits = 0...99
        if (0...9999).contains(date.year), twoDigits.contains(date.month), twoDigits.contains(date.day),
            twoDigits.contains(hour), twoDigits.contains(minute), twoDigits.contains(second)
        {
            // `YYYY-MM-DDTHH:MM:SS` written on the stack and appended at once, not in eleven appends: once
            // per listed event for its start in the report.
            var text: (UInt64, UInt64, UInt64) = (0, 0, 0)
            withUnsafeMutableBytes(of: &text) { raw in
                func put(_ value: Int, at offset: Int) {
                    raw[offset] = UInt8(truncatingIfNeeded: 48 + value / 10)
                    raw[offset + 1] = UInt8(truncatingIfNeeded: 48 + value % 10)
                }
                put(date.year / 100, at: 0)
                put(date.year % 100, at: 2)
                raw[4] = UInt8(ascii: "-")
                put(date.month, at: 5)
                raw[7] = UInt8(ascii: "-")
                put(date.day, at: 8)
                raw[10] = UInt8(ascii: "T")
                put(hour, at: 11)
                raw[13] = UInt8(ascii: ":")
                put(minute, at: 14)
                raw[16] = UInt8(ascii: ":")
                put(second, at: 17)
                bytes.append(contentsOf: UnsafeBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: 19))
            }
        } else {
            date.append(to: &bytes)
            bytes.append(UInt8(ascii: "T"))
            PaddedDecimal.append(hour, width: 2, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            PaddedDecimal.append(minute, width: 2, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            PaddedDecimal.append(second, width: 2, to: &bytes)
        }
        if fractionDigits > 0 {
            bytes.append(UInt8(ascii: "."))
            var fraction: [UInt8] = []
            PaddedDecimal.append(nanosecond, width: 9, to: &fraction)
            bytes.append(contentsOf: fraction.prefix(fractionDigits))
        }
    }

    public static func < (a: LocalDateTime, b: LocalDateTime) -> Bool {
        (a.date, a.hour, a.minute, a.second, a.nanosecond) < (b.date, b.hour, b.minute, b.second, b.nanosecond)
    }

    /// The instant this wall-clock time would be if it were UTC (arithmetic only, never a result).
    var naiveUTC: Date {
        let seconds = Double(date.daysSinceEpoch * 86_400 + hour * 3600 + minute * 60 + second)
        return Date(timeIntervalSince1970: seconds + Double(nanosecond) / 1e9)
    }
}
