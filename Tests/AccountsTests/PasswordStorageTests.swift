import Accounts
import Foundation
import OAuth
import TestSupport
import Testing

@Suite("Password accounts: the password kept like tokens (0600, atomic, locked), never in accounts.json")
struct PasswordStorageTests {
    static func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test("the password file round-trips, 0600 in a 0700 home, one per account, and is deleted with its lock")
    func roundTrip() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let home = CalbridgeHome(directory: temp.url.appendingPathComponent("home"))
        let store = FilePasswordStore(home: home)
        #expect(try store.load(account: "ann") == nil)
        try await store.save("pw one", account: "ann")
        try await store.save("pw \"two\"", account: "../odd name")
        #expect(try store.load(account: "ann") == "pw one")
        #expect(try store.load(account: "../odd name") == "pw \"two\"")
        let file = home.passwordFile(account: "ann")
        #expect(file.lastPathComponent == "password-ann.json")
        #expect(try Self.mode(file.path) == 0o600)
        #expect(try Self.mode(home.directory.path) == 0o700)
        #expect(home.passwordFile(account: "../odd name").deletingLastPathComponent().path == home.directory.path)

        try await store.deleteAll(account: "ann")
        #expect(try store.load(account: "ann") == nil)
        let left = try FileManager.default.contentsOfDirectory(atPath: home.directory.path)
        #expect(!left.contains { $0.contains("password-ann") }, "\(left)")
    }

    @Test("a password file open to others is refused, not read")
    func loosePermissions() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let home = CalbridgeHome(directory: temp.url.appendingPathComponent("home"))
        let store = FilePasswordStore(home: home)
        try await store.save("secret", account: "a")
        chmod(home.passwordFile(account: "a").path, 0o644)
        #expect { try store.load(account: "a") } throws: { ($0 as? StorageError)?.code == .loosePermissions }
    }

    @Test("concurrent saves of one account leave one whole password and no temporaries")
    func concurrentSaves() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let home = CalbridgeHome(directory: temp.url.appendingPathComponent("home"))
        let candidates = (0..<16).map { "password-\($0)-" + String(repeating: "x", count: $0 * 100) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for candidate in candidates {
                group.addTask { try await FilePasswordStore(home: home).save(candidate, account: "a") }
            }
            try await group.waitForAll()
        }
        let stored = try #require(try FilePasswordStore(home: home).load(account: "a"))
        #expect(candidates.contains(stored))
        let names = try FileManager.default.contentsOfDirectory(atPath: home.directory.path)
        #expect(!names.contains { $0.hasSuffix(".tmp") }, "\(names)")
    }

    @Test("a password account is stored with its server and user name, never its password, and signs in again without argv secrets")
    func record() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let home = CalbridgeHome(directory: temp.url.appendingPathComponent("home"))
        let registry = AccountRegistry(home: home)
        let server = try #require(URL(string: "https://dav.example.com/cal"))
        let record = AccountRecord(
            name: "my dav", provider: "xmlcal", api: ProviderAPI(rawValue: "xmlcal-v1"), user: "ann@example.com",
            credential: .password(PasswordAccountCredential(server: server, userName: "ann")),
            createdAt: Date(timeIntervalSince1970: 1_800_000_000))
        try registry.save(record)
        #expect(try registry.account(named: "my dav") == record)
        #expect(record.oauth == nil)
        let text = try String(contentsOf: home.accountsFile, encoding: .utf8)
        #expect(text.contains("\"authentication\" : \"password\""))
        #expect(text.contains("\"userName\" : \"ann\""))
        #expect(!text.contains("clientId"))
        #expect(
            record.signInCommand == "calbridge accounts add xmlcal --name 'my dav' --server https://dav.example.com/cal --user-name ann")
    }
}
