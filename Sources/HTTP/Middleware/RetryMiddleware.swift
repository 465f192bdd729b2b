import Foundation

/// Sends a request again after a transient failure, as `RetryPolicy` says.
///
/// Retried: responses whose status is in `policy.retryableStatuses` (429, 503, 504 by default) or that
/// the caller's `isRetryable` predicate accepts, and `HTTPError`s whose code is in
/// `policy.retryableErrors`. Only requests that may be repeated are retried: idempotent methods, or
/// any request the caller marked `isRetrySafe`. `Retry-After` (seconds or HTTP-date) sets the delay
/// when present. When the next delay does not fit in what is left of `policy.maxTotalDelay`, or the
/// attempts are used up, the last response is returned (or the last error thrown) as it is.
///
/// Google answers rate limiting with 403 and a reason in the body; a provider says so with a predicate:
/// ```swift
/// RetryMiddleware(isRetryable: { response in
///     response.status == 403 && response.bodyText.contains("\"rateLimitExceeded\"")
/// })
/// ```
/// Tests inject `sleep`, `random` and `now` so that they are instant and deterministic.
public struct RetryMiddleware: HTTPMiddleware {
    /// Waits for a delay; throws when the wait is cancelled.
    public typealias Sleeper = @Sendable (Duration) async throws -> Void

    public let policy: RetryPolicy
    private let isRetryable: @Sendable (HTTPResponse) -> Bool
    private let sleep: Sleeper
    private let random: @Sendable () -> Double
    private let now: @Sendable () -> Date

    /// - Parameters:
    ///   - policy: attempts, delays and what is retryable.
    ///   - isRetryable: extra responses to retry, besides `policy.retryableStatuses`.
    ///   - sleep: how to wait (default `Task.sleep`, which ends early on cancellation).
    ///   - random: numbers in 0..<1 for the jitter.
    ///   - now: the clock that HTTP-date `Retry-After` values are measured against.
    public init(
        policy: RetryPolicy = RetryPolicy(),
        isRetryable: @escaping @Sendable (HTTPResponse) -> Bool = { _ in false },
        sleep: @escaping Sleeper = { try await Task.sleep(for: $0) },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.policy = policy
        self.isRetryable = isRetryable
        self.sleep = sleep
        self.random = random
        self.now = now
    }

    public func intercept(
        _ request: HTTPRequest,
        next: @Sendable (HTTPRequest) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        guard request.mayRetry, policy.maxAttempts > 1 else { return try await next(request) }
        var attempt = 1
        var waited = Duration.zero
        while true {
            let outcome: Result<HTTPResponse, any Error>
            do {
                outcome = .success(try await next(request))
            } catch {
                outcome = .failure(error)
            }
            guard attempt < policy.maxAttempts, !Task.isCancelled, let delay = delay(after: outcome, attempt: attempt),
                  delay <= policy.maxTotalDelay - waited else {
                return try outcome.get()
            }
            do {
                try await sleep(delay)
            } catch {
                throw HTTPError(code: .cancelled, url: request.url, message: "cancelled while waiting to retry")
            }
            waited += delay
            attempt += 1
        }
    }

    /// The wait before the next attempt, or nil when this outcome is not retried.
    private func delay(after outcome: Result<HTTPResponse, any Error>, attempt: Int) -> Duration? {
        switch outcome {
        case .success(let response):
            guard policy.retryableStatuses.contains(response.status) || isRetryable(response) else { return nil }
            if let header = response.headers["Retry-After"], let asked = RetryAfter.delay(from: header, now: now()) {
                return asked
            }
        case .failure(let error):
            guard let error = error as? HTTPError, policy.retryableErrors.contains(error.code) else { return nil }
        }
        return policy.backoff(beforeRetry: attempt, random: random())
    }
}
