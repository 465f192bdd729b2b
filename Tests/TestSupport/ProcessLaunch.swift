import Foundation

/// Starts child processes one at a time across the whole test process. swift-corelibs-foundation's
/// `Process.run()` is not safe to call from several threads at once on Linux: a CI run of 2026-12-02
/// crashed inside it (a bad pointer in its memcpy) while other suites were launching children.
package enum ProcessLaunch {
    private static let lock = NSLock()

    /// `process.run()`, with every other launch through here held off until it returns.
    package static func run(_ process: Process) throws {
        lock.lock()
        defer { lock.unlock() }
        try process.run()
    }
}
