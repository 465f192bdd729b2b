import Accounts
import Foundation
import HTTP
import Sandbox
import Testing
import TestSupport
@testable import OAuth

/// Several sessions (and, through the lock files, several processes) sharing one calbridge home.
@Suite("Shared home: refresh once across sessions, unsaved tokens kept")
struct SharedHomeTests {
    /// Fails the first `failures` saves (or every one), as a full disk does.
    final class FailingStore: TokenStore, @unchecked Sendable {
        private let lock = NSLock()
        private var stored: TokenSet?
        private var remainingFailures: Int
        private(set) var attempts = 0
        struct DiskFull: Error {}

        init(_ tokens: TokenSet, failures: Int) {
            stored = tokens
            remainingFailures = failures
        }
        func load(account: String) throws -> TokenSet? { lock.withLock { stored } }
        func save(_ tokens: TokenSet, account: String) throws {
            try lock.withLock {
                attempts += 1
                if remainingFailures > 0 {
                    remainingFailures -= 1
                    throw DiskFull()
                }
                stored = tokens
            }
        }
        func delete(account: String) throws { lock.withLock { stored = nil } }
        func heal() { lock.withLock { remainingFailures = 0 } }
    }

    @Test("a rotated refresh token that cannot be saved is retried, kept in memory, never swapped for the old one")
    func unsavableRotation() async throws {
        let server = try await SandboxAuthServer.start()
        defer { server.stop() }
        let account = try await SignedIn.start(server, .microsoft)  // Microsoft rotates: the old refresh token dies
        let store = FailingStore(account.tokens, failures: 1_000)
        let manager = account.manager(store: store)
        let api = AuthorizedTransport(base: LoopbackTransport(), tokens: manager)
        await server.expireAccessTokens()
        #expect(try await api.send(HTTPRequest(url: account.profileURL)).status == 200)
        #expect(store.attempts == 4, "the save is retried")
        #expect(await manager.unsavedError != nil)
        let inMemory = try await manager.tokens
        #expect(inMemory.refreshToken != account.tokens.refreshToken, "the rotated refresh token is kept")
        #expect(try store.load(account: "acct") == account.tokens)
        // The disk recovers: the next call saves the kept tokens first; a later refresh uses the rotated token.
        store.heal()
        #expect(try await api.send(HTTPRequest(url: account.profileURL)).status == 200)
        #expect(await manager.unsavedError == nil)
        #expect(try store.load(account: "acct") == inMemory)
        await server.expireAccessTokens()
        #expect(try await api.send(HTTPRequest(url: account.profileURL)).status == 200)
        #expect(await server.refreshCount() == 2)
    }

    @Test("a save that fails twice then works: the new tokens are on disk after one refresh")
    func transientSaveFailure() async throws {
        let server = try await SandboxAuthServer.start()
        defer { server.stop() }
        let account = try await SignedIn.start(server, .microsoft)
        let store = FailingStore(account.tokens, failures: 2)
        let manager = account.manager(store: store)
        await server.expireAccessTokens()
        #expect(try await AuthorizedTransport(base: LoopbackTransport(), tokens: manager).send(HTTPRequest(url: account.profileURL)).status == 200)
        #expect(store.attempts == 3)
        #expect(await manager.unsavedError == nil)
        #expect(try store.load(account: "acct") == (try await manager.tokens))
    }

    @Test("eight sessions of one account on one token file: one refresh, the others adopt the stored tokens",
          arguments: SandboxProvider.allCases)
    func oneRefreshAcrossSessions(_ provider: SandboxProvider) async throws {
        let server = try await SandboxAuthServer.start()
        defer { server.stop() }
        let account = try await SignedIn.start(server, provider)
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let store = FileTokenStore(home: CalbridgeHome(directory: temp.url.appendingPathComponent("home")))
        try store.save(account.tokens, account: "acct")
        // Separate managers, as separate processes have: only the lock file and the token file are shared.
        let managers = (0..<8).map { _ in account.manager(store: store) }
        await server.expireAccessTokens()
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for manager in managers {
                group.addTask {
                    try await AuthorizedTransport(base: LoopbackTransport(), tokens: manager).send(HTTPRequest(url: account.profileURL)).status
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 8))
        #expect(await server.refreshCount() == 1)
        var adopted = 0
        for manager in managers { adopted += await manager.adoptedCount }
        #expect(adopted == 7)
        let stored = try #require(try store.load(account: "acct"))
        for manager in managers {
            // Compared by token: the file keeps expiry times to the second.
            let tokens = try await manager.tokens
            #expect(tokens.accessToken == stored.accessToken && tokens.refreshToken == stored.refreshToken)
        }
    }
}
