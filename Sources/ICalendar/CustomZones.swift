import CLibical
import CalendarBridge
import Foundation
import TimeZones

/// The file's own `VTIMEZONE`s whose `TZID` names no known zone (Outlook's "Customized Time Zone", a made-up
/// name): times are read by the file's rules, and each zone is solved to the IANA zone with exactly the same
/// offsets, as Graph's custom zones are (`WindowsZones.ianaZone(equivalentTo:)`), so series repeat on a real
/// zone's clock. Used inside `LibicalSession.run` only; answers are kept per zone and year.
final class CustomZones {
    /// A time read in a custom zone: its instant by the file's rules and the equivalent IANA zone, if any.
    struct Reading {
        var instant: Date
        var iana: String?
        /// The offset at the instant, for a zone that matches no IANA zone.
        var offset: Int
    }

    /// How far after a time the zone must agree: the occurrences an import compares (a year ahead) and more.
    static let span: TimeInterval = 3 * 366 * 86_400

    let calendar: OpaquePointer
    private var solved: [String: String?] = [:]

    init(calendar: OpaquePointer) { self.calendar = calendar }

    /// `local` read in the file's `VTIMEZONE` `tzid`; nil when the file has no such zone.
    func read(_ local: LocalDateTime, tzid: String) -> Reading? {
        guard let zone = icalcomponent_get_timezone(calendar, tzid) else { return nil }
        var fields = icaltime_from_string(RecurrenceExpansion.SeriesStart.basic(local, isDate: false))
        var isDaylight: Int32 = 0
        let offset = Int(icaltimezone_get_utc_offset(zone, &fields, &isDaylight))
        let instant = local.instant(in: TimeZone(secondsFromGMT: 0)!) - TimeInterval(offset)
        // Solved over whole years from the start of the time's year, so a file's many times share one answer.
        let year = LocalDate(instant: instant, in: TimeZone(secondsFromGMT: 0)!).year
        let key = "\(year) \(tzid)"
        if solved[key] == nil {
            let from = LocalDate(year: year, month: 1, day: 1)!.startInstant(in: TimeZone(secondsFromGMT: 0)!) - 86_400
            solved[key] = Self.solve(zone, over: DateInterval(start: from, duration: Self.span + 366 * 86_400))
        }
        return Reading(instant: instant, iana: solved[key] ?? nil, offset: Self.offset(zone, at: instant))
    }

    /// The IANA zone whose offsets equal the `VTIMEZONE`'s throughout `interval`.
    static func solve(_ zone: OpaquePointer, over interval: DateInterval) -> String? {
        let changes = self.changes(zone, in: interval)
        let offsets = Set(([interval.start] + changes).map { offset(zone, at: $0) })
        return WindowsZones.ianaZone(
            equivalentTo: { offset(zone, at: $0) }, changes: changes, over: interval, named: nil, observesDaylightTime: offsets.count > 1)
    }

    /// Seconds east of UTC at `instant`, by the file's rules.
    static func offset(_ zone: OpaquePointer, at instant: Date) -> Int {
        let utc = LocalDateTime(instant: instant, in: TimeZone(secondsFromGMT: 0)!)
        var fields = icaltime_from_string(RecurrenceExpansion.SeriesStart.basic(utc, isDate: false) + "Z")
        var isDaylight: Int32 = 0
        return Int(icaltimezone_get_utc_offset_of_utc_time(zone, &fields, &isDaylight))
    }

    /// Every onset of the zone's `STANDARD` and `DAYLIGHT` parts in `interval` (its `DTSTART`, `RDATE`s and
    /// `RRULE`, expanded by libical), as instants.
    static func changes(_ zone: OpaquePointer, in interval: DateInterval) -> [Date] {
        guard let component = icaltimezone_get_component(zone) else { return [] }
        let utc = TimeZone(secondsFromGMT: 0)!
        let last = LocalDate(instant: interval.end, in: utc).adding(days: 1)
        var instants: [Date] = []
        for kind in [ICAL_XSTANDARD_COMPONENT, ICAL_XDAYLIGHT_COMPONENT] {
            var part = icalcomponent_get_first_component(component, kind)
            while let p = part {
                defer { part = icalcomponent_get_next_component(component, kind) }
                guard let startProperty = icalcomponent_get_first_property(p, ICAL_DTSTART_PROPERTY),
                    let fromProperty = icalcomponent_get_first_property(p, ICAL_TZOFFSETFROM_PROPERTY)
                else { continue }
                let from = TimeInterval(icalproperty_get_tzoffsetfrom(fromProperty))
                var start = icalproperty_get_dtstart(startProperty)
                start.zone = nil
                var onsets = [start]
                var rdate = icalcomponent_get_first_property(p, ICAL_RDATE_PROPERTY)
                while let r = rdate {
                    onsets.append(icalproperty_get_rdate(r).time)
                    rdate = icalcomponent_get_next_property(p, ICAL_RDATE_PROPERTY)
                }
                if let ruleProperty = icalcomponent_get_first_property(p, ICAL_RRULE_PROPERTY),
                    let iterator = icalrecur_iterator_new(icalproperty_get_rrule(ruleProperty), start)
                {
                    defer { icalrecur_iterator_free(iterator) }
                    // Yearly rules give a few onsets a year; the bound only stops a rule that never ends early.
                    for _ in 0..<5_000 {
                        let t = icalrecur_iterator_next(iterator)
                        guard icaltime_is_null_time(t) == 0, t.year <= Int32(last.year) else { break }
                        onsets.append(t)
                    }
                }
                for t in onsets {
                    guard let local = RecurrenceExpansion.local(t) else { continue }
                    let instant = local.instant(in: utc) - from
                    if interval.contains(instant) { instants.append(instant) }
                }
            }
        }
        return instants.sorted()
    }

    /// A zone name for a fixed offset: `Etc/GMT-1` is one hour east of UTC (POSIX signs); UTC when the offset
    /// is not whole hours (the instant stays right, the clock shown is UTC's).
    static func fixedZone(_ offset: Int) -> String {
        guard offset != 0, offset % 3600 == 0, (-12...14).contains(offset / 3600) else { return "UTC" }
        let hours = offset / 3600
        return "Etc/GMT" + (hours > 0 ? "-" : "+") + String(abs(hours))
    }
}
