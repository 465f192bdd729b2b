import Foundation
import TestSupport
import Testing

@testable import Org

/// The `org` commands as a user runs them (the built binary) against a real PostgreSQL.
@Suite("org commands end to end", .postgres)
struct OrgCommandsTests {
    static func run(_ arguments: [String], database: String?) async throws -> CalbridgeBinary.Result {
        var environment: [String: String] = ["NO_COLOR": "1"]
        if let database { environment["CALBRIDGE_DATABASE_URL"] = database }
        return try await CalbridgeBinary.run(arguments, environment: environment)
    }

    @Test("init, credentials, an import with bad rows (exit 4, line numbers), the same import again, status as JSON")
    func wholeSetup() async throws {
        let url = try await TestPostgres.database()
        let keys = try await ThrowawayKeys(tokenURI: "https://oauth2.googleapis.com/token")
        defer { keys.directory.remove() }

        let initialised = try await Self.run(["org", "init"], database: url)
        #expect(initialised.status == 0, "\(initialised.stderr)")
        #expect(initialised.stdout.contains("to \(OrgSchema.currentVersion)"))
        #expect(try await Self.run(["org", "init"], database: url).stdout.contains("is current"))

        let microsoft = try await Self.run(
            [
                "org", "credential", "add", "microsoft", "--tenant", "contoso.com", "--client-id", "6f1c2f1e-0000-4000-8000-00000000a991",
                "--certificate", keys.combinedPEM.path, "--domain", "contoso.com",
            ], database: url)
        #expect(microsoft.status == 0, "\(microsoft.stderr)")
        #expect(microsoft.stdout.contains("microsoft:contoso.com serves contoso.com"))
        let google = try await Self.run(
            ["org", "credential", "add", "google", "--service-account", keys.serviceAccountFile.path, "--domain", "Fabrikam.com"],
            database: url)
        #expect(google.status == 0, "\(google.stderr)")
        let clash = try await Self.run(
            [
                "org", "credential", "add", "microsoft", "--tenant", "other", "--client-id", "x", "--secret-env", "APP_SECRET", "--domain",
                "contoso.com",
            ],
            database: url)
        #expect(clash.status == 2)
        #expect(clash.stderr.contains("already served by the credential microsoft:contoso.com"))

        let csv = keys.directory.url.appendingPathComponent("pairs.csv")
        try """
        a,b,direction,fields
        alice@contoso.com,alice@fabrikam.com,both,busy
        bob@contoso.com,bob@fabrikam.com,a-to-b,basic
        carol@contoso.com,carol@elsewhere.org,both,busy
        dan@contoso.com,dan@fabrikam.com,sideways,busy
        not-an-address,eve@fabrikam.com,both,busy

        """.write(to: csv, atomically: true, encoding: .utf8)
        let imported = try await Self.run(["org", "pairs", "import", csv.path], database: url)
        #expect(imported.status == 4)
        #expect(imported.stdout.contains("2 new or changed, 0 unchanged; 3 rows skipped"))
        #expect(imported.stderr.contains("pairs.csv:4: no credential serves the domain of carol@elsewhere.org"))
        #expect(imported.stderr.contains("pairs.csv:5: direction 'sideways'"))
        #expect(imported.stderr.contains("pairs.csv:6: 'not-an-address' is not a mail address"))
        let again = try await Self.run(["org", "pairs", "import", csv.path], database: url)
        #expect(again.stdout.contains("0 new or changed, 2 unchanged"))

        let status = try await Self.run(["org", "status", "--format", "json"], database: url)
        #expect(status.status == 0, "\(status.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        let mailboxes = try #require(json["mailboxes"] as? [[String: Any]])
        #expect(
            mailboxes.map { $0["address"] as? String } == [
                "alice@contoso.com", "alice@fabrikam.com", "bob@contoso.com", "bob@fabrikam.com",
            ])
        #expect(mailboxes.allSatisfy { $0["state"] as? String == "active" })
        #expect((json["pairs"] as? [Any])?.count == 2)

        // The database names where keys are, never holds them.
        let connection = try await PostgresConnection(url: url)
        let stored = try await connection.execute("SELECT secret_location FROM org_credentials ORDER BY name")
        #expect(stored.rows.map { $0[0] } == ["file:" + keys.serviceAccountFile.path, "file:" + keys.combinedPEM.path])
        let everything = try await connection.execute("SELECT row_to_json(c)::text FROM org_credentials c")
        #expect(everything.rows.allSatisfy { !($0[0] ?? "").contains("PRIVATE KEY") })
    }

    @Test("the database URL: a password on the command line is refused; none at all says how to name one; a bad one fails cleanly")
    func databaseURL() async throws {
        let withPassword = try await Self.run(
            ["org", "status", "--database", "postgresql://calbridge:hunter2@127.0.0.1/org"], database: nil)
        #expect(withPassword.status == 2)
        #expect(withPassword.stderr.contains("must not carry a password"))
        #expect(!withPassword.stderr.contains("hunter2"))
        let missing = try await Self.run(["org", "init"], database: nil)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("CALBRIDGE_DATABASE_URL"))
        let unreachable = try await Self.run(["org", "init"], database: "postgresql://calbridge:hunter2@127.0.0.1:1/org?connect_timeout=2")
        #expect(unreachable.status == 1)
        #expect(unreachable.stderr.contains("cannot connect"))
        #expect(!unreachable.stderr.contains("hunter2"))
        let uninitialised = try await Self.run(["org", "status"], database: try await TestPostgres.database())
        #expect(uninitialised.status == 2)
        #expect(uninitialised.stderr.contains("org init"))
        for command in [["org", "status"], ["worker"]] {
            let zero = try await Self.run(command + ["--database-timeout", "0s"], database: nil)
            #expect(zero.status == 2 && zero.stderr.contains("--database-timeout"), "\(command): \(zero.stderr)")
        }
    }
}
