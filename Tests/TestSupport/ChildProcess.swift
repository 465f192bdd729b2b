import CalbridgeSupport
import Foundation

/// Runs a program to completion and captures its output, waiting on a thread of its own (never on the
/// cooperative pool, which in-process servers of tests running in parallel need).
package enum ChildProcess {
    package struct Result: Sendable {
        package var status: Int32
        package var stdout: String
        package var stderr: String
    }

    package static func run(
        _ executable: URL,
        _ arguments: [String],
        environment: [String: String]? = nil,
        input: Data? = nil
    ) async throws -> Result {
        try await blocking { try runBlocking(executable, arguments, environment: environment, input: input) }
    }

    /// Output goes to temporary files, so a chatty child never blocks on a full pipe.
    package static func runBlocking(
        _ executable: URL,
        _ arguments: [String],
        environment: [String: String]? = nil,
        input: Data? = nil
    ) throws -> Result {
        let directory = try TemporaryDirectory(prefix: "calbridge-child")
        defer { directory.remove() }
        let outURL = directory.url.appendingPathComponent("stdout"), errURL = directory.url.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        defer {
            try? out.close()
            try? err.close()
        }
        let process = SpawnedProcess()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardOutput = out
        process.standardError = err
        let stdin = Pipe()
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(input) }
        try? stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self),
            stderr: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self)
        )
    }
}
