import CalbridgeSupport
import CalendarBridge
import Foundation
import JSON
import TestSupport
import Testing

@testable import GoogleCalendar

/// Google insert bodies are written from the event in key order; the requests sent must stay those the
/// dictionary path (`body(for:id:)` written by `SortedJSONWriter`) sent, byte for byte.
@Suite("Google insert bodies: written in order, the same bytes as the dictionary path")
struct GoogleInsertBodyTests {
    @Test("random events give the dictionary path's bytes", .ownThread, arguments: [71, 72, 73] as [UInt64])
    func sameAsDictionary(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
        let pieces = ["a", "Ü", "😀", " ", "\n", "\"", "\\", "/", "\u{1}", "<b>", "http://x/y", ""]
        func text() -> String { (0..<Int(random.next() % 6)).map { _ in pick(pieces) }.joined() }
        func time() -> EventTime {
            if random.next() % 3 == 0 {
                let fallback = LocalDate(instant: Date(timeIntervalSince1970: 0), in: .gmt)
                return .allDay(date: LocalDate(year: pick([1970, 2026, 9999]), month: pick([1, 6, 12]), day: pick([1, 15, 28])) ?? fallback)
            }
            let seconds = Double(Int64(bitPattern: random.next()) % 2_000_000_000)
            return .timed(instant: Date(timeIntervalSince1970: seconds), zone: pick(["UTC", "Europe/Berlin", "Asia/Kolkata", "America/St_Johns"]))
        }
        let statuses: [EventStatus] = [.confirmed, .tentative, .cancelled]
        let roles: [Attendee.Role] = [.required, .optional, .resource]
        let responses: [Attendee.Response] = [.accepted, .declined, .tentative, .needsAction, .organizer]
        for _ in 0..<2_000 {
            var event = Event(title: text(), start: time(), end: time())
            event.body = pick([nil, .text(text()), .html(text())])
            event.location = pick([nil, text()])
            event.recurrence = pick([nil, Recurrence(lines: ["RRULE:FREQ=WEEKLY;COUNT=3"]), Recurrence(lines: ["RRULE:FREQ=DAILY", "EXDATE:20261201T090000Z"])])
            event.status = pick(statuses)
            event.showAs = pick(ShowAs.allCases)
            event.sensitivity = pick(Sensitivity.allCases)
            event.attendees = (0..<Int(random.next() % 3)).map { _ in
                var attendee = Attendee(name: pick([nil, text()]), email: text() + "@example.com", role: pick(roles))
                attendee.response = pick(responses)
                return attendee
            }
            event.reminders = random.next() % 4 == 0 ? nil : (0..<Int(random.next() % 7)).map { _ in
                Reminder(minutesBefore: pick([-5, 0, 10, 10, 1440, 50_000]), method: pick([.popup, .email]))
            }
            if random.next() % 2 == 0 {
                event.origin = OriginMarker(
                    provider: .microsoft, account: "tenant/" + text(), calendarID: "AAMk" + text(), eventID: "AAMkE" + text(),
                    contentHash: String(repeating: "ab", count: 32))
            }
            event.extendedProperties = pick([[:], ["projectCode": text()], ["Room.Name": "4.12", "b": text()]])
            let id: String? = pick([nil, "abc123def"])
            let expected = try SortedJSONWriter.data(GoogleEventMapping.body(for: event, id: id))
            let written = try #require(try GoogleEventMapping.insertBody(for: event, id: id))
            #expect(written == expected, "\(String(decoding: written, as: UTF8.self))\n\(String(decoding: expected, as: UTF8.self))")
        }
    }

    @Test("a zone that is no IANA zone fails both paths alike, the start's named first")
    func badZones() {
        let now = Date()
        for (start, end) in [("Nowhere/Start", "Nowhere/End"), ("UTC", "Nowhere/End")] {
            let event = Event(title: "t", start: .timed(instant: now, zone: start), end: .timed(instant: now, zone: end))
            var written: CalendarError?
            var expected: CalendarError?
            do { _ = try GoogleEventMapping.insertBody(for: event, id: nil) } catch { written = error }
            do { _ = try GoogleEventMapping.body(for: event, id: nil) } catch { expected = error }
            #expect(written != nil && written?.description == expected?.description, "\(String(describing: written))")
        }
    }

    @Test("a property name the ordered writer does not order sends the caller to the dictionary path")
    func unorderedName() throws {
        var event = Event(title: "t", start: .allDay(date: LocalDate(instant: Date(), in: .gmt)), end: .allDay(date: LocalDate(instant: Date(), in: .gmt)))
        event.extendedProperties = ["project_code": "x"]
        #expect(try GoogleEventMapping.insertBody(for: event, id: nil) == nil)
    }
}
