import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The passwords of password accounts, kept as tokens are: one JSON file per account in calbridge's home
/// (`password-<name>.json`), 0600 in the 0700 home, written atomically (`SecureFile`), and written or
/// deleted only under the account's lock (`FileLock.guarding(file)`), so that processes sharing the home
/// never see half a change. The password is never put in argv, printed or logged.
public struct FilePasswordStore: Sendable {
    public let home: CalbridgeHome
    public let files: SecureFile

    public init(home: CalbridgeHome, files: SecureFile = SecureFile()) {
        self.home = home
        self.files = files
    }

    private struct Document: Codable {
        var password: String
    }

    /// The account's password, or nil when none is stored.
    /// - Throws: `StorageError` for a file open to others or not written by calbridge.
    public func load(account: String) throws -> String? {
        let url = home.passwordFile(account: account)
        guard let data = try files.read(url) else { return nil }
        guard let document = try? JSONDecoder().decode(Document.self, from: data) else {
            throw StorageError(
                .corrupt, path: url.path,
                message: "\(url.path) is not a calbridge password file; sign in again with 'calbridge accounts add'"
            )
        }
        return document.password
    }

    /// Stores the password (replacing the file atomically) under the account's lock.
    public func save(_ password: String, account: String) async throws {
        let url = home.passwordFile(account: account)
        let data = try JSONEncoder().encode(Document(password: password))
        try await withExclusiveAccess(account: account) { try files.write(data, to: url) }
    }

    /// Deletes the password file, crashed writes' temporaries and, last, the lock file (while holding it).
    public func deleteAll(account: String) async throws {
        let url = home.passwordFile(account: account)
        let lock = FileLock.guarding(url)
        try await withExclusiveAccess(account: account) {
            try files.delete(url)
            unlink(lock.url.path)
        }
    }

    /// Gives the account's password file the name of `new` (`accounts rename`), under the old file's lock.
    public func move(account old: String, to new: String) async throws {
        try await FileTokenStore.move(home.passwordFile(account: old), to: home.passwordFile(account: new), files: files)
    }

    /// Holds `FileLock.guarding(passwordFile)`; temporaries of a crashed earlier write are removed first.
    private func withExclusiveAccess(account: String, _ body: @Sendable () throws -> Void) async throws {
        let url = home.passwordFile(account: account)
        try files.ensureDirectory(home.directory)
        let files = self.files
        try await FileLock.guarding(url).withLock(timeout: FileTokenStore.lockTimeout) {
            files.removeStaleTemporaries(of: url)
            try body()
        }
    }
}
