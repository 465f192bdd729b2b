import Foundation

/// When each pair of a watcher runs next: every interval while it succeeds; after consecutive failures,
/// later and later (doubling from the interval, jittered, capped at `maximumDelay`), without holding up
/// the other pairs.
///
/// A value type with no clock or randomness of its own: the watcher passes both in, so tests can replay it.
public struct SyncSchedule: Sendable, Equatable {
    /// How often a healthy pair runs.
    public var interval: Duration
    /// The longest a failing pair waits between attempts (1 hour, or the interval when that is longer).
    public var maximumDelay: Duration
    /// Per pair: consecutive failures and when it is due.
    public private(set) var entries: [String: Entry] = [:]

    public struct Entry: Sendable, Equatable {
        public var failures: Int
        public var due: Date
    }

    public init(interval: Duration, maximumDelay: Duration = .seconds(3600)) {
        self.interval = interval
        self.maximumDelay = max(maximumDelay, interval)
    }

    /// The pairs due at `now`, in the order given (a pair never seen before is due).
    public func due(_ pairs: [String], at now: Date) -> [String] {
        pairs.filter { name in entries[name].map { $0.due <= now } ?? true }
    }

    /// Records a run of `pair` that ended at `now`.
    /// - Parameter random: a number in 0..<1 (the jitter); the watcher draws it from the system generator.
    /// - Returns: how long until the pair runs again.
    @discardableResult
    public mutating func record(_ pair: String, succeeded: Bool, at now: Date, random: Double) -> Duration {
        let failures = succeeded ? 0 : (entries[pair]?.failures ?? 0) + 1
        let delay = Self.delay(afterFailures: failures, interval: interval, maximum: maximumDelay, random: random)
        entries[pair] = Entry(failures: failures, due: now.addingTimeInterval(delay.seconds))
        return delay
    }

    /// Forgets pairs that are no longer configured.
    public mutating func keep(only pairs: Set<String>) {
        entries = entries.filter { pairs.contains($0.key) }
    }

    /// The wait before the next attempt: the interval after a success; after `n` consecutive failures
    /// `interval × 2^n` capped at `maximum`, then jittered down to between half and all of it (so pairs
    /// failing together, say on one account's outage, do not retry in lockstep).
    public static func delay(afterFailures failures: Int, interval: Duration, maximum: Duration, random: Double) -> Duration {
        guard failures > 0 else { return interval }
        let cap = maximum.seconds
        let grown = interval.seconds * pow(2, Double(min(failures, 32)))
        let ceiling = min(cap, grown)
        let jitter = 0.5 + 0.5 * min(max(random, 0), 1)
        return .milliseconds(Int64((ceiling * jitter * 1000).rounded()))
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    package var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
