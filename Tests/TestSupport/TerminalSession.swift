import CalbridgeSupport
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `calbridge` run as a user runs it at a terminal: in a session of its own whose controlling terminal is a
/// pseudo-terminal (stdin, stdout and stderr on it), with the terminal's signal characters on, so a typed
/// Ctrl-C sends SIGINT to its process group. The test types at it and reads what it printed as it comes.
///
/// ```swift
/// let session = try TerminalSession(["copy", "a:Cal", "b:Cal"], environment: env)
/// _ = session.waitFor(seconds: 60) { $0.contains("created") }
/// session.type("\u{3}")                       // Ctrl-C
/// let (status, output) = session.finish(seconds: 60)
/// ```
package final class TerminalSession: @unchecked Sendable {
    private let terminal: PseudoTerminal
    private let process = SpawnedProcess()
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var output = Data()
    private var closed = false

    package init(_ arguments: [String], environment: [String: String], columns: Int = 80) throws {
        terminal = try PseudoTerminal()
        try terminal.setSize(columns: columns)
        try terminal.enableSignals()
        process.executableURL = CalbridgeBinary.url
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.controllingTerminal = terminal.slavePath
        try process.run()
        terminal.closeSlave()
        let reader = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(terminal.master, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                condition.withLock {
                    if count > 0 { output.append(contentsOf: buffer[0..<count]) } else { closed = true }
                    condition.broadcast()
                }
                if count <= 0 { return }
            }
        }
        reader.start()
    }

    /// The child's process id.
    package var processIdentifier: Int32 { process.processIdentifier }

    /// Everything printed so far.
    package var text: String { condition.withLock { String(decoding: output, as: UTF8.self) } }

    /// Types `text` at the terminal (`"\u{3}"` is Ctrl-C).
    package func type(_ text: String) { terminal.type(text) }

    /// Waits (blocking this thread) until `ready` holds for what was printed, the terminal closed, or the time
    /// ran out. Returns whether `ready` held.
    package func waitFor(seconds: TimeInterval, _ ready: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while !ready(String(decoding: output, as: UTF8.self)) {
            if closed || !condition.wait(until: deadline) { return ready(String(decoding: output, as: UTF8.self)) }
        }
        return true
    }

    /// Waits (blocking) for the child to exit and its terminal to close, killing it after `seconds`.
    /// - Returns: its exit status and everything it printed.
    package func finish(seconds: TimeInterval) -> (status: Int32, output: String) {
        _ = waitFor(seconds: seconds) { _ in false }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
