import Foundation

/// Seed files write times relative to the current week, so that the seeded "this week" view is never empty:
/// `week+2d 09:30` is Wednesday 09:30 (local time in the event's zone) of the week containing `now`,
/// weeks starting on Monday; `week-1d` / `week+9d` reach into the neighbouring weeks; without a time it is a
/// date (all-day events). Absolute values (`2026-12-01T09:00:00`, `2026-12-01`) pass through unchanged.
package enum SeedTime {
    /// A local date and optional wall-clock time, not yet tied to a zone's offset.
    package struct Local: Sendable, Equatable {
        package var year: Int, month: Int, day: Int
        package var hour: Int?, minute: Int?

        /// `YYYY-MM-DD`
        package var dateString: String { String(format: "%04d-%02d-%02d", year, month, day) }
        /// `YYYY-MM-DDTHH:MM:00` (local, no offset), or nil for a date.
        package var dateTimeString: String? {
            guard let hour, let minute else { return nil }
            return dateString + String(format: "T%02d:%02d:00", hour, minute)
        }

        /// The instant this local time denotes in `zone` (for a date: its midnight).
        package func date(in zone: TimeZone) -> Date? {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour ?? 0, minute: minute ?? 0))
        }
    }

    /// Resolves a seed time in `zone` relative to `now`. Nil when the text is neither form.
    package static func resolve(_ text: String, in zone: TimeZone, now: Date) -> Local? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("week") { return relative(trimmed, zone: zone, now: now) }
        return absolute(trimmed)
    }

    private static func relative(_ text: String, zone: TimeZone, now: Date) -> Local? {
        let parts = text.split(separator: " ")
        guard parts.count == 1 || parts.count == 2 else { return nil }
        var offsetText = parts[0].dropFirst(4)
        var days = 0
        if !offsetText.isEmpty {
            guard offsetText.hasSuffix("d") else { return nil }
            offsetText.removeLast()
            guard let value = Int(offsetText) else { return nil }
            days = value
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let today = calendar.dateComponents([.year, .month, .day, .weekday], from: now)
        // weekday: 1 = Sunday ... 7 = Saturday; Monday-based offset.
        let sinceMonday = ((today.weekday ?? 2) + 5) % 7
        guard let noonToday = calendar.date(from: DateComponents(year: today.year, month: today.month, day: today.day, hour: 12)),
              let target = calendar.date(byAdding: .day, value: days - sinceMonday, to: noonToday) else { return nil }
        let date = calendar.dateComponents([.year, .month, .day], from: target)
        var local = Local(year: date.year!, month: date.month!, day: date.day!, hour: nil, minute: nil)
        if parts.count == 2 {
            let clock = parts[1].split(separator: ":")
            guard clock.count == 2, let hour = Int(clock[0]), let minute = Int(clock[1]),
                  (0...23).contains(hour), (0...59).contains(minute) else { return nil }
            local.hour = hour
            local.minute = minute
        }
        return local
    }

    private static func absolute(_ text: String) -> Local? {
        let dateAndTime = text.split(separator: "T")
        let date = dateAndTime[0].split(separator: "-").compactMap { Int($0) }
        guard date.count == 3 else { return nil }
        var local = Local(year: date[0], month: date[1], day: date[2], hour: nil, minute: nil)
        if dateAndTime.count == 2 {
            let clock = dateAndTime[1].split(separator: ":").compactMap { Int($0.prefix(2)) }
            guard clock.count >= 2 else { return nil }
            local.hour = clock[0]
            local.minute = clock[1]
        }
        return local
    }
}
