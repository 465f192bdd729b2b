import Foundation
import Testing
@testable import OAuth

@Suite("Provider descriptors")
struct DescriptorTests {
    static let providersDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Providers")

    static func valid() -> [String: Any] {
        [
            "id": "x", "api": "microsoft-graph-v1", "displayName": "X",
            "authorizationEndpoint": "https://login.example/{tenant}/authorize",
            "tokenEndpoint": "https://login.example/{tenant}/token",
            "deviceAuthorizationEndpoint": NSNull(), "revocationEndpoint": NSNull(),
            "apiBaseURL": "https://api.example", "scopes": ["a", "b"],
            "authorizationParameters": [String: String](), "clientId": NSNull(), "clientSecret": NSNull(),
        ]
    }

    static func parse(_ object: [String: Any], tenant: String = "common") throws -> ProviderDescriptor {
        try ProviderDescriptor.parse(
            JSONSerialization.data(withJSONObject: object), source: "test.json", tenant: tenant,
            apis: [ProviderAPI(rawValue: "google-calendar-v3"), ProviderAPI(rawValue: "microsoft-graph-v1")]
        )
    }

    @Test("the built-in Google descriptor: endpoints, calendar scope, offline access")
    func google() throws {
        let data = try Data(contentsOf: Self.providersDirectory.appendingPathComponent("GoogleCalendar/google.json"))
        let descriptor = try ProviderDescriptor.parse(data, source: "google.json")
        #expect(descriptor.id == "google")
        #expect(descriptor.api == ProviderAPI(rawValue: "google-calendar-v3"))
        #expect(descriptor.scopes == ["https://www.googleapis.com/auth/calendar"])
        #expect(descriptor.authorizationParameters["access_type"] == "offline")
        #expect(descriptor.tokenEndpoint.absoluteString == "https://oauth2.googleapis.com/token")
        #expect(descriptor.revocationEndpoint?.absoluteString == "https://oauth2.googleapis.com/revoke")
        #expect(descriptor.deviceAuthorizationEndpoint == nil)
    }

    @Test("the built-in Microsoft descriptor: {tenant} filled, offline_access and calendar scopes")
    func microsoft() throws {
        let data = try Data(contentsOf: Self.providersDirectory.appendingPathComponent("MicrosoftGraph/microsoft.json"))
        let common = try ProviderDescriptor.parse(data, source: "microsoft.json")
        #expect(common.tokenEndpoint.absoluteString == "https://login.microsoftonline.com/common/oauth2/v2.0/token")
        #expect(common.scopes == ["offline_access", "User.Read", "MailboxSettings.Read", "Calendars.ReadWrite"])
        #expect(common.revocationEndpoint == nil)
        let tenant = try ProviderDescriptor.parse(data, source: "microsoft.json", tenant: "contoso.onmicrosoft.com")
        #expect(tenant.deviceAuthorizationEndpoint?.absoluteString
            == "https://login.microsoftonline.com/contoso.onmicrosoft.com/oauth2/v2.0/devicecode")
    }

    @Test("each missing required key is named", arguments: ProviderDescriptor.requiredKeys)
    func missingKey(_ key: String) {
        var object = Self.valid()
        object.removeValue(forKey: key)
        #expect {
            try Self.parse(object)
        } throws: { error in
            let error = error as? DescriptorError
            return error?.key == key && error!.description.contains("\"\(key)\"") && error!.description.contains("missing")
        }
    }

    @Test("plain http is refused except on loopback", arguments: [
        ("http://login.example/token", false), ("http://127.0.0.1:8080/token", true),
        ("http://localhost/token", true), ("http://[::1]:9/token", true), ("ftp://x.example/token", false),
    ])
    func httpOnlyOnLoopback(_ url: String, _ accepted: Bool) {
        var object = Self.valid()
        object["tokenEndpoint"] = url
        let result = Result { try Self.parse(object) }
        switch result {
        case .success: #expect(accepted)
        case .failure(let error):
            #expect(!accepted)
            #expect((error as? DescriptorError)?.key == "tokenEndpoint")
            #expect("\(error)".contains("https"))
        }
    }

    @Test("bad values are named: api, scopes, parameters, tenant")
    func badValues() {
        var object = Self.valid()
        object["api"] = "caldav"
        #expect { try Self.parse(object) } throws: { ($0 as? DescriptorError)?.key == "api" }
        object = Self.valid()
        object["scopes"] = [String]()
        #expect { try Self.parse(object) } throws: { ($0 as? DescriptorError)?.key == "scopes" }
        object = Self.valid()
        object["authorizationParameters"] = ["state": "fixed"]
        #expect { try Self.parse(object) } throws: { ($0 as? DescriptorError)?.key == "authorizationParameters" }
        #expect { try Self.parse(Self.valid(), tenant: "../evil") } throws: { "\($0)".contains("tenant") }
        #expect { try ProviderDescriptor.parse(Data("[1]".utf8), source: "s") } throws: { "\($0)".contains("not a JSON object") }
    }
}
