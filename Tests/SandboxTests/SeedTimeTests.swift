import Foundation
import Sandbox
import Testing

@Suite("Seed times relative to the current week")
struct SeedTimeTests {
    // Sunday 2026-11-29 23:30 UTC: already Monday 2026-11-30 in Tokyo, still Sunday in Los Angeles.
    let now = ISO8601DateFormatter().date(from: "2026-11-29T23:30:00Z")!

    @Test("week+Nd HH:MM is that day of the Monday-based week, in the event's own zone")
    func relative() throws {
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        let losAngeles = try #require(TimeZone(identifier: "America/Los_Angeles"))
        #expect(SeedTime.resolve("week+2d 09:30", in: tokyo, now: now)?.dateTimeString == "2026-12-02T09:30:00")
        #expect(SeedTime.resolve("week+2d 09:30", in: losAngeles, now: now)?.dateTimeString == "2026-11-25T09:30:00")
        #expect(SeedTime.resolve("week-1d", in: tokyo, now: now)?.dateString == "2026-11-29")
        #expect(SeedTime.resolve("week", in: tokyo, now: now)?.dateTimeString == nil)
    }

    @Test("absolute values pass through; nonsense is nil")
    func absolute() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        #expect(SeedTime.resolve("2026-12-01T09:00:00", in: utc, now: now)?.dateTimeString == "2026-12-01T09:00:00")
        #expect(SeedTime.resolve("2026-12-01", in: utc, now: now)?.dateString == "2026-12-01")
        #expect(SeedTime.resolve("week+xd", in: utc, now: now) == nil)
        #expect(SeedTime.resolve("week+1d 25:00", in: utc, now: now) == nil)
    }
}
