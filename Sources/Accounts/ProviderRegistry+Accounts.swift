import Foundation
import OAuth
import ProviderSeam

extension ProviderRegistry {
    /// The registration that talks to a stored account.
    /// - Throws: `ProviderRegistryError` when no registered provider speaks the account's API.
    public func registration(for record: AccountRecord) throws -> ProviderRegistration {
        // The account's own registration when it speaks the API (`icloud` differs from `caldav` in where it may
        // send the password), else the API's first.
        if let own = registration(id: record.provider), own.api == record.api { return own }
        guard let registration = registration(api: record.api) else {
            throw ProviderRegistryError(
                "account '\(record.name)' uses API '\(record.api)', which this calbridge cannot talk to")
        }
        return registration
    }

    /// The descriptor of a stored OAuth account: the one it stored, else its provider's built-in one; nil
    /// for an account of another credential.
    /// - Throws: `ProviderRegistryError` for an unknown provider.
    public func descriptor(for record: AccountRecord) throws -> ProviderDescriptor? {
        guard let oauth = record.oauth else { return nil }
        if let descriptor = oauth.descriptor { return descriptor }
        guard let registration = registration(id: record.provider),
            let descriptor = try registration.builtInDescriptor(tenant: oauth.tenant)
        else {
            throw ProviderRegistryError(
                "account '\(record.name)' names provider '\(record.provider)', which this calbridge does not know")
        }
        return descriptor
    }

    /// The provider's name in messages for a stored account (its descriptor's, else its registration's),
    /// or the stored provider id when nothing knows it.
    public func displayName(for record: AccountRecord) -> String {
        if let descriptor = try? descriptor(for: record) { return descriptor.displayName }
        return registration(id: record.provider)?.displayName ?? record.provider
    }
}
