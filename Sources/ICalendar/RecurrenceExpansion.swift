import CLibical
import CalendarBridge
import Foundation

/// The occurrences of a series as RFC 5545 defines them, computed by libical (`icalrecur_iterator`): the
/// one expansion of iCalendar rules in calbridge.
///
/// A timed series repeats on the wall clock of its start's zone (09:00 Berlin stays 09:00 across daylight
/// saving); an all-day series on dates. `UNTIL` in UTC is compared with each occurrence's instant, as the
/// RFC says. `EXDATE` lines remove occurrences, `RDATE` lines add them.
public enum RecurrenceExpansion {
    /// The most occurrences one expansion returns when the caller gives no smaller limit.
    public static let defaultLimit = 10_000

    /// The most times libical is asked for in one expansion, counting those before `since`: a rule that
    /// repeats every minute for years is refused rather than stepped through.
    public static let maxSteps = 1_000_000

    /// One occurrence of a series: its start, and its own length where an `RDATE` period gives one.
    public struct Occurrence: Sendable, Hashable {
        public var start: EventTime
        /// The length an `RDATE;VALUE=PERIOD` gives this occurrence; nil: the series' length.
        public var duration: TimeInterval?

        public init(start: EventTime, duration: TimeInterval? = nil) {
            self.start = start
            self.duration = duration
        }
    }

    /// Occurrence starts of a series, in order: those on or after `since` and on or before `last` (dates in
    /// the series' zone), at most `limit` of them. (`occurrences` with the lengths of `RDATE` periods.)
    public static func starts(
        of recurrence: Recurrence, from start: EventTime, since: LocalDate? = nil, through last: LocalDate, limit: Int = defaultLimit
    ) throws(ICalendarError) -> [EventTime] {
        try occurrences(of: recurrence, from: start, since: since, through: last, limit: limit).map(\.start)
    }

    /// The occurrences of a series, in order: those on or after `since` and on or before `last` (dates in
    /// the series' zone), at most `limit` of them. A series of `RDATE`s without an `RRULE` is its `DTSTART`
    /// and those dates (RFC 5545 §3.8.5.2); an `RDATE` of a period gives its occurrence its own length.
    /// - Parameters:
    ///   - recurrence: the series' `RRULE`, `EXDATE` and `RDATE` lines.
    ///   - start: the series' start (`DTSTART`): a date, or an instant with the IANA zone it repeats in.
    ///   - since: occurrences before this date are skipped, not counted against `limit`.
    /// - Throws: `ICalendarError` when libical refuses a line, the rule cannot be iterated, the zone is
    ///   unknown, or the rule would keep libical searching (`RuleFeasibility`) or gives more than `maxSteps`
    ///   times before `last`.
    public static func occurrences(
        of recurrence: Recurrence, from start: EventTime, since: LocalDate? = nil, through last: LocalDate, limit: Int = defaultLimit
    ) throws(ICalendarError) -> [Occurrence] {
        let series = try SeriesStart(start)
        for line in recurrence.lines where line.contains(where: { $0 == "\r" || $0 == "\n" }) {
            throw ICalendarError("a recurrence line spans several lines: '\(line.prefix(40))'; give one property per line")
        }
        // libical cannot be interrupted once it searches: rules it would search for too long are refused first.
        for line in recurrence.lines where line.uppercased().hasPrefix("RRULE:") {
            try RuleFeasibility.check(line, from: series.local.date)
        }
        return try LibicalSession.run { () throws(ICalendarError) -> [Occurrence] in
            try expand(recurrence, series: series, since: since, last: last, limit: max(0, limit))
        }
    }

    /// The series' start as libical needs it: wall-clock fields and a zone.
    struct SeriesStart: Sendable {
        var local: LocalDateTime
        var isDate: Bool
        var zone: TimeZone
        var zoneName: String?

        init(_ start: EventTime) throws(ICalendarError) {
            switch start {
            case .allDay(let date):
                local = LocalDateTime(date: date)
                isDate = true
                zone = TimeZone(secondsFromGMT: 0)!
            case .timed(let instant, let name):
                guard let tz = TimeZone(identifier: name) else {
                    throw ICalendarError("unknown time zone '\(name)': use an IANA name such as Europe/Berlin")
                }
                zone = tz
                zoneName = name
                local = LocalDateTime(instant: instant, in: tz)
                local.nanosecond = 0
                isDate = false
            }
        }

        /// `DTSTART` as iCalendar text (`20260105T090000` or `20260105`).
        var text: String { Self.basic(local, isDate: isDate) }

        static func basic(_ local: LocalDateTime, isDate: Bool) -> String {
            let digits = LocalDateTime(date: local.date, hour: local.hour, minute: local.minute, second: local.second)
                .format(fractionDigits: 0).filter { $0.isNumber }
            return isDate ? String(digits.prefix(8)) : String(digits.prefix(8)) + "T" + String(digits.dropFirst(8))
        }

        /// The occurrence at wall-clock `t` (libical's answer) as an event time.
        func eventTime(_ t: icaltimetype) -> EventTime? {
            guard let date = LocalDate(year: Int(t.year), month: Int(t.month), day: Int(t.day)) else { return nil }
            if isDate || t.is_date != 0 { return .allDay(date: date) }
            let local = LocalDateTime(date: date, hour: Int(t.hour), minute: Int(t.minute), second: Int(t.second))
            return .timed(instant: local.instant(in: zone), zone: zoneName ?? "UTC")
        }
    }

    static func expand(_ recurrence: Recurrence, series: SeriesStart, since: LocalDate?, last: LocalDate, limit: Int) throws(ICalendarError)
        -> [Occurrence]
    {
        // A VEVENT of the series' lines, read by libical's parser: its own reading of RRULE, EXDATE and RDATE.
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//calbridge//recurrence//EN\r\nBEGIN:VEVENT\r\nUID:expansion\r\n"
        text += "DTSTAMP:20000101T000000Z\r\n"
        text += series.isDate ? "DTSTART;VALUE=DATE:\(series.text)\r\n" : "DTSTART:\(series.text)\r\n"
        for line in recurrence.lines { text += Self.workingAround(line) + "\r\n" }
        text += "END:VEVENT\r\nEND:VCALENDAR\r\n"
        guard let calendar = icalparser_parse_string(text) else {
            throw ICalendarError("libical could not read the recurrence: \(LibicalSession.lastError)")
        }
        defer { icalcomponent_free(calendar) }
        guard let event = icalcomponent_get_first_component(calendar, ICAL_VEVENT_COMPONENT) else {
            throw ICalendarError("libical could not read the recurrence: no event")
        }
        if let bad = firstError(in: event) { throw ICalendarError("libical refused a recurrence line: \(bad)") }

        var dtstart = icaltime_from_string(series.text)
        if !series.isDate, let name = series.zoneName {
            guard let zone = icaltimezone_get_builtin_timezone(name) ?? icaltimezone_get_builtin_timezone_from_tzid(name)
            else { throw ICalendarError("libical does not know the time zone '\(name)'") }
            dtstart = icaltime_set_timezone(&dtstart, zone)
        }

        var found: [LocalDateTime: Occurrence] = [:]
        var ruleCount = 0
        var property = icalcomponent_get_first_property(event, ICAL_RRULE_PROPERTY)
        while let p = property {
            ruleCount += 1
            var rule = icalproperty_get_rrule(p)
            guard rule.freq != ICAL_NO_RECURRENCE else { throw ICalendarError("libical refused the RRULE: \(LibicalSession.lastError)") }
            guard let iterator = icalrecur_iterator_new(rule, dtstart) else {
                throw ICalendarError("libical cannot expand the RRULE: \(LibicalSession.lastError)")
            }
            defer { icalrecur_iterator_free(iterator) }
            var produced = 0
            var steps = 0
            while produced < limit {
                let t = icalrecur_iterator_next(iterator)
                if icaltime_is_null_time(t) != 0 { break }
                guard let occurrence = series.eventTime(t), let local = Self.local(t) else { break }
                if local.date > last { break }
                steps += 1
                if steps > maxSteps {
                    throw ICalendarError(
                        "the rule gives more than \(maxSteps) occurrences before \(last) ('\(icalrecurrencetype_as_string(&rule).map { String(cString: $0) }?.prefix(80) ?? "")'): end it with COUNT or UNTIL"
                    )
                }
                if let since, local.date < since { continue }
                found[local] = Occurrence(start: occurrence)
                produced += 1
            }
            property = icalcomponent_get_next_property(event, ICAL_RRULE_PROPERTY)
        }
        if ruleCount == 0 {
            // RDATEs alone: DTSTART is the first occurrence (RFC 5545 §3.8.5.2), as libical's own iteration of a
            // component counts it.
            guard icalcomponent_get_first_property(event, ICAL_RDATE_PROPERTY) != nil else {
                throw ICalendarError("the recurrence has no RRULE or RDATE line")
            }
            let local = series.isDate ? LocalDateTime(date: series.local.date) : series.local
            if local.date <= last, since.map({ local.date >= $0 }) ?? true,
                let time = series.eventTime(Self.fields(local, isDate: series.isDate))
            {
                found[local] = Occurrence(start: time)
            }
        }

        // RDATE adds, EXDATE removes (RFC 5545 §3.8.5: the set is RRULE ∪ RDATE minus EXDATE).
        for (kind, add) in [(ICAL_RDATE_PROPERTY, true), (ICAL_EXDATE_PROPERTY, false)] {
            var property = icalcomponent_get_first_property(event, kind)
            while let p = property {
                var value = add ? icalproperty_get_rdate(p).time : icalproperty_get_exdate(p)
                // An RDATE of a period: its start, and the period's length for its occurrence.
                var duration: TimeInterval?
                if add, icaltime_is_null_time(value) != 0 {
                    let period = icalproperty_get_rdate(p).period
                    value = period.start
                    duration = try Self.length(of: period, property: p, series: series)
                }
                if icaltime_is_null_time(value) == 0 {
                    let local = try Self.seriesLocal(value, property: p, series: series)
                    if add {
                        if local.date <= last, since.map({ local.date >= $0 }) ?? true,
                            let time = series.eventTime(Self.fields(local, isDate: series.isDate))
                        {
                            found[local] = Occurrence(start: time, duration: series.isDate ? nil : duration)
                        }
                    } else {
                        // An all-day EXDATE names a date; a timed one a wall-clock time.
                        if series.isDate {
                            found = found.filter { $0.key.date != local.date }
                        } else {
                            found[local] = nil
                        }
                    }
                }
                property = icalcomponent_get_next_property(event, kind)
            }
        }
        return found.sorted { $0.key < $1.key }.prefix(limit).map(\.value)
    }

    /// The length of an `RDATE` period (`start/end` or `start/duration`); an end before the start is refused.
    static func length(of period: icalperiodtype, property: OpaquePointer, series: SeriesStart) throws(ICalendarError) -> TimeInterval? {
        guard icaltime_is_null_time(period.start) == 0 else { return nil }
        if icaltime_is_null_time(period.end) != 0 { return TimeInterval(max(0, icaldurationtype_as_int(period.duration))) }
        let start = try seriesLocal(period.start, property: property, series: series).instant(in: series.zone)
        let end = try seriesLocal(period.end, property: property, series: series).instant(in: series.zone)
        guard end >= start else { throw ICalendarError("an RDATE period ends before it starts") }
        return end.timeIntervalSince(start)
    }

    /// `line`, with a rule libical 3.0 misreads restated in words it reads right: a yearly `BYMONTHDAY` without
    /// `BYMONTH` repeats in every month (RFC 5545 §3.3.10), which libical 3.0.16 reads as the start's month only;
    /// naming all twelve months is the same rule.
    static func workingAround(_ line: String) -> String {
        guard line.uppercased().hasPrefix("RRULE:"), var rule = RecurrenceRule(line), rule.frequency == .yearly,
            rule.byMonth.isEmpty, !rule.byMonthDay.isEmpty, rule.byDay.isEmpty,
            !rule.otherParts.contains(where: { ["BYWEEKNO", "BYYEARDAY"].contains($0.name) })
        else { return line }
        rule.byMonth = Array(1...12)
        return rule.line
    }

    /// The first `X-LIC-ERROR` libical attached while parsing (it keeps going and marks what it skipped).
    static func firstError(in event: OpaquePointer) -> String? {
        guard let p = icalcomponent_get_first_property(event, ICAL_XLICERROR_PROPERTY),
            let text = icalproperty_get_xlicerror(p)
        else { return nil }
        return String(cString: text)
    }

    static func local(_ t: icaltimetype) -> LocalDateTime? {
        guard let date = LocalDate(year: Int(t.year), month: Int(t.month), day: Int(t.day)) else { return nil }
        return t.is_date != 0
            ? LocalDateTime(date: date) : LocalDateTime(date: date, hour: Int(t.hour), minute: Int(t.minute), second: Int(t.second))
    }

    static func fields(_ local: LocalDateTime, isDate: Bool) -> icaltimetype {
        icaltime_from_string(SeriesStart.basic(local, isDate: isDate))
    }

    /// An EXDATE/RDATE value as a wall-clock time in the series' zone: a `Z` value or one with its own TZID
    /// is converted through its instant; a floating one is taken as it stands.
    static func seriesLocal(_ value: icaltimetype, property: OpaquePointer, series: SeriesStart) throws(ICalendarError)
        -> LocalDateTime
    {
        guard let local = local(value) else { throw ICalendarError("an EXDATE or RDATE value is not a real date") }
        if value.is_date != 0 || series.isDate { return LocalDateTime(date: local.date) }
        var zone: TimeZone?
        if icaltime_is_utc(value) != 0 {
            zone = TimeZone(secondsFromGMT: 0)
        } else if let parameter = icalproperty_get_first_parameter(property, ICAL_TZID_PARAMETER),
            let tzid = icalparameter_get_tzid(parameter)
        {
            let name = String(cString: tzid)
            guard let named = TimeZone(identifier: name) else {
                throw ICalendarError("unknown time zone '\(name)' in an EXDATE or RDATE: use an IANA name")
            }
            zone = named
        }
        guard let zone else { return local }
        return LocalDateTime(instant: local.instant(in: zone), in: series.zone)
    }
}
