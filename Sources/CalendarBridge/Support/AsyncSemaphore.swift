/// Limits how many tasks run a section at once (Graph allows 4 concurrent requests per mailbox).
///
/// Waiters are served first come, first served. A task cancelled while waiting still waits for its
/// turn (then its caller sees the cancellation from the work itself); that keeps the count exact.
package actor AsyncSemaphore {
    private var available: Int
    private var waiters: [CheckedContinuation<Void, Never>] = []

    package init(limit: Int) {
        precondition(limit > 0)
        available = limit
    }

    package func acquire() async {
        if available > 0 {
            available -= 1
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    package func release() {
        if waiters.isEmpty {
            available += 1
        } else {
            // Hand the slot straight to the next waiter.
            waiters.removeFirst().resume()
        }
    }

    /// Runs `body` holding one slot.
    package func withPermit<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await acquire()
        do {
            let value = try await body()
            release()
            return value
        } catch {
            release()
            throw error
        }
    }
}
