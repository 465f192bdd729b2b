import Foundation
import HTTP
import Testing

@testable import Org

/// The shared request quotas against a real PostgreSQL: many takers on many connections hold one bucket's
/// rate together; batches cost their parts; the quota a credential's requests count against.
@Suite("Org request quotas on PostgreSQL", .postgres)
struct OrgQuotaTests {
    static func database() async throws -> (url: String, connection: PostgresConnection) {
        let url = try await TestPostgres.database()
        let connection = try await PostgresConnection(url: url)
        try await OrgSchema.migrate(connection)
        return (url, connection)
    }

    static let get = HTTPRequest(method: .get, url: URL(string: "https://graph.microsoft.com/v1.0/users/a@contoso.com/calendars")!)

    /// The most grants that fall in any window of `length` seconds.
    static func busiestWindow(_ times: [Double], length: Double) -> Int {
        let sorted = times.sorted()
        var busiest = 0
        var first = 0
        for (index, time) in sorted.enumerated() {
            while sorted[first] <= time - length { first += 1 }
            busiest = max(busiest, index - first + 1)
        }
        return busiest
    }

    @Test("eight takers on eight connections at once: no window of the quota's length gets more than its requests, and they keep going")
    func eightTakersHoldTheRate() async throws {
        let (url, connection) = try await Self.database()
        // 30 requests in any 2 s: a burst of 3, refilled at 13.5 a second.
        try await OrgQuota(name: "tenant:contoso", requests: 30, per: .seconds(2), burst: 3).save(connection)
        let start = Date()
        let runFor = 5.0
        let times = try await withThrowingTaskGroup(of: [Double].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let quota = OrgRequestQuota(name: "tenant:contoso", connection: try await PostgresConnection(url: url))
                    var mine: [Double] = []
                    while Date().timeIntervalSince(start) < runFor {
                        try await quota.acquire(for: Self.get)
                        mine.append(Date().timeIntervalSince(start))
                    }
                    return mine
                }
            }
            var all: [Double] = []
            for try await batch in group { all += batch }
            return all
        }
        // The grant happens in the database a moment before the taker notes it: a quarter second's refill (3) of
        // slack for that, on a loaded machine. Unthrottled, eight connections take thousands in 5 s.
        let busiest = Self.busiestWindow(times, length: 2)
        #expect(busiest <= 30 + 3, "the busiest 2 s had \(busiest) grants")
        // Progress, not speed (the rate allows 3 + 13.5 x 5 = 70 in 5 s; 60-70 measured on a quiet machine, 22-44
        // under a load average of 20, which is the benchmark's business): the bucket refilled several times over
        // and the takers were still being granted in the run's second half.
        #expect(times.count >= 3 + 7, "\(times.count) grants in 5 s")
        #expect(times.filter { $0 >= runFor / 2 }.count >= 3, "grants after \(runFor / 2) s: \(times.sorted().suffix(5))")
        #expect(times.count <= 3 + Int((13.5 * (runFor + 0.5)).rounded(.up)) + 8, "\(times.count) grants in 5 s")
        let status = try await OrgStatus.read(connection)
        let quota = try #require(status.quotas.first)
        #expect(quota.name == "tenant:contoso" && quota.requests == 30 && quota.perSeconds == 2 && quota.burst == 3)
        #expect(quota.granted == times.count)
        #expect(quota.waits > 0 && quota.lastWait != nil, "takers found the bucket empty and waited")
    }

    @Test("a quota nobody configured lets requests go at once; quotas are independent; removing one lifts it")
    func independentAndAbsent() async throws {
        let (_, connection) = try await Self.database()
        try await OrgQuota(name: "project:fabrikam", requests: 4, per: .seconds(3600), burst: 2).save(connection)
        let fabrikam = OrgRequestQuota(name: "project:fabrikam", connection: connection)
        let other = OrgRequestQuota(name: "tenant:contoso", connection: connection)
        for _ in 0..<50 { try await other.acquire(for: Self.get) }
        try await fabrikam.acquire(for: Self.get)
        try await fabrikam.acquire(for: Self.get)
        // The burst is spent and the refill is 2 an hour: a third request waits.
        let third = Task { try await fabrikam.acquire(for: Self.get) }
        try await Task.sleep(for: .milliseconds(500))
        let waits = try await connection.execute("SELECT waits FROM org_quotas WHERE name = 'project:fabrikam'")[0, "waits"]
        #expect(waits.flatMap { Int($0) } ?? 0 >= 1)
        third.cancel()
        await #expect(throws: CancellationError.self) { try await third.value }
        #expect(try await OrgQuota.remove("project:fabrikam", connection))
        #expect(try await !OrgQuota.remove("project:fabrikam", connection))
        try await OrgRequestQuota(name: "project:fabrikam", connection: connection).acquire(for: Self.get)
    }

    @Test("a Graph $batch and a Google batch cost their parts; a batch larger than the bucket waits for a full one and leaves a debt")
    func batchesCostTheirParts() async throws {
        let graph = HTTPRequest(
            method: .post, url: URL(string: "https://graph.microsoft.com/v1.0/$batch")!,
            body: Data(#"{"requests":[{"id":"1"},{"id":"2"},{"id":"3"}]}"#.utf8))
        #expect(OrgQuota.cost(of: graph) == 3)
        let part = "--b\r\nContent-Type: application/http\r\n\r\nPOST /calendar/v3/calendars/x/events\r\n\r\n{}\r\n"
        let google = HTTPRequest(
            method: .post, url: URL(string: "https://www.googleapis.com/batch/calendar/v3")!, body: Data((part + part + "--b--").utf8))
        #expect(OrgQuota.cost(of: google) == 2)
        #expect(OrgQuota.cost(of: Self.get) == 1)

        let (_, connection) = try await Self.database()
        try await OrgQuota(name: "tenant:contoso", requests: 10, per: .seconds(3600), burst: 2).save(connection)
        try await OrgRequestQuota(name: "tenant:contoso", connection: connection).acquire(for: graph)
        let tokens = try await connection.execute("SELECT tokens FROM org_quotas")[0, "tokens"].flatMap(Double.init)
        #expect(tokens.map { $0 < -0.9 && $0 > -1.1 } == true, "3 taken from a bucket of 2: \(tokens ?? 0)")
    }

    @Test("a credential's requests count against its tenant, or its service account's Google project")
    func quotaNames() {
        func credential(_ provider: OrgCredential.Provider, tenant: String?, client: String) -> OrgCredential {
            OrgCredential(
                name: "x", provider: provider, tenant: tenant, clientId: client, secretLocation: .environment("X"),
                proof: provider == .google ? .serviceAccount : .secret, tokenEndpoint: URL(string: "https://login.example")!,
                apiBaseURL: URL(string: "https://api.example")!, domains: ["contoso.com"])
        }
        #expect(
            OrgQuota.name(for: credential(.microsoft, tenant: "Contoso.onmicrosoft.com", client: "id")) == "tenant:contoso.onmicrosoft.com")
        #expect(
            OrgQuota.name(for: credential(.google, tenant: nil, client: "sync@fabrikam-prod.iam.gserviceaccount.com"))
                == "project:fabrikam-prod")
        #expect(OrgQuota(name: "tenant:contoso", requests: 10_000, per: .seconds(600)).burst == 500)
        #expect(OrgQuota(name: "tenant:contoso", requests: 10, per: .seconds(60)).problem == nil)
        #expect(OrgQuota(name: "contoso", requests: 10, per: .seconds(60)).problem?.contains("tenant:ID") == true)
        #expect(OrgQuota(name: "tenant:contoso", requests: 10, per: .seconds(60), burst: 10).problem?.contains("--burst") == true)
        #expect(OrgQuota(name: "project:", requests: 10, per: .seconds(60)).problem != nil)
    }
}
