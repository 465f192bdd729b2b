import CalbridgeSupport
import Foundation
import HTTP
import Synchronization
import LoopbackServer

/// The faults the sandbox injects into API traffic, each answered with the real service's status, headers
/// and error body.
package enum SandboxFault: String, Sendable, Codable, CaseIterable {
    /// Google: 403 `rateLimitExceeded` (domain `usageLimits`).
    case googleRateLimit403
    /// Google: 429 `rateLimitExceeded`.
    case googleRateLimit429
    /// Google: 503 `backendError`.
    case googleBackendError
    /// Graph: 429 `TooManyRequests` with `Retry-After`.
    case graphTooManyRequests
    /// Graph: 503 `serviceNotAvailable` with `Retry-After`.
    case graphServiceUnavailable

    static let google: [SandboxFault] = [.googleRateLimit403, .googleRateLimit429, .googleBackendError]
    static let graph: [SandboxFault] = [.graphTooManyRequests, .graphServiceUnavailable]

    /// Seconds in `Retry-After` (small, so that clients honouring it keep tests and benchmarks quick).
    package static let retryAfterSeconds = 1

    /// The response for this fault to `request` at `now`.
    package func response(to request: ServerRequest, now: Date) -> ServerResponse {
        switch self {
        case .googleRateLimit403: return Self.google(403, "Rate Limit Exceeded", "usageLimits", "rateLimitExceeded", "PERMISSION_DENIED")
        case .googleRateLimit429: return Self.google(429, "Rate Limit Exceeded", "usageLimits", "rateLimitExceeded", "RESOURCE_EXHAUSTED")
        case .googleBackendError: return Self.google(503, "Backend Error", "global", "backendError", "UNAVAILABLE")
        case .graphTooManyRequests:
            return Self.graph(429, "TooManyRequests", "Too many requests have been sent. Please retry after the time given in the Retry-After header.", request, now)
        case .graphServiceUnavailable:
            return Self.graph(503, "serviceNotAvailable", "The service is temporarily unavailable. Please retry after the time given in the Retry-After header.", request, now)
        }
    }

    /// `{"error": {"code", "message", "errors": [{"domain", "reason", "message"}], "status"}}`
    private static func google(_ status: Int, _ message: String, _ domain: String, _ reason: String, _ code: String) -> ServerResponse {
        let body: [String: Any] = [
            "error": [
                "code": status, "message": message, "status": code,
                "errors": [["domain": domain, "reason": reason, "message": message]],
            ] as [String: Any],
        ]
        return .json(status, (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data(), headers: ["Vary": "Origin"])
    }

    /// `{"error": {"code", "message", "innerError": {"date", "request-id", "client-request-id"}}}`
    private static func graph(_ status: Int, _ code: String, _ message: String, _ request: ServerRequest, _ now: Date) -> ServerResponse {
        let requestID = UUID().uuidString.lowercased()
        let clientRequestID = request.headers["client-request-id"] ?? requestID
        let date = String(ISO8601DateFormatter().string(from: now).dropLast()) // Graph writes no zone designator
        let body: [String: Any] = [
            "error": [
                "code": code, "message": message,
                "innerError": ["date": date, "request-id": requestID, "client-request-id": clientRequestID],
            ] as [String: Any],
        ]
        return .json(status, (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data(), headers: [
            "Retry-After": String(retryAfterSeconds), "request-id": requestID, "client-request-id": clientRequestID,
        ])
    }
}

/// Decides, request by request in arrival order, whether an API request gets a fault. Deterministic for a
/// seed: one draw per API request, and a second draw (the kind) only when it faults.
package final class SandboxFaultInjector: Sendable {
    private let rate: Double
    private let generator: Mutex<SplitMix64>

    package init(rate: Double, seed: UInt64) {
        self.rate = rate
        generator = Mutex(SplitMix64(seed: seed))
    }

    /// The fault for the next API request of `provider`, or nil.
    package func next(for provider: SandboxProvider) -> SandboxFault? {
        guard rate > 0 else { return nil }
        return generator.withLock { generator in
            guard generator.nextUnit() < rate else { return nil }
            let kinds = provider == .google ? SandboxFault.google : SandboxFault.graph
            return kinds[Int(generator.next() % UInt64(kinds.count))]
        }
    }
}
