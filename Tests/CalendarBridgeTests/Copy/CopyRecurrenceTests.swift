import CalendarBridge
import Foundation
import Testing
import TestSupport

@Suite("Copy of recurring series: series, instances, exceptions, fallback")
struct CopyRecurrenceTests {
    typealias F = CopyFixtures

    /// A weekly Monday series (6 from 2 March, 5 in March) with 16 March cancelled and 23 March moved
    /// to Tuesday 24 March 11:00.
    static func seedSeriesWithExceptions(_ source: InMemoryCalendarProvider) async throws -> Event {
        let master = await source.seed(
            F.event(
                "Weekly sync", F.at("2026-03-02T10:00:00", "America/New_York"), F.at("2026-03-02T10:30:00", "America/New_York"),
                recurrence: ["RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=6"]),
            in: "work")
        let occurrences = try await source.listEvents(calendarID: "work", range: F.window, expand: true)
            .filter { $0.seriesID == master.id }
        #expect(occurrences.count == 5)
        try await source.deleteEvent(id: occurrences[2].id, calendarID: "work")
        var moved = occurrences[3]
        moved.start = F.at("2026-03-24T11:00:00", "America/New_York")
        moved.end = F.at("2026-03-24T11:30:00", "America/New_York")
        _ = try await source.updateEvent(moved)
        return master
    }

    static func starts(_ events: [Event]) -> [String] { events.map { $0.start.localText ?? "?" } }

    @Test("series: copied as a series; a cancelled occurrence is deleted and a moved one patched on the target")
    func seriesWithExceptions() async throws {
        for targetKind in [ProviderKind.microsoft, .google] {
            let (source, target) = F.accounts(source: .google, target: targetKind)
            let master = try await Self.seedSeriesWithExceptions(source)
            let result = try await F.engine(source, target).run()
            #expect(result.created == 1)
            #expect(result.updated == 2)  // one occurrence cancelled, one moved
            #expect(result.deleted == 0)
            #expect(result.fallbacks.isEmpty)
            #expect(result.items.filter(\.occurrence).count == 2)

            let stored = await target.storedEvents(in: "home")
            #expect(stored.count == 1)
            #expect(stored.first?.recurrence == master.recurrence)
            #expect(stored.first?.start == master.start)
            let sourceView = try await source.listEvents(calendarID: "work", range: F.window, expand: true)
            let targetView = try await target.listEvents(calendarID: "home", range: F.window, expand: true)
            #expect(Self.starts(targetView) == Self.starts(sourceView))
            #expect(Self.starts(targetView) == ["2026-03-02T10:00:00", "2026-03-09T10:00:00", "2026-03-24T11:00:00", "2026-03-30T10:00:00"])
            #expect(targetView.map(\.end) == sourceView.map(\.end))

            await target.clearLog()
            let second = try await F.engine(source, target).run()
            #expect(second.unchanged == 1 && second.updated == 0 && second.created == 0)
            #expect(await target.writeLog.isEmpty)
        }
    }

    @Test("instances: every occurrence in the window becomes a single event")
    func instances() async throws {
        let (source, target) = F.accounts(source: .google, target: .microsoft)
        _ = try await Self.seedSeriesWithExceptions(source)
        let result = try await F.engine(source, target, recurrence: .instances).run()
        #expect(result.created == 4)
        let stored = await target.storedEvents(in: "home")
        #expect(stored.allSatisfy { $0.recurrence == nil && $0.seriesID == nil })
        #expect(Set(Self.starts(stored)) == ["2026-03-02T10:00:00", "2026-03-09T10:00:00", "2026-03-24T11:00:00", "2026-03-30T10:00:00"])
        let second = try await F.engine(source, target, recurrence: .instances).run()
        #expect(second.unchanged == 4 && second.created == 0)
    }

    @Test("a weekly series across the US DST change keeps 09:00 Los Angeles time in every occurrence")
    func seriesAcrossDST() async throws {
        let (source, target) = F.accounts(source: .microsoft, target: .google)
        _ = await source.seed(
            F.event(
                "Planning", F.at("2026-03-02T09:00:00", "America/Los_Angeles"), F.at("2026-03-02T09:45:00", "America/Los_Angeles"),
                recurrence: ["RRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20260317T000000Z"]),
            in: "work")
        _ = try await F.engine(source, target).run()
        let occurrences = try await target.listEvents(calendarID: "home", range: F.window, expand: true)
        #expect(Self.starts(occurrences) == ["2026-03-02T09:00:00", "2026-03-09T09:00:00", "2026-03-16T09:00:00"])
        #expect(occurrences.allSatisfy { $0.start.zone == "America/Los_Angeles" })
        let utcHours = occurrences.map { LocalDateTime(instant: $0.start.instant(allDayZone: F.utc), in: F.utc).hour }
        #expect(utcHours == [17, 16, 16])
    }

    @Test("a rule the target cannot store falls back to instances for that series, and the result says so")
    func fallback() async throws {
        let (source, target) = F.accounts(source: .google, target: .microsoft)
        let odd = await source.seed(
            F.event(
                "Twice daily", F.at("2026-03-02T09:00:00", "Europe/Berlin"), F.at("2026-03-02T09:10:00", "Europe/Berlin"),
                recurrence: ["RRULE:FREQ=DAILY;COUNT=3;BYHOUR=9,15"]),
            in: "work")
        let plain = await source.seed(
            F.event(
                "Daily", F.at("2026-03-02T08:00:00", "Europe/Berlin"), F.at("2026-03-02T08:10:00", "Europe/Berlin"),
                recurrence: ["RRULE:FREQ=DAILY;COUNT=3"]),
            in: "work")
        let result = try await F.engine(source, target).run()
        #expect(result.fallbacks.count == 1)
        #expect(result.fallbacks.first?.sourceEventID == odd.id)
        #expect(result.fallbacks.first?.reason.contains("BYHOUR") == true)
        #expect(result.fallbacks.first?.occurrences == 3)
        #expect(result.created == 4)  // 3 instances + 1 series
        let stored = await target.storedEvents(in: "home")
        #expect(stored.filter { $0.recurrence == nil && $0.title == "Twice daily" }.count == 3)
        #expect(stored.filter { $0.recurrence != nil }.map(\.origin?.eventID) == [plain.id])
        #expect(result.items.filter { $0.title == "Twice daily" }.allSatisfy { $0.reason?.contains("as instances") == true })

        let second = try await F.engine(source, target).run()
        #expect(second.unchanged == 4 && second.created == 0 && second.failed == 0)

        // Google stores any rule: no fallback there.
        let (source2, google) = F.accounts(source: .google, target: .google)
        await source2.seed(odd, in: "work")
        let direct = try await F.engine(source2, google).run()
        #expect(direct.fallbacks.isEmpty && direct.created == 1)
    }

    @Test("EXDATE lines on a Graph target: the rule is stored without them and the excluded occurrence deleted")
    func exdateToGraph() async throws {
        let (source, target) = F.accounts(source: .google, target: .microsoft)
        _ = await source.seed(
            F.event(
                "Daily", F.at("2026-03-02T09:00:00", "Europe/Berlin"), F.at("2026-03-02T09:30:00", "Europe/Berlin"),
                recurrence: ["RRULE:FREQ=DAILY;COUNT=5", "EXDATE;TZID=Europe/Berlin:20260304T090000"]),
            in: "work")
        let result = try await F.engine(source, target).run()
        #expect(result.fallbacks.isEmpty)
        #expect(result.created == 1 && result.updated == 1)
        #expect(await target.storedEvents(in: "home").first?.recurrence?.lines == ["RRULE:FREQ=DAILY;COUNT=5"])
        let occurrences = try await target.listEvents(calendarID: "home", range: F.window, expand: true)
        #expect(Self.starts(occurrences).map { String($0.prefix(10)) } == ["2026-03-02", "2026-03-03", "2026-03-05", "2026-03-06"])
        let second = try await F.engine(source, target).run()
        #expect(second.updated == 0 && second.unchanged == 1)
    }

    /// Each case starts at 09:00 in Berlin on the day it names.
    @Test("which rules a patterned target can store", arguments: [
        (["RRULE:FREQ=DAILY;INTERVAL=2;COUNT=10"], "2026-03-02", nil),
        (["RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR;UNTIL=20261231T235959Z"], "2026-03-02", nil),
        (["RRULE:FREQ=MONTHLY;BYDAY=-1FR"], "2026-03-27", nil),
        (["RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=1"], "2026-03-02", nil),
        (["RRULE:FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=15"], "2026-03-15", nil),
        (["RRULE:FREQ=DAILY", "EXDATE:20260304T090000Z"], "2026-03-02", nil),
        (["RRULE:FREQ=MONTHLY;BYMONTHDAY=-1"], "2026-03-31", nil),
        (["RRULE:FREQ=MONTHLY;BYMONTHDAY=31"], "2026-03-31", "skips months"),
        (["RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29"], "2028-02-29", "skips months"),
        // A start off the rule: Exchange, libical and dateutil all begin at the first Tuesday.
        (["RRULE:FREQ=WEEKLY;BYDAY=TU"], "2026-03-02", nil),
        // The first Monday of the year is January's; every other month from January all have a 30th.
        (["RRULE:FREQ=YEARLY;BYDAY=1MO"], "2026-01-05", nil),
        (["RRULE:FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=30"], "2026-01-30", nil),
        (["RRULE:FREQ=YEARLY;BYMONTHDAY=15"], "2026-03-15", "every month"),
        (["RRULE:FREQ=MONTHLY;BYDAY=MO;BYSETPOS=2,3"], "2026-03-09", "BYSETPOS"),
        (["RRULE:FREQ=MONTHLY;BYDAY=2MO;BYSETPOS=1"], "2026-03-09", "BYSETPOS"),
        (["RRULE:FREQ=DAILY;BYHOUR=9"], "2026-03-02", "BYHOUR"),
        (["RRULE:FREQ=WEEKLY;BYDAY=MO", "RRULE:FREQ=WEEKLY;BYDAY=FR"], "2026-03-02", "one RRULE"),
        (["RRULE:FREQ=DAILY", "RDATE:20260310T090000Z"], "2026-03-02", "RDATE"),
        (["RRULE:FREQ=DAILY", "EXRULE:FREQ=WEEKLY"], "2026-03-02", "EXRULE"),
        (["RRULE:FREQ=MONTHLY;BYMONTHDAY=1,15"], "2026-03-01", "one day of the month"),
        (["RRULE:FREQ=MONTHLY;BYDAY=5MO"], "2026-03-30", "number 5"),
        (["RRULE:FREQ=HOURLY"], "2026-03-02", "HOURLY"),
    ] as [([String], String, String?)])
    func seriesFit(lines: [String], day: String, refusal: String?) {
        let zone = TimeZone(identifier: "Europe/Berlin")!
        let start = EventTime.timed(
            instant: LocalDateTime(date: LocalDate(day)!, hour: 9).instant(in: zone), zone: "Europe/Berlin")
        let result = SeriesFit.recurrence(for: Recurrence(lines: lines), start: start, on: .patterned)
        switch result {
        case .success(let kept):
            #expect(refusal == nil)
            #expect(kept.lines == lines.filter { !$0.hasPrefix("EXDATE") })
        case .failure(let why):
            #expect(refusal.map { why.reason.contains($0) } == true, "\(why.reason)")
        }
        if case .failure = SeriesFit.recurrence(for: Recurrence(lines: lines), start: start, on: .rfc5545) {
            Issue.record("Google stores any rule")
        }
    }
}
