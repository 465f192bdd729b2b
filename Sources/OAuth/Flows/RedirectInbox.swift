import Foundation

/// What the browser brought back to the loopback redirect URI.
struct RedirectParameters: Sendable {
    var code: String?
    var state: String?
    var error: String?
    var errorDescription: String?
}

/// The meeting point of the redirect listener (which receives the browser's request) and the flow
/// (which waits for it and later tells the listener which page to show).
actor RedirectInbox {
    private var parameters: Result<RedirectParameters, any Error>?
    private var parametersWaiter: CheckedContinuation<RedirectParameters, any Error>?
    private var outcome: Result<Void, any Error>?
    private var outcomeWaiters: [CheckedContinuation<Result<Void, any Error>, Never>] = []

    /// Hands over the first redirect (or a failure such as the timeout). Later ones are ignored.
    /// - Returns: whether this call was the first.
    @discardableResult
    func deliver(_ result: Result<RedirectParameters, any Error>) -> Bool {
        guard parameters == nil else { return false }
        parameters = result
        parametersWaiter?.resume(with: result)
        parametersWaiter = nil
        return true
    }

    /// Waits for the redirect.
    func waitForParameters() async throws -> RedirectParameters {
        if let parameters { return try parameters.get() }
        return try await withCheckedThrowingContinuation { parametersWaiter = $0 }
    }

    /// Records how the sign-in ended, for the page the browser is waiting for.
    func finish(_ result: Result<Void, any Error>) {
        guard outcome == nil else { return }
        outcome = result
        for waiter in outcomeWaiters { waiter.resume(returning: result) }
        outcomeWaiters.removeAll()
    }

    /// Waits until the flow has finished (exchange done or failed).
    func waitForOutcome() async -> Result<Void, any Error> {
        if let outcome { return outcome }
        return await withCheckedContinuation { outcomeWaiters.append($0) }
    }
}
