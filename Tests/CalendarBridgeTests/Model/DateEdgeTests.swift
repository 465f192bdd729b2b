import Foundation
import Testing
@testable import CalendarBridge

@Suite("Dates at the edges: offsets past ±18 h, instants past year 9999")
struct DateEdgeTests {
    @Test("RFC 3339: offsets up to ±18:00 parse by arithmetic; beyond, nil (never a nil TimeZone unwrapped)")
    func offsets() throws {
        let plus18 = try #require(RFC3339.parse("2026-01-01T18:00:00+18:00"))
        #expect(plus18 == Date(timeIntervalSince1970: 1_767_225_600))  // 2026-01-01T00:00:00Z
        #expect(RFC3339.parse("2026-01-01T00:00:00+19:00") == nil)
        #expect(RFC3339.parse("2026-01-01T00:00:00-23:59") == nil)
        #expect(RFC3339.parse("2026-01-01T00:00:00+1a:00") == nil)
        #expect(RFC3339.writtenOffsetSeconds("2026-01-01T00:00:00+19:00") == 19 * 3600)
    }

    @Test("an instant in year 10000 has a wall-clock time (it used to trap in LocalDate's initialiser)")
    func pastYear9999() {
        let instant = Date(timeIntervalSince1970: 253_402_300_800 + 86_400)  // 10000-01-02T00:00:00Z
        let utc = TimeZone(identifier: "UTC") ?? .current
        let local = LocalDateTime(instant: instant, in: utc)
        #expect(local.date.year == 10000)
        #expect(LocalDate(instant: instant, in: utc).year == 10000)
        #expect(RFC3339.format(instant, in: utc).hasPrefix("10000-01-02T00:00:00"))
        #expect(LocalDate(year: 10000, month: 1, day: 1) == nil)
    }

    @Test("local date-times with a malformed seconds or fraction field are nil")
    func malformedLocal() {
        #expect(LocalDateTime("2026-01-01T10:00:6x") == nil)
        #expect(LocalDateTime("2026-01-01T10:00:00.") == nil)
        #expect(LocalDateTime("2026-01-01T10:00:00.1234567")?.nanosecond == 123_456_700)
    }
}
