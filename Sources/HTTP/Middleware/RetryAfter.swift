import CalbridgeSupport
import Foundation

/// Parses the `Retry-After` response header (RFC 9110 §10.2.3).
public enum RetryAfter {
    /// The delay a `Retry-After` value asks for.
    ///
    /// - Parameters:
    ///   - value: either delta-seconds (`120`) or an HTTP-date (`Sun, 06 Nov 1994 08:49:37 GMT`, or the
    ///     obsolete RFC 850 and asctime forms that RFC 9110 still requires recipients to accept).
    ///   - now: the current time, for an HTTP-date (injected so tests need no real clock).
    /// - Returns: the delay, `.zero` for a date in the past, nil when the value is not valid.
    public static func delay(from value: String, now: Date) -> Duration? {
        let text = value.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        if text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) {
            // More than ten digits is centuries; clamp instead of overflowing.
            let seconds = text.utf8.count > 10 ? Int64(9_999_999_999) : Int64(text)!
            return .seconds(seconds)
        }
        guard let date = httpDate(text) else { return nil }
        let interval = date.timeIntervalSince(now)
        return interval > 0 ? .milliseconds(Int64((interval * 1000).rounded())) : .zero
    }

    /// The delay in seconds, for error values that carry it (`CalendarError.retryAfterSeconds`).
    /// - Returns: nil when the header is absent or not valid; 0 for a date in the past.
    public static func seconds(_ value: String?, now: Date = Date()) -> Double? {
        guard let value, let delay = delay(from: value, now: now) else { return nil }
        let parts = delay.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    /// Parses an HTTP-date in any of its three forms (always GMT). Nil when it is not one.
    public static func httpDate(_ text: String) -> Date? {
        let tokens = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        let day: Int, month: Int, year: Int, time: String
        switch tokens.count {
        case 6 where tokens[5] == "GMT":
            // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
            guard let d = Int(tokens[1]), let m = monthNumber(tokens[2]), tokens[3].count == 4, let y = Int(tokens[3])
            else { return nil }
            (day, month, year, time) = (d, m, y, tokens[4])
        case 4 where tokens[3] == "GMT":
            // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
            let parts = tokens[1].split(separator: "-").map(String.init)
            guard parts.count == 3, let d = Int(parts[0]), let m = monthNumber(parts[1]), parts[2].count == 2,
                  let yy = Int(parts[2]) else { return nil }
            // RFC 9110: a two-digit year more than 50 years in the future means the previous century.
            let y = yy + 2000 > currentYear() + 50 ? 1900 + yy : 2000 + yy
            (day, month, year, time) = (d, m, y, tokens[2])
        case 5:
            // asctime: Sun Nov  6 08:49:37 1994
            guard let m = monthNumber(tokens[1]), let d = Int(tokens[2]), tokens[4].count == 4, let y = Int(tokens[4])
            else { return nil }
            (day, month, year, time) = (d, m, y, tokens[3])
        default:
            return nil
        }
        let clock = time.split(separator: ":").map { Int($0) }
        guard clock.count == 3, let hour = clock[0], let minute = clock[1], let second = clock[2],
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
              (1...CivilDate.daysIn(month: month, year: year)).contains(day) else { return nil }
        let days = CivilDate.daysSinceEpoch(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3600 + minute * 60 + second))
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func monthNumber(_ name: String) -> Int? {
        months.firstIndex(of: name).map { $0 + 1 }
    }

    private static func currentYear() -> Int {
        Int(Date().timeIntervalSince1970 / 31_556_952) + 1970
    }
}
