import Foundation
import Testing
@testable import OAuth

@Suite("Token sets: parsing token answers and deciding when to refresh")
struct TokenSetTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("a token answer gives an absolute expiry; a missing refresh token keeps the previous one")
    func parsing() throws {
        let body = Data(#"{"access_token":"a","expires_in":"3599","token_type":"Bearer","scope":"x y"}"#.utf8)
        let tokens = try #require(try TokenSet.fromTokenResponse(body, receivedAt: t0, previousRefreshToken: "old"))
        #expect(tokens.expiresAt == t0.addingTimeInterval(3599))
        #expect(tokens.refreshToken == "old")
        #expect(tokens.scope == "x y")
        let rotated = try #require(try TokenSet.fromTokenResponse(
            Data(#"{"access_token":"a","expires_in":10,"refresh_token":"new"}"#.utf8), receivedAt: t0, previousRefreshToken: "old"))
        #expect(rotated.refreshToken == "new")
        #expect(try TokenSet.fromTokenResponse(Data(#"{"error":"invalid_grant"}"#.utf8), receivedAt: t0) == nil)
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

    @Test("an expires_in that is no sane lifetime is a typed error naming the value and the range", arguments: [
        #""expires_in":1e300"#, #""expires_in":-5"#, #""expires_in":0"#, #""expires_in":"soon""#,
        #""expires_in":9223372036854775807"#, #""expires_in":31536001"#,
    ])
    func insaneLifetime(field: String) {
        let body = Data(#"{"access_token":"a","#.utf8 + Data(field.utf8) + Data("}".utf8))
        #expect {
            _ = try TokenSet.fromTokenResponse(body, receivedAt: t0)
        } throws: { error in
            guard let error = error as? OAuthError else { return false }
            return error.code == .unexpectedResponse && error.description.contains("expires_in")
                && error.description.contains("from 1 to 31536000")
        }
    }

    @Test("the edges of the lifetime range are accepted; no expires_in means no known expiry")
    func saneLifetimes() throws {
        let one = try #require(try TokenSet.fromTokenResponse(Data(#"{"access_token":"a","expires_in":1}"#.utf8), receivedAt: t0))
        #expect(one.expiresAt == t0 + 1)
        let year = try #require(try TokenSet.fromTokenResponse(Data(#"{"access_token":"a","expires_in":31536000}"#.utf8), receivedAt: t0))
        #expect(year.expiresAt == t0 + 31_536_000)
        let none = try #require(try TokenSet.fromTokenResponse(Data(#"{"access_token":"a"}"#.utf8), receivedAt: t0))
        #expect(none.expiresAt == nil)
    }

    @Test("a device answer's interval is clamped to 1...60 seconds, whatever the number", arguments: [
        ("0", 1), ("-1e300", 1), ("1e300", 60), ("61", 60), ("7", 7), ("2.5", 3), ("\"9\"", 9), ("null", 5),
    ])
    func deviceInterval(interval: String, expected: Int) throws {
        let body = #"{"device_code":"d","user_code":"U","verification_uri":"https://x.example/device","interval":"#
            + interval + "}"
        let authorization = try #require(try DeviceAuthorization.parse(Data(body.utf8), receivedAt: t0))
        #expect(authorization.interval == expected)
    }

    @Test("a device code's expires_in outside 0...86400 seconds is a typed error", arguments: ["1e300", "-1", "86401", "\"x\""])
    func deviceLifetime(lifetime: String) {
        let body = #"{"device_code":"d","user_code":"U","verification_uri":"https://x.example/device","expires_in":"#
            + lifetime + "}"
        #expect(throws: OAuthError.self) { _ = try DeviceAuthorization.parse(Data(body.utf8), receivedAt: self.t0) }
    }
}
