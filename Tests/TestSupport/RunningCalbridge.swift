import CalbridgeSupport
import Foundation

/// The calbridge binary running in the background, its output readable while it runs (the
/// sign-in URL must be followed before the process can finish; a watcher is signalled to stop).
package final class RunningCalbridge: @unchecked Sendable {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    private let process = SpawnedProcess()
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()
    /// Pipes read to their end (the child and anything it started closed them).
    private var ended = 0

    package init(_ arguments: [String], environment: [String: String]) throws {
        process.executableURL = CalbridgeBinary.url
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for key in ["DISPLAY", "WAYLAND_DISPLAY", "SSH_CONNECTION", "SSH_TTY"] { env[key] = nil }
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let outPipe = Pipe(), errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = FileHandle.nullDevice
        outPipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            self?.received(handle, into: \.out)
        }
        errPipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            self?.received(handle, into: \.err)
        }
        try process.run()
    }

    /// Appends what the pipe has; no bytes when readable means its end.
    private func received(_ handle: FileHandle, into buffer: ReferenceWritableKeyPath<RunningCalbridge, Data>) {
        let data = handle.availableData
        if data.isEmpty { handle.readabilityHandler = nil }
        lock.withLock {
            if data.isEmpty { ended += 1 } else { self[keyPath: buffer].append(data) }
        }
    }

    package var stdout: String { lock.withLock { String(decoding: out, as: UTF8.self) } }
    package var stderr: String { lock.withLock { String(decoding: err, as: UTF8.self) } }

    /// The first stderr line satisfying `predicate`, waiting for it up to `timeout` seconds.
    package func stderrLine(timeout: TimeInterval = 90, where predicate: (String) -> Bool) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = stderr.split(separator: "\n").map(String.init).first(where: predicate) { return line }
            if !process.isRunning, let line = stderr.split(separator: "\n").map(String.init).first(where: predicate) { return line }
            if !process.isRunning { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw Failure(description: "no such stderr line; stderr so far:\n\(stderr)")
    }

    /// The child's process id.
    package var pid: Int32 { process.processIdentifier }

    /// Sends `signal` (SIGTERM, SIGINT) to the child.
    package func signal(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Ends the child (SIGTERM) if it still runs: for a test that failed before it stopped it.
    package func stop() {
        if process.isRunning { process.terminate() }
    }

    /// Every stderr line satisfying `predicate` so far.
    package func stderrLines(where predicate: (String) -> Bool) -> [String] {
        stderr.split(separator: "\n").map(String.init).filter(predicate)
    }

    /// Waits for the exit and returns the status (after the pipes are drained).
    package func wait(timeout: TimeInterval = 60) async throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                throw Failure(description: "calbridge did not exit; stderr:\n\(stderr)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        // The output is complete when both pipes have ended, however late their handlers run on a loaded
        // machine (a fixed pause is not enough); something the child started may keep them open, hence a bound.
        let drained = Date().addingTimeInterval(30)
        while lock.withLock({ ended < 2 }), Date() < drained { try await Task.sleep(for: .milliseconds(5)) }
        return process.terminationStatus
    }

    /// Runs calbridge to completion.
    package static func run(_ arguments: [String], environment: [String: String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        let running = try RunningCalbridge(arguments, environment: environment)
        let status = try await running.wait()
        return (status, running.stdout, running.stderr)
    }
}
