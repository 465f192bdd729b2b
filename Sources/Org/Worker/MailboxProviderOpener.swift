import CalendarBridge
import Foundation
import Sync

/// Opens one mailbox's calendar provider with the organisation's app-only credentials. The worker's caller
/// supplies it (the command line knows the providers; `Org` does not), as the personal `sync` supplies a
/// `PairSideOpener`.
///
/// A test double returns in-memory providers by address:
/// ```swift
/// struct Fixed: MailboxProviderOpener {
///     let providers: [String: any ChangeReadingProvider]
///     func open(_ address: String) async throws -> any ChangeReadingProvider { providers[address]! }
/// }
/// ```
package protocol MailboxProviderOpener: Sendable {
    /// The provider of `address` (its domain picks the credential), addressed to that mailbox alone.
    /// - Throws: what keeps it from opening (no credential serves the domain, unreadable key material).
    func open(_ address: String) async throws -> any ChangeReadingProvider
}

/// Opens the sides of the organisation's pairs for `SyncPairRunner`: a side is a mailbox's address, its
/// calendar the mailbox's primary one. Providers and primary calendars are kept for the worker's life, so
/// an idle pair costs its two change reads and nothing more.
package actor OrgPairSideOpener: PairSideOpener {
    private let opener: any MailboxProviderOpener
    private var opened: [String: SyncEngine.Endpoint] = [:]

    package init(opener: any MailboxProviderOpener) {
        self.opener = opener
    }

    package func endpoint(_ stored: String, side: SyncSide) async throws -> SyncEngine.Endpoint {
        if let known = opened[stored] { return known }
        let provider = try await opener.open(stored)
        guard let primary = try await provider.listCalendars().first(where: \.isPrimary) else {
            throw CalendarError(.notFound, "the mailbox \(stored) has no primary calendar")
        }
        let endpoint = SyncEngine.Endpoint(provider: provider, calendarID: primary.id, accountIdentity: stored)
        opened[stored] = endpoint
        return endpoint
    }

    package nonisolated func describe(_ error: any Error) -> SyncPairFailure {
        SyncPairFailure(error: error, message: String(describing: error), needsSignIn: false)
    }
}
