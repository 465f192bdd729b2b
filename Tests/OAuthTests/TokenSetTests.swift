import Foundation
import Testing
@testable import OAuth

@Suite("Token sets: parsing token answers and deciding when to refresh")
struct TokenSetTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("a token answer gives an absolute expiry; a missing refresh token keeps the previous one")
    func parsing() throws {
        let body = Data(#"{"access_token":"a","expires_in":"3599","token_type":"Bearer","scope":"x y"}"#.utf8)
        let tokens = try #require(TokenSet.fromTokenResponse(body, receivedAt: t0, previousRefreshToken: "old"))
        #expect(tokens.expiresAt == t0.addingTimeInterval(3599))
        #expect(tokens.refreshToken == "old")
        #expect(tokens.scope == "x y")
        let rotated = try #require(TokenSet.fromTokenResponse(
            Data(#"{"access_token":"a","expires_in":10,"refresh_token":"new"}"#.utf8), receivedAt: t0, previousRefreshToken: "old"))
        #expect(rotated.refreshToken == "new")
        #expect(TokenSet.fromTokenResponse(Data(#"{"error":"invalid_grant"}"#.utf8), receivedAt: t0) == nil)
    }

    @Test("refresh a minute before expiry; for very short tokens, at half their lifetime")
    func refreshTiming() {
        let hour = TokenSet(accessToken: "a", expiresAt: t0 + 3600, issuedAt: t0)
        #expect(!hour.needsRefresh(at: t0 + 3600 - 61, margin: 60))
        #expect(hour.needsRefresh(at: t0 + 3600 - 59, margin: 60))
        let short = TokenSet(accessToken: "a", expiresAt: t0 + 2, issuedAt: t0)
        #expect(!short.needsRefresh(at: t0 + 0.5, margin: 60))
        #expect(short.needsRefresh(at: t0 + 1.5, margin: 60))
        // Stored before issuedAt existed: the plain margin applies.
        #expect(TokenSet(accessToken: "a", expiresAt: t0 + 2).needsRefresh(at: t0, margin: 60))
        #expect(!TokenSet(accessToken: "a").needsRefresh(at: .distantFuture, margin: 60))
    }
}
