import Foundation
import Sandbox
import Testing

@Suite("Sandbox token authority")
struct SandboxTokenAuthorityTests {
    let clock = SandboxTestClock()

    @Test("an access token is valid for its lifetime, then expired; unknown tokens and the other provider are invalid")
    func expiry() async {
        let tokens = SandboxTokenAuthority(accessTokenLifetime: 60, now: clock.function)
        let issued = await tokens.issue(provider: .google, user: "a@x", clientId: "c", scopes: ["s"], offline: true)
        #expect(issued.expiresIn == 60)
        #expect(await tokens.check(accessToken: issued.accessToken, provider: .google) == .valid(user: "a@x"))
        #expect(await tokens.check(accessToken: issued.accessToken, provider: .microsoft) == .invalid)
        #expect(await tokens.check(accessToken: "ya29.made-up", provider: .google) == .invalid)
        clock.advance(59)
        #expect(await tokens.check(accessToken: issued.accessToken, provider: .google) == .valid(user: "a@x"))
        clock.advance(1)
        #expect(await tokens.check(accessToken: issued.accessToken, provider: .google) == .expired)
    }

    @Test("tokens are random and distinct per issue")
    func distinct() async {
        let tokens = SandboxTokenAuthority(now: clock.function)
        let a = await tokens.issue(provider: .microsoft, user: "a@x", clientId: "c", scopes: ["s"], offline: true)
        let b = await tokens.issue(provider: .microsoft, user: "a@x", clientId: "c", scopes: ["s"], offline: true)
        #expect(a.accessToken != b.accessToken)
        #expect(a.refreshToken != b.refreshToken)
        #expect(a.accessToken.count > 30)
    }

    @Test("a refresh token past its lifetime is refused as expired; one for another client as wrongClient")
    func refreshFailures() async throws {
        let tokens = SandboxTokenAuthority(refreshTokenLifetime: 100, now: clock.function)
        let issued = await tokens.issue(provider: .google, user: "a@x", clientId: "c", scopes: ["s"], offline: true)
        let refresh = try #require(issued.refreshToken)
        #expect(await tokens.refresh(refreshToken: refresh, provider: .google, clientId: "other") == .failure(.wrongClient))
        #expect(await tokens.refresh(refreshToken: refresh, provider: .microsoft, clientId: "c") == .failure(.wrongClient))
        clock.advance(100)
        #expect(await tokens.refresh(refreshToken: refresh, provider: .google, clientId: "c") == .failure(.expired))
        #expect(await tokens.refresh(refreshToken: "nope", provider: .google, clientId: "c") == .failure(.unknown))
    }

    @Test("a snapshot restores every grant into a new authority")
    func snapshot() async throws {
        let tokens = SandboxTokenAuthority(now: clock.function)
        let issued = await tokens.issue(provider: .google, user: "a@x", clientId: "c", scopes: ["s"], offline: true)
        let data = try await tokens.snapshot()
        let restored = SandboxTokenAuthority(now: clock.function)
        try await restored.restore(data)
        #expect(await restored.check(accessToken: issued.accessToken, provider: .google) == .valid(user: "a@x"))
        let refreshed = await restored.refresh(refreshToken: issued.refreshToken!, provider: .google, clientId: "c")
        #expect((try? refreshed.get())?.user == "a@x")
    }

    @Test("seeded tokens reuse the seeded grant after a restore, with a fresh access token")
    func seeded() async throws {
        let tokens = SandboxTokenAuthority(now: clock.function)
        let first = await tokens.seededTokens(provider: .microsoft, user: "a@x", clientId: "c", scopes: ["offline_access"])
        let restored = SandboxTokenAuthority(now: clock.function)
        try await restored.restore(try await tokens.snapshot())
        let second = await restored.seededTokens(provider: .microsoft, user: "a@x", clientId: "c", scopes: ["offline_access"])
        #expect(second.refreshToken == first.refreshToken)
        #expect(second.accessToken != first.accessToken)
        #expect(await restored.grantCount == 1)
    }

    @Test("revokeAll ends every grant of the user")
    func revokeAll() async {
        let tokens = SandboxTokenAuthority(now: clock.function)
        let a = await tokens.issue(provider: .google, user: "a@x", clientId: "c", scopes: ["s"], offline: true)
        let b = await tokens.issue(provider: .google, user: "b@x", clientId: "c", scopes: ["s"], offline: true)
        await tokens.revokeAll(user: "a@x", provider: .google)
        #expect(await tokens.check(accessToken: a.accessToken, provider: .google) == .invalid)
        #expect(await tokens.check(accessToken: b.accessToken, provider: .google) == .valid(user: "b@x"))
    }
}
