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
/// calendar the mailbox's primary one. Providers are kept for the worker's life, and each mailbox's primary
/// calendar in the database (`org_mailboxes.primary_calendar`, found by the first worker to open it), so an
/// idle pair costs its two change reads and nothing more, on whichever worker claims it.
package actor OrgPairSideOpener: PairSideOpener {
    private let opener: any MailboxProviderOpener
    private let connection: PostgresConnection?
    private let timeout: Duration
    private var opened: [String: SyncEngine.Endpoint] = [:]

    /// - Parameters:
    ///   - connection: where the primary calendars are remembered; nil: this worker's memory alone.
    ///   - timeout: how long each of its statements may wait for the database's answer.
    package init(opener: any MailboxProviderOpener, connection: PostgresConnection? = nil, timeout: Duration = WorkQueue.defaultTimeout) {
        self.opener = opener
        self.connection = connection
        self.timeout = timeout
    }

    package func endpoint(_ stored: String, side: SyncSide) async throws -> SyncEngine.Endpoint {
        if let known = opened[stored] { return known }
        let provider = try await opener.open(stored)
        let remembered = try await connection?.execute(
            "SELECT primary_calendar FROM org_mailboxes WHERE address = $1", [stored], timeout: timeout)[0, "primary_calendar"]
        let calendarID: String
        if let remembered {
            calendarID = remembered
        } else {
            guard let primary = try await provider.listCalendars().first(where: \.isPrimary) else {
                throw CalendarError(.notFound, "the mailbox \(stored) has no primary calendar")
            }
            calendarID = primary.id
            // Not fenced: the same answer whoever writes it, and no sync state depends on it.
            try await connection?.execute(
                "UPDATE org_mailboxes SET primary_calendar = $2 WHERE address = $1", [stored, calendarID], timeout: timeout)
        }
        if let known = opened[stored] { return known }
        let endpoint = SyncEngine.Endpoint(provider: provider, calendarID: calendarID, accountIdentity: stored)
        opened[stored] = endpoint
        return endpoint
    }

    package nonisolated func describe(_ error: any Error) -> SyncPairFailure {
        SyncPairFailure(error: error, message: String(describing: error), needsSignIn: false)
    }
}
