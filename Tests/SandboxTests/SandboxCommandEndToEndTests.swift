import CalbridgeSupport
import Foundation
import Sandbox
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `calbridge sandbox` and `calbridge-bench sandbox` as a user runs them: the built binary, real signals.
@Suite("calbridge sandbox binary")
struct SandboxCommandEndToEndTests {
    /// A running `calbridge sandbox` child and its first stdout line.
    final class Child: @unchecked Sendable {
        let process = SpawnedProcess()
        let stdout = Pipe()
        let stderr = Pipe()

        init(_ arguments: [String]) throws {
            process.executableURL = CalbridgeBinary.url
            process.arguments = ["sandbox"] + arguments
            process.standardOutput = stdout
            process.standardError = stderr
            try process.run()
        }

        /// Reads stdout up to the first newline (blocking; run it through `blocking`).
        func firstLine() -> String {
            var bytes = [UInt8]()
            let handle = stdout.fileHandleForReading
            while true {
                let chunk = handle.readData(ofLength: 1)
                guard let byte = chunk.first else { break }
                if byte == 10 { break }
                bytes.append(byte)
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        func terminate(with signal: Int32) -> Int32 {
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    @Test("first line, an endpoint answering, SIGTERM: exit 0 with the state file written", arguments: [SIGTERM, SIGINT])
    func runAndStop(signal: Int32) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let state = directory.url.appendingPathComponent("state.json")
        let descriptors = directory.url.appendingPathComponent("descriptors")
        let child = try Child(["--state", state.path, "--write-descriptors", descriptors.path, "--log", directory.path + "/log"])
        let line = try await blocking { child.firstLine() }
        let info = try JSONDecoder().decode(SandboxInfo.self, from: Data(line.utf8))
        let port = try #require(UInt16(info.url.split(separator: ":").last ?? ""))
        let response = try await SandboxHTTP.send(port, [SandboxHTTP.post("/token", form: "grant_type=refresh_token")])[0]
        #expect(response?.status == 400)
        #expect(SandboxHTTP.json(response)["error"] as? String == "invalid_request")
        #expect(FileManager.default.fileExists(atPath: descriptors.path + "/google.json"))
        #expect(FileManager.default.fileExists(atPath: descriptors.path + "/microsoft.json"))
        let status = try await blocking { child.terminate(with: signal) }
        #expect(status == 0)
        let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: state)) as? [String: Any]
        #expect(saved?["tokens"] is [String: Any])
        let log = try String(contentsOfFile: directory.path + "/log", encoding: .utf8)
        #expect(log.split(separator: "\n").count == 1)
    }

    @Test("bad option values: exit 2 and one line naming the option", arguments: [
        (["--fault-rate", "1.5"], "--fault-rate"), (["--port", "99999"], "--port"), (["--latency-ms", "-1"], "--latency-ms"),
        (["--fault-seed", "x"], "--fault-seed"), (["--token-lifetime", "0"], "--token-lifetime"), (["--seed", "/no/such/file"], "--seed"),
        (["--refuse-refresh", "sometimes"], "--refuse-refresh"),
    ])
    func badValues(arguments: [String], option: String) async throws {
        let result = try await CalbridgeBinary.run(["sandbox"] + arguments, timeout: 30)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains(option))
    }

    @Test("a --seed file that is not a seed document is exit 2")
    func badSeed() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("seed.json")
        try Data("{\"outlook\": {}}".utf8).write(to: file)
        let result = try await CalbridgeBinary.run(["sandbox", "--seed", file.path], timeout: 30)
        #expect(result.status == 2)
        #expect(result.stderr.contains("outlook"))
    }

    @Test("bench sandbox runs briefly and reports its numbers as JSON")
    func bench() async throws {
        let result = try await CalbridgeBinary.run(
            ["sandbox", "--duration", "0.3", "--connections", "2", "--format", "json"], timeout: 60, executable: "calbridge-bench")
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect((object?["requests"] as? Int ?? 0) > 0)
        #expect(object?["errors"] as? Int == 0)
        #expect(object?["non2xx"] as? Int == 0)
        #expect(object?["requestsPerSecond"] is Double)
    }
}
