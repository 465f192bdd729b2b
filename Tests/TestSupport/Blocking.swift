import Foundation

/// Runs blocking work (raw sockets, waiting on a child process) on a thread of its own, so it never
/// occupies one of the few cooperative-pool threads that async code (a server's handler) needs.
package func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.start()
    }
}
