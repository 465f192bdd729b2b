import Foundation

/// Graph's `patternedRecurrence` (pattern + range) and its expansion into occurrence dates, as Exchange
/// reads a pattern (MS-OXOCAL 2.2.1.44, the EWS recurrence elements, Graph's recurrencePattern), not as
/// RFC 5545 reads the nearest rule: a `dayOfMonth` past a month's end is that month's last day (day 31 in
/// April is 30 April, 29 February in a common year is the 28th); `index` counts the matching days within
/// the month (`last` is the last of them); weeks start on `firstDayOfWeek` and every n-th week counts from
/// the week holding `startDate`; `numberOfOccurrences` and `endDate` (inclusive) count from the first
/// occurrence on or after `startDate`. docs/recurrence.md lists where this differs from RFC 5545.
struct GraphRecurrence: Codable, Sendable, Equatable {
    static let patternTypes = ["daily", "weekly", "absoluteMonthly", "relativeMonthly", "absoluteYearly", "relativeYearly"]
    static let rangeTypes = ["endDate", "noEnd", "numbered"]
    static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
    static let indexes = ["first", "second", "third", "fourth", "last"]
    /// More occurrences than this in one expansion are not produced (a guard against absurd windows).
    static let expansionLimit = 10_000

    var patternType: String
    var interval: Int
    var month: Int
    var dayOfMonth: Int
    var daysOfWeek: [String]
    var firstDayOfWeek: String
    var index: String
    var rangeType: String
    var startDate: GraphLocalDate
    var endDate: GraphLocalDate?
    var numberOfOccurrences: Int
    var recurrenceTimeZone: String

    /// Reads the JSON Graph accepts; `defaultTimeZone` fills an absent `recurrenceTimeZone`.
    static func parse(_ value: Any, defaultTimeZone: String) throws(GraphError) -> GraphRecurrence {
        guard let object = value as? [String: Any], let pattern = object["pattern"] as? [String: Any],
              let range = object["range"] as? [String: Any] else {
            throw GraphError.invalidRequest("The recurrence must have a pattern and a range.")
        }
        func enumValue(_ dict: [String: Any], _ key: String, _ allowed: [String], _ type: String, default fallback: String?)
            throws(GraphError) -> String {
            guard let raw = dict[key], !(raw is NSNull) else {
                if let fallback { return fallback }
                throw GraphError.invalidRequest("The recurrence \(key) is required.")
            }
            guard let text = raw as? String,
                  let match = allowed.first(where: { $0.caseInsensitiveCompare(text) == .orderedSame }) else {
                throw GraphError.badRequest("Cannot convert the literal '\(raw)' to the expected type 'microsoft.graph.\(type)'.")
            }
            return match
        }
        func intValue(_ dict: [String: Any], _ key: String) throws(GraphError) -> Int {
            guard let raw = dict[key], !(raw is NSNull) else { return 0 }
            guard let number = GraphJSON.int(raw) else {
                throw GraphError.badRequest("Cannot convert the literal '\(raw)' to the expected type 'Edm.Int32'.")
            }
            return number
        }
        let patternType = try enumValue(pattern, "type", patternTypes, "recurrencePatternType", default: nil)
        var interval = try intValue(pattern, "interval")
        if pattern["interval"] == nil { interval = 1 }
        guard interval >= 1, interval <= 999 else { throw GraphError.invalidRequest("The recurrence interval must be between 1 and 999.") }
        var days: [String] = []
        if let raw = pattern["daysOfWeek"], !(raw is NSNull) {
            guard let list = raw as? [Any] else {
                throw GraphError.badRequest("Cannot convert the literal '\(raw)' to the expected type 'Collection(microsoft.graph.dayOfWeek)'.")
            }
            for item in list {
                guard let text = item as? String,
                      let match = weekdays.first(where: { $0.caseInsensitiveCompare(text) == .orderedSame }) else {
                    throw GraphError.badRequest("Cannot convert the literal '\(item)' to the expected type 'microsoft.graph.dayOfWeek'.")
                }
                if !days.contains(match) { days.append(match) }
            }
        }
        let firstDay = try enumValue(pattern, "firstDayOfWeek", weekdays, "dayOfWeek", default: "sunday")
        let index = try enumValue(pattern, "index", indexes, "weekIndex", default: "first")
        let month = try intValue(pattern, "month")
        let dayOfMonth = try intValue(pattern, "dayOfMonth")
        switch patternType {
        case "weekly", "relativeMonthly", "relativeYearly":
            guard !days.isEmpty else { throw GraphError.invalidRequest("The recurrence pattern requires daysOfWeek.") }
        default: break
        }
        if patternType == "absoluteMonthly" || patternType == "absoluteYearly" {
            guard (1...31).contains(dayOfMonth) else { throw GraphError.invalidRequest("The recurrence pattern requires a dayOfMonth between 1 and 31.") }
        }
        if patternType.hasSuffix("Yearly") {
            guard (1...12).contains(month) else { throw GraphError.invalidRequest("The recurrence pattern requires a month between 1 and 12.") }
        }
        let rangeType = try enumValue(range, "type", rangeTypes, "recurrenceRangeType", default: nil)
        guard let startText = range["startDate"] as? String, let startDate = GraphLocalDate.parse(startText) else {
            throw GraphError.invalidRequest("The recurrence range requires a valid startDate.")
        }
        var endDate: GraphLocalDate?
        if rangeType == "endDate" {
            guard let text = range["endDate"] as? String, let date = GraphLocalDate.parse(text), date >= startDate else {
                throw GraphError.invalidRequest("The recurrence range requires an endDate on or after its startDate.")
            }
            endDate = date
        }
        let count = try intValue(range, "numberOfOccurrences")
        if rangeType == "numbered", count < 1 {
            throw GraphError.invalidRequest("The recurrence range requires numberOfOccurrences of at least 1.")
        }
        var zone = defaultTimeZone
        if let text = range["recurrenceTimeZone"] as? String, !text.isEmpty { zone = text }
        return GraphRecurrence(patternType: patternType, interval: interval, month: month, dayOfMonth: dayOfMonth,
                               daysOfWeek: days, firstDayOfWeek: firstDay, index: index, rangeType: rangeType,
                               startDate: startDate, endDate: endDate,
                               numberOfOccurrences: rangeType == "numbered" ? count : 0, recurrenceTimeZone: zone)
    }

    /// The JSON Graph renders.
    var json: SandboxJSON {
        [
            "pattern": [
                "type": .string(patternType), "interval": .int(interval), "month": .int(month), "dayOfMonth": .int(dayOfMonth),
                "daysOfWeek": .array(daysOfWeek.map { .string($0) }), "firstDayOfWeek": .string(firstDayOfWeek),
                "index": .string(index),
            ],
            "range": [
                "type": .string(rangeType), "startDate": .string(startDate.string),
                "endDate": .string((endDate ?? GraphLocalDate(year: 1, month: 1, day: 1)).string),
                "recurrenceTimeZone": .string(recurrenceTimeZone), "numberOfOccurrences": .int(numberOfOccurrences),
            ],
        ]
    }

    /// Occurrence dates in order, from the range's start through `lastDate` (inclusive), honouring the range's
    /// end date and count.
    func dates(through lastDate: GraphLocalDate) -> [GraphLocalDate] {
        var result: [GraphLocalDate] = []
        let limit = min(rangeType == "numbered" ? numberOfOccurrences : Int.max, GraphRecurrence.expansionLimit)
        var last = lastDate
        if rangeType == "endDate", let endDate, endDate < last { last = endDate }
        guard startDate <= last, limit > 0 else { return [] }
        /// Adds a candidate; false when expansion is over.
        func emit(_ date: GraphLocalDate) -> Bool {
            if date > last { return false }
            if date >= startDate { result.append(date) }
            return result.count < limit
        }
        let wanted = Set(daysOfWeek.compactMap { GraphRecurrence.weekdays.firstIndex(of: $0) })
        switch patternType {
        case "daily":
            var date = startDate
            while emit(date) { date = date.adding(days: interval) }
        case "weekly":
            let first = GraphRecurrence.weekdays.firstIndex(of: firstDayOfWeek) ?? 0
            var weekStart = startDate.adding(days: -((startDate.weekday - first + 7) % 7))
            weeks: while true {
                for offset in 0..<7 {
                    let date = weekStart.adding(days: offset)
                    if date > last { break weeks }
                    if wanted.contains(date.weekday), !emit(date) { break weeks }
                }
                weekStart = weekStart.adding(days: 7 * interval)
            }
        case "absoluteMonthly", "relativeMonthly":
            var monthStart = GraphLocalDate(year: startDate.year, month: startDate.month, day: 1)
            while monthStart <= last {
                if let date = day(in: monthStart), !emit(date) { break }
                monthStart = monthStart.adding(months: interval)
            }
        case "absoluteYearly", "relativeYearly":
            var year = startDate.year
            while year <= last.year {
                if let date = day(in: GraphLocalDate(year: year, month: month, day: 1)), !emit(date) { break }
                year += interval
            }
        default:
            break
        }
        return result
    }

    /// The pattern's day in the month starting at `monthStart`, if it has one.
    private func day(in monthStart: GraphLocalDate) -> GraphLocalDate? {
        let length = GraphLocalDate.daysIn(year: monthStart.year, month: monthStart.month)
        if patternType.hasPrefix("absolute") {
            // Outlook puts "day 31" on the last day of shorter months.
            return GraphLocalDate(year: monthStart.year, month: monthStart.month, day: min(dayOfMonth, length))
        }
        let wanted = Set(daysOfWeek.compactMap { GraphRecurrence.weekdays.firstIndex(of: $0) })
        let matches = (0..<length).map { monthStart.adding(days: $0) }.filter { wanted.contains($0.weekday) }
        guard !matches.isEmpty else { return nil }
        switch index {
        case "last": return matches.last
        default:
            let position = GraphRecurrence.indexes.firstIndex(of: index) ?? 0
            return position < matches.count ? matches[position] : nil
        }
    }
}
