import Foundation
import Sandbox
import Testing
import TestSupport

@Suite("accounts and pairs: read-only listings create nothing, removals name the pairs and leave no file")
struct AccountsAndPairsSafetyTests {
    @Test("sync list and sync status in a home without sync.db: no pairs, and still no sync.db")
    func readOnlyListings() async throws {
        let directory = try TemporaryDirectory(prefix: "calbridge-readonly")
        defer { directory.remove() }
        let home = directory.url.appendingPathComponent("home")
        for arguments in [["sync", "list"], ["sync", "status"], ["sync", "list", "--format", "json"], ["sync", "status", "--format", "json"]] {
            let result = try await CalbridgeBinary.run(arguments, environment: ["CALBRIDGE_HOME": home.path])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("sync.db").path), "\(arguments) created sync.db")
        }
        let unknown = try await CalbridgeBinary.run(["sync", "status", "nope"], environment: ["CALBRIDGE_HOME": home.path])
        #expect(unknown.status == 2, "\(unknown.stderr)")
    }

    @Test("accounts remove: refused while a pair uses the account (naming it); --force removes it and every file of it")
    func removeWithPairs() async throws {
        try await SandboxHome.with { home in
            let add = try await home.run(["sync", "add", "work-home", "--a", "carol:Calendar", "--b", "ann:Family"])
            #expect(add.status == 0, "\(add.stderr)")
            let listed = try await home.run(["sync", "list"])
            #expect(listed.stdout.contains("carol:Calendar") && listed.stdout.contains("ann:Family"), "\(listed.stdout)")
            #expect(!listed.stdout.contains("AAMk"), "ids only in json: \(listed.stdout)")

            let refused = try await home.run(["accounts", "remove", "carol"])
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("work-home") && refused.stderr.contains("--force"), "\(refused.stderr)")

            let forced = try await home.run(["accounts", "remove", "carol", "--force", "--local-only"])
            #expect(forced.status == 0, "\(forced.stderr)")
            #expect(forced.stderr.contains("work-home"), "\(forced.stderr)")
            let directory = try #require(home.environment["CALBRIDGE_HOME"])
            let left = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains("carol") }
            #expect(left.isEmpty, "files of a removed account: \(left)")
        }
    }

    @Test("accounts list: an unreadable token file is that account's status; the others are listed; exit 4")
    func unreadableTokens() async throws {
        try await SandboxHome.with { home in
            let directory = try #require(home.environment["CALBRIDGE_HOME"])
            let file = URL(fileURLWithPath: directory).appendingPathComponent("tokens-ann.json")
            try Data("not json".utf8).write(to: file)
            chmod(file.path, 0o600)
            let result = try await home.run(["accounts", "list"])
            #expect(result.status == 4, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.contains { $0.hasPrefix("carol ") && $0.contains(" ok") }, "\(result.stdout)")
            #expect(lines.contains { $0.hasPrefix("ann ") && $0.contains("unreadable token file") }, "\(result.stdout)")
        }
    }

    @Test("accounts add checks what it can before any sign-in: a damaged accounts.json, the name")
    func checkedBeforeSignIn() async throws {
        let directory = try TemporaryDirectory(prefix: "calbridge-precheck")
        defer { directory.remove() }
        let home = directory.url.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try Data("{ damaged".utf8).write(to: home.appendingPathComponent("accounts.json"))
        chmod(home.appendingPathComponent("accounts.json").path, 0o600)
        // No sandbox runs: a sign-in that started would fail on the network, not name accounts.json.
        let result = try await CalbridgeBinary.run(
            ["accounts", "add", "google", "--no-browser", "--timeout", "5"], environment: ["CALBRIDGE_HOME": home.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("accounts.json"), "\(result.stderr)")
        #expect(!result.stderr.contains("open this URL"), "the sign-in started: \(result.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: home.path).filter { $0.hasPrefix("tokens-") }
        #expect(files.isEmpty, "\(files)")
    }

    @Test("sync --watch with a revoked grant: the pair logs needsSignIn naming the account, the others keep running, SIGTERM exits 3")
    func watcherNeedsSignIn() async throws {
        try await SandboxHome.with { home in
            for (name, a, b) in [("work", "carol:Calendar", "carol:Project Falcon"), ("home", "ann:Family", "ann:ann.lee@gmail.sandbox")] {
                let add = try await home.run(["sync", "add", name, "--a", a, "--b", b])
                #expect(add.status == 0, "\(add.stderr)")
            }
            await home.sandbox.tokens.revokeAll(user: home.user(.microsoft), provider: .microsoft)
            let watcher = try RunningCalbridge(["sync", "--watch", "--interval", "1s", "--format", "json"], environment: home.environment)
            defer { watcher.stop() }
            let failed = try await watcher.stderrLine(timeout: 60) { $0.contains(#""pair":"work""#) }
            let logged = try JSONOutput.object(failed)
            #expect(logged["outcome"] as? String == "needsSignIn", "\(watcher.stderr)")
            #expect((logged["error"] as? String)?.contains("carol") == true, "\(failed)")
            let other = try await watcher.stderrLine(timeout: 60) { $0.contains(#""pair":"home""#) }
            #expect((try JSONOutput.object(other))["outcome"] as? String == "ok", "\(other)")

            watcher.signal(SIGTERM)
            let status = try await watcher.wait(timeout: 60)
            #expect(status == 3, "\(watcher.stderr)")
            let summary = watcher.stderrLines { $0.contains(#""event":"needsSignIn""#) }
            #expect(summary.count == 1 && summary.first?.contains("carol") == true, "\(watcher.stderr)")
        }
    }
}
