import CalendarBridge
import Foundation

/// `accounts.json`: every signed-in account, by name. Reads and writes go through `SecureFile`
/// (0600, atomic); the document is `{"version": 1, "accounts": [...]}` sorted by name.
public struct AccountRegistry: Sendable {
    public let home: CalbridgeHome
    public let files: SecureFile

    public init(home: CalbridgeHome, files: SecureFile = SecureFile()) {
        self.home = home
        self.files = files
    }

    private struct Document: Codable {
        var version: Int
        var accounts: [AccountRecord]
    }

    /// Every account, sorted by name (empty when there is no `accounts.json` yet).
    public func accounts() throws -> [AccountRecord] {
        guard try directoryExists() else { return [] }
        guard let data = try files.read(home.accountsFile) else { return [] }
        do {
            return try Self.decoder.decode(Document.self, from: data).accounts.sorted { $0.name < $1.name }
        } catch {
            throw StorageError(
                .corrupt, path: home.accountsFile.path,
                message: "\(home.accountsFile.path) is not a calbridge account list (\(error.localizedDescription)); move it away and sign in again"
            )
        }
    }

    /// The named account, or nil.
    public func account(named name: String) throws -> AccountRecord? {
        try accounts().first { $0.name == name }
    }

    /// The named account, or a `StorageError.unknownAccount` listing the names there are.
    public func require(_ name: String) throws -> AccountRecord {
        try require(name, in: accounts())
    }

    /// The named account among `all` (what `accounts()` returned: one read for several names), or a
    /// `StorageError.unknownAccount` listing the names there are.
    public func require(_ name: String, in all: [AccountRecord]) throws -> AccountRecord {
        if let found = all.first(where: { $0.name == name }) { return found }
        let known = all.isEmpty ? "there are no accounts yet; add one with 'calbridge accounts add google|microsoft'"
            : "known accounts: " + all.map(\.name).joined(separator: ", ")
        throw StorageError(.unknownAccount, path: home.accountsFile.path, message: "no account named '\(name)'; \(known)")
    }

    /// Adds the account, or replaces the one with the same name (read, changed and written under the
    /// exclusive lock, so that another process's change in between is kept).
    public func save(_ record: AccountRecord) throws {
        try update(always: true) { all in
            all.removeAll { $0.name == record.name }
            all.append(record)
        }
    }

    /// Removes the named account. Returns whether it was there.
    @discardableResult
    public func remove(_ name: String) throws -> Bool {
        try update { all in
            let before = all.count
            all.removeAll { $0.name == name }
            return all.count != before
        }
    }

    /// Renames the account `old` to `new` in one read-modify-write (`accounts rename`).
    /// - Throws: `StorageError` `.unknownAccount` when there is no `old` (naming the accounts there are).
    public func rename(_ old: String, to new: String) throws {
        try update { all in
            guard let index = all.firstIndex(where: { $0.name == old }) else { _ = try require(old, in: all); return }
            all[index].name = new
        }
    }

    /// Read-modify-write of `accounts.json` under its lock (`SecureFile.update`); written when `change` changed it.
    /// `always`: written even when unchanged (`save` rewrites the file in the current format).
    private func update<T>(always: Bool = false, _ change: (inout [AccountRecord]) throws -> T) throws -> T {
        try files.update(home.accountsFile, in: home.directory, always: always, read: accounts, write: write, change: change)
    }

    private func write(_ accounts: [AccountRecord]) throws {
        let document = Document(version: 1, accounts: accounts.sorted { $0.name < $1.name })
        try files.write(try Self.encoder.encode(document), to: home.accountsFile)
    }

    private func directoryExists() throws -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: home.directory.path, isDirectory: &isDirectory) else { return false }
        // Checks the directory's own permissions too.
        try files.ensureDirectory(home.directory)
        return true
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        // The timestamps `.iso8601` writes, read by `RFC3339`: Foundation's `.iso8601` reading builds a
        // calendar in the system zone for each, on every command that opens an account.
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            guard let date = RFC3339.parse(try container.decode(String.self)) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "Expected date string to be ISO8601-formatted.")
            }
            return date
        }
        return decoder
    }()
}
