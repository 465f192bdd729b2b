import Foundation

@testable import CLI

/// Lines handed in by a test (never a terminal unless it says so).
final class ScriptedInput: SecretInput, @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String]
    let isTerminal: Bool

    init(_ lines: [String], isTerminal: Bool = false) {
        self.lines = lines
        self.isTerminal = isTerminal
    }

    func readSecretLine() -> String? {
        lock.withLock { lines.isEmpty ? nil : lines.removeFirst() }
    }
}
