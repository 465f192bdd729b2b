import Foundation

/// Runs the built `calbridge` executable, as a user would, and captures what it printed.
package enum CalbridgeBinary {
    package struct Result: Sendable {
        package var status: Int32
        package var stdout: String
        package var stderr: String
    }

    /// The executable next to the running test bundle (SwiftPM builds both into one directory).
    package static var url: URL {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = testBinary.deletingLastPathComponent()
        // On Linux the test runner is `<dir>/calbridgePackageTests.xctest`; elsewhere it is inside a bundle.
        while !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("calbridge").path),
              directory.path != "/" {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("calbridge")
    }

    /// Runs `calbridge` with the arguments and extra environment, feeding `input` on stdin.
    /// The wait happens on a thread of its own, never on the cooperative pool: other tests' in-process
    /// servers need those few threads while the child runs.
    package static func run(
        _ arguments: [String],
        environment: [String: String] = [:],
        input: String? = nil,
        timeout: TimeInterval = 60
    ) async throws -> Result {
        try await blocking { try runBlocking(arguments, environment: environment, input: input, timeout: timeout) }
    }

    /// `run`, waiting on the calling thread (only for callers already off the cooperative pool).
    package static func runBlocking(
        _ arguments: [String],
        environment: [String: String] = [:],
        input: String? = nil,
        timeout: TimeInterval = 60
    ) throws -> Result {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe(), inPipe = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inPipe
        try process.run()
        if let input { inPipe.fileHandleForWriting.write(Data(input.utf8)) }
        try? inPipe.fileHandleForWriting.close()
        // Read both pipes concurrently so a chatty child never blocks on a full pipe.
        let outBox = DataBox(), errBox = DataBox()
        let group = DispatchGroup()
        for (pipe, box) in [(out, outBox), (err, errBox)] {
            group.enter()
            DispatchQueue.global().async {
                box.data = pipe.fileHandleForReading.readDataToEndOfFile()
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
