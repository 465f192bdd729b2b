import Foundation

/// Reads an HTTP `Retry-After` value: delay seconds or an HTTP date (RFC 9110 §10.2.3).
package enum RetryAfter {
    /// The longest wait a server can ask for (a day); `1e300` or `inf` is a broken server, not a plan.
    package static let maxSeconds: Double = 86_400

    /// Seconds to wait (at most `maxSeconds`), or nil when the value is absent or unreadable.
    package static func seconds(_ value: String?, now: Date = Date()) -> Double? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Double(value) {
            guard seconds.isFinite, seconds >= 0 else { return nil }
            return min(seconds, maxSeconds)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        guard let date = formatter.date(from: value) else { return nil }
        return min(max(0, date.timeIntervalSince(now)), maxSeconds)
    }
}
