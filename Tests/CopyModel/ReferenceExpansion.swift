import CalendarBridge
import Foundation

/// The oracle's own expansion of the model's events into occurrences: a direct reading of the few rule
/// shapes the generator makes, sharing no code with the engine, the providers or the sandbox.
package enum ReferenceExpansion {
    /// Every occurrence (cancelled ones flagged) of the event at `index`, starting on or before `last`.
    package static func occurrences(of event: ModelEvent, index: Int, through last: LocalDate) -> [ModelOccurrence] {
        guard !event.deleted else { return [] }
        guard let rule = event.rule else {
            return [
                ModelOccurrence(
                    key: ModelKey.single(index), event: index, start: event.start, end: event.end, original: event.start,
                    originalEnd: event.end, cancelled: false, isSeries: false)
            ]
        }
        var result: [ModelOccurrence] = []
        var produced = 0
        for date in dates(rule, from: event.date, through: last) {
            if case .count(let n) = rule.end, produced >= n { break }
            if case .until(let until) = rule.end, date > until { break }
            produced += 1
            var one = event
            one.date = date
            let original = one.start
            let key = ModelKey.occurrence(index, original)
            var occurrence = ModelOccurrence(
                key: key, event: index, start: original, end: one.end, original: original, originalEnd: one.end, cancelled: false,
                isSeries: true)
            switch event.exceptions[key] {
            case .cancelled?: occurrence.cancelled = true
            case .moved(let start, let end)?:
                occurrence.start = start
                occurrence.end = end
            case nil: break
            }
            result.append(occurrence)
        }
        return result
    }

    /// The dates a rule produces from its first date, in order, through `last`.
    static func dates(_ rule: ModelRule, from first: LocalDate, through last: LocalDate) -> [LocalDate] {
        var out: [LocalDate] = []
        let step = max(1, rule.interval)
        switch rule.pattern {
        case .daily:
            var d = first
            while d <= last {
                out.append(d)
                d = d.adding(days: step)
            }
        case .weekly(let days):
            let weekStart = first.adding(days: -ModelZones.weekday(first))
            var week = 0
            while weekStart.adding(days: week * 7) <= last {
                for day in days.sorted() {
                    let d = weekStart.adding(days: week * 7 + day)
                    if d >= first && d <= last { out.append(d) }
                }
                week += step
            }
        case .monthlyDay(let day):
            var m = 0
            while let d = monthStart(first, plus: m), d <= last {
                if let c = LocalDate(year: d.year, month: d.month, day: day), c >= first, c <= last { out.append(c) }
                m += step
            }
        case .monthlyNth(let ordinal, let weekday):
            var m = 0
            while let d = monthStart(first, plus: m), d <= last {
                if let c = nth(ordinal, weekday, year: d.year, month: d.month), c >= first, c <= last { out.append(c) }
                m += step
            }
        case .yearly(let month, let day, _):
            var y = first.year
            while let c = LocalDate(year: y, month: month, day: day), c <= last {
                if c >= first { out.append(c) }
                y += step
            }
        }
        return out
    }

    static func monthStart(_ date: LocalDate, plus months: Int) -> LocalDate? {
        let total = date.month - 1 + months
        return LocalDate(year: date.year + total / 12, month: total % 12 + 1, day: 1)
    }

    /// The `ordinal`-th (1...4, or -1 for the last) `weekday` of a month.
    package static func nth(_ ordinal: Int, _ weekday: Int, year: Int, month: Int) -> LocalDate? {
        let length = ModelZones.daysIn(month: month, year: year)
        if ordinal > 0 {
            guard let first = LocalDate(year: year, month: month, day: 1) else { return nil }
            let day = 1 + (weekday - ModelZones.weekday(first) + 7) % 7 + 7 * (ordinal - 1)
            return day <= length ? LocalDate(year: year, month: month, day: day) : nil
        }
        guard let lastDay = LocalDate(year: year, month: month, day: length) else { return nil }
        return LocalDate(year: year, month: month, day: length - (ModelZones.weekday(lastDay) - weekday + 7) % 7)
    }
}
