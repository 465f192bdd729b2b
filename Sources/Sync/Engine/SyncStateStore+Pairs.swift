import Foundation

extension SyncStateStore {
    /// Adds a pair (`sync add`): its calendars as the user gave them and its options.
    /// - Throws: `SyncError` `.invalidOptions` for unusable options or a name already taken, `.state`.
    public func addPair(name: String, sideA: String, sideB: String, options: SyncPairOptions, at date: Date) async throws(SyncError) {
        if let problem = options.validationProblem { throw SyncError(.invalidOptions, problem) }
        do {
            try await write { transaction in
                if try transaction.pair(named: name) != nil {
                    throw SyncError(.invalidOptions, "a sync pair named '\(name)' exists; remove it first or choose another name")
                }
                try transaction.savePair(
                    SyncPairRecord(name: name, sideA: sideA, sideB: sideB, options: options.encoded(), created: date))
            }
        } catch {
            throw SyncError.wrap(error)
        }
    }

    /// Removes a pair with its items, cursors, last run and conflicts (`sync remove`; run
    /// `SyncEngine.removeCopies` first for `--remove-copies`).
    /// - Throws: `SyncError` `.unknownPair` when there is none, `.state`.
    public func removePair(named name: String) async throws(SyncError) {
        let removed: Bool
        do {
            removed = try await write { try $0.removePair(named: name) }
        } catch {
            throw SyncError.wrap(error)
        }
        if !removed { throw SyncError(.unknownPair, "no sync pair named '\(name)' ('calbridge sync list' shows them)") }
    }

    /// Every stored pair, by name, with its options read back.
    /// - Throws: `SyncError` `.state`, or `.invalidOptions` for a pair whose options do not parse.
    public func pairs() async throws(SyncError) -> [SyncPair] {
        let records: [SyncPairRecord]
        do {
            records = try await read { try $0.pairs() }
        } catch {
            throw SyncError.wrap(error)
        }
        return try records.map { record throws(SyncError) in try SyncPair(record) }
    }

    /// Brings the state's row of `pair` in line with its definition (`SyncPairDefinitions`): added when the
    /// state has none (a state moved away and started afresh), its sides and options written when they changed
    /// (`sync edit`). The pair's items, cursors and conflicts stay.
    public func ensurePair(_ pair: SyncPair) async throws(SyncError) {
        let record = pair.record
        do {
            let stored = try await read { try $0.pair(named: record.name) }
            if let stored, stored.sideA == record.sideA, stored.sideB == record.sideB, stored.options == record.options { return }
            try await write { try $0.savePair(record) }
        } catch {
            throw SyncError.wrap(error)
        }
    }

    /// Starts the state of a new pair afresh: a state left under its name (a pair removed from the
    /// definitions by hand) is dropped first.
    public func startPair(_ pair: SyncPair) async throws(SyncError) {
        do {
            try await write { transaction in
                try transaction.removePair(named: pair.name)
                try transaction.savePair(pair.record)
            }
        } catch {
            throw SyncError.wrap(error)
        }
    }

    /// The stored pair, or `.unknownPair`.
    public func pairRecord(named name: String) async throws(SyncError) -> SyncPairRecord {
        let found: SyncPairRecord?
        do {
            found = try await read { try $0.pair(named: name) }
        } catch {
            throw SyncError.wrap(error)
        }
        guard let found else { throw SyncError(.unknownPair, "no sync pair named '\(name)' ('calbridge sync list' shows them)") }
        return found
    }
}

extension SyncError {
    /// A state failure (or a `SyncError` thrown inside a transaction) as a `SyncError`.
    static func wrap(_ error: any Error) -> SyncError {
        if let error = error as? SyncError { return error }
        if let error = error as? SyncStateError { return SyncError(.state, error.description, stateError: error) }
        return SyncError(.state, String(describing: error))
    }
}
