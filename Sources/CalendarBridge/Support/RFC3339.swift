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
            guard hm.count == 2, hm[0].count == 2, hm[1].count == 2, let h = Int(hm[0]), let m = Int(hm[1]),
                h < 24, m < 60
            else { return nil }
            offsetSeconds = (time[sign] == "-" ? -1 : 1) * (h * 3600 + m * 60)
            localPart = text[..<sign]
        } else {
            return nil
        }
        guard let local = LocalDateTime(localPart) else { return nil }
        return local.instant(in: TimeZone(secondsFromGMT: offsetSeconds)!)
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
