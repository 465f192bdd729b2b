import CalbridgeSupport
import Foundation

/// RFC 3339 timestamps (`2026-03-08T09:00:00-07:00`, `...Z`, with or without a fraction), parsed and
/// written without locale or device-zone surprises.
package enum RFC3339 {
    /// Parses a timestamp with an offset or `Z`; nil for anything else (a local time has no instant).
    ///
    /// The local part is `LocalDateTime`'s grammar; the offset is `Z`/`z` or a sign and two 2-digit fields
    /// separated by colons (colons before, between and after them are not counted: `+05::30` is `+05:30`),
    /// at most `maxOffsetSeconds`. Read from UTF-8 bytes with integer arithmetic: every listed event has
    /// several timestamps, and a `Substring` parser costs many times as much.
    package static func parse(_ text: String) -> Date? {
        DateText.withUTF8(text, parse(utf8:))
    }

    /// `parse(_:)` of a timestamp's UTF-8 (read where it lies in a listing, without a `String` for it).
    package static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        let n = bytes.count
        // The time starts after the first 'T' or 't' (a lower-case one is then refused by the local part).
        guard let t = bytes.firstIndex(where: { $0 == UInt8(ascii: "T") || $0 == UInt8(ascii: "t") }) else {
            return nil
        }
        let offsetSeconds: Int
        let localEnd: Int
        if t + 1 < n, bytes[n - 1] == UInt8(ascii: "Z") || bytes[n - 1] == UInt8(ascii: "z") {
            offsetSeconds = 0
            localEnd = n - 1
        } else if let sign = bytes[(t + 1)...].lastIndex(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }) {
            guard let fields = offsetFields(bytes, from: sign + 1) else { return nil }
            let (hours, minutes) = fields
            guard minutes < 60, hours * 3600 + minutes * 60 <= maxOffsetSeconds else { return nil }
            offsetSeconds = (bytes[sign] == UInt8(ascii: "-") ? -1 : 1) * (hours * 3600 + minutes * 60)
            localEnd = sign
        } else {
            return nil
        }
        guard let local = LocalDateTime(utf8: UnsafeBufferPointer(rebasing: bytes[..<localEnd])) else { return nil }
        // Plain arithmetic: no TimeZone is needed for a fixed offset.
        return local.naiveUTC.addingTimeInterval(-Double(offsetSeconds))
    }

    /// The hours and minutes after an offset's sign: exactly two runs of two digits between colons.
    private static func offsetFields(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (Int, Int)? {
        var hours: Int?
        var minutes: Int?
        var index = start
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: ":") {
                index += 1
                continue
            }
            let run = index
            while index < bytes.count, bytes[index] != UInt8(ascii: ":") { index += 1 }
            guard minutes == nil, index - run == 2, let value = DateText.twoDigits(bytes, at: run) else { return nil }
            if hours == nil { hours = value } else { minutes = value }
        }
        guard let hours, let minutes else { return nil }
        return (hours, minutes)
    }

    /// The largest UTC offset accepted, ±18:00 (what ISO 8601 practice and Foundation's `TimeZone` allow;
    /// real zones span -12:00 to +14:00). RFC 3339's grammar would allow ±23:59.
    package static let maxOffsetSeconds = 18 * 3600

    /// The numeric offset written at the end of a date-time (`+19:00` -> 68400), whatever its size;
    /// nil when there is none. For error messages that name an offset out of range.
    package static func writtenOffsetSeconds(_ text: String) -> Int? {
        guard let t = text.firstIndex(where: { $0 == "T" || $0 == "t" }) else { return nil }
        let time = text[text.index(after: t)...]
        guard let sign = time.lastIndex(where: { $0 == "+" || $0 == "-" }) else { return nil }
        let hm = time[time.index(after: sign)...].split(separator: ":")
        guard hm.count == 2, hm.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let h = Int(hm[0]), let m = Int(hm[1])
        else { return nil }
        return (time[sign] == "-" ? -1 : 1) * (h * 3600 + m * 60)
    }

    /// The instant as wall-clock time in `zone` with that zone's numeric offset (`+01:00`, `+00:00`;
    /// never `Z`, so the text always states the offset it was written with).
    package static func format(_ instant: Date, in zone: TimeZone, fractionDigits: Int = 0) -> String {
        let local = LocalDateTime(instant: instant, in: zone)
        let offset = zone.secondsFromGMT(for: instant)
        let minutes = abs(offset) / 60
        var bytes: [UInt8] = []
        bytes.reserveCapacity(40)
        local.append(to: &bytes, fractionDigits: fractionDigits)
        bytes.append(offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
        PaddedDecimal.append(minutes / 60, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        PaddedDecimal.append(minutes % 60, width: 2, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The instant in UTC with `Z` (Graph's query parameters).
    package static func formatUTC(_ instant: Date, fractionDigits: Int = 0) -> String {
        LocalDateTime(instant: instant, in: TimeZone(secondsFromGMT: 0)!).format(fractionDigits: fractionDigits) + "Z"
    }
}
