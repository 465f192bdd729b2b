import Foundation
import Testing

@testable import CalendarBridge

/// `concurrently`: two operations at once, with the results and errors of two `async let`s awaited in order.
@Suite("Two operations at once (concurrently)")
struct ConcurrentlyTests {
    struct Failure: Error, Equatable {
        var name: String
    }

    /// An operation that may wait for a signal first.
    actor Gate {
        private var opened = false
        private var waiting: [CheckedContinuation<Void, Never>] = []

        func open() {
            opened = true
            for continuation in waiting { continuation.resume() }
            waiting = []
        }

        func wait() async {
            if opened { return }
            await withCheckedContinuation { waiting.append($0) }
        }
    }

    @Test("both run at once and both results come back in order")
    func bothResults() async throws {
        let gate = Gate()
        // The first waits for the second to open the gate: sequential runs would never end.
        let (a, b) = try await concurrently(
            {
                await gate.wait(); return "first"
            },
            {
                await gate.open(); return 2
            })
        #expect(a == "first")
        #expect(b == 2)
    }

    @Test("the first's error wins, even when the second failed earlier")
    func firstErrorWins() async {
        let gate = Gate()
        await #expect(throws: Failure(name: "first")) {
            _ = try await concurrently(
                { () async throws -> Int in
                    await gate.wait(); throw Failure(name: "first")
                },
                { () async throws -> Int in
                    defer { Task { await gate.open() } }; throw Failure(name: "second")
                })
        }
    }

    @Test("the second's error when the first succeeds; the first is not cancelled by it")
    func secondError() async {
        let gate = Gate()
        let firstSawCancellation = Flag()
        await #expect(throws: Failure(name: "second")) {
            _ = try await concurrently(
                { () async throws -> Int in
                    await gate.wait()
                    firstSawCancellation.set(Task.isCancelled)
                    return 1
                },
                { () async throws -> Int in
                    defer { Task { await gate.open() } }; throw Failure(name: "second")
                })
        }
        #expect(firstSawCancellation.value == false)
    }

    @Test("a failing first cancels the second")
    func firstFailureCancelsSecond() async {
        await #expect(throws: Failure(name: "first")) {
            _ = try await concurrently(
                { () async throws -> Int in throw Failure(name: "first") },
                { () async throws -> Int in
                    // Ends only when cancelled (an hour otherwise: the test would time out).
                    try await Task.sleep(for: .seconds(3600))
                    return 2
                })
        }
    }

    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Bool?
        var value: Bool? { lock.withLock { stored } }
        func set(_ value: Bool) { lock.withLock { stored = value } }
    }
}
