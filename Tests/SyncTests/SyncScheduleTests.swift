import Foundation
import Testing

@testable import Sync

/// The watcher's schedule: every interval while a pair succeeds, backing off (jittered, capped) while it
/// fails, one pair's failures never delaying another.
@Suite("Sync watcher schedule")
struct SyncScheduleTests {
    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    @Test("a new pair is due at once; after a success it is due one interval later")
    func healthy() {
        var schedule = SyncSchedule(interval: .seconds(300))
        #expect(schedule.due(["a", "b"], at: Self.start) == ["a", "b"])
        let wait = schedule.record("a", succeeded: true, at: Self.start, random: 0.7)
        #expect(wait == .seconds(300))
        #expect(schedule.due(["a", "b"], at: Self.start.addingTimeInterval(299)) == ["b"])
        #expect(schedule.due(["a", "b"], at: Self.start.addingTimeInterval(300)) == ["a", "b"])
    }

    @Test("failures double the wait from the interval, jittered between half and all of it, capped at one hour")
    func backoff() {
        let interval = Duration.seconds(300)
        let hour = Duration.seconds(3600)
        #expect(SyncSchedule.delay(afterFailures: 1, interval: interval, maximum: hour, random: 1) == .seconds(600))
        #expect(SyncSchedule.delay(afterFailures: 1, interval: interval, maximum: hour, random: 0) == .seconds(300))
        #expect(SyncSchedule.delay(afterFailures: 2, interval: interval, maximum: hour, random: 1) == .seconds(1200))
        #expect(SyncSchedule.delay(afterFailures: 3, interval: interval, maximum: hour, random: 1) == .seconds(2400))
        for failures in [4, 10, 100, Int.max] {
            let longest = SyncSchedule.delay(afterFailures: failures, interval: interval, maximum: hour, random: 1)
            let shortest = SyncSchedule.delay(afterFailures: failures, interval: interval, maximum: hour, random: 0)
            #expect(longest == hour)
            #expect(shortest == .seconds(1800))
        }
        // Out-of-range randomness is clamped, never a longer wait than the cap.
        #expect(SyncSchedule.delay(afterFailures: 9, interval: interval, maximum: hour, random: 7) == hour)
    }

    @Test("a failing pair backs off while the other keeps its interval; a success resets it")
    func independent() {
        var schedule = SyncSchedule(interval: .seconds(60))
        var now = Self.start
        var failingWaits: [Duration] = []
        for _ in 0..<8 {
            for pair in schedule.due(["ok", "bad"], at: now) {
                let wait = schedule.record(pair, succeeded: pair == "ok", at: now, random: 0.5)
                if pair == "bad" { failingWaits.append(wait) }
            }
            now = now.addingTimeInterval(60)
        }
        #expect(schedule.entries["ok"]?.failures == 0)
        #expect(schedule.entries["ok"]?.due == now)
        // Ceilings 120 s, 240 s, 480 s; jitter 0.5 takes three quarters of each. Cycles at 0, 60, ... 420 s:
        // the failing pair ran at 0, 120 and 300 s only.
        #expect(failingWaits == [.seconds(90), .seconds(180), .seconds(360)])
        schedule.record("bad", succeeded: true, at: now, random: 0.5)
        #expect(schedule.entries["bad"] == .init(failures: 0, due: now.addingTimeInterval(60)))
    }

    @Test("an interval longer than the cap is the cap")
    func longInterval() {
        let schedule = SyncSchedule(interval: .seconds(7200))
        #expect(schedule.maximumDelay == .seconds(7200))
    }

    @Test("removed pairs are forgotten")
    func forget() {
        var schedule = SyncSchedule(interval: .seconds(60))
        schedule.record("a", succeeded: false, at: Self.start, random: 0)
        schedule.record("b", succeeded: false, at: Self.start, random: 0)
        schedule.keep(only: ["b"])
        #expect(Set(schedule.entries.keys) == ["b"])
    }
}
