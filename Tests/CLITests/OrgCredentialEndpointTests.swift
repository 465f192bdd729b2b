import Foundation
import Testing

@testable import CLI

@Suite("org credential add: app-only tokens come from the tenant's own endpoint")
struct OrgCredentialEndpointTests {
    @Test("a multi-tenant segment (common, organizations, consumers) becomes the tenant; any other path stays")
    func tenantSegment() throws {
        let tenant = "contoso.onmicrosoft.com"
        for (given, expected) in [
            ("https://login.microsoftonline.com/common/oauth2/v2.0/token", "https://login.microsoftonline.com/\(tenant)/oauth2/v2.0/token"),
            ("http://127.0.0.1:4000/Organizations/oauth2/v2.0/token", "http://127.0.0.1:4000/\(tenant)/oauth2/v2.0/token"),
            (
                "https://login.microsoftonline.us/consumers/oauth2/v2.0/token?x=1",
                "https://login.microsoftonline.us/\(tenant)/oauth2/v2.0/token?x=1"
            ),
            // Already a tenant, or not Entra's layout: left alone.
            (
                "https://login.microsoftonline.com/fabrikam.com/oauth2/v2.0/token",
                "https://login.microsoftonline.com/fabrikam.com/oauth2/v2.0/token"
            ),
            ("https://idp.example/token", "https://idp.example/token"),
            ("https://idp.example/oauth/common/token", "https://idp.example/oauth/common/token"),
        ] {
            let url = try #require(URL(string: given))
            #expect(OrgCredentialAddCommand.tenantTokenEndpoint(url, tenant: tenant).absoluteString == expected, "\(given)")
        }
    }
}
