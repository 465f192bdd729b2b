import Accounts
import Foundation

extension CalbridgeHome {
    /// `sync-pairs.json`: which sync pairs exist and their options, kept apart from `sync.db` so that a
    /// damaged state never takes the definitions with it.
    public var syncPairsFile: URL { directory.appendingPathComponent("sync-pairs.json") }
}

/// The home's sync pair definitions (`sync-pairs.json`): names, both calendars and options.
///
/// A small JSON document written whole and atomically (`SecureFile`: 0600, a temporary renamed over the
/// file), read-modify-written under its own lock, so two commands adding pairs at once keep both. `sync.db`
/// holds each pair's state (items, cursors, runs, conflicts) under the same name; a state moved away or
/// rebuilt loses no pair: the next run starts the pair's state afresh from both calendars. Homes from before
/// the file existed have their definitions in `sync.db` only: the first writing command copies them here
/// (`migrate(from:)`).
public struct SyncPairDefinitions: Sendable {
    public let home: CalbridgeHome
    public let files: SecureFile

    public init(home: CalbridgeHome, files: SecureFile = SecureFile()) {
        self.home = home
        self.files = files
    }

    public var url: URL { home.syncPairsFile }

    private struct Document: Codable {
        var version: Int
        var pairs: [Entry]
    }

    private struct Entry: Codable {
        var name: String
        var a: String
        var b: String
        var options: SyncPairOptions
        var created: Date
    }

    /// Every pair, by name; nil when there is no file yet (no pair added since definitions moved here).
    /// - Throws: `SyncError` `.definitions` for a file that cannot be read or parsed (naming it and the fix).
    public func load() throws(SyncError) -> [SyncPair]? {
        let data: Data?
        do {
            data = try files.read(url)
        } catch {
            throw SyncError(.definitions, "cannot read the sync pairs in \(url.path): \(error)")
        }
        guard let data else { return nil }
        let document: Document
        do {
            document = try Self.decoder.decode(Document.self, from: data)
        } catch {
            throw SyncError(
                .definitions,
                "\(url.path) is not a calbridge sync pair list (\(error.localizedDescription)); fix it by hand or move it away "
                    + "and add the pairs again")
        }
        return try document.pairs.map { entry throws(SyncError) in
            if let problem = entry.options.validationProblem {
                throw SyncError(.definitions, "\(url.path): pair '\(entry.name)': \(problem)")
            }
            return SyncPair(
                record: SyncPairRecord(
                    name: entry.name, sideA: entry.a, sideB: entry.b, options: entry.options.encoded(), created: entry.created),
                options: entry.options)
        }.sorted { $0.name < $1.name }
    }

    /// Read-modify-write under the file's lock (`SecureFile.update`); written when `change` changed the pairs.
    public func update<T>(_ change: (inout [SyncPair]) throws -> T) throws -> T {
        try files.update(url, in: home.directory, read: { try load() ?? [] }, write: write, change: change)
    }

    /// Writes `pairs` as the whole list.
    func write(_ pairs: [SyncPair]) throws {
        let entries = pairs.sorted { $0.name < $1.name }.map {
            Entry(name: $0.name, a: $0.record.sideA, b: $0.record.sideB, options: $0.options, created: $0.record.created)
        }
        try files.write(try Self.encoder.encode(Document(version: 1, pairs: entries)), to: url)
    }

    /// Makes the pairs with a side on account `old` name `new` instead (`accounts rename`): the stored
    /// reference (`old:ID`) and the name the user gave (`old:Calendar`). Returns the pairs changed, by name.
    /// Their state rows follow at their next run (`SyncStateStore.ensurePair`).
    public func renameAccount(_ old: String, to new: String) throws -> [String] {
        func renamed(_ reference: String) -> String? {
            guard reference.hasPrefix(old + ":") else { return nil }
            return new + reference.dropFirst(old.count)
        }
        return try update { pairs in
            var changed: [String] = []
            for index in pairs.indices {
                var pair = pairs[index]
                if let a = renamed(pair.record.sideA) { pair.record.sideA = a }
                if let b = renamed(pair.record.sideB) { pair.record.sideB = b }
                if let label = pair.options.labelA.flatMap(renamed) { pair.options.labelA = label }
                if let label = pair.options.labelB.flatMap(renamed) { pair.options.labelB = label }
                pair.record.options = pair.options.encoded()
                if pair != pairs[index] {
                    pairs[index] = pair
                    changed.append(pair.name)
                }
            }
            return changed
        }
    }

    /// The pairs: the file's, or (no file yet) the state's, copied into a new file.
    public func pairs(migratingFrom store: any SyncStateStore) async throws -> [SyncPair] {
        try await migrate(from: store)
    }

    /// Copies the pairs of a state from before definitions were kept apart into the file, when there is no
    /// file yet and the state has pairs. Returns the pairs there are now.
    @discardableResult
    public func migrate(from store: any SyncStateStore) async throws -> [SyncPair] {
        if let pairs = try load() { return pairs }
        let stored = try await store.pairs()
        guard !stored.isEmpty else { return [] }
        return try update { pairs in
            for pair in stored where !pairs.contains(where: { $0.name == pair.name }) { pairs.append(pair) }
            return pairs.sorted { $0.name < $1.name }
        }
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}
