import Foundation
import OAuth
import Sandbox

/// The real sandbox (both OAuth servers and both API emulators, in-process) as an authorization server
/// under test, so the flows are checked against it and not only against the in-test fake.
final class SandboxAuthServer: AuthServerUnderTest, @unchecked Sendable {
    let sandbox: SandboxServer

    private init(_ sandbox: SandboxServer) { self.sandbox = sandbox }

    /// `now` is the servers' clock; a test that shares it with the client's token manager controls expiry
    /// without sleeping (a sleep-based expiry test fails when a loaded machine stalls longer than the lifetime).
    static func start(tokenLifetime: TimeInterval = 3600, devicePolicy: MicrosoftIdentityServer.DeviceFlowPolicy = .init(),
                      now: @escaping @Sendable () -> Date = { Date() }) async throws -> SandboxAuthServer {
        var options = SandboxOptions()
        options.tokenLifetime = tokenLifetime
        options.now = now
        options.devicePolicy = devicePolicy
        return SandboxAuthServer(try await SandboxServer.start(options))
    }

    func descriptorJSON(_ provider: SandboxProvider) -> Data {
        (try? JSONEncoder().encode(sandbox.info.descriptors[provider.rawValue])) ?? Data()
    }

    func credentials(_ provider: SandboxProvider) -> ClientCredentials {
        let descriptor = sandbox.info.descriptors[provider.rawValue]
        return ClientCredentials(clientId: descriptor?.clientId ?? "", clientSecret: descriptor?.clientSecret)
    }

    /// Auto-approval signs in the provider's first seeded user.
    func user(_ provider: SandboxProvider) -> String {
        sandbox.info.accounts.first { $0.provider == provider }?.user ?? ""
    }

    func refreshCount() async -> Int { await sandbox.tokens.refreshCount }
    func expireAccessTokens() async { await sandbox.tokens.expireAllAccessTokens() }

    func revokeGrants() async {
        for account in sandbox.info.accounts { await sandbox.tokens.revokeAll(user: account.user, provider: account.provider) }
    }

    func approveDevice(verificationURI: URL, userCode: String) async throws {
        _ = await sandbox.microsoftIdentity.answerDeviceCode(userCode: userCode, user: user(.microsoft), approve: true)
    }

    func stop() {
        let sandbox = self.sandbox
        Task { try? await sandbox.stop() }
    }
}
