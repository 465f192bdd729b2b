import Foundation

/// RFC 3339 timestamps (`2026-03-08T09:00:00-07:00`, `...Z`, with or without a fraction), parsed and
/// written without locale or device-zone surprises.
package enum RFC3339 {
    /// Parses a timestamp with an offset or `Z`; nil for anything else (a local time has no instant).
    package static func parse(_ text: String) -> Date? {
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
                hm.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }), let h = Int(hm[0]), let m = Int(hm[1]),
                m < 60, h * 3600 + m * 60 <= maxOffsetSeconds
            else { return nil }
            offsetSeconds = (time[sign] == "-" ? -1 : 1) * (h * 3600 + m * 60)
            localPart = text[..<sign]
        } else {
            return nil
        }
        guard let local = LocalDateTime(localPart) else { return nil }
        // Plain arithmetic: no TimeZone is needed for a fixed offset.
        return local.naiveUTC.addingTimeInterval(-Double(offsetSeconds))
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
        let sign = offset < 0 ? "-" : "+"
        let minutes = abs(offset) / 60
        func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return local.format(fractionDigits: fractionDigits) + "\(sign)\(pad(minutes / 60)):\(pad(minutes % 60))"
    }

    /// The instant in UTC with `Z` (Graph's query parameters).
    package static func formatUTC(_ instant: Date, fractionDigits: Int = 0) -> String {
        LocalDateTime(instant: instant, in: TimeZone(secondsFromGMT: 0)!).format(fractionDigits: fractionDigits) + "Z"
    }
}
