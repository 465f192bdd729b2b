import CalbridgeSupport
import Foundation

/// Runs the built `calbridge` executable (or `calbridge-bench`), as a user would, and captures what it printed.
package enum CalbridgeBinary {
    package struct Result: Sendable {
        package var status: Int32
        package var stdout: String
        package var stderr: String
    }

    /// The executable next to the running test bundle (SwiftPM builds both into one directory).
    package static var url: URL { url(of: "calbridge") }

    /// The executable `name` (`calbridge`, `calbridge-bench`) next to the running test bundle.
    package static func url(of name: String) -> URL {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = testBinary.deletingLastPathComponent()
        // On Linux the test runner is `<dir>/calbridgePackageTests.xctest`; elsewhere it is inside a bundle.
        while !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent(name).path),
              directory.path != "/" {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent(name)
    }

    /// Runs `calbridge` with the arguments and extra environment, feeding `input` on stdin.
    /// The wait happens on a thread of its own, never on the cooperative pool: other tests' in-process
    /// servers need those few threads while the child runs.
    /// - Parameters:
    ///   - stderrOnTerminal: give the child a pseudo-terminal as stderr (`isatty(2)` is true) instead
    ///     of a pipe; `Result.stderr` is then the bytes written to it, control characters included.
    ///   - stdoutTerminalColumns: give the child a pseudo-terminal of this many columns as stdout instead
    ///     of a pipe; `Result.stdout` is then the bytes written to it.
    package static func run(
        _ arguments: [String],
        environment: [String: String] = [:],
        input: String? = nil,
        stderrOnTerminal: Bool = false,
        stdoutTerminalColumns: Int? = nil,
        timeout: TimeInterval = 60,
        executable: String = "calbridge"
    ) async throws -> Result {
        try await blocking {
            try runBlocking(
                arguments, environment: environment, input: input, stderrOnTerminal: stderrOnTerminal,
                stdoutTerminalColumns: stdoutTerminalColumns, timeout: timeout, executable: executable)
        }
    }

    /// `run`, waiting on the calling thread (only for callers already off the cooperative pool).
    package static func runBlocking(
        _ arguments: [String],
        environment: [String: String] = [:],
        input: String? = nil,
        stderrOnTerminal: Bool = false,
        stdoutTerminalColumns: Int? = nil,
        timeout: TimeInterval = 60,
        executable: String = "calbridge"
    ) throws -> Result {
        let process = SpawnedProcess()
        process.executableURL = url(of: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let inPipe = Pipe()
        let terminal = stderrOnTerminal ? try PseudoTerminal() : nil
        let err = terminal == nil ? Pipe() : nil
        let outTerminal = try stdoutTerminalColumns.map { columns in
            let terminal = try PseudoTerminal()
            try terminal.setSize(columns: columns)
            return terminal
        }
        let out = outTerminal == nil ? Pipe() : nil
        if let outTerminal {
            process.standardOutput = FileHandle(fileDescriptor: outTerminal.slave, closeOnDealloc: false)
        } else {
            process.standardOutput = out
        }
        if let terminal {
            process.standardError = FileHandle(fileDescriptor: terminal.slave, closeOnDealloc: false)
        } else {
            process.standardError = err
        }
        process.standardInput = inPipe
        try process.run()
        terminal?.closeSlave()
        outTerminal?.closeSlave()
        if let input { inPipe.fileHandleForWriting.write(Data(input.utf8)) }
        try? inPipe.fileHandleForWriting.close()
        // Read both streams concurrently so a chatty child never blocks on a full pipe (or terminal).
        let outBox = DataBox(), errBox = DataBox()
        let readers: [(DataBox, @Sendable () -> Data)] = [
            (outBox, { outTerminal?.readToEnd() ?? out?.fileHandleForReading.readDataToEndOfFile() ?? Data() }),
            (errBox, { terminal?.readToEnd() ?? err?.fileHandleForReading.readDataToEndOfFile() ?? Data() }),
        ]
        let group = DispatchGroup()
        for (box, read) in readers {
            group.enter()
            DispatchQueue.global().async {
                box.data = read()
                group.leave()
            }
        }
        if group.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            group.wait()
        }
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: outBox.data, as: UTF8.self),
            stderr: String(decoding: errBox.data, as: UTF8.self)
        )
    }

    private final class DataBox: @unchecked Sendable {
        var data = Data()
    }
}
