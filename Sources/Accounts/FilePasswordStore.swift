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
    private var secrets: AccountSecretFiles {
        AccountSecretFiles(
            home: home, files: files, field: "password", kind: "password", file: { [home] in home.passwordFile(account: $0) })
    }

    public init(home: CalbridgeHome, files: SecureFile = SecureFile()) {
        self.home = home
        self.files = files
    }

    /// The account's password, or nil when none is stored.
    /// - Throws: `StorageError` for a file open to others or not written by calbridge.
    public func load(account: String) throws -> String? { try secrets.load(account: account) }

    /// Stores the password (replacing the file atomically) under the account's lock.
    public func save(_ password: String, account: String) async throws { try await secrets.save(password, account: account) }

    /// Deletes the password file, crashed writes' temporaries and, last, the lock file (while holding it).
    public func deleteAll(account: String) async throws { try await secrets.deleteAll(account: account) }

    /// Gives the account's password file the name of `new` (`accounts rename`), under the old file's lock.
    public func move(account old: String, to new: String) async throws { try await secrets.move(account: old, to: new) }
}

/// The URLs of secret-URL accounts (subscribed feeds, whose address carries a private token), kept as
/// passwords are: `feed-<name>.json`, 0600 in the 0700 home, atomic, under the account's lock; never
/// printed or logged.
public struct FileSecretURLStore: Sendable {
    public let home: CalbridgeHome
    public let files: SecureFile
    private var secrets: AccountSecretFiles {
        AccountSecretFiles(home: home, files: files, field: "url", kind: "feed", file: { [home] in home.secretURLFile(account: $0) })
    }

    public init(home: CalbridgeHome, files: SecureFile = SecureFile()) {
        self.home = home
        self.files = files
    }

    /// The account's URL, or nil when none is stored.
    /// - Throws: `StorageError` for a file open to others, not written by calbridge, or not holding a URL.
    public func load(account: String) throws -> URL? {
        guard let text = try secrets.load(account: account) else { return nil }
        guard let url = URL(string: text) else {
            let path = home.secretURLFile(account: account).path
            throw StorageError(
                .corrupt, path: path, message: "\(path) holds no URL; add the feed again with 'calbridge accounts add ics URL'")
        }
        return url
    }

    /// Stores the URL (replacing the file atomically) under the account's lock.
    public func save(_ url: URL, account: String) async throws { try await secrets.save(url.absoluteString, account: account) }

    /// Deletes the URL file, crashed writes' temporaries and, last, the lock file (while holding it).
    public func deleteAll(account: String) async throws { try await secrets.deleteAll(account: account) }

    /// Gives the account's URL file the name of `new` (`accounts rename`), under the old file's lock.
    public func move(account old: String, to new: String) async throws { try await secrets.move(account: old, to: new) }
}

/// One secret per account in a JSON file of its own (`{"<field>": "..."}`): the one implementation behind
/// the password and secret-URL stores.
struct AccountSecretFiles: Sendable {
    let home: CalbridgeHome
    let files: SecureFile
    /// The JSON member that holds the secret.
    let field: String
    /// What the secret is, in messages ("password").
    let kind: String
    let file: @Sendable (String) -> URL

    func load(account: String) throws -> String? {
        let url = file(account)
        guard let data = try files.read(url) else { return nil }
        guard let document = try? JSONDecoder().decode([String: String].self, from: data), let secret = document[field] else {
            throw StorageError(
                .corrupt, path: url.path,
                message: "\(url.path) is not a calbridge \(kind) file; sign in again with 'calbridge accounts add'"
            )
        }
        return secret
    }

    func save(_ secret: String, account: String) async throws {
        let url = file(account)
        let data = try JSONEncoder().encode([field: secret])
        try await withExclusiveAccess(account: account) { try files.write(data, to: url) }
    }

    func deleteAll(account: String) async throws {
        let url = file(account)
        let lock = FileLock.guarding(url)
        try await withExclusiveAccess(account: account) {
            try files.delete(url)
            unlink(lock.url.path)
        }
    }

    /// Gives the account's file the name of `new` (`accounts rename`), under the old file's lock.
    func move(account old: String, to new: String) async throws {
        try await FileTokenStore.move(file(old), to: file(new), files: files)
    }

    /// Holds `FileLock.guarding(file)`; temporaries of a crashed earlier write are removed first.
    private func withExclusiveAccess(account: String, _ body: @Sendable () throws -> Void) async throws {
        let url = file(account)
        try files.ensureDirectory(home.directory)
        let files = self.files
        try await FileLock.guarding(url).withLock(timeout: FileTokenStore.lockTimeout) {
            files.removeStaleTemporaries(of: url)
            try body()
        }
    }
}
