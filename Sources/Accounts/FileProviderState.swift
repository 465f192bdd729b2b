import Foundation
import ProviderSeam

#if canImport(Glibc)
import Glibc
#endif

/// A provider's own state for one account (`ProviderStateStore`) as files in calbridge's home:
/// `state-<account>.<item>`, 0600 in the 0700 home, each replaced atomically (`SecureFile`) under the
/// account's state lock, so that two processes never see half a write.
public struct FileProviderState: ProviderStateStore {
    public let home: CalbridgeHome
    public let account: String
    let files: SecureFile

    public init(home: CalbridgeHome, account: String, files: SecureFile = SecureFile()) {
        self.home = home
        self.account = account
        self.files = files
    }

    /// An item's file; items are the provider's own fixed names, anything else in them is escaped.
    func file(_ item: String) -> URL {
        let safe = item.unicodeScalars.map { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == ".") ? String($0) : "_" }
            .joined()
        return home.providerStateFile(account: account, item: safe)
    }

    public func load(_ item: String) throws -> Data? { try files.read(file(item)) }

    public func save(_ data: Data, as item: String) async throws {
        let url = file(item)
        try files.ensureDirectory(home.directory)
        let files = self.files
        try await lock.withLock(timeout: FileTokenStore.lockTimeout) {
            files.removeStaleTemporaries(of: url)
            try files.write(data, to: url)
        }
    }

    public func removeAll() async throws {
        let directory = home.directory
        guard FileManager.default.fileExists(atPath: directory.path) else { return }
        let prefix = home.providerStateFile(account: account, item: "").lastPathComponent
        let files = self.files
        let lock = self.lock
        try await lock.withLock(timeout: FileTokenStore.lockTimeout) {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] where name.hasPrefix(prefix) {
                try files.delete(directory.appendingPathComponent(name))
            }
            unlink(lock.url.path)
        }
    }

    /// Gives every state item the account name `new` (`accounts rename`), under the old name's lock.
    public func move(to new: String) async throws {
        let directory = home.directory
        guard FileManager.default.fileExists(atPath: directory.path) else { return }
        let prefix = home.providerStateFile(account: account, item: "").lastPathComponent
        let renamed = FileProviderState(home: home, account: new, files: files)
        let lock = self.lock
        try await lock.withLock(timeout: FileTokenStore.lockTimeout) {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            where name.hasPrefix(prefix) && name != lock.url.lastPathComponent {
                let item = String(name.dropFirst(prefix.count))
                guard rename(directory.appendingPathComponent(name).path, renamed.file(item).path) == 0 else {
                    throw StorageError(.io, path: directory.appendingPathComponent(name).path, message: "could not rename \(name)")
                }
            }
            unlink(lock.url.path)
        }
    }

    /// One lock for all of the account's state items.
    private var lock: FileLock { FileLock.guarding(home.providerStateFile(account: account, item: "lock")) }
}
