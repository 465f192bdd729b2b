import Accounts
import CalendarBridge
import Foundation
import Sync

/// What the `sync` commands share: the home's pair definitions (`sync-pairs.json`) and state (`sync.db`), and
/// opening a pair's two calendars through the accounts (each account once per process, each account's
/// calendars listed once per run).
struct SyncPairs {
    let context: CommandContext
    let definitions: SyncPairDefinitions
    /// The state; nil for a reading command in a home with definitions but no (readable) state.
    let optionalStore: (any SyncStateStore)?
    /// Opened for reading only: nothing is created, migrated or written.
    let readOnly: Bool

    /// The state (writing commands always have one).
    var store: any SyncStateStore {
        get throws {
            guard let optionalStore else {
                throw InputError("there is no sync state yet; run 'calbridge sync' first", exitCode: .failure)
            }
            return optionalStore
        }
    }

    /// Opens the home's `sync.db` (creating it on first use). A damaged one is reported with the pairs that
    /// are kept apart from it (`sync-pairs.json`), which the next run after moving it away starts afresh.
    init(context: CommandContext) throws {
        let home = CalbridgeHome(environment: context.environment)
        self.context = context
        definitions = SyncPairDefinitions(home: home)
        readOnly = false
        optionalStore = try Self.openState(home.syncDatabase, definitions: definitions)
    }

    /// The state for writing; a damaged one is `damaged(_:definitions:)`.
    private static func openState(_ url: URL, definitions: SyncPairDefinitions) throws -> any SyncStateStore {
        do {
            return try SQLiteSyncStateStore(url: url)
        } catch {
            guard error.code == .corrupt || error.code == .foreign else { throw error }
            throw damaged(error, definitions: definitions)
        }
    }

    private init(context: CommandContext, definitions: SyncPairDefinitions, store: (any SyncStateStore)?) {
        self.context = context
        self.definitions = definitions
        self.optionalStore = store
        readOnly = true
    }

    /// The home's pairs opened for reading only (`sync list`, `sync status`, `sync conflicts`): nil when there
    /// are neither definitions nor a state, so a read creates nothing. A state of an older schema is opened for
    /// writing, which upgrades it; a damaged one is left out when the definitions are there (`sync list` still
    /// lists the pairs).
    static func reading(context: CommandContext) throws -> SyncPairs? {
        let home = CalbridgeHome(environment: context.environment)
        let definitions = SyncPairDefinitions(home: home)
        let defined = FileManager.default.fileExists(atPath: definitions.url.path)
        var store: (any SyncStateStore)?
        do {
            store = try SQLiteSyncStateStore(readingOnly: home.syncDatabase)
        } catch {
            // One catch that decides: two `catch where` clauses on this typed error crash Swift 6.3.1's SILGen.
            let code = error.code
            if code == .olderSchema { return try SyncPairs(context: context) }
            guard defined, code == .corrupt || code == .foreign else { throw error }
            store = nil
        }
        guard store != nil || defined else { return nil }
        return SyncPairs(context: context, definitions: definitions, store: store)
    }

    /// The listings' selection (`sync status`, `sync conflicts`): the home's pairs opened for reading only and
    /// those `names` names (every pair when it is empty). Nil when the home has no pairs at all.
    /// - Throws: `UsageError` (exit 2) for a name that is not a pair's.
    static func readingSelected(_ names: [String], context: CommandContext, command: String) async throws -> (
        pairs: SyncPairs, selected: [SyncPair]
    )? {
        guard let pairs = try reading(context: context) else {
            if let name = names.first { throw unknown(name, among: [], command: command) }
            return nil
        }
        return (pairs, names.isEmpty ? try await pairs.all() : try await pairs.select(names, command: command))
    }

    /// A damaged state as one line: what is wrong, and which pairs are kept apart from it.
    static func damaged(_ error: SyncStateError, definitions: SyncPairDefinitions) -> InputError {
        let names = ((try? definitions.load()) ?? nil)?.map(\.name) ?? []
        let kept =
            names.isEmpty
            ? "; no pair definitions are kept apart from it (add the pairs again after moving it away)"
            : "; the pairs (\(names.joined(separator: ", "))) are kept in \(definitions.url.path) and start afresh"
        return InputError(error.description + kept, exitCode: .failure)
    }

    /// Every pair, by name: the definitions, or in a home from before they were kept apart, the state's pairs
    /// (copied into the definitions by a writing command).
    func all() async throws -> [SyncPair] {
        if let pairs = try definitions.load() { return pairs }
        guard let optionalStore else { return [] }
        return readOnly ? try await optionalStore.pairs() : try await definitions.migrate(from: optionalStore)
    }

    /// Adds a pair: its definition, then a fresh state.
    /// - Throws: `UsageError` when the name is taken.
    func add(_ pair: SyncPair, command: String) async throws {
        _ = try await all()
        try definitions.update { pairs in
            guard !pairs.contains(where: { $0.name == pair.name }) else {
                throw UsageError(
                    "a sync pair named '\(pair.name)' exists already; pick another name or 'calbridge sync remove \(pair.name)' first",
                    command: command)
            }
            pairs.append(pair)
        }
        try await store.startPair(pair)
    }

    /// Removes a pair: its definition and its state.
    func remove(named name: String) async throws {
        _ = try await all()
        try definitions.update { pairs in pairs.removeAll { $0.name == name } }
        do {
            try await store.removePair(named: name)
        } catch let error as SyncError where error.code == .unknownPair {
            // No state yet (never run since the state started afresh): nothing more to remove.
        }
    }

    /// Gives a pair new options, keeping its state.
    func edit(_ name: String, options: SyncPairOptions) async throws {
        _ = try await all()
        let changed: SyncPair? = try definitions.update { pairs in
            guard let index = pairs.firstIndex(where: { $0.name == name }) else { return nil }
            pairs[index].options = options
            pairs[index].record.options = options.encoded()
            return pairs[index]
        }
        guard let changed else { throw Self.unknown(name, among: try await all(), command: "sync edit") }
        try await store.ensurePair(changed)
    }

    /// The conflicts kept for `names`, oldest first (none without a state).
    func conflicts(of names: [String]) async throws -> [SyncConflictRecord] {
        guard let optionalStore else { return [] }
        return try await optionalStore.read { state in try names.flatMap { try state.conflicts(pair: $0) } }
            .sorted { ($0.rowID ?? 0) < ($1.rowID ?? 0) }
    }

    /// The engine over the home's state, in the user's zone ($TZ, else the system zone): the pair's window
    /// is whole days in it.
    func engine(stop: (any SyncStopRequest)? = nil) throws -> SyncEngine {
        var engine = SyncEngine(store: try store, zone: ZoneOptions.localZone(context.environment), batchSize: nil, now: context.now)
        if let stop { engine.shouldStop = { stop.stopReason != nil } }
        return engine
    }

    /// The runner of this home's pairs, opening their sides through `accounts` (each account once).
    /// - Parameter stop: a stop request the runs heed between write batches (a signal).
    func runner(accounts: AccountProviders, dryRun: Bool, stop: (any SyncStopRequest)? = nil) throws -> SyncPairRunner {
        let context = context
        return SyncPairRunner(
            engine: try engine(stop: stop), opener: SyncCalendarResolver(accounts: accounts), dryRun: dryRun,
            warn: { context.printError($0) })
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
        return SyncEngine.Endpoint(
            provider: provider, calendarID: id, accountIdentity: try await identity(record, provider),
            matchesByContent: FeedSource.matchesByContent(provider))
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
