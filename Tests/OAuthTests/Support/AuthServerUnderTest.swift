import Foundation
import OAuth
import Sandbox
import Testing

/// What the flow tests need from an authorization server: the scripted fake (`FakeAuthorizationServer`)
/// and the sandbox's OAuth servers (`SandboxAuthServer`) both conform.
protocol AuthServerUnderTest: Sendable {
    /// A descriptor (Providers/*.json format) pointing at this server.
    func descriptorJSON(_ provider: SandboxProvider) -> Data
    /// The registered client for the provider.
    func credentials(_ provider: SandboxProvider) -> ClientCredentials
    /// The e-mail address of the user who signs in.
    func user(_ provider: SandboxProvider) -> String
    /// Token requests with grant_type=refresh_token so far.
    func refreshCount() async -> Int
    /// Makes every issued access token expired (the next API call gets a 401).
    func expireAccessTokens() async
    /// Revokes every grant (refresh tokens answer invalid_grant).
    func revokeGrants() async
    /// Approves a pending device code, as a user at the verification page would.
    func approveDevice(verificationURI: URL, userCode: String) async throws
    func stop()
}

/// Which authorization server a test runs against.
enum ServerKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// The in-test fake (FakeAuthorizationServer).
    case fake

    func start(_ configuration: FakeAuthorizationServer.Configuration = .init()) throws -> any AuthServerUnderTest {
        switch self {
        case .fake: try FakeAuthorizationServer(configuration)
        }
    }

    var testDescription: String { rawValue }
}
