import CalendarBridge
import Foundation
import OAuth
import Sync

/// The organisation's credentials, mailboxes and pairs in the database.
package struct OrgDirectory: Sendable {
    package let connection: PostgresConnection

    package init(connection: PostgresConnection) {
        self.connection = connection
    }

    /// Adds or replaces a credential and the domains it serves.
    /// - Throws: `OrgError.usage` when a domain is already another credential's.
    package func addCredential(_ credential: OrgCredential) async throws {
        try await connection.transaction { connection in
            let taken = try await connection.execute(
                "SELECT domain, credential FROM org_domains WHERE domain = ANY($1::text[]) AND credential <> $2",
                [Self.array(credential.domains), credential.name]
            )
            if let domain = taken.rows.first {
                throw OrgError.usage(
                    "the domain \(domain[0] ?? "") is already served by the credential \(domain[1] ?? ""); a domain has one credential")
            }
            try await connection.execute(
                """
                INSERT INTO org_credentials (name, provider, tenant, client_id, secret_location, proof, token_endpoint, api_base_url)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                ON CONFLICT (name) DO UPDATE SET provider = excluded.provider, tenant = excluded.tenant,
                    client_id = excluded.client_id, secret_location = excluded.secret_location, proof = excluded.proof,
                    token_endpoint = excluded.token_endpoint, api_base_url = excluded.api_base_url
                """,
                [
                    credential.name, credential.provider.rawValue, credential.tenant, credential.clientId, credential.secretLocation.stored,
                    credential.proof.rawValue, credential.tokenEndpoint.absoluteString, credential.apiBaseURL.absoluteString,
                ]
            )
            try await connection.execute("DELETE FROM org_domains WHERE credential = $1", [credential.name])
            try await connection.execute(
                "INSERT INTO org_domains (domain, credential) SELECT unnest($1::text[]), $2",
                [Self.array(credential.domains), credential.name]
            )
        }
    }

    /// Every credential with its domains, by name. Waits at most the connection's `statementTimeout`, else
    /// `WorkQueue.defaultTimeout`, for the answer: a worker starting against a database that stopped answering fails
    /// instead of hanging.
    package func credentials() async throws -> [OrgCredential] {
        let rows = try await connection.execute(
            """
            SELECT c.name, c.provider, c.tenant, c.client_id, c.secret_location, c.proof, c.token_endpoint, c.api_base_url,
                   coalesce(string_agg(d.domain, ' ' ORDER BY d.domain), '') AS domains
            FROM org_credentials c LEFT JOIN org_domains d ON d.credential = c.name
            GROUP BY c.name ORDER BY c.name
            """,
            timeout: connection.statementTimeout ?? WorkQueue.defaultTimeout
        )
        return rows.rows.indices.compactMap { index in
            guard let name = rows[index, "name"], let provider = rows[index, "provider"].flatMap(OrgCredential.Provider.init),
                let location = rows[index, "secret_location"].flatMap(SecretLocation.init(stored:)),
                let proof = rows[index, "proof"].flatMap(OrgCredential.Proof.init),
                let token = rows[index, "token_endpoint"].flatMap(URL.init(string:)),
                let api = rows[index, "api_base_url"].flatMap(URL.init(string:))
            else { return nil }
            return OrgCredential(
                name: name, provider: provider, tenant: rows[index, "tenant"], clientId: rows[index, "client_id"], secretLocation: location,
                proof: proof, tokenEndpoint: token, apiBaseURL: api,
                domains: (rows[index, "domains"] ?? "").split(separator: " ").map(String.init)
            )
        }
    }

    /// What `importPairs` did.
    package struct ImportReport: Sendable, Equatable {
        /// Pairs written (new, or changed direction or fields).
        package var written = 0
        /// Pairs already there exactly as the file says.
        package var unchanged = 0
        /// Rows not used: the file's line number and why.
        package var skipped: [PairsCSV.Problem] = []
    }

    /// Enrols the rows' mailboxes and writes their pairs, in one transaction; running it again changes nothing.
    /// A row whose mailbox's domain no credential serves is skipped with its line.
    package func importPairs(_ file: PairsCSV) async throws -> ImportReport {
        var report = ImportReport(skipped: file.problems)
        let served = Set(try await connection.execute("SELECT domain FROM org_domains").rows.compactMap { $0[0] })
        var usable: [PairsCSV.Row] = []
        for row in file.rows {
            if let unserved = [row.a, row.b].first(where: { !served.contains(PairsCSV.domain(of: $0)) }) {
                report.skipped.append(
                    PairsCSV.Problem(
                        line: row.line,
                        message:
                            "no credential serves the domain of \(unserved) (calbridge org credential add ... --domain \(PairsCSV.domain(of: unserved)))"
                    ))
            } else {
                usable.append(row)
            }
        }
        report.skipped.sort { $0.line < $1.line }
        try await connection.transaction { connection in
            let addresses = Array(Set(usable.flatMap { [$0.a, $0.b] })).sorted()
            try await connection.execute(
                "INSERT INTO org_mailboxes (address) SELECT unnest($1::text[]) ON CONFLICT (address) DO NOTHING", [Self.array(addresses)]
            )
            for row in usable {
                let written = try await connection.execute(
                    """
                    INSERT INTO org_pairs (a, b, direction, fields) VALUES ($1, $2, $3, $4)
                    ON CONFLICT (a, b) DO UPDATE SET direction = excluded.direction, fields = excluded.fields
                    WHERE org_pairs.direction <> excluded.direction OR org_pairs.fields <> excluded.fields
                    """,
                    [row.a, row.b, row.direction.rawValue, row.fields.rawValue]
                )
                if written.affected == 1 { report.written += 1 } else { report.unchanged += 1 }
            }
        }
        return report
    }

    /// A text array literal for `$n::text[]` (each element quoted and escaped).
    static func array(_ values: [String]) -> String {
        "{"
            + values.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
            .joined(separator: ",") + "}"
    }
}
