import Foundation
import HTTP
import Testing

/// Answers attempts from a script and records the waits, so the middleware runs instantly and deterministically.
final class RetryScript: @unchecked Sendable {
    private let lock = NSLock()
    private var outcomes: [Result<HTTPResponse, HTTPError>]
    private var attempts = 0
    private var sleeps: [Duration] = []

    init(_ outcomes: [Result<HTTPResponse, HTTPError>]) { self.outcomes = outcomes }

    var attemptCount: Int { lock.withLock { attempts } }
    var waits: [Duration] { lock.withLock { sleeps } }

    func next(_ request: HTTPRequest) throws -> HTTPResponse {
        let outcome: Result<HTTPResponse, HTTPError> = lock.withLock {
            attempts += 1
            // The last scripted outcome repeats.
            return outcomes.count > 1 ? outcomes.removeFirst() : outcomes[0]
        }
        return try outcome.get()
    }

    func middleware(
        _ policy: RetryPolicy = RetryPolicy(jitter: 0),
        random: Double = 0,
        now: Date = Date(timeIntervalSince1970: 1_000_000_000),
        isRetryable: @escaping @Sendable (HTTPResponse) -> Bool = { _ in false }
    ) -> RetryMiddleware {
        RetryMiddleware(
            policy: policy,
            isRetryable: isRetryable,
            sleep: { duration in self.lock.withLock { self.sleeps.append(duration) } },
            random: { random },
            now: { now }
        )
    }

    func send(_ request: HTTPRequest, through middleware: RetryMiddleware) async throws -> HTTPResponse {
        try await middleware.intercept(request) { try self.next($0) }
    }
}

@Suite("Retry middleware")
struct RetryMiddlewareTests {
    static let url = URL(string: "https://api.example/calendar/v3/x")!
    static let get = HTTPRequest(url: url)

    static func status(_ code: Int, _ headers: HTTPHeaders = [:]) -> Result<HTTPResponse, HTTPError> {
        .success(HTTPResponse(status: code, headers: headers))
    }

    static func failure(_ code: HTTPError.Code) -> Result<HTTPResponse, HTTPError> {
        .failure(HTTPError(code: code, url: url, message: "scripted"))
    }

    @Test("429, 503 and 504 are retried until success", arguments: [429, 503, 504])
    func retryableStatuses(status: Int) async throws {
        let script = RetryScript([Self.status(status), Self.status(200)])
        let response = try await script.send(Self.get, through: script.middleware())
        #expect(response.status == 200)
        #expect(script.attemptCount == 2)
        #expect(script.waits == [.milliseconds(500)])
    }

    @Test("other statuses are returned at once", arguments: [200, 400, 401, 403, 404, 500, 502])
    func notRetried(status: Int) async throws {
        let script = RetryScript([Self.status(status), Self.status(200)])
        let response = try await script.send(Self.get, through: script.middleware())
        #expect(response.status == status)
        #expect(script.attemptCount == 1)
    }

    @Test("delays grow exponentially up to maxDelay, and attempts stop at maxAttempts")
    func exponentialBackoff() async throws {
        let script = RetryScript([Self.status(503)])
        let policy = RetryPolicy(maxAttempts: 6, baseDelay: .seconds(1), maxDelay: .seconds(5), maxTotalDelay: .seconds(100), jitter: 0)
        let response = try await script.send(Self.get, through: script.middleware(policy))
        #expect(response.status == 503)
        #expect(script.attemptCount == 6)
        #expect(script.waits == [.seconds(1), .seconds(2), .seconds(4), .seconds(5), .seconds(5)])
    }

    @Test("jitter takes up to its fraction off the computed delay, from the injected random source")
    func jitter() async throws {
        let policy = RetryPolicy(maxAttempts: 3, baseDelay: .seconds(2), jitter: 0.5)
        let script = RetryScript([Self.status(503)])
        _ = try await script.send(Self.get, through: script.middleware(policy, random: 0.5))
        #expect(script.waits == [.seconds(1.5), .seconds(3)])
        #expect(policy.backoff(beforeRetry: 1, random: 0) == .seconds(2))
        #expect(policy.backoff(beforeRetry: 1, random: 0.999_999) > .seconds(1))
    }

    @Test("Retry-After in seconds replaces the computed delay")
    func retryAfterSeconds() async throws {
        let script = RetryScript([Self.status(429, ["Retry-After": "7"]), Self.status(200)])
        let response = try await script.send(Self.get, through: script.middleware())
        #expect(response.status == 200)
        #expect(script.waits == [.seconds(7)])
    }

    @Test("Retry-After as an HTTP-date is measured against the injected clock")
    func retryAfterDate() async throws {
        let now = Date(timeIntervalSince1970: 784_111_777 - 12)
        let script = RetryScript([Self.status(503, ["Retry-After": "Sun, 06 Nov 1994 08:49:37 GMT"]), Self.status(200)])
        let response = try await script.send(Self.get, through: script.middleware(now: now))
        #expect(response.status == 200)
        #expect(script.waits == [.seconds(12)])
    }

    @Test("a Retry-After longer than the remaining total budget returns the response without waiting")
    func retryAfterBeyondBudget() async throws {
        let script = RetryScript([Self.status(429, ["Retry-After": "3600"]), Self.status(200)])
        let response = try await script.send(Self.get, through: script.middleware(RetryPolicy(maxTotalDelay: .seconds(60))))
        #expect(response.status == 429)
        #expect(response.headers["Retry-After"] == "3600")
        #expect(script.attemptCount == 1)
        #expect(script.waits.isEmpty)
    }

    @Test("the total of the waits never exceeds maxTotalDelay")
    func totalBudget() async throws {
        let script = RetryScript([Self.status(503)])
        let policy = RetryPolicy(maxAttempts: 50, baseDelay: .seconds(1), maxDelay: .seconds(8), maxTotalDelay: .seconds(20), jitter: 0)
        let response = try await script.send(Self.get, through: script.middleware(policy))
        #expect(response.status == 503)
        // 1 + 2 + 4 + 8 = 15; another 8 would make 23 > 20.
        #expect(script.waits == [.seconds(1), .seconds(2), .seconds(4), .seconds(8)])
        #expect(script.attemptCount == 5)
    }

    @Test("a POST is never retried unless marked safe")
    func nonIdempotent() async throws {
        let script = RetryScript([Self.status(503), Self.status(201)])
        let post = HTTPRequest(method: .post, url: Self.url, body: Data("{}".utf8))
        #expect(try await script.send(post, through: script.middleware()).status == 503)
        #expect(script.attemptCount == 1)

        let safe = RetryScript([Self.status(503), Self.status(201)])
        var marked = post
        marked.isRetrySafe = true
        #expect(try await safe.send(marked, through: safe.middleware()).status == 201)
        #expect(safe.attemptCount == 2)

        let patch = RetryScript([Self.failure(.connectionReset), Self.status(200)])
        let error = await CurlTestSupport.httpError {
            try await patch.send(HTTPRequest(method: .patch, url: Self.url), through: patch.middleware())
        }
        #expect(error?.code == .connectionReset)
        #expect(patch.attemptCount == 1)
    }

    @Test("a reset or refused connection is retried; TLS, DNS, timeout and cancellation are not", arguments: [
        (HTTPError.Code.connectionReset, true), (.connect, true), (.tls, false), (.dns, false), (.timeout, false),
        (.cancelled, false),
    ])
    func errors(code: HTTPError.Code, retried: Bool) async throws {
        let script = RetryScript([Self.failure(code), Self.status(200)])
        let error = await CurlTestSupport.httpError { try await script.send(Self.get, through: script.middleware()) }
        #expect(error == nil ? retried : !retried)
        #expect(error?.code == (retried ? nil : code))
        #expect(script.attemptCount == (retried ? 2 : 1))
    }

    @Test("when every attempt fails, the last error is thrown")
    func lastError() async throws {
        let script = RetryScript([Self.failure(.connectionReset)])
        let error = await CurlTestSupport.httpError {
            try await script.send(Self.get, through: script.middleware(RetryPolicy(maxAttempts: 3, jitter: 0)))
        }
        #expect(error?.code == .connectionReset)
        #expect(script.attemptCount == 3)
    }

    @Test("a caller's predicate makes other responses retryable (Google's 403 rateLimitExceeded)")
    func predicate() async throws {
        let rateLimited = HTTPResponse(status: 403, body: Data(#"{"error":{"errors":[{"reason":"rateLimitExceeded"}]}}"#.utf8))
        let forbidden = HTTPResponse(status: 403, body: Data(#"{"error":{"errors":[{"reason":"forbidden"}]}}"#.utf8))
        let isRateLimit: @Sendable (HTTPResponse) -> Bool = { response in
            response.status == 403 && (response.bodyText.contains("\"rateLimitExceeded\"") || response.bodyText.contains("\"userRateLimitExceeded\""))
        }
        let script = RetryScript([.success(rateLimited), Self.status(200)])
        #expect(try await script.send(Self.get, through: script.middleware(isRetryable: isRateLimit)).status == 200)
        #expect(script.attemptCount == 2)

        let other = RetryScript([.success(forbidden), Self.status(200)])
        #expect(try await other.send(Self.get, through: other.middleware(isRetryable: isRateLimit)).status == 403)
        #expect(other.attemptCount == 1)
    }

    @Test("cancellation while waiting ends with HTTPError(.cancelled) and no further attempt")
    func cancelledWhileWaiting() async throws {
        let attempts = Tally()
        let middleware = RetryMiddleware(policy: RetryPolicy(baseDelay: .seconds(30), jitter: 0))
        let task = Task {
            try await middleware.intercept(Self.get) { _ in
                attempts.increment()
                return HTTPResponse(status: 503)
            }
        }
        while attempts.value == 0 { try await Task.sleep(for: .milliseconds(5)) }
        task.cancel()
        var code: HTTPError.Code?
        if case .failure(let error as HTTPError) = await task.result { code = error.code }
        #expect(code == .cancelled)
        #expect(attempts.value == 1)
    }
}
