import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An exclusive `flock(2)` on a lock file beside the file it guards, so that calbridge processes
/// sharing one home take turns: `accounts.json` read-modify-writes, and one account's token refresh.
///
/// The lock file is separate from the data file because data files are replaced by `rename`: a lock
/// on the old inode would guard nothing. Lock files are created 0600 and never deleted (deleting one
/// while another process waits on it would let two processes "hold" it). The lock is per open file
/// description, so it also orders two sessions of the same account inside one process.
public struct FileLock: Sendable {
    /// The lock file.
    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    /// The lock guarding `file`: `.<name>.lock` in the same directory.
    public static func guarding(_ file: URL) -> FileLock {
        FileLock(url: file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).lock"))
    }

    /// Runs `body` holding the lock, waiting (blocking this thread) for it. For short critical sections
    /// with no network in them, such as a read-modify-write of `accounts.json`.
    public func withLock<T>(_ body: () throws -> T) throws -> T {
        let descriptor = try openLockFile()
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw error("lock") }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// Runs `body` holding the lock, polling for it without blocking a thread (the holder may be this
    /// process, waiting for the same cooperative pool). For critical sections that talk to a server.
    /// - Parameter timeout: how long to wait for another holder before giving up with a `StorageError`.
    public func withLock<T: Sendable>(
        timeout: Duration, _ body: @Sendable () async throws -> T
    ) async throws -> T {
        let descriptor = try openLockFile()
        defer { close(descriptor) }
        let deadline = ContinuousClock.now + timeout
        var pause = Duration.milliseconds(2)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { throw error("lock") }
            guard ContinuousClock.now < deadline else {
                throw StorageError(
                    .io, path: url.path,
                    message: "another calbridge process has held \(url.path) for over \(timeout.components.seconds) s; if none is running, try again"
                )
            }
            try await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(25))
        }
        defer { flock(descriptor, LOCK_UN) }
        return try await body()
    }

    private func openLockFile() throws -> Int32 {
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw error("open the lock file") }
        return descriptor
    }

    private func error(_ action: String) -> StorageError {
        StorageError(.io, path: url.path, message: "cannot \(action) \(url.path): \(String(cString: strerror(errno)))")
    }
}
