import CalendarBridge
import Foundation
import TestSupport
import Testing

/// `OccurrencePlanner.carry`, the write `sync` sends when one side's version of an occurrence wins:
/// an occurrence that follows its series becomes what the target's own series makes of it.
@Suite("Carrying one occurrence to the other side")
struct CarryOccurrenceTests {
    typealias Fixture = OccurrenceFixture

    /// The source series (a copy on Outlook: a reminder of its own) and its third occurrence, following it.
    static func source() -> (master: Event, occurrence: Event) {
        var master = Event(title: "Standup", start: Fixture.at(0), end: Fixture.at(0, hours: 1))
        master.id = "b-master"
        master.recurrence = Recurrence(lines: ["RRULE:FREQ=WEEKLY;COUNT=5"])
        master.reminders = [Reminder(minutesBefore: 15)]
        var occurrence = Event(title: "Standup", start: Fixture.at(14), end: Fixture.at(14, hours: 1))
        occurrence.id = "b-3"
        occurrence.seriesID = master.id
        occurrence.originalStart = Fixture.at(14)
        occurrence.reminders = master.reminders
        return (master, occurrence)
    }

    /// The target's series (the original, on Google: default reminders, a body and a guest) and its third
    /// occurrence, an exception moved by 45 minutes and titled as the series was before.
    static func target() -> (master: Event, occurrence: Event) {
        var master = Event(title: "Standup", start: Fixture.at(0), end: Fixture.at(0, hours: 1))
        master.id = "g-master"
        master.recurrence = Recurrence(lines: ["RRULE:FREQ=WEEKLY;COUNT=5"])
        master.body = .text("Agenda in the team notes")
        master.attendees = [Attendee(name: "Ann", email: "ann@example.com")]
        var occurrence = Event(title: "Standup (old)", start: Fixture.at(14, hours: 0.75), end: Fixture.at(14, hours: 1.75))
        occurrence.id = "g-master_20261221T080000Z"
        occurrence.seriesID = master.id
        occurrence.originalStart = Fixture.at(14)
        occurrence.attendees = master.attendees
        occurrence.reminders = [Reminder(minutesBefore: 15)]
        return (master, occurrence)
    }

    @Test(
        "a source occurrence that follows its series makes the target's follow the target's series: its master's content at the series' time, its own guests kept"
    )
    func followingTakesTheTargetMastersContent() throws {
        let (sourceMaster, s) = Self.source()
        let (targetMaster, t) = Self.target()
        let entry = Fixture.planner.carry(master: sourceMaster, target: t, source: s, targetMaster: targetMaster)
        guard case .update(let written, _)? = entry.write else {
            Issue.record("not an update: \(String(describing: entry.write))")
            return
        }
        #expect(written.id == t.id && written.seriesID == targetMaster.id && written.originalStart == t.originalStart)
        #expect(written.title == "Standup" && written.body == targetMaster.body && written.reminders == nil)
        #expect(written.start == Fixture.at(14) && written.end == Fixture.at(14, hours: 1))
        #expect(written.attendees.map(\.email) == ["ann@example.com"])
        #expect(written.status == .confirmed && written.origin?.eventID == s.id)
        #expect(entry.item.reason == "occurrence restored to the series")
        // What `sync` stores for it: it follows the target's series.
        let projection = CopyProjection(fields: .basic, target: InMemoryCalendarProvider.defaultCapabilities(.microsoft))
        #expect(
            OccurrencePlanner.followsMaster(
                projection.copy(of: written), anchor: Fixture.at(14), masterCopy: projection.copy(of: targetMaster),
                masterStart: targetMaster.start))
    }

    @Test("a cancelled target occurrence comes back following the target's series")
    func cancelledComesBackFollowing() throws {
        let (sourceMaster, s) = Self.source()
        var (targetMaster, t) = Self.target()
        t.status = .cancelled
        targetMaster.location = "Room 4"
        let entry = Fixture.planner.carry(master: sourceMaster, target: t, source: s, targetMaster: targetMaster)
        guard case .update(let written, _)? = entry.write else {
            Issue.record("not an update: \(String(describing: entry.write))")
            return
        }
        #expect(written.status == .confirmed && written.location == "Room 4" && written.start == Fixture.at(14))
        #expect(entry.item.reason?.contains("restored") == true)
    }

    @Test("a source exception is carried as itself (the source's content), not the target series'")
    func exceptionIsCarriedAsItIs() throws {
        let (sourceMaster, following) = Self.source()
        var s = following
        let (targetMaster, t) = Self.target()
        s.title = "Standup, moved"
        s.start = Fixture.at(14, hours: 2)
        s.end = Fixture.at(14, hours: 3)
        let entry = Fixture.planner.carry(master: sourceMaster, target: t, source: s, targetMaster: targetMaster)
        guard case .update(let written, _)? = entry.write else {
            Issue.record("not an update: \(String(describing: entry.write))")
            return
        }
        #expect(
            written.title == "Standup, moved" && written.start == Fixture.at(14, hours: 2)
                && written.reminders == [Reminder(minutesBefore: 15)])
        #expect(entry.item.reason == "occurrence moved or changed in the source series")
    }

    @Test("an occurrence as its series makes it: all-day and timed; nil without an original time or across the two kinds")
    func followingTimes() throws {
        let (targetMaster, t) = Self.target()
        let timed = try #require(OccurrencePlanner.following(targetMaster, at: t))
        #expect(timed.start == Fixture.at(14) && timed.end == Fixture.at(14, hours: 1))

        let day = try #require(LocalDate(year: 2026, month: 12, day: 7))
        var allDay = Event(title: "Offsite", start: .allDay(date: day), end: .allDay(date: day.adding(days: 2)))
        allDay.recurrence = Recurrence(lines: ["RRULE:FREQ=WEEKLY;COUNT=3"])
        var third = t
        third.originalStart = .allDay(date: day.adding(days: 14))
        let following = try #require(OccurrencePlanner.following(allDay, at: third))
        #expect(following.start == .allDay(date: day.adding(days: 14)) && following.end == .allDay(date: day.adding(days: 16)))
        #expect(following.title == "Offsite")

        #expect(OccurrencePlanner.following(allDay, at: t) == nil)
        var unanchored = t
        unanchored.originalStart = nil
        #expect(OccurrencePlanner.following(targetMaster, at: unanchored) == nil)
    }

    @Test(
        "onto the original's side: a source exception carries its title, times and location only, onto the occurrence as the original holds it, and no marker"
    )
    func exceptionOntoTheOriginal() throws {
        let (sourceMaster, following) = Self.source()
        var (targetMaster, t) = Self.target()
        t.body = .text("Notes for this week only")
        var s = following
        s.title = "Standup, moved"
        s.location = "Room 2"
        s.start = Fixture.at(14, hours: 2)
        s.end = Fixture.at(14, hours: 3)
        s.reminders = [Reminder(minutesBefore: 30)]
        s.showAs = .free
        let entry = Fixture.planner.carry(master: sourceMaster, target: t, source: s, targetMaster: targetMaster, ontoOriginal: true)
        guard case .update(let written, let fields)? = entry.write else {
            Issue.record("not an update: \(String(describing: entry.write))")
            return
        }
        #expect(written.title == "Standup, moved" && written.location == "Room 2")
        #expect(written.start == Fixture.at(14, hours: 2) && written.end == Fixture.at(14, hours: 3))
        #expect(written.body == t.body && written.reminders == t.reminders && written.showAs == t.showAs)
        #expect(written.attendees.map(\.email) == ["ann@example.com"] && written.origin == nil)
        #expect(fields == [.title, .times, .location], "only what is carried is written")

        // Cancelled on the original's side (Google lists it by its ids alone): it comes back as its series
        // makes it, with the series' guests, moved as the source's.
        var cancelled = Event(title: "", start: t.originalStart ?? Fixture.at(14), end: t.originalStart ?? Fixture.at(14))
        cancelled.id = t.id
        cancelled.seriesID = targetMaster.id
        cancelled.originalStart = t.originalStart
        cancelled.status = .cancelled
        targetMaster.reminders = [Reminder(minutesBefore: 5)]
        let restored = Fixture.planner.carry(
            master: sourceMaster, target: cancelled, source: s, targetMaster: targetMaster, ontoOriginal: true)
        guard case .update(let back, let backFields)? = restored.write else {
            Issue.record("not an update: \(String(describing: restored.write))")
            return
        }
        #expect(back.status == .confirmed && back.title == "Standup, moved" && back.start == Fixture.at(14, hours: 2))
        #expect(
            back.body == targetMaster.body && back.reminders == [Reminder(minutesBefore: 5)] && back.attendees == targetMaster.attendees)
        #expect(restored.item.reason?.contains("restored") == true)
        #expect(backFields == .all, "its status is written too")
    }
}
