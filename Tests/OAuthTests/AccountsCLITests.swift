import Accounts
import Foundation
import Sandbox
import Testing
import TestSupport
@testable import OAuth

@Suite("calbridge accounts add/list/remove and whoami, end to end with the binary")
struct AccountsCLITests {
    /// Everything the binary printed, for the final grep for tokens.
    final class Transcript: @unchecked Sendable {
        private let lock = NSLock()
        private var text = ""
        func add(_ more: String...) { lock.withLock { text += more.joined(separator: "\n") + "\n" } }
        var all: String { lock.withLock { text } }
    }

    @Test("add (browser and device), list, whoami with refresh, revoked grant → exit 3, remove; no token ever printed",
          arguments: ServerKind.allCases)
    func endToEnd(_ kind: ServerKind) async throws {
        let server = try kind.start(.init(tokenLifetime: 2, deviceInterval: 1))
        defer { server.stop() }
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let googleFile = temp.url.appendingPathComponent("google-test.json")
        let microsoftFile = temp.url.appendingPathComponent("microsoft-test.json")
        try server.descriptorJSON(.google).write(to: googleFile)
        try server.descriptorJSON(.microsoft).write(to: microsoftFile)
        let home = temp.url.appendingPathComponent("home")
        let env = ["CALBRIDGE_HOME": home.path]
        let transcript = Transcript()
        let google = server.credentials(.google), microsoft = server.credentials(.microsoft)

        // 1. Browser flow, the URL followed by the stand-in browser.
        let add = try RunningCalbridge([
            "accounts", "add", googleFile.path, "--no-browser", "--flow", "browser",
            "--client-id", google.clientId, "--client-secret", google.clientSecret!, "--verbose",
        ], environment: env)
        let urlLine = try await add.stderrLine { $0.hasPrefix("http://127.0.0.1:") }
        #expect(urlLine.contains("/o/oauth2/v2/auth?"))
        let visit = try await BrowserStandIn.follow(try #require(URL(string: urlLine)))
        #expect(visit.pageStatus == 200)
        #expect(try await add.wait() == 0)
        transcript.add(add.stdout, add.stderr)
        #expect(add.stdout.contains("as Ada Lovelace <\(server.user(.google))>; account name '\(server.user(.google))'"))

        // 2. Device flow: the user code and URI are printed; the "user" approves at the verification URI.
        let device = try RunningCalbridge([
            "accounts", "add", microsoftFile.path, "--flow", "device", "--client-id", microsoft.clientId,
            "--name", "work", "--tenant", "contoso", "--verbose",
        ], environment: env)
        let codeLine = try await device.stderrLine { $0.hasPrefix("and enter the code ") }
        let openLine = try await device.stderrLine { $0.hasPrefix("To sign in to ") }
        let userCode = String(codeLine.split(separator: " ").last!)
        let uri = String(openLine.split(separator: " ").first { $0.hasPrefix("http") }!)
        #expect(uri.hasPrefix("http://127.0.0.1:"))
        try await server.approveDevice(verificationURI: try #require(URL(string: uri)), userCode: userCode)
        #expect(try await device.wait() == 0)
        transcript.add(device.stdout, device.stderr)
        #expect(device.stdout.contains("account name 'work'"))

        // Files: directory 0700, files 0600.
        for path in [home.path, home.appendingPathComponent("accounts.json").path,
                     CalbridgeHome(directory: home).tokenFile(account: "work").path] {
            let mode = (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
            #expect(mode == (path == home.path ? 0o700 : 0o600), "\(path)")
        }

        // 3. list
        let list = try await RunningCalbridge.run(["accounts", "list", "--format", "json"], environment: env)
        transcript.add(list.stdout, list.stderr)
        #expect(list.status == 0)
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: String]])
        #expect(listed.map { $0["name"] } == [server.user(.google), "work"])
        #expect(listed.map { $0["user"] } == [server.user(.google), server.user(.microsoft)])
        #expect(listed.allSatisfy { $0["status"] == "ok" || $0["status"]?.hasPrefix("expired") == true })
        let table = try await RunningCalbridge.run(["accounts", "list"], environment: env)
        transcript.add(table.stdout, table.stderr)
        #expect(table.stdout.contains("NAME") && table.stdout.contains("work"))

        // 4. whoami after the 2-second tokens expired: refreshed, answered, new token persisted.
        try await Task.sleep(for: .milliseconds(2200))
        let refreshesBefore = await server.refreshCount()
        let whoami = try await RunningCalbridge.run(["whoami", "--account", "work", "--verbose"], environment: env)
        transcript.add(whoami.stdout, whoami.stderr)
        #expect(whoami.status == 0, "\(whoami.stderr)")
        #expect(whoami.stdout.contains("Grace Hopper"))
        #expect(whoami.stdout.contains("E-mail:    \(server.user(.microsoft))"))
        #expect(whoami.stdout.contains("W. Europe Standard Time"))
        #expect(whoami.stderr.contains("Authorization: Bearer <redacted>"))
        // At least one refresh (a second one only if the machine took over a second between the two calls).
        #expect(await server.refreshCount() > refreshesBefore)
        let google2 = try await RunningCalbridge.run(["whoami", "--account", server.user(.google)], environment: env)
        transcript.add(google2.stdout, google2.stderr)
        #expect(google2.status == 0, "\(google2.stderr)")
        #expect(google2.stdout.contains("Ada Lovelace"))
        let ambiguous = try await RunningCalbridge.run(["whoami"], environment: env)
        transcript.add(ambiguous.stdout, ambiguous.stderr)
        #expect(ambiguous.status == 2)

        // 5. remove google: revoked at the server, files gone.
        let remove = try await RunningCalbridge.run(["accounts", "remove", server.user(.google), "--verbose"], environment: env)
        transcript.add(remove.stdout, remove.stderr)
        #expect(remove.status == 0, "\(remove.stderr)")
        #expect(remove.stdout.contains("revoked at Fake Google"))
        #expect(!FileManager.default.fileExists(atPath: CalbridgeHome(directory: home).tokenFile(account: server.user(.google)).path))
        let unknown = try await RunningCalbridge.run(["accounts", "remove", "nobody"], environment: env)
        transcript.add(unknown.stdout, unknown.stderr)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("no account named 'nobody'"))

        // 6. The grant is revoked at the provider: exit 3 and the exact command to sign in again.
        await server.revokeGrants()
        try await Task.sleep(for: .milliseconds(2200))
        let revoked = try await RunningCalbridge.run(["whoami", "--account", "work"], environment: env)
        transcript.add(revoked.stdout, revoked.stderr)
        #expect(revoked.status == 3)
        #expect(revoked.stderr.contains(
            "calbridge accounts add \(microsoftFile.standardizedFileURL.path) --name work --tenant contoso --client-id \(microsoft.clientId)"
        ))
        #expect(revoked.stderr.split(separator: "\n").count == 1)

        // 7. No token (nor the client secret) in anything printed.
        let output = transcript.all
        let tokens = await (server as! FakeAuthorizationServer).issuedTokens()
        #expect(tokens.count >= 5)
        for token in tokens { #expect(!output.contains(token), "a token was printed") }
        #expect(!output.contains(google.clientSecret!))
        #expect(!output.contains("code-"), "an authorization code was printed")
    }

    @Test("a token file open to others makes the CLI refuse with the chmod fix (exit 2)")
    func loosePermissions() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let home = CalbridgeHome(directory: temp.url.appendingPathComponent("home"))
        try AccountRegistry(home: home).save(AccountRecord(
            name: "a", provider: "google", api: ProviderAPI(rawValue: "google-calendar-v3"), user: "a@example.com", clientId: "c", scopes: ["s"]))
        try FileTokenStore(home: home).save(TokenSet(accessToken: "x", refreshToken: "y"), account: "a")
        chmod(home.tokenFile(account: "a").path, 0o640)
        let result = try await RunningCalbridge.run(["accounts", "list"], environment: ["CALBRIDGE_HOME": home.directory.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("chmod 600 \(home.tokenFile(account: "a").path)"))
    }

    @Test("the client secret from $CALBRIDGE_CLIENT_SECRET or --client-secret-file signs in; bad sources are exit 2")
    func clientSecretOutOfArgv() async throws {
        let server = try ServerKind.fake.start()
        defer { server.stop() }
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let descriptor = temp.url.appendingPathComponent("google-test.json")
        try server.descriptorJSON(.google).write(to: descriptor)
        let google = server.credentials(.google)
        let secret = try #require(google.clientSecret)
        let env = ["CALBRIDGE_HOME": temp.url.appendingPathComponent("home").path]
        let add = ["accounts", "add", descriptor.path, "--no-browser", "--client-id", google.clientId]

        func signIn(_ extra: [String], environment: [String: String]) async throws -> (Int32, String) {
            let running = try RunningCalbridge(add + extra, environment: env.merging(environment) { $1 })
            // Every case here gets as far as the sign-in URL (a wrong secret is refused at the token exchange).
            let line = try await running.stderrLine(timeout: 90, where: { $0.hasPrefix("http://127.0.0.1:") })
            _ = try await BrowserStandIn.follow(try #require(URL(string: line)))
            let status = try await running.wait()
            return (status, running.stdout + running.stderr)
        }

        // The environment variable: signed in, the secret never printed.
        let (viaEnvironment, output1) = try await signIn(["--name", "env"], environment: ["CALBRIDGE_CLIENT_SECRET": secret])
        #expect(viaEnvironment == 0, "\(output1)")
        #expect(!output1.contains(secret))
        // A file holding the secret (with the trailing newline `echo` writes).
        let file = temp.url.appendingPathComponent("secret")
        try Data((secret + "\n").utf8).write(to: file)
        let (viaFile, output2) = try await signIn(["--name", "file", "--client-secret-file", file.path], environment: [:])
        #expect(viaFile == 0, "\(output2)")
        // The secret really is the one used: a wrong one in the environment is refused by the server.
        let (wrong, output3) = try await signIn(["--name", "wrong"], environment: ["CALBRIDGE_CLIENT_SECRET": "not-the-secret"])
        #expect(wrong == 1, "\(output3)")
        #expect(output3.contains("invalid_client") && !output3.contains("not-the-secret"))

        // The re-authentication command reads the secret from a file, never spells it out.
        let record = try #require(try AccountRegistry(home: CalbridgeHome(environment: env)).account(named: "env"))
        #expect(record.signInCommand.hasSuffix("--client-secret-file <file with your client secret>"))
        #expect(!record.signInCommand.contains(secret))

        // Bad sources: exit 2, one line naming the problem, nothing sent.
        let empty = temp.url.appendingPathComponent("empty")
        try Data("\n".utf8).write(to: empty)
        for (extra, expected) in [
            (["--client-secret", secret, "--client-secret-file", file.path], "not both"),
            (["--client-secret-file", temp.url.appendingPathComponent("missing").path], "cannot read --client-secret-file"),
            (["--client-secret-file", empty.path], "is empty"),
        ] {
            let result = try await RunningCalbridge.run(add + extra, environment: env)
            #expect(result.status == 2, "\(extra): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains(expected), "\(result.stderr)")
            #expect(!result.stderr.contains(secret))
        }
    }
}
