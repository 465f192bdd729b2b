import CLI
import CalbridgeSupport
import Foundation
import Org
import Sandbox

#if canImport(Glibc)
import Glibc
#endif

/// `calbridge-bench org`: `calbridge worker` processes sharing one PostgreSQL against the in-process sandbox
/// (app-only endpoints, API latency): the first sync of N Outlook-Google pairs and an idle cycle, with 1, 2, 4
/// and 8 workers.
package enum BenchOrgCommand: Command {
    package enum Options {
        package static let pairs = Option.int("pairs", "N", "Outlook-Google pairs, both ways (default 1000).", in: 1...20_000)
        package static let latencyMs = Option.int("latency-ms", "L", "API latency in milliseconds (default 20).", in: 0...10_000)
        package static let workers = Option<String>("workers", "LIST", "Worker counts to measure, one run each (default 1,2,4,8).")
        package static let concurrency = Option.int("concurrency", "N", "Each worker's --concurrency (default 4).", in: 1...256)
        package static let database = Option<String>(
            "database", "URL",
            "A PostgreSQL database whose user may create databases: each run gets a new one, dropped at its end "
                + "(default $CALBRIDGE_DATABASE_URL).")
        package static let format = OutputFormat.option("table|json", "Output format (default table).", allowed: [.table, .json])
    }

    package static let path = ["org"]

    package static let spec = CommandSpec(
        path,
        abstract: "Time 'calbridge worker' processes: the first sync and an idle cycle of N pairs, with 1, 2, 4 and 8 workers.",
        discussion: """
            For each worker count: a new sandbox with --latency-ms (20) on every API response, --pairs (1000) \
            Outlook mailboxes (two events each) and Google users (one event each) behind its app-only endpoints \
            (an Entra app with a client secret, a service account whose key openssl makes for the run); a new \
            database (org init, both credentials, org pairs import), then that many 'calbridge worker \
            --concurrency N' processes (the calbridge built next to calbridge-bench). Timed: the first sync (from \
            the workers' start until every mailbox has synced once) and an idle cycle (every mailbox made due at \
            once, until each has synced again; nothing changed). API requests are counted from the sandbox's log \
            (token requests excluded): the goal is 2 per idle pair. The idle cycle's claims (lease generations \
            raised) and database statements (from pg_stat_statements, when the server loads it) are counted too. The scaling factor is the idle cycle with 1 \
            worker over the idle cycle with N (goal: 4 workers at least 3 x 1). Needs a PostgreSQL: --database or \
            CALBRIDGE_DATABASE_URL (see Benchmarks/README.md for a throwaway one). No quota is set.
            """,
        options: [Options.pairs, Options.latencyMs, Options.workers, Options.concurrency, Options.database, Options.format],
        program: "calbridge-bench"
    )

    static let tenant = "contoso.sandbox"
    static let clientId = "6f1c2f1e-0000-4000-8000-00000000be0c"
    static let serviceAccount = "calbridge-bench@bench-project.iam.gserviceaccount.com"
    static let secretVariable = "CALBRIDGE_BENCH_GRAPH_SECRET"

    /// One worker count's figures.
    struct Row {
        var workers: Int
        var firstSyncSeconds: Double
        var firstSyncRequests: Int
        var idleSeconds: Double
        var idleRequests: Int
        /// The idle cycle's requests by kind ("GET /v1.0/users/{id}/calendarView/delta").
        var idleRequestsByKind: [String: Int]
        /// Mailboxes claimed during the idle cycle.
        var idleClaims: Int
        /// Statements the database ran during the idle cycle (every worker's); nil without pg_stat_statements.
        var idleStatements: Int?
        var failedMailboxes: Int

        func json(pairs: Int, baseline: Double?) -> [String: Any] {
            var json: [String: Any] = [
                "workers": workers, "firstSyncSeconds": (firstSyncSeconds * 1000).rounded() / 1000, "firstSyncRequests": firstSyncRequests,
                "idleCycleSeconds": (idleSeconds * 1000).rounded() / 1000, "idleRequests": idleRequests,
                "idleRequestsByKind": idleRequestsByKind,
                "requestsPerIdlePair": Double(idleRequests) / Double(pairs), "failedMailboxes": failedMailboxes,
                "claimsPerIdlePair": Double(idleClaims) / Double(pairs),
            ]
            if let idleStatements { json["statementsPerIdlePair"] = Double(idleStatements) / Double(pairs) }
            if let baseline { json["idleScaling"] = (baseline / idleSeconds * 100).rounded() / 100 }
            return json
        }
    }

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let pairs = arguments[Options.pairs] ?? 1000
        let latency = arguments[Options.latencyMs] ?? 20
        let concurrency = arguments[Options.concurrency] ?? 4
        let counts = try workerCounts(arguments[Options.workers] ?? "1,2,4,8")
        guard let adminURL = arguments[Options.database] ?? context.environment["CALBRIDGE_DATABASE_URL"], !adminURL.isEmpty else {
            throw UsageError(
                "name a PostgreSQL database with --database URL or CALBRIDGE_DATABASE_URL (its user must be allowed to create databases)",
                command: spec.name)
        }
        let calbridge = try CalbridgeExecutable.url()
        let admin: PostgresConnection
        do { admin = try await PostgresConnection(url: adminURL) } catch {
            throw InputError("cannot connect to the database: \(error)", exitCode: .failure)
        }
        let keys = try await BenchServiceAccountKey.make()
        defer { try? FileManager.default.removeItem(at: keys.directory) }

        var rows: [Row] = []
        for workers in counts {
            context.printError("\(workers) worker(s), \(pairs) pairs, \(latency) ms latency ...")
            let row = try await measure(
                workers: workers, pairs: pairs, latency: latency, concurrency: concurrency, admin: admin, adminURL: adminURL, keys: keys,
                calbridge: calbridge)
            rows.append(row)
        }
        let baseline = rows.first { $0.workers == 1 }?.idleSeconds
        if arguments[Options.format] == .json {
            let document: [String: Any] = [
                "pairs": pairs, "latencyMs": latency, "concurrency": concurrency,
                "runs": rows.map { $0.json(pairs: pairs, baseline: baseline) },
            ]
            let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
            context.print(String(decoding: data, as: UTF8.self))
            return .success
        }
        context.print("\(pairs) pairs, \(latency) ms API latency, --concurrency \(concurrency) per worker")
        context.printTable(
            Table(
                columns: [
                    .init("workers", "WORKERS"), .init("first", "FIRST SYNC"), .init("first_requests", "REQUESTS"),
                    .init("idle", "IDLE CYCLE"), .init("per_pair", "REQUESTS/IDLE PAIR"),
                    .init("claims", "CLAIMS/IDLE PAIR", droppable: true), .init("statements", "STATEMENTS/IDLE PAIR", droppable: true),
                    .init("scaling", "IDLE SCALING"),
                    .init("failed", "FAILED", droppable: true),
                ],
                rows: rows.map { row in
                    [
                        String(row.workers), String(format: "%.2f s", row.firstSyncSeconds), String(row.firstSyncRequests),
                        String(format: "%.2f s", row.idleSeconds), String(format: "%.2f", Double(row.idleRequests) / Double(pairs)),
                        String(format: "%.2f", Double(row.idleClaims) / Double(pairs)),
                        row.idleStatements.map { String(format: "%.1f", Double($0) / Double(pairs)) } ?? "n/a",
                        baseline.map { String(format: "%.2f x", $0 / row.idleSeconds) } ?? "",
                        String(row.failedMailboxes),
                    ]
                }),
            format: .table)
        return rows.contains { $0.failedMailboxes > 0 } ? .partial : .success
    }

    static func workerCounts(_ text: String) throws -> [Int] {
        let counts = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !counts.isEmpty, counts.allSatisfy({ ($0 ?? 0) >= 1 && ($0 ?? 0) <= 64 }) else {
            throw UsageError("--workers takes worker counts from 1 to 64 separated by commas, e.g. 1,2,4,8", command: spec.name)
        }
        return counts.compactMap { $0 }
    }

    /// One run: a new sandbox and database, `workers` processes, the first sync and an idle cycle timed.
    static func measure(
        workers: Int, pairs: Int, latency: Int, concurrency: Int, admin: PostgresConnection, adminURL: String,
        keys: BenchServiceAccountKey, calbridge: URL
    ) async throws -> Row {
        let name = "calbridge_bench_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        try await admin.execute("CREATE DATABASE \(name)")
        do {
            let row = try await measure(
                workers: workers, pairs: pairs, latency: latency, concurrency: concurrency,
                url: databaseURL(adminURL, database: String(name)),
                keys: keys, calbridge: calbridge)
            _ = try? await admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
            return row
        } catch {
            _ = try? await admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
            throw error
        }
    }

    /// The run itself, in the database at `url`.
    static func measure(
        workers: Int, pairs: Int, latency: Int, concurrency: Int, url: String, keys: BenchServiceAccountKey, calbridge: URL
    ) async throws -> Row {
        let secret = UUID().uuidString + UUID().uuidString
        var options = SandboxOptions()
        options.latencyMs = latency
        options.seed = try .organisation(pairs: pairs)
        options.requestLogCapacity = 1_000_000
        options.appOnly = SandboxAppOnlyDirectory(
            applications: [.init(tenant: tenant, clientId: clientId, secret: secret)],
            serviceAccounts: [
                .init(
                    clientEmail: serviceAccount, publicKeyPEM: keys.publicKeyPEM, domain: "gmail.sandbox",
                    delegatedScopes: ["https://www.googleapis.com/auth/calendar"])
            ])
        let sandbox = try await SandboxServer.start(options)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("calbridge-bench-org-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var running: [SpawnedProcess] = []
        defer {
            for process in running where process.isRunning { kill(process.processIdentifier, SIGKILL) }
            try? FileManager.default.removeItem(at: directory)
            Task { try? await sandbox.stop() }
        }
        try sandbox.info.writeDescriptors(to: directory)
        let environment = ["NO_COLOR": "1", "CALBRIDGE_DATABASE_URL": url, secretVariable: secret]
        let csv = directory.appendingPathComponent("pairs.csv")
        try ("a,b,direction,fields\n" + (0..<pairs).map { "outlook\($0)@contoso.sandbox,google\($0)@gmail.sandbox,both,basic\n" }.joined())
            .write(to: csv, atomically: true, encoding: .utf8)
        for step in [
            ["org", "init"],
            [
                "org", "credential", "add", "microsoft", "--tenant", tenant, "--client-id", clientId, "--secret-env", secretVariable,
                "--domain", "contoso.sandbox", "--descriptor", directory.appendingPathComponent("microsoft.json").path,
            ],
            [
                "org", "credential", "add", "google", "--service-account", keys.file.path, "--domain", "gmail.sandbox", "--descriptor",
                directory.appendingPathComponent("google.json").path,
            ],
            ["org", "pairs", "import", csv.path],
        ] {
            try await runToEnd(calbridge, step, environment: environment, directory: directory)
        }
        let connection: PostgresConnection
        do { connection = try await PostgresConnection(url: url) } catch {
            throw InputError("cannot connect to the database: \(error)", exitCode: .failure)
        }
        // For the statement counts; a server that does not load it (or a user who may not) just has none.
        _ = try? await connection.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")

        let firstMark = sandbox.log.count
        let started = ContinuousClock.now
        for index in 0..<workers {
            let process = SpawnedProcess()
            process.executableURL = calbridge
            process.arguments = [
                "worker", "--concurrency", String(concurrency), "--interval", "24h", "--lease", "2m", "--name", "bench-\(index)",
            ]
            process.environment = environment
            let log = directory.appendingPathComponent("worker-\(index).log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: log)
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
            try process.run()
            running.append(process)
        }
        try await waitUntilSynced(connection, running: running, directory: directory)
        let first = started.duration(to: .now)
        let firstRequests = BenchRequests(since: firstMark, in: sandbox).total

        // An idle cycle: every mailbox due at once, nothing changed since.
        let claimsBefore = try await claims(connection)
        let statementsBefore = await statements(connection)
        let idleMark = sandbox.log.count
        let idleStarted = ContinuousClock.now
        try await connection.execute("UPDATE org_mailboxes SET due_at = now(), last_sync_at = NULL")
        let polls = try await waitUntilSynced(connection, running: running, directory: directory)
        let idle = idleStarted.duration(to: .now)
        let idleRequests = BenchRequests(since: idleMark, in: sandbox)
        let idleClaims = try await claims(connection) - claimsBefore
        // Less this process's own statements: the first count, the UPDATE above, the polls, the claims' count.
        let idleStatements = await statements(connection).flatMap { after in statementsBefore.map { after - $0 - polls - 3 } }
        let failed = try await connection.execute("SELECT count(*) FROM org_mailboxes WHERE state <> 'active' OR last_error IS NOT NULL")

        for process in running { kill(process.processIdentifier, SIGTERM) }
        for process in running { process.waitUntilExit() }
        return Row(
            workers: workers, firstSyncSeconds: BenchRequests.milliseconds(first) / 1000, firstSyncRequests: firstRequests,
            idleSeconds: BenchRequests.milliseconds(idle) / 1000, idleRequests: idleRequests.total,
            idleRequestsByKind: idleRequests.byKind, idleClaims: idleClaims, idleStatements: idleStatements,
            failedMailboxes: failed[0, "count"].flatMap { Int($0) } ?? 0)
    }

    /// Claims ever made (each raised one mailbox's lease generation).
    static func claims(_ connection: PostgresConnection) async throws -> Int {
        let rows = try await connection.execute("SELECT coalesce(sum(lease_generation), 0) AS claims FROM org_mailboxes")
        return rows[0, "claims"].flatMap { Int($0) } ?? 0
    }

    /// Statements run in this database so far, from pg_stat_statements (nil when the server does not load it:
    /// `shared_preload_libraries`; the bench creates the extension in each run's database).
    static func statements(_ connection: PostgresConnection) async -> Int? {
        let rows = try? await connection.execute(
            """
            SELECT coalesce(sum(calls), 0) AS calls FROM pg_stat_statements
            WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
            """)
        return rows?[0, "calls"].flatMap { Int($0) }
    }

    /// Waits until every active mailbox has a last sync (or a recorded error), polling the queue every 20 ms.
    /// - Returns: the statements it sent.
    @discardableResult
    static func waitUntilSynced(_ connection: PostgresConnection, running: [SpawnedProcess], directory: URL) async throws -> Int {
        let deadline = ContinuousClock.now + .seconds(3600)
        var polls = 0
        while ContinuousClock.now < deadline {
            let rows = try await connection.execute(
                "SELECT count(*) FROM org_mailboxes WHERE state = 'active' AND last_sync_at IS NULL AND last_error IS NULL")
            polls += 1
            if rows[0, "count"] == "0" { return polls }
            if let dead = running.firstIndex(where: { !$0.isRunning }) {
                let log = (try? String(contentsOf: directory.appendingPathComponent("worker-\(dead).log"), encoding: .utf8)) ?? ""
                throw InputError("worker \(dead) exited: \(log.suffix(600))", exitCode: .failure)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw InputError("the workers did not sync every mailbox within an hour", exitCode: .failure)
    }

    /// Runs `calbridge ARGUMENTS` to its end; throws with its stderr when it fails.
    static func runToEnd(_ calbridge: URL, _ arguments: [String], environment: [String: String], directory: URL) async throws {
        let process = SpawnedProcess()
        process.executableURL = calbridge
        process.arguments = arguments
        process.environment = environment
        let errors = directory.appendingPathComponent("step.err")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        guard status == 0 else {
            let text = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw InputError("calbridge \(arguments.prefix(3).joined(separator: " ")) failed: \(text)", exitCode: .failure)
        }
    }

    /// `adminURL` naming `database` instead (a `postgresql://` URL's path, or libpq's `dbname=`).
    static func databaseURL(_ adminURL: String, database: String) -> String {
        if adminURL.contains("://"), var components = URLComponents(string: adminURL) {
            components.path = "/" + database
            return components.string ?? adminURL
        }
        return adminURL + " dbname=" + database
    }
}

/// A service account key made for one benchmark by the openssl command, never kept: the key file the
/// workers read, and the public key the sandbox checks signatures with.
struct BenchServiceAccountKey: Sendable {
    let directory: URL
    let file: URL
    let publicKeyPEM: Data

    static func make() async throws -> BenchServiceAccountKey {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("calbridge-bench-keys-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let key = directory.appendingPathComponent("sa.key"), publicKey = directory.appendingPathComponent("sa.pub")
        for arguments in [
            ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", key.path],
            ["pkey", "-in", key.path, "-pubout", "-out", publicKey.path],
        ] {
            let process = SpawnedProcess()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            process.arguments = arguments
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
            process.standardError = FileHandle(forWritingAtPath: "/dev/null")
            let status: Int32 = try await withCheckedThrowingContinuation { continuation in
                process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
                do { try process.run() } catch { continuation.resume(throwing: error) }
            }
            guard status == 0 else { throw InputError("openssl \(arguments[0]) failed (exit \(status))", exitCode: .failure) }
        }
        let contents: [String: String] = [
            "type": "service_account", "project_id": "bench-project", "private_key_id": "0123456789abcdef",
            "private_key": String(decoding: try Data(contentsOf: key), as: UTF8.self), "client_email": BenchOrgCommand.serviceAccount,
            "client_id": "104857600000000000002", "token_uri": "https://oauth2.googleapis.com/token",
        ]
        let file = directory.appendingPathComponent("service-account.json")
        try JSONSerialization.data(withJSONObject: contents, options: [.sortedKeys]).write(to: file)
        chmod(file.path, 0o600)
        return BenchServiceAccountKey(directory: directory, file: file, publicKeyPEM: try Data(contentsOf: publicKey))
    }
}
