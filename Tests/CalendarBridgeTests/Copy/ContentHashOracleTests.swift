@testable import CalendarBridge
import CalbridgeSupport
import Foundation
import TestSupport
import Testing

/// Every copy made so far carries a content hash; a rerun recognises an unchanged copy only if the hash
/// of the same content is the same byte for byte. `contentHash` writes its input without strings now:
/// it must hash exactly what the string-building version (kept here as it was) hashed.
@Suite("CopyProjection.contentHash: the same hashes as the string-building version")
struct ContentHashOracleTests {
    /// `contentHash` as first written, by building strings: the oracle the byte version must match.
    static func oracleHash(of copy: Event) -> String {
        var bytes: [UInt8] = []
        func field(_ tag: String, _ text: String = "") {
            bytes.append(contentsOf: String(tag.utf8.count + text.utf8.count).utf8)
            bytes.append(UInt8(ascii: ":"))
            bytes.append(contentsOf: tag.utf8)
            bytes.append(contentsOf: text.utf8)
        }
        func timeKey(_ time: EventTime) -> String {
            switch time {
            case .allDay(let date): "date:\(date)"
            case .timed(let instant, let zone): "at:\(Int64((instant.timeIntervalSince1970 * 1000).rounded()))@\(zone)"
            }
        }
        field("calbridge-copy-v1")
        field(copy.title)
        switch copy.body {
        case .html(let s)?: field("html:", s)
        case .text(let s)?: field("text:", s)
        case nil: field("")
        }
        field(copy.location ?? "")
        field(timeKey(copy.start))
        field(timeKey(copy.end))
        field(copy.recurrence?.lines.joined(separator: "\n") ?? "")
        field(copy.showAs.rawValue)
        field(copy.sensitivity.rawValue)
        if let reminders = copy.reminders {
            field("reminders:", reminders.map { "\($0.method.rawValue)\($0.minutesBefore)" }.sorted().joined(separator: ","))
        } else {
            field("reminders:default")
        }
        field(copy.categories.sorted().joined(separator: "\n"))
        return SHA256.hex(bytes: bytes)
    }

    @Test("random events hash as before", .ownThread, arguments: [51, 52, 53] as [UInt64])
    func sameAsOracle(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
        let pieces = ["a", "Ü", "😀", " ", "\n", ":", "12", "<b>", ""]
        func text() -> String { (0..<Int(random.next() % 5)).map { _ in pick(pieces) }.joined() }
        func time() -> EventTime {
            if random.next() % 3 == 0 {
                let fallback = LocalDate(instant: Date(timeIntervalSince1970: 0), in: TimeZone.gmt)
                let date = LocalDate(year: pick([1, 999, 1970, 2026, 9999]), month: pick([1, 2, 12]), day: pick([1, 28, 31]))
                return .allDay(date: date ?? fallback)
            }
            // Before and after 1970, whole and fractional milliseconds, far from and near zero.
            let seconds = Double(Int64(bitPattern: random.next()) % 4_000_000_000) + pick([0, 0.0004, 0.0005, 0.123456, -0.0006])
            return .timed(instant: Date(timeIntervalSince1970: seconds), zone: pick(["UTC", "Europe/Berlin", "Etc/GMT+5", ""]))
        }
        for _ in 0..<3_000 {
            var event = Event(title: text(), start: time(), end: time())
            event.body = pick([nil, .text(text()), .html(text())])
            event.location = pick([nil, text()])
            event.recurrence = pick([nil, Recurrence(lines: []), Recurrence(lines: ["RRULE:FREQ=DAILY"]), Recurrence(lines: ["RRULE:FREQ=WEEKLY", "EXDATE:20261201"])])
            event.showAs = pick(ShowAs.allCases)
            event.sensitivity = pick(Sensitivity.allCases)
            event.reminders = (0..<Int(random.next() % 4)).map { _ in
                Reminder(minutesBefore: pick([0, 5, 10, 1440, -3, 40_320]), method: pick([.popup, .email]))
            }
            if random.next() % 4 == 0 { event.reminders = nil }
            event.categories = (0..<Int(random.next() % 3)).map { _ in text() }
            #expect(CopyProjection.contentHash(of: event) == Self.oracleHash(of: event), "\(event)")
        }
    }
}
