import Foundation
import LoopbackServer
import Sandbox
import TestSupport
import Testing

@testable import Org

/// Quotas per tenant and per Google project held across `calbridge worker` processes, counted at the sandbox.
@Suite("Worker quotas end to end", .postgres, .serialized)
struct WorkerQuotaTests {
    /// The most request parts in any window of `length` seconds.
    static func busiestWindow(_ requests: [WorkerEndToEndTests.Traffic.Request], length: TimeInterval) -> Int {
        let sorted = requests.sorted { $0.time < $1.time }
        var busiest = 0, inWindow = 0, first = 0
        for request in sorted {
            inWindow += request.parts
            while sorted[first].time <= request.time.addingTimeInterval(-length) {
                inWindow -= sorted[first].parts
                first += 1
            }
            busiest = max(busiest, inWindow)
        }
        return busiest
    }

    @Test(
        "three workers share a tenant's and a project's quota: no window gets more than the quota at the sandbox; a 429's Retry-After still defers its mailbox"
    )
    func quotasHeldAcrossWorkers() async throws {
        let pairs = 16
        let database = try await TestPostgres.database()
        // The sandbox throttles one mailbox (429 with Retry-After 600) whatever the quota has left.
        let throttled = "outlook0@contoso.sandbox"
        let world = try await WorkerEndToEndTests.World.start(pairs: pairs, database: database) { options in
            options.apiRequestGate = { request in
                let target = request.target.removingPercentEncoding ?? request.target
                guard (request.headers["User-Agent"] ?? "").hasPrefix("calbridge-worker"), target.contains("/users/\(throttled)/") else {
                    return nil
                }
                return ServerResponse(
                    status: 429, headers: ["Retry-After": "600", "Content-Type": "application/json"],
                    body: Data(
                        #"{"error":{"code":"ApplicationThrottled","message":"Application is over its MailboxRequests limit."}}"#.utf8))
            }
        }
        defer { world.stop() }
        // 24 request parts in any 2 s for each, 2 at once: 11 a second.
        for name in ["tenant:\(WorkerEndToEndTests.tenant)", "project:contoso-project"] {
            let result = try await CalbridgeBinary.run(
                ["org", "quota", "set", name, "--requests", "24", "--per", "2s", "--burst", "2"], environment: world.environment)
            #expect(result.status == 0, "\(result.stderr)")
        }
        let workers = try (1...3).map { number in
            try RunningCalbridge(
                ["worker", "--concurrency", "3", "--interval", "1h", "--lease", "30s", "--name", "q\(number)"],
                environment: world.environment)
        }
        defer { for worker in workers { worker.stop() } }

        // Every pair but the throttled mailbox's converges (its second mailbox, synced only with it, stays unsynced too).
        let connection = try await PostgresConnection(url: database)
        let deadline = Date().addingTimeInterval(180)
        var open = -1
        while Date() < deadline {
            let rows = try await connection.execute(
                "SELECT count(*) FROM org_mailboxes WHERE last_sync_at IS NULL AND address NOT IN ($1, 'google0@gmail.sandbox')",
                [throttled])
            open = rows[0, "count"].flatMap { Int($0) } ?? -1
            if open == 0 { break }
            try await Task.sleep(for: .milliseconds(500))
        }
        #expect(open == 0, "mailboxes not yet synced: \(open)")
        for index in 1..<pairs {
            let expected = WorkerEndToEndTests.World.expected(index)
            #expect(try await world.readers.titles("outlook\(index)@contoso.sandbox") == expected)
            #expect(try await world.readers.titles("google\(index)@gmail.sandbox") == expected)
        }

        let traffic = world.traffic.all
        let graph = traffic.filter { !$0.google }, google = traffic.filter(\.google)
        // The grant is in the database a moment before the request reaches the sandbox: a quarter second's refill
        // (3) of slack for that on a loaded machine. Unthrottled, the first syncs send all of it within a second or two.
        let (busiestGraph, busiestGoogle) = (Self.busiestWindow(graph, length: 2), Self.busiestWindow(google, length: 2))
        #expect(busiestGraph <= 24 + 3, "Graph: \(busiestGraph) request parts in the busiest 2 s of \(graph.count)")
        #expect(busiestGoogle <= 24 + 3, "Google: \(busiestGoogle) request parts in the busiest 2 s of \(google.count)")
        #expect(graph.count > 48 && google.count > 48, "enough traffic to need the quota: \(graph.count), \(google.count)")
        #expect(Set(traffic.map(\.worker)).count > 1, "several workers shared the quotas")

        let status = try await OrgStatus.read(connection)
        #expect(status.quotas.map(\.name) == ["project:contoso-project", "tenant:\(WorkerEndToEndTests.tenant)"])
        #expect(status.quotas.allSatisfy { $0.waits > 0 }, "workers waited for both: \(status.quotas.map { ($0.name, $0.waits) })")
        // The throttled mailbox waits for the service's Retry-After, not for the quota's next token.
        let row = try await connection.execute(
            "SELECT last_error, extract(epoch FROM due_at - now()) AS due_in FROM org_mailboxes WHERE address = $1", [throttled])
        let dueIn = try #require(row[0, "due_in"].flatMap(Double.init))
        #expect(dueIn > 400 && dueIn <= 600, "due again after Retry-After (600 s): \(dueIn)")
        #expect(row[0, "last_error"]?.contains("MailboxRequests") == true, "\(row[0, "last_error"] ?? "")")

        let json = try await CalbridgeBinary.run(["org", "status", "--format", "json"], environment: world.environment)
        #expect(json.status == 0)
        #expect(json.stdout.contains("\"quotas\"") && json.stdout.contains("\"waits\""))
        for worker in workers { worker.signal(SIGTERM) }
        for worker in workers { #expect(try await worker.wait(timeout: 60) == 0, "\(worker.stderr.suffix(600))") }
    }
}
