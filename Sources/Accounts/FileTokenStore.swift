import Foundation
import OAuth

/// One JSON file per account in calbridge's home, 0600, written atomically.
public struct FileTokenStore: TokenStore {
    public let home: CalbridgeHome
    public let files: SecureFile

    public init(home: CalbridgeHome, files: SecureFile = SecureFile()) {
        self.home = home
        self.files = files
    }

    public func load(account: String) throws -> TokenSet? {
        let url = home.tokenFile(account: account)
        guard let data = try files.read(url) else { return nil }
        do {
            return try AccountRegistry.decoder.decode(TokenSet.self, from: data)
        } catch {
            throw StorageError(
                .corrupt, path: url.path,
                message: "\(url.path) is not a calbridge token file; sign in again with 'calbridge accounts add'"
            )
        }
    }

    public func save(_ tokens: TokenSet, account: String) throws {
        try files.write(try AccountRegistry.encoder.encode(tokens), to: home.tokenFile(account: account))
    }

    public func delete(account: String) throws {
        try files.delete(home.tokenFile(account: account))
    }

    /// Deletes the account's token file, the temporaries of crashed writes and, last, its lock file (while
    /// holding it): a removed account leaves no file behind.
    public func deleteAll(account: String) async throws {
        let file = home.tokenFile(account: account)
        let lock = FileLock.guarding(file)
        let files = self.files
        try await withExclusiveAccess(account: account) {
            try files.delete(file)
            // Unlinked while held: a process that opens it afterwards finds no account to refresh anyway.
            unlink(lock.url.path)
        }
    }

    /// Gives the account's token file the name of `new` (`accounts rename`), under the old file's lock (so
    /// that a refresh in another process does not write the old file back meanwhile); the old lock file goes.
    /// A missing file is nothing to move.
    public func move(account old: String, to new: String) async throws {
        try await Self.move(home.tokenFile(account: old), to: home.tokenFile(account: new), files: files)
    }

    /// Moves `file` to `target` (replacing nothing: an existing `target` is an error) holding `file`'s lock.
    static func move(_ file: URL, to target: URL, files: SecureFile) async throws {
        try files.ensureDirectory(file.deletingLastPathComponent())
        let lock = FileLock.guarding(file)
        try await lock.withLock(timeout: lockTimeout) {
            files.removeStaleTemporaries(of: file)
            guard FileManager.default.fileExists(atPath: file.path) else { return }
            // link then unlink: the new name never replaces a file that is there (rename(2) would).
            guard link(file.path, target.path) == 0 else {
                throw StorageError(.io, path: target.path, message: "cannot create \(target.path): \(String(cString: strerror(errno)))")
            }
            unlink(file.path)
            unlink(lock.url.path)
        }
    }

    /// How long to wait for another process's refresh of the same account (a refresh is one request
    /// with a 30-second timeout; a little more covers its retries of a failed save).
    public static let lockTimeout = Duration.seconds(90)

    /// Holds `FileLock.guarding(tokenFile)`; temporaries of a crashed earlier write are removed first.
    public func withExclusiveAccess<T: Sendable>(account: String, _ body: @Sendable () async throws -> T) async throws -> T {
        let file = home.tokenFile(account: account)
        try files.ensureDirectory(home.directory)
        let files = self.files
        return try await FileLock.guarding(file).withLock(timeout: Self.lockTimeout) {
            files.removeStaleTemporaries(of: file)
            return try await body()
        }
    }
}
