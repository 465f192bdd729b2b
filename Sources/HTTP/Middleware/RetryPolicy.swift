/// When and how long to wait before sending a request again.
///
/// The delay before retry *n* (n = 1 after the first attempt) is `baseDelay * 2^(n-1)`, capped at
/// `maxDelay`, then reduced by up to `jitter` of itself at random (so clients that failed together do
/// not come back together). A `Retry-After` header replaces that computed delay. Waiting stops when the
/// next delay would take the total past `maxTotalDelay`, or after `maxAttempts` attempts.
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts in all, the first one included (1 = never retry).
    public var maxAttempts: Int
    /// The delay before the first retry, before jitter.
    public var baseDelay: Duration
    /// The cap on one computed (exponential) delay. A server's `Retry-After` is not capped by it.
    public var maxDelay: Duration
    /// The most time spent waiting between attempts, in total, `Retry-After` delays included.
    public var maxTotalDelay: Duration
    /// 0 = exact delays; 1 = anywhere from 0 to the computed delay ("full jitter").
    public var jitter: Double
    /// Response statuses that are retried.
    public var retryableStatuses: Set<Int>
    /// Transport failures that are retried: by default a reset connection and a refused connect.
    public var retryableErrors: Set<HTTPError.Code>

    public init(
        maxAttempts: Int = 4,
        baseDelay: Duration = .milliseconds(500),
        maxDelay: Duration = .seconds(30),
        maxTotalDelay: Duration = .seconds(60),
        jitter: Double = 0.5,
        retryableStatuses: Set<Int> = [429, 503, 504],
        retryableErrors: Set<HTTPError.Code> = [.connectionReset, .connect]
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxTotalDelay = maxTotalDelay
        self.jitter = min(1, max(0, jitter))
        self.retryableStatuses = retryableStatuses
        self.retryableErrors = retryableErrors
    }

    /// The computed delay before retry number `retry` (1-based).
    /// - Parameter random: a number in 0..<1 from the caller's random source.
    public func backoff(beforeRetry retry: Int, random: Double) -> Duration {
        let exponent = min(max(retry - 1, 0), 30)
        var delay = baseDelay * (1 << exponent)
        if delay > maxDelay || delay < .zero { delay = maxDelay }
        let factor = 1 - jitter * min(max(random, 0), 1)
        return delay * factor
    }
}
