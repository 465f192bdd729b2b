import Accounts
import Foundation
import OAuth
import ProviderSeam
import Sandbox

/// Stores sandbox accounts in a calbridge home straight from the sandbox's ready tokens
/// (`SandboxServer.info.accounts`), without a sign-in: for benchmarks that need many accounts,
/// including one user under several names.
package struct SandboxAccountSeeder: Sendable {
    let sandbox: SandboxServer
    let home: CalbridgeHome
    let providers: ProviderRegistry

    package init(sandbox: SandboxServer, home: CalbridgeHome, providers: ProviderRegistry = .builtIn) {
        self.sandbox = sandbox
        self.home = home
        self.providers = providers
    }

    /// Stores `user`'s ready tokens as account `name`.
    /// - Throws: `InputError` when the sandbox has no such user; storage errors.
    package func store(user: String, as name: String) throws {
        guard let account = sandbox.info.accounts.first(where: { $0.user == user }),
            let sandboxDescriptor = sandbox.info.descriptors[account.provider.rawValue]
        else {
            throw InputError("the sandbox has no user '\(user)'", exitCode: .failure)
        }
        // The sandbox descriptor names the API it emulates; a registered provider must speak it.
        let descriptor = try providers.parseDescriptor(try sandboxDescriptor.fileData(), source: "sandbox \(sandboxDescriptor.id)")
        let lifetime = sandbox.options.tokenLifetime
        try FileTokenStore(home: home).save(
            TokenSet(
                accessToken: account.accessToken, refreshToken: account.refreshToken,
                expiresAt: sandbox.options.now().addingTimeInterval(lifetime)),
            account: name)
        try AccountRegistry(home: home).save(AccountRecord(
            name: name, provider: descriptor.id, api: descriptor.api, descriptor: descriptor, user: user,
            clientId: descriptor.clientId ?? "", scopes: descriptor.scopes, createdAt: sandbox.options.now()))
    }
}
