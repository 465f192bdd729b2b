import Foundation
import HTTP
import Testing
@testable import OAuth

@Suite("Redaction of secrets in anything printed")
struct RedactorTests {
    @Test("JSON token fields, form fields, query values and Authorization headers are masked")
    func masks() {
        let json = #"{"access_token":"AT1","refresh_token": "RT\"2","id_token":"ID3","expires_in":3599,"token_type":"Bearer"}"#
        let redacted = Redactor.text(json)
        for secret in ["AT1", "RT\\\"2", "ID3"] { #expect(!redacted.contains(secret)) }
        #expect(redacted.contains("3599"))
        #expect(redacted.contains(#""token_type":"Bearer""#))

        let form = "grant_type=authorization_code&code=C0DE&code_verifier=V3R&client_secret=S3C&client_id=cid"
        let redactedForm = Redactor.text(form)
        for secret in ["C0DE", "V3R", "S3C"] { #expect(!redactedForm.contains(secret)) }
        #expect(redactedForm.contains("client_id=cid"))

        let url = URL(string: "http://127.0.0.1:1/?code=abc&state=xyz")!
        #expect(Redactor.url(url) == "http://127.0.0.1:1/?code=<redacted>&state=xyz")

        let request = HTTPRequest(url: URL(string: "https://api.example/v1.0/me")!, headers: ["Authorization": "Bearer TOPSECRET"])
        let text = Redactor.describe(request)
        #expect(!text.contains("TOPSECRET"))
        #expect(text.contains("Authorization: Bearer <redacted>"))
        #expect(!Redactor.text("failed with Bearer abc.def-ghi").contains("abc.def"))
    }

    @Test("token sets and device authorizations print no secret")
    func descriptions() {
        let tokens = TokenSet(accessToken: "AAA-secret", refreshToken: "RRR-secret", expiresAt: Date())
        var dumped = ""
        dump(tokens, to: &dumped)
        for text in ["\(tokens)", String(describing: tokens), String(reflecting: tokens), dumped] {
            #expect(!text.contains("AAA-secret"))
            #expect(!text.contains("RRR-secret"))
        }
    }
}
