import Foundation
import Testing

@testable import Org

@Suite("Failure policy: Retry-After first, capped jittered backoff, suspension instead of a retry loop")
struct FailurePolicyTests {
    let policy = FailurePolicy(base: .seconds(30), cap: .seconds(3600))

    @Test("a 403 outside the app's scope suspends the mailbox with the reason")
    func forbiddenSuspends() {
        let outcome = policy.outcome(
            status: 403, code: "ErrorAccessDenied", message: "Access to OData is disabled", retryAfter: nil, attempts: 1)
        guard case .suspend(let reason) = outcome else {
            Issue.record("not suspended: \(outcome)")
            return
        }
        #expect(reason.contains("ErrorAccessDenied"))
        #expect(reason.contains("Access to OData is disabled"))
    }

    @Test("Google's 403 rate limits are retried, not suspended")
    func googleRateLimitRetries() {
        let outcome = policy.outcome(
            status: 403, code: "rateLimitExceeded", message: "Rate Limit Exceeded", retryAfter: nil, attempts: 2, jitter: 1)
        #expect(outcome == .retry(error: "Rate Limit Exceeded", retryIn: .seconds(60)))
    }

    @Test("Retry-After wins over the backoff, within the cap")
    func retryAfterFirst() {
        #expect(
            policy.outcome(status: 429, code: "ApplicationThrottled", message: "m", retryAfter: .seconds(17), attempts: 9)
                == .retry(error: "m", retryIn: .seconds(17)))
        #expect(
            policy.outcome(status: 429, code: nil, message: "m", retryAfter: .seconds(86_400), attempts: 1)
                == .retry(error: "m", retryIn: .seconds(3600)))
    }

    @Test("the backoff doubles per attempt, stops at the cap, and jitter only shortens it", arguments: [1, 2, 3, 8, 40])
    func backoff(_ attempts: Int) {
        let full = policy.backoff(attempts: attempts, jitter: 1)
        #expect(full == min(.seconds(30) * (1 << min(attempts - 1, 30)), .seconds(3600)))
        #expect(policy.backoff(attempts: attempts, jitter: 0.5) == full * 0.5)
    }
}
