import Foundation
import OAuth
import Testing
import TestSupport
@testable import Accounts

/// accounts.json and the token files when several processes (here: threads with their own lock
/// descriptors, which flock orders exactly like processes) write them at once.
@Suite("Shared home: locked read-modify-write of accounts.json, stale temporaries")
struct SharedHomeStorageTests {
    @Test("accounts.json: 8 threads × 25 saves through separate lock descriptors lose no account")
    func registryUnderContention() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let home = CalbridgeHome(directory: temp.url.appendingPathComponent("home"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    try await blocking {
                        let registry = AccountRegistry(home: home)
                        for index in 0..<25 {
                            try registry.save(AccountRecord(
                                name: "w\(writer)-\(index)", provider: "google", api: ProviderAPI(rawValue: "google-calendar-v3"), user: "u@example.com",
                                clientId: "c", scopes: []
                            ))
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try AccountRegistry(home: home).accounts().count == 200)
    }

    @Test("temporaries of a crashed write are removed by the next locked write; other files' are kept")
    func staleTemporaries() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let home = CalbridgeHome(directory: temp.url.appendingPathComponent("home"))
        let record = AccountRecord(name: "a", provider: "google", api: ProviderAPI(rawValue: "google-calendar-v3"), user: "u@example.com", clientId: "c", scopes: [])
        let crashing = AccountRegistry(home: home, files: SecureFile(crashHook: { $0 != .dataWritten }))
        #expect(throws: SecureFile.SimulatedCrash.self) { try crashing.save(record) }
        // A temporary of a different file whose name starts alike must survive.
        let neighbour = home.directory.appendingPathComponent(".accounts.json.old.abc.tmp")
        try Data().write(to: neighbour)
        func temporaries() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: home.directory.path).filter { $0.hasSuffix(".tmp") }.sorted()
        }
        #expect(try temporaries().count == 2)
        try AccountRegistry(home: home).save(record)
        #expect(try temporaries() == [neighbour.lastPathComponent])
        #expect(try AccountRegistry(home: home).accounts().map(\.name) == ["a"])
    }
}
