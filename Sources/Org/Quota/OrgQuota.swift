import Foundation
import HTTP

/// A request quota per Microsoft tenant (`tenant:ID`) or per Google Cloud project (`project:ID`), held in the
/// organisation database so that every worker on every machine draws from the same one (`org_quotas`).
///
/// A token bucket: it holds at most `burst` requests and refills at `requests - burst` per `per`, so no window
/// of length `per` ever grants more than `requests`. A Graph `$batch` or a Google batch costs its parts, as the
/// services count them. The per-mailbox limits need no row: one lease per mailbox keeps Graph's 4 concurrent
/// requests, and a 429's `Retry-After` defers the mailbox (`FailurePolicy`).
package struct OrgQuota: Sendable, Equatable {
    /// `tenant:ID` or `project:ID`.
    package var name: String
    /// At most this many requests in any window of `per`.
    package var requests: Int
    package var per: Duration
    /// Requests that may go at once after a quiet spell (default a twentieth of `requests`, at least 1).
    package var burst: Int

    package init(name: String, requests: Int, per: Duration, burst: Int? = nil) {
        self.name = name
        self.requests = requests
        self.per = per
        self.burst = burst ?? max(1, requests / 20)
    }

    /// What keeps this quota from being stored: nil when it can be, else one line saying what to change.
    package var problem: String? {
        if !Self.isName(name) {
            return "a quota is named tenant:ID (a Microsoft tenant) or project:ID (a Google Cloud project), not '\(name)'"
        }
        if requests < 2 { return "--requests must be at least 2" }
        if per <= .zero { return "--per must be longer than zero" }
        if burst < 1 || burst >= requests { return "--burst must be at least 1 and less than --requests (\(requests))" }
        return nil
    }

    /// Whether `name` is `tenant:ID` or `project:ID` with a non-empty ID on one line.
    package static func isName(_ name: String) -> Bool {
        guard let colon = name.firstIndex(of: ":") else { return false }
        let kind = name[..<colon], id = name[name.index(after: colon)...]
        return (kind == "tenant" || kind == "project") && !id.isEmpty && id.count <= 200
            && !id.contains { $0.isNewline || $0.isWhitespace }
    }

    /// The quota a credential's requests count against: its tenant, or its service account's project (the
    /// address is `NAME@PROJECT.iam.gserviceaccount.com`; another address counts as its own project).
    package static func name(for credential: OrgCredential) -> String {
        switch credential.provider {
        case .microsoft:
            return "tenant:" + (credential.tenant ?? "").lowercased()
        case .google:
            let address = (credential.clientId ?? "").lowercased()
            let domain = address.split(separator: "@").last.map(String.init) ?? address
            let suffix = ".iam.gserviceaccount.com"
            return "project:" + (domain.hasSuffix(suffix) ? String(domain.dropLast(suffix.count)) : domain)
        }
    }

    /// Adds the quota, or changes it in place (what is left in the bucket is kept, up to the new burst).
    package func save(_ connection: PostgresConnection) async throws(PostgresError) {
        try await connection.execute(
            """
            INSERT INTO org_quotas (name, requests, per_seconds, burst, tokens) VALUES ($1, $2, $3, $4, $4)
            ON CONFLICT (name) DO UPDATE SET requests = excluded.requests, per_seconds = excluded.per_seconds,
                burst = excluded.burst, tokens = least(org_quotas.tokens, excluded.burst)
            """,
            [name, String(requests), WorkQueue.seconds(per), String(burst)])
    }

    /// Removes the quota named `name`; whether there was one.
    @discardableResult
    package static func remove(_ name: String, _ connection: PostgresConnection) async throws(PostgresError) -> Bool {
        try await connection.execute("DELETE FROM org_quotas WHERE name = $1", [name]).affected == 1
    }

    /// What a request costs: the parts of a Graph `$batch` or a Google batch (each counts with the services),
    /// else 1.
    package static func cost(of request: HTTPRequest) -> Int {
        guard request.method == .post, let body = request.body else { return 1 }
        let path = request.url.path
        if path.hasSuffix("/$batch") {
            let requests = (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["requests"] as? [Any]
            return max(1, requests?.count ?? 1)
        }
        if path.hasSuffix("/batch/calendar/v3") {
            return max(1, String(decoding: body, as: UTF8.self).components(separatedBy: "application/http").count - 1)
        }
        return 1
    }
}

/// A worker's hold on one shared quota: each request takes its cost from the bucket row in one short
/// statement (`calbridge_take_quota`), before it is sent and never inside another transaction; an empty bucket
/// makes the request wait for the refill. A quota nobody configured costs one look every 30 seconds.
///
/// A database that does not answer within `answerWithin` fails the request (`OrgQuotaUnavailable`) instead of
/// holding it: the turn ends as a retry and the worker goes on, as it does when a lease renewal hangs.
package actor OrgRequestQuota: RequestBudget {
    package nonisolated let name: String
    private let connection: PostgresConnection
    private let answerWithin: Duration
    /// Until when the quota is known not to be configured.
    private var absentUntil: ContinuousClock.Instant?

    /// - Parameters:
    ///   - connection: a connection of its own (its statements queue behind no other work).
    ///   - answerWithin: how long one take may wait for the database's answer.
    package init(name: String, connection: PostgresConnection, answerWithin: Duration = .seconds(10)) {
        self.name = name
        self.connection = connection
        self.answerWithin = answerWithin
    }

    package func acquire(for request: HTTPRequest) async throws {
        let cost = OrgQuota.cost(of: request)
        while true {
            if let absentUntil, ContinuousClock.now < absentUntil { return }
            let rows: PostgresRows
            do {
                rows = try await connection.execute(
                    "SELECT calbridge_take_quota($1, $2) AS wait", [name, String(cost)], timeout: answerWithin)
            } catch {
                throw OrgQuotaUnavailable(name: name, reason: error)
            }
            guard let wait = rows[0, "wait"].flatMap(Double.init) else {
                absentUntil = .now + .seconds(30)
                return
            }
            if wait <= 0 { return }
            // Ask again once enough should have refilled (others may take it first), at least every 5 s so that a
            // changed quota applies.
            try await Task.sleep(for: .milliseconds(Int64(min(max(wait, 0.002), 5) * 1000)))
        }
    }
}

/// A shared quota could not be taken (the database failed or did not answer in time): the request was not
/// sent, and the mailbox's turn is retried after the backoff.
package struct OrgQuotaUnavailable: Error, Sendable, CustomStringConvertible {
    package var name: String
    package var reason: PostgresError

    package var description: String { "the quota \(name) could not be taken: \(reason)" }
}
