import Foundation
import OAuth

/// The providers this calbridge speaks, and the lookups every command shares: by id, by API, and an
/// account's descriptor and registration.
public struct ProviderRegistry: Sendable {
    public let registrations: [ProviderRegistration]

    public init(_ registrations: [ProviderRegistration]) {
        self.registrations = registrations
    }

    /// The registered ids, in registration order (`google, microsoft`).
    public var ids: [String] { registrations.map(\.id) }

    /// The registered APIs: what a descriptor's `api` may say.
    public var apis: [ProviderAPI] { registrations.map(\.api) }

    public func registration(id: String) -> ProviderRegistration? {
        registrations.first { $0.id == id }
    }

    public func registration(api: ProviderAPI) -> ProviderRegistration? {
        registrations.first { $0.api == api }
    }

    /// Parses a descriptor document whose `api` must be a registered one.
    public func parseDescriptor(_ data: Data, source: String, tenant: String = ProviderDescriptor.defaultTenant) throws -> ProviderDescriptor {
        try ProviderDescriptor.parse(data, source: source, tenant: tenant, apis: apis)
    }

    /// The registration that talks to a stored account.
    /// - Throws: `ProviderRegistryError` when no registered provider speaks the account's API.
    public func registration(for record: AccountRecord) throws -> ProviderRegistration {
        guard let registration = registration(api: record.api) else {
            throw ProviderRegistryError(
                "account '\(record.name)' uses API '\(record.api)', which this calbridge cannot talk to")
        }
        return registration
    }

    /// The descriptor of a stored OAuth account: the one it stored, else its provider's built-in one.
    /// - Throws: `ProviderRegistryError` for an unknown provider or an account that does not use OAuth.
    public func descriptor(for record: AccountRecord) throws -> ProviderDescriptor {
        switch record.credential {
        case .oauth(let oauth):
            if let descriptor = oauth.descriptor { return descriptor }
            guard let registration = registration(id: record.provider) else {
                throw ProviderRegistryError(
                    "account '\(record.name)' names provider '\(record.provider)', which this calbridge does not know")
            }
            return try registration.builtInDescriptor(tenant: oauth.tenant)
        }
    }
}

/// A stored account names a provider or API that no registration knows.
public struct ProviderRegistryError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
