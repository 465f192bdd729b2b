import CalendarBridge
import Foundation
import GoogleCalendar
import HTTP
import HTTPCurl
import LoopbackServer
import MicrosoftGraph
import OAuth
import Sandbox
import TestSupport
import Testing

@testable import Org

/// `calbridge worker` as operators run it: several processes of the built binary sharing a real PostgreSQL,
/// against the sandbox's app-only endpoints (an Entra app with a certificate, a Google service account).
@Suite("calbridge worker end to end", .postgres, .serialized)
struct WorkerEndToEndTests {
    static let tenant = "contoso.sandbox"
    static let clientId = "6f1c2f1e-0000-4000-8000-00000000b001"
    static let serviceAccount = "calbridge-sync@contoso-project.iam.gserviceaccount.com"

    /// Every API request the sandbox saw: when, from which worker (its User-Agent), for which mailboxes.
    final class Traffic: @unchecked Sendable {
        struct Request {
            var time: Date
            var worker: String
            var mailboxes: Set<String>
            /// The request as the services count it: a batch counts its parts.
            var parts: Int = 1
            /// Google Calendar's API (else Graph).
            var google: Bool = false
        }

        private let lock = NSLock()
        private var requests: [Request] = []

        func record(_ request: ServerRequest) {
            let agent = request.headers["User-Agent"] ?? ""
            guard let open = agent.range(of: "calbridge-worker ("), let close = agent.lastIndex(of: ")") else { return }
            let worker = String(agent[open.upperBound..<close])
            let text = request.target.removingPercentEncoding ?? request.target
            let body = String(decoding: request.body, as: UTF8.self).removingPercentEncoding ?? ""
            var mailboxes = Set<String>()
            for source in [text, body] {
                for pattern in [#"/users/([^/"?\s]+)"#, #"/calendars/([^/"?\s]+)"#] {
                    let regex = try! NSRegularExpression(pattern: pattern)
                    for match in regex.matches(in: source, range: NSRange(source.startIndex..., in: source)) {
                        if let range = Range(match.range(at: 1), in: source) {
                            let name = source[range].lowercased()
                            if name.contains("@") { mailboxes.insert(name) }
                        }
                    }
                }
            }
            var parts = 1
            if request.target.hasSuffix("/$batch") {
                parts =
                    ((try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any])?["requests"].flatMap { $0 as? [Any] }?.count
                    ?? 1
            } else if request.target.hasPrefix("/batch/") {
                parts = max(1, body.components(separatedBy: "Content-Type: application/http").count - 1)
            }
            let google = request.target.hasPrefix("/calendar/") || request.target.hasPrefix("/batch/")
            let entry = Request(time: Date(), worker: worker, mailboxes: mailboxes, parts: parts, google: google)
            lock.withLock { requests.append(entry) }
        }

        var all: [Request] { lock.withLock { requests } }

        /// Mailboxes where one worker's requests followed another's sooner than `gap`: two workers at once (a
        /// new lease is claimable only when the last turn released it due after the interval, or expired).
        func overlaps(gap: TimeInterval) -> [String] {
            var byMailbox: [String: [Request]] = [:]
            for request in all { for mailbox in request.mailboxes { byMailbox[mailbox, default: []].append(request) } }
            return byMailbox.compactMap { mailbox, requests in
                let sorted = requests.sorted { $0.time < $1.time }
                for (earlier, later) in zip(sorted, sorted.dropFirst()) where earlier.worker != later.worker {
                    if later.time.timeIntervalSince(earlier.time) < gap {
                        return "\(mailbox): \(earlier.worker) then \(later.worker) \(later.time.timeIntervalSince(earlier.time)) s apart"
                    }
                }
                return nil
            }.sorted()
        }
    }

    struct Readers {
        let graph: MicrosoftClientCredentialsGrant
        let graphTokens: AppTokenCache
        let googleTokens: AppTokenCache
        let sandbox: SandboxServer
        let network = CurlTransport()

        /// The titles in a mailbox's primary calendar over the next five weeks (next week's events among them).
        func titles(_ address: String) async throws -> [String] {
            let provider: any CalendarProvider
            if address.hasSuffix("@contoso.sandbox") {
                provider = GraphCalendarProvider(
                    account: address,
                    transport: MiddlewareTransport(
                        base: network, middlewares: [AppOnlyAuthentication(tokens: graphTokens, subject: address)]),
                    baseURL: URL(string: sandbox.info.url)!, mailbox: .user(address))
            } else {
                provider = GoogleCalendarProvider(
                    account: address,
                    transport: MiddlewareTransport(
                        base: network, middlewares: [AppOnlyAuthentication(tokens: googleTokens, subject: address)]),
                    baseURL: URL(string: sandbox.info.googleURL)!)
            }
            guard let primary = try await provider.listCalendars().first(where: \.isPrimary) else { return [] }
            let range = TimeRange(start: Date().addingTimeInterval(-86_400), end: Date().addingTimeInterval(35 * 86_400))
            return try await provider.listEvents(calendarID: primary.id, range: range, expand: false).map(\.title).sorted()
        }
    }

    /// The sandbox with app-only credentials and `pairs` Outlook-Google pairs enrolled in a migrated database
    /// (`org init`, both credentials, `org pairs import`), as the worker tests start from.
    struct World {
        let keys: ThrowawayKeys
        let sandbox: SandboxServer
        let traffic: Traffic
        let readers: Readers
        /// For the calbridge processes: the database URL, no colours.
        let environment: [String: String]

        /// - Parameter configure: changes to the sandbox's options (a test's request gate).
        static func start(
            pairs: Int, database: String, configure: (inout SandboxOptions) -> Void = { _ in }
        ) async throws -> World {
            let keys = try await ThrowawayKeys(
                clientEmail: WorkerEndToEndTests.serviceAccount, tokenURI: "https://oauth2.googleapis.com/token")
            let traffic = Traffic()
            var options = SandboxOptions()
            options.seed = try .organisation(pairs: pairs)
            options.apiRequestObserver = { traffic.record($0) }
            options.appOnly = SandboxAppOnlyDirectory(
                applications: [.init(tenant: tenant, clientId: clientId, certificatePEM: keys.certificatePEM)],
                serviceAccounts: [
                    .init(
                        clientEmail: serviceAccount, publicKeyPEM: keys.serviceAccountPublicPEM, domain: "gmail.sandbox",
                        delegatedScopes: [GoogleServiceAccountGrant.calendarScope])
                ])
            configure(&options)
            let sandbox = try await SandboxServer.start(options)
            let descriptors = keys.directory.url.appendingPathComponent("descriptors")
            try sandbox.info.writeDescriptors(to: descriptors)

            let environment = ["NO_COLOR": "1", "CALBRIDGE_DATABASE_URL": database]
            func calbridge(_ arguments: [String]) async throws {
                let result = try await CalbridgeBinary.run(arguments, environment: environment)
                #expect(result.status == 0, "\(arguments.prefix(3)): \(result.stderr)")
            }
            try await calbridge(["org", "init"])
            try await calbridge([
                "org", "credential", "add", "microsoft", "--tenant", tenant, "--client-id", clientId, "--certificate",
                keys.combinedPEM.path, "--domain", "contoso.sandbox", "--descriptor",
                descriptors.appendingPathComponent("microsoft.json").path,
            ])
            try await calbridge([
                "org", "credential", "add", "google", "--service-account", keys.serviceAccountFile.path, "--domain", "gmail.sandbox",
                "--descriptor", descriptors.appendingPathComponent("google.json").path,
            ])
            let csv = keys.directory.url.appendingPathComponent("pairs.csv")
            try
                ("a,b,direction,fields\n"
                + (0..<pairs).map { "outlook\($0)@contoso.sandbox,google\($0)@gmail.sandbox,both,basic\n" }.joined())
                .write(to: csv, atomically: true, encoding: .utf8)
            try await calbridge(["org", "pairs", "import", csv.path])

            let graph = MicrosoftClientCredentialsGrant(
                tenant: tenant, clientId: clientId,
                tokenEndpoint: URL(string: sandbox.info.url + "/\(tenant)/oauth2/v2.0/token")!, apiBaseURL: URL(string: sandbox.info.url)!,
                proof: .certificate(.file(keys.combinedPEM.path)))
            let network = CurlTransport()
            let readers = Readers(
                graph: graph, graphTokens: AppTokenCache(grant: graph, transport: network),
                googleTokens: AppTokenCache(
                    grant: GoogleServiceAccountGrant(
                        keyFile: .file(keys.serviceAccountFile.path), tokenEndpoint: URL(string: sandbox.info.googleURL + "/token")!),
                    transport: network),
                sandbox: sandbox)
            return World(keys: keys, sandbox: sandbox, traffic: traffic, readers: readers, environment: environment)
        }

        func stop() {
            let sandbox = sandbox
            Task { try? await sandbox.stop() }
            keys.directory.remove()
        }

        /// The titles each pair's two calendars should show: the seed's, carried both ways.
        static func expected(_ index: Int) -> [String] { ["Lunch \(index)", "Review \(index)", "Standup \(index)"] }

        /// Waits up to `timeout` seconds for every pair to show `expected` on both sides; the calendars that
        /// do not yet (empty when converged).
        func convergence(pairs: Int, timeout: TimeInterval) async throws -> [String] {
            let deadline = Date().addingTimeInterval(timeout)
            var last: [String] = []
            repeat {
                try await Task.sleep(for: .seconds(1))
                last = []
                for index in 0..<pairs {
                    for address in ["outlook\(index)@contoso.sandbox", "google\(index)@gmail.sandbox"] {
                        let titles = try await readers.titles(address)
                        if titles != Self.expected(index) { last.append("\(address): \(titles)") }
                    }
                }
            } while !last.isEmpty && Date() < deadline
            return last
        }
    }

    @Test(
        "three workers, 20 pairs both ways, one SIGKILLed mid-run: every pair converges without duplicates, no mailbox worked by two at once"
    )
    func threeWorkers() async throws {
        let pairs = 20
        let database = try await TestPostgres.database()
        let world = try await Self.World.start(pairs: pairs, database: database)
        defer { world.stop() }
        let (environment, traffic, readers) = (world.environment, world.traffic, world.readers)

        let workers = try (1...3).map { number in
            try RunningCalbridge(
                ["worker", "--concurrency", "3", "--interval", "3s", "--lease", "15s", "--name", "w\(number)"], environment: environment)
        }
        defer { for worker in workers { worker.stop() } }
        // Kill the first worker once it is in the middle of its work.
        _ = try await workers[0].stderrLine(timeout: 120) { $0.hasPrefix("claimed outlook") }
        workers[0].signal(SIGKILL)

        let expected = World.expected
        let last = try await world.convergence(pairs: pairs, timeout: 240)
        #expect(last.isEmpty, "not converged: \(last.prefix(5))")

        // A few more turns: quiet ones write nothing and duplicate nothing.
        try await Task.sleep(for: .seconds(4))
        for index in [0, pairs / 2, pairs - 1] {
            #expect(try await readers.titles("outlook\(index)@contoso.sandbox") == expected(index))
            #expect(try await readers.titles("google\(index)@gmail.sandbox") == expected(index))
        }
        #expect(traffic.overlaps(gap: 1.5) == [])
        let workedBy = Set(traffic.all.map(\.worker))
        #expect(workedBy.isSuperset(of: ["w2", "w3"]), "\(workedBy)")

        // Every pair's last run is checked before SIGTERM: a run the stop cuts short (the workers cycle every 3 s)
        // is recorded as interrupted, as designed. The killed worker's pairs can have converged through its writes
        // before it recorded their runs: their leases expire (15 s) and another worker runs them, so wait for that.
        let connection = try await PostgresConnection(url: database)
        var runs = try await connection.execute("SELECT count(*) FROM sync_runs WHERE outcome = 'ok'")
        let runsDeadline = Date().addingTimeInterval(90)
        while runs[0, "count"] != String(pairs) && Date() < runsDeadline {
            try await Task.sleep(for: .seconds(1))
            runs = try await connection.execute("SELECT count(*) FROM sync_runs WHERE outcome = 'ok'")
        }
        let notOK = try await connection.execute("SELECT pair, outcome, error FROM sync_runs WHERE outcome <> 'ok'")
        #expect(runs[0, "count"] == String(pairs), "\(notOK.rows)")

        for worker in workers.dropFirst() { worker.signal(SIGTERM) }
        for worker in workers.dropFirst() {
            #expect(try await worker.wait(timeout: 60) == 0, "\(worker.stderr.suffix(800))")
            #expect(worker.stderr.contains("worker stopped (SIGTERM)") || worker.stderr.contains("worker stopped"))
        }
        let held = try await connection.execute(
            "SELECT count(*) FROM org_mailboxes WHERE lease_expires_at > now() AND lease_owner IN ('w2', 'w3')")
        #expect(held[0, "count"] == "0", "SIGTERM released every lease")
        let status = try await OrgStatus.read(connection)
        #expect(status.mailboxes.count == 2 * pairs)
        #expect(
            status.mailboxes.allSatisfy { $0.state == "active" && $0.lastSync != nil },
            "\(status.mailboxes.filter { $0.lastSync == nil }.map(\.address))")

    }
}
