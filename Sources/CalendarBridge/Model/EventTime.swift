import Foundation

/// When an event starts or ends: an instant with the IANA zone it was planned in, or a whole day.
///
/// The zone matters for copying: an event keeps its wall-clock time in its own zone across DST, so the
/// zone is carried along and never flattened to UTC. An event's end is exclusive (an all-day event on
/// 1 May ends `.allDay(2 May)`).
public enum EventTime: Sendable, Hashable, Codable {
    /// A moment in time, and the IANA zone (`Europe/Berlin`, `UTC`) its wall-clock time belongs to.
    case timed(instant: Date, zone: String)
    /// A date with no time of day (all-day events).
    case allDay(date: LocalDate)

    /// The instant, or for an all-day time local midnight in `zone`.
    public func instant(allDayZone zone: TimeZone) -> Date {
        switch self {
        case .timed(let instant, _): instant
        case .allDay(let date): date.startInstant(in: zone)
        }
    }

    /// Whether this is an all-day time.
    public var isAllDay: Bool {
        if case .allDay = self { return true }
        return false
    }

    /// The IANA zone of a timed value, nil for all-day.
    public var zone: String? {
        if case .timed(_, let zone) = self { return zone }
        return nil
    }

    /// The wall-clock time in the value's own zone, as `YYYY-MM-DDTHH:MM:SS` (no offset), or the date.
    /// Nil when a timed value's zone is unknown to the system.
    public var localText: String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        guard appendLocalText(to: &bytes) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `localText`'s bytes, appended; false (and nothing appended) when a timed value's zone is unknown.
    func appendLocalText(to bytes: inout [UInt8]) -> Bool {
        switch self {
        case .allDay(let date):
            date.append(to: &bytes)
        case .timed(let instant, let zone):
            guard let tz = TimeZone(identifier: zone) else { return false }
            let local = LocalDateTime(instant: instant, in: tz)
            local.append(to: &bytes, fractionDigits: local.nanosecond == 0 ? 0 : 7)
        }
        return true
    }
}
