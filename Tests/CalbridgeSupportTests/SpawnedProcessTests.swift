import CalbridgeSupport
import Foundation
import Testing

/// `SpawnedProcess` (posix_spawn in place of Foundation's `Process`): exit codes, signals, pipes, and no
/// descriptor of the parent leaking into the child.
@Suite("SpawnedProcess")
struct SpawnedProcessTests {
    static func shell(_ script: String, stdout: Any? = nil) throws -> SpawnedProcess {
        let process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    @Test("output through a pipe, the exit code, and the termination handler")
    func exitAndOutput() throws {
        let pipe = Pipe()
        let ended = DispatchSemaphore(value: 0)
        let process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "echo \"$GREETING\"; exit 3"]
        process.environment = ["GREETING": "hello"]
        process.standardOutput = pipe
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(ended.wait(timeout: .now() + 10) == .success)
        #expect(output == "hello\n")
        #expect(!process.isRunning)
        #expect(process.terminationStatus == 3 && process.terminationReason == .exit)
    }

    @Test("a child killed by a signal reports the signal")
    func signal() throws {
        let process = try Self.shell("kill -9 $$")
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == 9)
    }

    @Test("the child holds only its three standard descriptors (and the one its listing opens)")
    func noLeakedDescriptors() throws {
        let unrelated = Pipe()  // open in this process, never passed on
        defer { _ = unrelated }
        let pipe = Pipe()
        let process = try Self.shell("ls /proc/self/fd", stdout: pipe)
        let listed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let descriptors = listed.split(separator: "\n").compactMap { Int($0) }
        #expect(descriptors.count <= 4 && descriptors.allSatisfy { $0 <= 3 }, "\(descriptors)")
    }

    @Test("a program that does not exist is an error from run(), not a crash")
    func missing() {
        let process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: "/nonexistent/program")
        #expect(throws: SpawnedProcess.SpawnError.self) { try process.run() }
    }
}
