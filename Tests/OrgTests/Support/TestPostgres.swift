import CalbridgeSupport
import Foundation
import Org
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A real PostgreSQL (Debian's `postgresql` package) for one test suite: `initdb` into a temporary directory,
/// `postgres` listening only on a Unix socket there, stopped at the suite's end. `initdb` refuses to run as
/// root, so when the tests run as root the server runs as `nobody` (`setpriv`), owning the directory.
///
/// Each test takes a database of its own (`freshDatabase()`), so tests run in parallel without seeing each
/// other's rows.
final class TestPostgres: Sendable {
    let directory: TemporaryDirectory
    let port: Int
    private let server: SpawnedProcess

    private init(directory: TemporaryDirectory, port: Int, server: SpawnedProcess) {
        self.directory = directory
        self.port = port
        self.server = server
    }

    /// `host=... port=... user=calbridge dbname=NAME` for libpq.
    func url(database: String = "postgres") -> String {
        "postgresql:///\(database)?host=\(directory.path)&port=\(port)&user=calbridge"
    }

    /// The database over TCP on 127.0.0.1 at `port` (the server's, or a proxy's in front of it); only for a
    /// server started with `tcp`.
    func tcpURL(database: String, port: Int) -> String {
        "postgresql://calbridge@127.0.0.1:\(port)/\(database)"
    }

    /// - Parameter tcp: listen on 127.0.0.1 as well as on the Unix socket (for a proxy in front of it).
    static func start(tcp: Bool = false) async throws -> TestPostgres {
        let binaries = try binDirectory()
        let directory = try TemporaryDirectory(prefix: "calbridge-pg")
        let asRoot = geteuid() == 0
        if asRoot { guard chown(directory.path, 65534, 65534) == 0 else { throw TestPostgresError("cannot chown \(directory.path)") } }
        let data = directory.url.appendingPathComponent("data").path
        let initdb = try await ChildProcess.run(
            command(asRoot, binaries.appendingPathComponent("initdb")),
            arguments(
                asRoot, binaries.appendingPathComponent("initdb"),
                ["-D", data, "-U", "calbridge", "--auth=trust", "-E", "UTF8", "--no-sync"])
        )
        guard initdb.status == 0 else { throw TestPostgresError("initdb failed: " + initdb.stderr) }
        let port = Int.random(in: 20_000...60_000)
        let log = directory.url.appendingPathComponent("postgres.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let logHandle = try FileHandle(forWritingTo: log)
        let server = SpawnedProcess()
        let postgres = binaries.appendingPathComponent("postgres")
        server.executableURL = command(asRoot, postgres)
        server.arguments = arguments(
            asRoot, postgres,
            [
                "-D", data, "-k", directory.path, "-c", "listen_addresses=" + (tcp ? "127.0.0.1" : ""), "-p", String(port), "-c",
                "fsync=off",
                "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=200",
            ])
        server.standardOutput = logHandle
        server.standardError = logHandle
        try server.run()
        try? logHandle.close()
        let running = TestPostgres(directory: directory, port: port, server: server)
        // Ready when a connection succeeds (at most 60 s: initdb and start are slow on a loaded machine).
        let deadline = Date().addingTimeInterval(60)
        while true {
            do {
                _ = try await PostgresConnection(url: running.url())
                return running
            } catch {
                guard Date() < deadline, server.isRunning else {
                    running.stop()
                    let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                    throw TestPostgresError("postgres did not start: \(error); log: \(text.suffix(600))")
                }
                try await Task.sleep(for: .milliseconds(200))
            }
        }
    }

    /// A new empty database; its URL.
    func freshDatabase() async throws -> String {
        url(database: try await freshDatabaseName())
    }

    /// A new empty database; its name.
    func freshDatabaseName() async throws -> String {
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let admin = try await PostgresConnection(url: url())
        try await admin.execute("CREATE DATABASE \(name)")
        return name
    }

    /// Stops the server (a fast shutdown) and removes its directory.
    func stop() {
        if server.isRunning {
            kill(server.processIdentifier, SIGINT)
            server.waitUntilExit()
        }
        directory.remove()
    }

    private static func binDirectory() throws -> URL {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        guard let newest = versions.compactMap(Int.init).max() else {
            throw TestPostgresError("no PostgreSQL server under /usr/lib/postgresql: .ci/install-deps installs Debian's postgresql")
        }
        return root.appendingPathComponent(String(newest)).appendingPathComponent("bin")
    }

    private static func command(_ asRoot: Bool, _ program: URL) -> URL {
        asRoot ? URL(fileURLWithPath: "/usr/bin/setpriv") : program
    }

    private static func arguments(_ asRoot: Bool, _ program: URL, _ rest: [String]) -> [String] {
        asRoot ? ["--reuid=65534", "--regid=65534", "--clear-groups", program.path] + rest : rest
    }
}

struct TestPostgresError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// `@Suite(.postgres)`: one PostgreSQL for the whole suite, started before its first test and stopped after
/// its last; tests reach it as `TestPostgres.current`.
struct PostgresSuiteTrait: SuiteTrait, TestScoping {
    /// Listening on 127.0.0.1 too (`postgresOverTCP`).
    var tcp = false

    var isRecursive: Bool { false }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let server = try await TestPostgres.start(tcp: tcp)
        defer { server.stop() }
        try await TestPostgres.$current.withValue(server) { try await function() }
    }
}

extension TestPostgres {
    @TaskLocal static var current: TestPostgres?

    /// The suite's server's fresh database.
    static func database() async throws -> String {
        guard let current else { throw TestPostgresError("the suite needs the .postgres trait") }
        return try await current.freshDatabase()
    }
}

extension Trait where Self == PostgresSuiteTrait {
    static var postgres: Self { Self() }
    /// `.postgres` listening on 127.0.0.1 as well, for a proxy the test controls (`TCPProxy`).
    static var postgresOverTCP: Self { Self(tcp: true) }
}
