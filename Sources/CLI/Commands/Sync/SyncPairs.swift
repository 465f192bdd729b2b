import Accounts
import CalendarBridge
import Foundation
import Sync

/// What the `sync` commands share: the home's state, the stored pairs, and opening a pair's two calendars
/// through the accounts (each account once per process, each account's calendars listed once per run).
struct SyncPairs {
    let context: CommandContext
    let store: SyncStateStore

    /// Opens the home's `sync.db` (creating it on first use).
    init(context: CommandContext) throws {
        self.context = context
        store = try SyncStateStore(url: CalbridgeHome(environment: context.environment).syncDatabase)
    }

    private init(context: CommandContext, store: SyncStateStore) {
        self.context = context
        self.store = store
    }

    /// The home's `sync.db` opened for reading only (`sync list`, `sync status`): nil when there is none,
    /// so a read creates nothing. A state of an older schema is opened for writing, which upgrades it.
    static func reading(context: CommandContext) throws -> SyncPairs? {
        let url = CalbridgeHome(environment: context.environment).syncDatabase
        do {
            guard let store = try SyncStateStore(readingOnly: url) else { return nil }
            return SyncPairs(context: context, store: store)
        } catch where error.code == .olderSchema {
            return try SyncPairs(context: context)
        }
    }

    /// Every stored pair, by name.
    func all() async throws -> [SyncPair] {
        try await store.pairs()
    }

    /// The engine over the home's state, in the user's zone ($TZ, else the system zone): the pair's window
    /// is whole days in it.
    func engine() -> SyncEngine {
        SyncEngine(store: store, zone: ZoneOptions.localZone(context.environment), batchSize: nil, now: context.now)
    }

    /// The runner of this home's pairs, opening their sides through `accounts` (each account once).
    func runner(accounts: AccountProviders, dryRun: Bool) -> SyncPairRunner {
        let context = context
        return SyncPairRunner(
            engine: engine(), opener: SyncCalendarResolver(accounts: accounts), dryRun: dryRun, warn: { context.printError($0) })
    }

    /// The named pairs in the order given (duplicates dropped), or every pair when `names` is empty.
    /// - Throws: `UsageError` (exit 2) naming an unknown pair and the known ones, or saying there are none,
    ///   before anything runs.
    func select(_ names: [String], command: String) async throws -> [SyncPair] {
        let stored = try await all()
        if stored.isEmpty {
            throw InputError("there are no sync pairs yet; add one with 'calbridge sync add NAME --a ACCOUNT:CALENDAR --b ACCOUNT:CALENDAR'")
        }
        guard !names.isEmpty else { return stored }
        var seen: Set<String> = []
        return try names.filter { seen.insert($0).inserted }.map { name in
            guard let pair = stored.first(where: { $0.name == name }) else { throw Self.unknown(name, among: stored, command: command) }
            return pair
        }
    }

    /// One stored pair.
    func pair(named name: String, command: String) async throws -> SyncPair {
        let stored = try await all()
        guard let pair = stored.first(where: { $0.name == name }) else { throw Self.unknown(name, among: stored, command: command) }
        return pair
    }

    static func unknown(_ name: String, among stored: [SyncPair], command: String) -> UsageError {
        let names = stored.map(\.name)
        let hint = ArgumentParser.nearest(name, among: names).map { " (did you mean '\($0)'?)" } ?? ""
        let known = names.isEmpty ? "there are none; add one with 'calbridge sync add'" : "the pairs are: " + names.joined(separator: ", ")
        return UsageError("no sync pair named '\(name)'\(hint); \(known)", command: command)
    }
}

/// One side of a pair as `sync add` resolves it: the calendar as its account lists it, and the account's identity.
struct SyncSideTarget: Sendable {
    var calendar: CalendarInfo
    var accountIdentity: String

    /// `account:Name`, for people.
    var label: String { "\(calendar.account):\(calendar.name)" }
    /// `account:ID`, what the pair stores: it survives a renamed calendar, and a run needs no listing.
    var storedReference: String { "\(calendar.account):\(calendar.id)" }
}

/// Opens pair sides through the accounts: each account once (`AccountProviders`), each account's identity
/// read at most once. `sync add` resolves what the user typed by listing the account's calendars (once per
/// account); runs take the stored `ACCOUNT:ID` straight to the engine, so a quiet run sends nothing but
/// each side's change read.
actor SyncCalendarResolver: PairSideOpener {
    private let accounts: AccountProviders
    private let environment: [String: String]
    private var listings: [String: Task<[CalendarInfo], any Error>] = [:]
    private var identities: [String: Task<String, any Error>] = [:]
    private var grants: [String: Task<Void, any Error>] = [:]
    /// accounts.json, read once per run (a hundred pairs would otherwise read and decode it 200 times).
    private var records: [String: AccountRecord]?

    init(accounts: AccountProviders) {
        self.accounts = accounts
        environment = accounts.context.environment
    }

    /// A pair's failure as the command line reports it: the one-line message (naming the exact sign-in
    /// command when a grant must be renewed) and whether it means exit code 3.
    nonisolated func describe(_ error: any Error) -> SyncPairFailure {
        SyncPairFailure(
            error: error, message: ErrorReporting.message(for: error, environment: environment),
            needsSignIn: ErrorReporting.exitCode(for: error) == .reauthenticate, account: ErrorReporting.accountToSignIn(for: error))
    }

    /// Resolves a reference as typed (id, name, primary or default).
    /// - Throws: `CalendarError` (bad reference, no such calendar: exit 2; unauthorized: exit 3),
    ///   `StorageError` for an unknown account, `InputError` for a provider that cannot read changes.
    func resolve(_ text: String, side: SyncSide) async throws -> SyncSideTarget {
        let (reference, record, provider) = try open(text, side: side)
        let calendar = try reference.resolve(in: try await listing(record.name, provider))
        return SyncSideTarget(calendar: calendar, accountIdentity: try await identity(record, provider))
    }

    /// The engine's endpoint for a stored `ACCOUNT:ID` reference, without a request (the account's identity
    /// is stored with it).
    func endpoint(_ stored: String, side: SyncSide) async throws -> SyncEngine.Endpoint {
        let (reference, record, provider) = try open(stored, side: side)
        guard case .idOrName(let id) = reference.selector else {
            throw InputError("sync pair side \(side.rawValue.uppercased()) '\(stored)' names no calendar id; remove the pair and add it again")
        }
        try await requireGrant(record)
        return SyncEngine.Endpoint(provider: provider, calendarID: id, accountIdentity: try await identity(record, provider))
    }

    private func open(_ text: String, side: SyncSide) throws -> (CalendarRef, AccountRecord, any ChangeReadingProvider) {
        let reference = try CopyCommand.parseRef(text)
        let record = try record(named: reference.account)
        guard let reader = try accounts.provider(for: record) as? any ChangeReadingProvider else {
            throw InputError(
                "side \(side.rawValue.uppercased()) (\(text)): \(record.provider) accounts cannot be synced (their provider reads no changes); "
                    + "sync works between Google and Outlook calendars")
        }
        return (reference, record, reader)
    }

    /// The stored account `name`; an unknown one is `registry.require`'s error (naming the known accounts).
    private func record(named name: String) throws -> AccountRecord {
        if records == nil {
            records = Dictionary(try accounts.registry.accounts().map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        }
        if let found = records?[name] { return found }
        return try accounts.registry.require(name)
    }

    /// A valid access token for the account, refreshed when it is about to expire (no API request): a
    /// grant that must be renewed surfaces here as `ReauthenticationRequired` (exit 3, naming the sign-in
    /// command) before the pair touches either calendar.
    private func requireGrant(_ record: AccountRecord) async throws {
        if let task = grants[record.name] { return try await task.value }
        let session = try accounts.sessions.session(for: record)
        let task = Task { try await session.requireCredential() }
        grants[record.name] = task
        try await task.value
    }

    private func listing(_ account: String, _ provider: any CalendarProvider) async throws -> [CalendarInfo] {
        if let task = listings[account] { return try await task.value }
        let task = Task { try await provider.listCalendars() }
        listings[account] = task
        return try await task.value
    }

    private func identity(_ record: AccountRecord, _ provider: any CalendarProvider) async throws -> String {
        if let task = identities[record.name] { return try await task.value }
        let registry = accounts.registry
        let task = Task { try await CopyCommand.accountIdentity(record, provider: provider, registry: registry) }
        identities[record.name] = task
        return try await task.value
    }
}
