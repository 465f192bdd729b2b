import Foundation
import Testing
import TestSupport
import Accounts
import CalbridgeSupport
import OAuth

@Suite("Token store and account registry: 0600, atomic, refusing loose permissions")
struct StorageTests {
    static func tokens(_ tag: String) -> TokenSet {
        TokenSet(accessToken: "at-\(tag)", refreshToken: "rt-\(tag)", expiresAt: Date(timeIntervalSince1970: 2_000_000_000))
    }

    static func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test("home: CALBRIDGE_HOME, else XDG_CONFIG_HOME/calbridge, else ~/.config/calbridge")
    func homeResolution() {
        #expect(CalbridgeHome(environment: ["CALBRIDGE_HOME": "/a", "XDG_CONFIG_HOME": "/b"]).directory.path == "/a")
        #expect(CalbridgeHome(environment: ["XDG_CONFIG_HOME": "/b", "HOME": "/h"]).directory.path == "/b/calbridge")
        #expect(CalbridgeHome(environment: ["HOME": "/h"]).directory.path == "/h/.config/calbridge")
    }

    @Test("token files round-trip, directory 0700 and file 0600, one file per account")
    func roundTrip() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let home = CalbridgeHome(directory: temp.url.appendingPathComponent("home"))
        let store = FileTokenStore(home: home)
        try store.save(Self.tokens("one"), account: "ada@example.com")
        try store.save(Self.tokens("two"), account: "../odd name")
        #expect(try store.load(account: "ada@example.com") == Self.tokens("one"))
        #expect(try store.load(account: "../odd name") == Self.tokens("two"))
        #expect(try Self.mode(home.directory.path) == 0o700)
        #expect(try Self.mode(home.tokenFile(account: "ada@example.com").path) == 0o600)
        #expect(home.tokenFile(account: "../odd name").deletingLastPathComponent().path == home.directory.path)
        try store.delete(account: "ada@example.com")
        #expect(try store.load(account: "ada@example.com") == nil)
    }

    @Test("a crash at any step of a write leaves the old token file intact and readable",
          arguments: SecureFile.WriteStep.allCases)
    func crashSafety(_ step: SecureFile.WriteStep) throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let home = CalbridgeHome(directory: temp.url.appendingPathComponent("home"))
        try FileTokenStore(home: home).save(Self.tokens("old"), account: "a")
        let crashing = FileTokenStore(home: home, files: SecureFile(crashHook: { $0 != step }))
        #expect(throws: SecureFile.SimulatedCrash.self) { try crashing.save(Self.tokens("new"), account: "a") }
        // After the rename the new file is complete; before it the old one is untouched. Never a mix.
        let survivor = try FileTokenStore(home: home).load(account: "a")
        let renamed = [.renamed, .directorySynced].contains(step)
        #expect(survivor == Self.tokens(renamed ? "new" : "old"))
        // Left-over temporary files (as a real crash leaves them) do not disturb the next write.
        try FileTokenStore(home: home).save(Self.tokens("next"), account: "a")
        #expect(try FileTokenStore(home: home).load(account: "a") == Self.tokens("next"))
    }

    @Test("files and directories open to group or others are refused with the chmod that fixes them")
    func loosePermissions() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let home = CalbridgeHome(directory: temp.url.appendingPathComponent("home"))
        let store = FileTokenStore(home: home)
        try store.save(Self.tokens("x"), account: "a")
        let file = home.tokenFile(account: "a").path
        chmod(file, 0o644)
        #expect {
            try store.load(account: "a")
        } throws: { error in
            let error = error as? StorageError
            return error?.code == .loosePermissions && error!.message.contains("chmod 600 \(file)")
        }
        chmod(file, 0o600)
        chmod(home.directory.path, 0o755)
        #expect {
            try AccountRegistry(home: home).accounts()
        } throws: { ($0 as? StorageError)?.message.contains("chmod 700 \(home.directory.path)") == true }
        #expect { try store.save(Self.tokens("y"), account: "a") } throws: { ($0 as? StorageError)?.code == .loosePermissions }
        chmod(home.directory.path, 0o700)
        #expect(try store.load(account: "a") == Self.tokens("x"))
    }

    @Test("the registry adds, replaces, lists sorted and removes accounts; no token in accounts.json")
    func registry() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let registry = AccountRegistry(home: CalbridgeHome(directory: temp.url.appendingPathComponent("home")))
        #expect(try registry.accounts().isEmpty)
        let record = AccountRecord(name: "work", provider: "microsoft", api: ProviderAPI(rawValue: "microsoft-graph-v1"), user: "g@c.example",
                                   clientId: "cid", tenant: "contoso", scopes: ["offline_access"])
        try registry.save(record)
        try registry.save(AccountRecord(name: "home", provider: "google", api: ProviderAPI(rawValue: "google-calendar-v3"), user: "a@e.example",
                                        clientId: "gid", clientSecret: "s3cret", scopes: ["cal"]))
        var changed = record
        changed.user = "new@c.example"
        try registry.save(changed)
        #expect(try registry.accounts().map(\.name) == ["home", "work"])
        #expect(try registry.account(named: "work")?.user == "new@c.example")
        #expect(try Self.mode(registry.home.accountsFile.path) == 0o600)
        let text = try String(contentsOf: registry.home.accountsFile, encoding: .utf8)
        #expect(text.contains("\"clientSecret\" : \"s3cret\""))
        #expect(!text.contains("token\""))
        #expect(try registry.remove("home"))
        #expect(try !registry.remove("home"))
        #expect { try registry.require("nope") } throws: { "\($0)".contains("known accounts: work") }
    }

    @Test("the re-authentication command names provider, account, tenant and client id, quoted for a shell")
    func signInCommand() {
        let record = AccountRecord(name: "my work", provider: "microsoft", api: ProviderAPI(rawValue: "microsoft-graph-v1"), user: "g@c.example",
                                   clientId: "cid", tenant: "contoso", scopes: [])
        #expect(record.signInCommand == "calbridge accounts add microsoft --name 'my work' --tenant contoso --client-id cid")
    }

    @Test("accounts.json written before credentials were an enum loads as OAuth accounts, and round-trips")
    func earlierAccountsFileLoads() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let home = CalbridgeHome(directory: temp.url.appendingPathComponent("home"))
        let earlier = """
            {"version": 1, "accounts": [{"name": "work", "provider": "microsoft", "api": "microsoft-graph-v1",
              "user": "g@c.example", "clientId": "cid", "clientSecret": "s3cret", "tenant": "contoso",
              "scopes": ["offline_access"], "createdAt": "2026-11-01T09:00:00Z"}]}
            """
        try SecureFile().write(Data(earlier.utf8), to: home.accountsFile)
        let registry = AccountRegistry(home: home)
        let record = try #require(try registry.account(named: "work"))
        let expected = OAuthAccountCredential(clientId: "cid", clientSecret: "s3cret", tenant: "contoso", scopes: ["offline_access"])
        #expect(record.credential == .oauth(expected))
        #expect(record.user == "g@c.example")
        try registry.save(record)
        let text = try String(contentsOf: home.accountsFile, encoding: .utf8)
        #expect(text.contains("\"authentication\" : \"oauth\""))
        #expect(try registry.account(named: "work") == record)
    }

    @Test("an account whose authentication this calbridge does not know is a corrupt-file error, not a crash")
    func unknownAuthentication() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let home = CalbridgeHome(directory: temp.url.appendingPathComponent("home"))
        let document = """
            {"version": 1, "accounts": [{"name": "dav", "provider": "caldav", "api": "caldav", "user": "u@x.example",
              "authentication": "app-password", "createdAt": "2026-11-01T09:00:00Z"}]}
            """
        try SecureFile().write(Data(document.utf8), to: home.accountsFile)
        #expect { try AccountRegistry(home: home).accounts() } throws: { ($0 as? StorageError)?.code == .corrupt }
    }

    @Test("createdAt reads as Foundation's .iso8601 reads it (seeded instants, both ways); a timestamp that is not one is a corrupt file")
    func createdAtTimestamps() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let home = CalbridgeHome(directory: temp.url.appendingPathComponent("home"))
        let foundation = JSONDecoder()
        foundation.dateDecodingStrategy = .iso8601
        struct Stamp: Decodable { var at: Date }
        var random = SplitMix64(seed: 77)
        for _ in 0..<200 {
            // Whole seconds from 1900 to 2200, as `.iso8601` writes them.
            let instant = Date(timeIntervalSince1970: Double(Int64(random.next() % 9_467_280_000) - 2_208_988_800))
            let record = AccountRecord(name: "a", provider: "google", api: ProviderAPI(rawValue: "google-calendar-v3"), user: "u@x.example",
                                       clientId: "cid", tenant: "common", scopes: [])
            var dated = record
            dated.createdAt = instant
            let registry = AccountRegistry(home: home)
            try registry.save(dated)
            #expect(try registry.account(named: "a")?.createdAt == instant)
            let text = try String(contentsOf: home.accountsFile, encoding: .utf8)
            let stamp = try #require(text.split(separator: "\"").drop { $0 != "createdAt" }.dropFirst(2).first)
            #expect(try foundation.decode(Stamp.self, from: Data("{\"at\": \"\(stamp)\"}".utf8)).at == instant)
        }
        for bad in ["2026-11-01", "2026-11-01T09:00:00", "yesterday", "2026-13-01T09:00:00Z"] {
            let document = """
                {"version": 1, "accounts": [{"name": "work", "provider": "microsoft", "api": "microsoft-graph-v1",
                  "user": "g@c.example", "clientId": "cid", "tenant": "contoso", "scopes": [], "createdAt": "\(bad)"}]}
                """
            try SecureFile().write(Data(document.utf8), to: home.accountsFile)
            #expect { try AccountRegistry(home: home).accounts() } throws: { ($0 as? StorageError)?.code == .corrupt }
        }
    }

    @Test("shell quoting leaves exactly the words of the safe characters bare (the former Set rule, 5,000 seeded words)")
    func shellQuoting() {
        let safe = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@%_+=:,./-")
        func reference(_ word: String) -> String {
            if !word.isEmpty, word.allSatisfy(safe.contains) { return word }
            return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        let pieces = ["a", "Z", "0", "@", "%", "_", "+", "=", ":", ",", ".", "/", "-", " ", "'", "\"", "$", "é", "e\u{301}", "😀", "\t", "~", "!", "*"]
        var random = SplitMix64(seed: 91)
        for _ in 0..<5_000 {
            let word = (0..<Int(random.next() % 6)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            #expect(AccountRecord.shellQuoted(word) == reference(word), "\(word.debugDescription)")
        }
    }
}
