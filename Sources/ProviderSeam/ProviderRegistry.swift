import Foundation
import OAuth

/// The providers this calbridge speaks, and the lookups every command shares: by id and by API.
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
    public func parseDescriptor(_ data: Data, source: String, tenant: String = ProviderDescriptor.defaultTenant) throws
        -> ProviderDescriptor
    {
        try ProviderDescriptor.parse(data, source: source, tenant: tenant, apis: apis)
    }
}

/// A stored account names a provider or API that no registration knows.
public struct ProviderRegistryError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
