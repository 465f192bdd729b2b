import Foundation

/// A stored pair with its options read back: what the pair runner and the watcher run.
public struct SyncPair: Sendable, Hashable {
    public var record: SyncPairRecord
    public var options: SyncPairOptions

    public init(record: SyncPairRecord, options: SyncPairOptions) {
        self.record = record
        self.options = options
    }

    /// Reads a stored record's options back.
    /// - Throws: `SyncError` `.invalidOptions` when they do not parse.
    public init(_ record: SyncPairRecord) throws(SyncError) {
        self.init(record: record, options: try SyncPairOptions(decoding: record.options))
    }

    public var name: String { record.name }
    /// Side A as the user named it (`work:Calendar`); the stored `ACCOUNT:ID` for pairs added before
    /// names were kept. Ids are shown in JSON only.
    public var labelA: String { options.labelA ?? record.sideA }
    public var labelB: String { options.labelB ?? record.sideB }
}

/// Opens the two calendars of a stored pair, for the pair runner: the caller (the command line, an
/// organisation worker) knows the accounts and how their failures read; Sync knows neither.
public protocol PairSideOpener: Sendable {
    /// The engine's endpoint for one side's stored reference (`SyncPairRecord.sideA`/`sideB`).
    /// - Throws: whatever stops the side from opening (unknown account, a grant to renew, ...); the
    ///   runner passes it to `describe` and records the pair as failed.
    func endpoint(_ stored: String, side: SyncSide) async throws -> SyncEngine.Endpoint

    /// How a failure of a pair's run reads: one line for people and the log, and whether it asks for a
    /// sign-in (which account).
    func describe(_ error: any Error) -> SyncPairFailure
}

/// Why a pair could not run, as its opener describes it.
public struct SyncPairFailure: Sendable {
    /// The error as thrown (by the opener or the engine).
    public var error: any Error
    /// One line: what was wrong and how to fix it.
    public var message: String
    /// Whether a grant must be renewed before the pair can run (the pair's outcome is then `needsSignIn`).
    public var needsSignIn: Bool
    /// The account to sign in again, when known.
    public var account: String?

    public init(error: any Error, message: String, needsSignIn: Bool, account: String? = nil) {
        self.error = error
        self.message = message
        self.needsSignIn = needsSignIn
        self.account = account
    }
}

/// How one pair's run ended (stored in the pair's last run, shown by `sync status` and the watcher's log).
public enum SyncPairOutcome: String, Sendable, Hashable, Codable {
    /// Everything was applied.
    case ok
    /// Some items failed (retried next run); the rest was applied.
    case partial
    /// An account must sign in again before the pair can run.
    case needsSignIn
    /// The pair could not run.
    case failed
    /// Stopped by a signal before its run ended; the next run carries on.
    case interrupted
}
