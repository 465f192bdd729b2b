import CalendarBridge
import Foundation

/// The day a week starts on in the week and month grids: `--week-start`, else the locale's (`LC_ALL`,
/// `LC_TIME`, `LANG`, as POSIX orders them) when it starts weeks on Sunday, else Monday.
enum WeekStart: String, Sendable, CaseIterable {
    case monday, sunday

    static let option = Option<WeekStart>(
        "week-start", "monday|sunday", "First day of each week (default: the locale's, e.g. sunday for en_US, else monday).",
        expected: "monday or sunday"
    ) { WeekStart(rawValue: $0.lowercased()) }

    /// The option's value, else the locale's first weekday when it is Sunday, else Monday.
    static func resolve(_ option: WeekStart?, environment: [String: String]) -> WeekStart {
        if let option { return option }
        guard let name = ["LC_ALL", "LC_TIME", "LANG"].lazy.compactMap({ environment[$0] }).first(where: { !$0.isEmpty }) else {
            return .monday
        }
        // `en_US.UTF-8`, `de_DE@euro`: the language and region only. CLDR's table through Foundation.
        let identifier = String(name.prefix { $0 != "." && $0 != "@" })
        guard identifier != "C", identifier != "POSIX", !identifier.isEmpty else { return .monday }
        var calendar = Foundation.Calendar(identifier: .gregorian)
        calendar.locale = Locale(identifier: identifier)
        return calendar.firstWeekday == 1 ? .sunday : .monday
    }

    /// The first day of the week that contains `date`.
    func first(ofWeekContaining date: LocalDate) -> LocalDate {
        // 1970-01-04 was a Sunday, 1970-01-05 a Monday.
        let anchor = LocalDate(unchecked: 1970, month: 1, day: self == .sunday ? 4 : 5)
        let offset = ((anchor.days(to: date) % 7) + 7) % 7
        return date.adding(days: -offset)
    }

    /// The seven weekday names from this one, `Mon`..`Sun` or `Sun`..`Sat`.
    var weekdayNames: [String] {
        let first = self.first(ofWeekContaining: LocalDate(unchecked: 1970, month: 1, day: 7))
        return (0..<7).map { EventFormatting.weekdayName(first.adding(days: $0)) }
    }
}
