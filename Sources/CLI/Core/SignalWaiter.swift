import Foundation

/// Waits for the first of some signals, with dispatch sources (the default handlers are ignored first,
/// so a signal arriving before anyone waits is remembered, not fatal). No global state: the sources
/// live as long as the waiter.
final class SignalWaiter: @unchecked Sendable {
    private let lock = NSLock()
    private var sources: [any DispatchSourceSignal] = []
    private let numbers: [Int32]
    // Guarded by `lock`.
    private var received: Int32?
    /// Set by `finish()`: the work the signals would interrupt is done, so waits end with nil.
    private var finished = false
    private var waiters: [UInt64: Waiter] = [:]
    private var nextWaiter: UInt64 = 0

    private struct Waiter {
        var continuation: CheckedContinuation<Int32?, Never>
        var timer: Task<Void, Never>?
    }

    init(signals: [Int32]) {
        numbers = signals
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in fire(number) }
            source.resume()
            sources.append(source)
        }
    }

    deinit { for source in sources { source.cancel() } }

    /// The signal that arrived, if one did.
    var signalReceived: Int32? { lock.withLock { received } }

    /// The signal that arrived (returns at once if one already did).
    func wait() async -> Int32 {
        await wait(timeout: nil) ?? 0
    }

    /// The signal that arrives within `timeout` (at once if one already did), or nil when the time ran out
    /// first. Never cancelled: a watcher sleeps here between cycles.
    func wait(timeout: Duration?) async -> Int32? {
        await withCheckedContinuation { continuation in
            let already: Int32?? = lock.withLock {
                if let received { return .some(received) }
                if finished { return .some(nil) }
                let id = nextWaiter
                nextWaiter += 1
                var timer: Task<Void, Never>?
                if let timeout {
                    timer = Task { [self] in
                        try? await Task.sleep(for: timeout)
                        expire(id)
                    }
                }
                waiters[id] = Waiter(continuation: continuation, timer: timer)
                return .none
            }
            if let already { continuation.resume(returning: already) }
        }
    }

    /// Ends every wait, now and later, with nil (unless a signal came first): what the signals would have
    /// interrupted is done. The caller's `wait()` then returns without a signal.
    func finish() {
        let waiting: [Waiter] = lock.withLock {
            finished = true
            defer { waiters = [:] }
            return Array(waiters.values)
        }
        for waiter in waiting {
            waiter.timer?.cancel()
            waiter.continuation.resume(returning: nil)
        }
    }

    /// Gives the signals their default action back (a second Ctrl-C ends the process at once).
    func restoreDefaults() {
        for source in sources { source.cancel() }
        for number in numbers { signal(number, SIG_DFL) }
    }

    private func expire(_ id: UInt64) {
        let waiter = lock.withLock { waiters.removeValue(forKey: id) }
        waiter?.continuation.resume(returning: nil)
    }

    private func fire(_ number: Int32) {
        let waiting: [Waiter] = lock.withLock {
            guard received == nil else { return [] }
            received = number
            defer { waiters = [:] }
            return Array(waiters.values)
        }
        for waiter in waiting {
            waiter.timer?.cancel()
            waiter.continuation.resume(returning: number)
        }
    }
}
