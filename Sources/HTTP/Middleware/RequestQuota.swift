import Foundation

/// A request budget that `QuotaMiddleware` counts requests against: this process's `RequestQuota`, or one
/// shared by many processes (the organisation's workers hold theirs in PostgreSQL).
public protocol RequestBudget: Sendable {
    /// Waits until `request` fits in the budget, and counts it.
    /// - Throws: `CancellationError` when the waiting task is cancelled, or what kept the budget from being read.
    func acquire(for request: HTTPRequest) async throws
}

/// A per-account request budget: at most `limit.requests` requests in any `limit.interval` (each provider
/// declares its service's in its registration). Share one per account across every caller in the process
/// (`AccountSessions` does), so that many sync pairs on one account stay within it.
///
/// A sliding window: each request's start is remembered for one interval; a request over the budget
/// waits until the oldest one leaves the window. Waiters are served first come, first served.
public actor RequestQuota: RequestBudget {
    public struct Limit: Sendable, Hashable {
        public var requests: Int
        public var interval: Duration

        public init(requests: Int, per interval: Duration) {
            self.requests = max(1, requests)
            self.interval = interval > .zero ? interval : .seconds(1)
        }
    }

    public nonisolated let limit: Limit
    private var starts: [ContinuousClock.Instant] = []
    /// Index of the oldest start still in `starts` (a ring, so pruning costs nothing).
    private var oldest = 0
    private let clock = ContinuousClock()

    public init(_ limit: Limit) { self.limit = limit }

    /// Waits until one more request fits in the budget, and counts it.
    /// - Throws: `CancellationError` when the waiting task is cancelled.
    public func acquire() async throws {
        while true {
            let now = clock.now
            while oldest < starts.count, starts[oldest] + limit.interval <= now { oldest += 1 }
            if oldest > 1024 && oldest * 2 > starts.count {
                starts.removeFirst(oldest)
                oldest = 0
            }
            if starts.count - oldest < limit.requests {
                starts.append(now)
                return
            }
            // Over budget: wait for the oldest start to leave the window, then look again (another waiter
            // may have taken the slot meanwhile).
            try await clock.sleep(until: starts[oldest] + limit.interval)
        }
    }

    /// Counts every request as one.
    public func acquire(for request: HTTPRequest) async throws { try await acquire() }

    /// Requests counted in the current window.
    public var inWindow: Int {
        let now = clock.now
        return starts[oldest...].filter { $0 + limit.interval > now }.count
    }
}

/// Counts every request against a budget (a `RequestQuota`), waiting when the budget is spent.
///
/// Put it inside the retry middleware, so that each attempt counts.
public struct QuotaMiddleware: HTTPMiddleware {
    public let quota: any RequestBudget

    public init(_ quota: any RequestBudget) { self.quota = quota }

    public func intercept(_ request: HTTPRequest, next: @Sendable (HTTPRequest) async throws -> HTTPResponse) async throws
        -> HTTPResponse
    {
        try await quota.acquire(for: request)
        return try await next(request)
    }
}
