/// Every calendar of many accounts, fetched concurrently: what `calbridge calendars` and calendar
/// references need.
///
/// One failing account does not hide the others: `Listing.failures` reports it separately, so the CLI
/// can print what it has and exit with "partly done".
public struct CalendarDirectory: Sendable {
    public let providers: [any CalendarProvider]

    /// - Parameter providers: one per account (account names should be unique).
    public init(providers: [any CalendarProvider]) { self.providers = providers }

    /// The result of listing many accounts.
    public struct Listing: Sendable {
        /// Calendars of the accounts that answered, in the order of `providers`, each account's in the
        /// provider's order.
        public var calendars: [CalendarInfo]
        /// The accounts that failed, in the order of `providers`.
        public var failures: [AccountFailure]
        /// True when any account failed (the CLI exits with "partly done").
        public var isPartial: Bool { !failures.isEmpty }
    }

    /// One account that could not be listed.
    public struct AccountFailure: Sendable {
        public var account: String
        public var provider: ProviderKind
        public var error: any Error
    }

    /// Lists every account's calendars at once (the wait is the slowest account, not the sum).
    public func listCalendars() async -> Listing {
        // All at once, each result in its account's place. (A task group's `(Int, Result<_, any Error>)` children,
        // sorted by the Int afterwards, came back with wrong indexes in Swift 6.3.1's optimized builds.)
        let results = await mapConcurrently(providers, limit: max(1, providers.count)) { provider -> Result<[CalendarInfo], any Error> in
            do { return .success(try await provider.listCalendars()) } catch { return .failure(error) }
        }
        var listing = Listing(calendars: [], failures: [])
        for (index, result) in results.enumerated() {
            switch result {
            case .success(let calendars): listing.calendars += calendars
            case .failure(let error):
                let p = providers[index]
                listing.failures.append(AccountFailure(account: p.account, provider: p.provider, error: error))
            }
        }
        return listing
    }

    /// The provider of an account, or `.notFound` listing the known accounts.
    public func provider(forAccount account: String) throws(CalendarError) -> any CalendarProvider {
        if let found = providers.first(where: { $0.account == account }) { return found }
        throw CalendarError(
            .notFound, "no account '\(account)'", account: account, candidates: providers.map(\.account).sorted())
    }

    /// Resolves a reference by listing only its account's calendars.
    /// - Returns: the account's provider and the calendar.
    public func resolve(_ ref: CalendarRef) async throws -> (provider: any CalendarProvider, calendar: CalendarInfo) {
        let provider = try provider(forAccount: ref.account)
        let calendars = try await provider.listCalendars()
        guard !calendars.isEmpty else {
            throw CalendarError(.notFound, "the account has no calendars", provider: provider.provider, account: ref.account)
        }
        return (provider, try ref.resolve(in: calendars))
    }
}
