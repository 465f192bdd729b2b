import Foundation

/// What a worker does with a mailbox after a provider refused it: the service's `Retry-After` first, then a
/// capped, jittered exponential backoff; an answer that retrying cannot fix (403 outside the app's scope,
/// a mailbox that does not exist) suspends the mailbox with the reason instead, so it is never retried in a
/// loop.
package struct FailurePolicy: Sendable {
    /// The first backoff; each further attempt doubles it.
    package var base: Duration
    /// The longest backoff.
    package var cap: Duration

    package init(base: Duration = .seconds(30), cap: Duration = .seconds(3600)) {
        self.base = base
        self.cap = cap
    }

    /// The outcome of a failed turn.
    /// - Parameters:
    ///   - status: the HTTP status of the refusal (0 for a network failure).
    ///   - code: the service's error code (Graph `error.code`, Google `errors[].reason`), if any.
    ///   - message: the one-line description recorded as the last error or the suspension's reason.
    ///   - retryAfter: the answer's `Retry-After`, if any.
    ///   - attempts: the mailbox's attempts so far, this one included.
    package func outcome(
        status: Int, code: String?, message: String, retryAfter: Duration?, attempts: Int,
        jitter: Double = Double.random(in: 0.5...1.0)
    ) -> MailboxOutcome {
        switch status {
        case 403 where code != "rateLimitExceeded" && code != "userRateLimitExceeded":
            // Graph's ErrorAccessDenied for a mailbox outside the app's RBAC scope; Google's forbidden for a user
            // the delegation does not cover. Only an admin's change helps.
            return .suspend(reason: "access denied (\(code ?? "403")): \(message); fix the app's scope, then resume the mailbox")
        case 404 where code == "ErrorInvalidUser" || code == "MailboxNotEnabledForRESTAPI" || code == "notFound":
            return .suspend(reason: "no such mailbox (\(code ?? "404")): \(message)")
        default:
            if let retryAfter { return .retry(error: message, retryIn: min(max(retryAfter, .seconds(1)), cap)) }
            return .retry(error: message, retryIn: backoff(attempts: attempts, jitter: jitter))
        }
    }

    /// `base * 2^(attempts-1)`, at most `cap`, scaled by `jitter` (0.5...1: workers that failed together do
    /// not come back together).
    package func backoff(attempts: Int, jitter: Double) -> Duration {
        let exponent = min(max(attempts - 1, 0), 30)
        let raw = base * (1 << exponent)
        return min(raw, cap) * min(max(jitter, 0), 1)
    }
}
