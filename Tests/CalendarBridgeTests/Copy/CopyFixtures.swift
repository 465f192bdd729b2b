import CalendarBridge
import Foundation
import TestSupport

/// Shared setup for the copy tests: two in-memory accounts, times written as wall-clock text.
enum CopyFixtures {
    static let utc = TimeZone(secondsFromGMT: 0)!

    /// March 2026: contains the US DST change (8 March) and the EU one (29 March).
    static let window = TimeRange(start: instant("2026-03-01T00:00:00", "UTC"), end: instant("2026-04-01T00:00:00", "UTC"))

    static func instant(_ local: String, _ zone: String) -> Date {
        LocalDateTime(local)!.instant(in: TimeZone(identifier: zone)!)
    }

    static func at(_ local: String, _ zone: String) -> EventTime { .timed(instant: instant(local, zone), zone: zone) }

    static func day(_ text: String) -> EventTime { .allDay(date: LocalDate(text)!) }

    static func calendar(_ id: String, account: String, provider: ProviderKind, role: AccessRole = .owner) -> CalendarInfo {
        CalendarInfo(id: id, name: id.capitalized, account: account, provider: provider, isPrimary: true, accessRole: role)
    }

    /// A source account ("src", calendar "work") and a target account ("dst", calendar "home").
    static func accounts(
        source: ProviderKind = .microsoft, target: ProviderKind = .google, targetRole: AccessRole = .owner
    ) -> (source: InMemoryCalendarProvider, target: InMemoryCalendarProvider) {
        (
            InMemoryCalendarProvider(
                provider: source, account: "src", calendars: [calendar("work", account: "src", provider: source)]),
            InMemoryCalendarProvider(
                provider: target, account: "dst",
                calendars: [calendar("home", account: "dst", provider: target, role: targetRole)])
        )
    }

    static func engine(
        _ source: InMemoryCalendarProvider, _ target: InMemoryCalendarProvider, fields: CopyFields = .basic,
        recurrence: CopyRecurrence = .series, prune: Bool = false, dryRun: Bool = false,
        window: TimeRange = CopyFixtures.window, zone: TimeZone = CopyFixtures.utc, identity: String? = nil,
        removeCopies: Bool = false
    ) -> CopyEngine {
        CopyEngine(
            source: .init(provider: source, calendarID: "work", accountIdentity: identity),
            target: .init(provider: target, calendarID: "home"),
            options: CopyOptions(
                window: window, zone: zone, fields: fields, recurrence: recurrence, prune: prune, removeCopies: removeCopies,
                dryRun: dryRun))
    }

    /// The window from one date through another (inclusive), as `--from`/`--to` make it in `zone`.
    static func window(_ from: String, through to: String, in zone: TimeZone) -> TimeRange {
        TimeRange(start: LocalDate(from)!.startInstant(in: zone), end: LocalDate(to)!.adding(days: 1).startInstant(in: zone))
    }

    static func event(
        _ title: String, _ start: EventTime, _ end: EventTime, body: EventBody? = nil, location: String? = nil,
        recurrence: [String]? = nil
    ) -> Event {
        Event(title: title, body: body, location: location, start: start, end: end, recurrence: recurrence.map(Recurrence.init(lines:)))
    }

    /// A small mixed calendar: zoned, all-day multi-day, and a weekly series.
    static func seedMixed(_ source: InMemoryCalendarProvider) async -> [Event] {
        var seeded: [Event] = []
        seeded.append(await source.seed(
            event("Standup Berlin", at("2026-03-03T09:00:00", "Europe/Berlin"), at("2026-03-03T09:15:00", "Europe/Berlin")),
            in: "work"))
        seeded.append(await source.seed(
            event("Offsite", day("2026-03-10"), day("2026-03-13"), location: "Lisbon"), in: "work"))
        seeded.append(await source.seed(
            event(
                "Review", at("2026-03-12T14:00:00", "America/Los_Angeles"), at("2026-03-12T15:00:00", "America/Los_Angeles"),
                body: .text("Agenda:\n1. numbers")),
            in: "work"))
        seeded.append(await source.seed(
            event(
                "Weekly sync", at("2026-03-02T10:00:00", "America/New_York"), at("2026-03-02T10:30:00", "America/New_York"),
                recurrence: ["RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=6"]),
            in: "work"))
        return seeded
    }

    /// The projection a copy of `source` must equal.
    static func expectedCopy(of source: Event, on target: InMemoryCalendarProvider, fields: CopyFields = .basic) -> Event {
        CopyProjection(fields: fields, target: target.capabilities).copy(of: source, recurrence: source.recurrence)
    }
}
