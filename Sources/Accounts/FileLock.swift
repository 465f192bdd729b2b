import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An exclusive `flock(2)` on a lock file beside the file it guards, so that calbridge processes
/// sharing one home take turns: `accounts.json` read-modify-writes, and one account's token refresh.
///
/// The lock file is separate from the data file because data files are replaced by `rename`: a lock
/// on the old inode would guard nothing. Lock files are created 0600 and not deleted (deleting one
/// while another process waits on it would let two processes "hold" it), except by the removal of an
/// account (`FileTokenStore.deleteAll`), after which there is nothing left to guard. The lock is per open file
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

    /// Takes the lock without waiting and keeps it until the returned holder is released or deallocated
    /// (or the process ends): for a long-running process that must be the only one of its kind, such as
    /// `calbridge sync --watch`.
    /// - Returns: nil when another open file description holds the lock.
    public func holdWithoutWaiting() throws -> HeldFileLock? {
        let descriptor = try openLockFile()
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            let failure = errno
            close(descriptor)
            guard failure == EWOULDBLOCK else {
                throw StorageError(.io, path: url.path, message: "cannot lock \(url.path): \(String(cString: strerror(failure)))")
            }
            return nil
        }
        return HeldFileLock(descriptor: descriptor, url: url)
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

/// A `FileLock` held by this process until `release()` or deallocation. The lock file's content is the
/// holder's to use (a long-running holder writes its pid there, so a refused second one can name it).
public final class HeldFileLock: @unchecked Sendable {
    public let url: URL
    // Guarded by `lock`: closed (-1) once released.
    private var descriptor: Int32
    private let lock = NSLock()

    init(descriptor: Int32, url: URL) {
        self.descriptor = descriptor
        self.url = url
    }

    deinit { release() }

    /// Replaces the lock file's content with `text` (the lock stays held).
    public func write(_ text: String) throws {
        try lock.withLock {
            guard descriptor >= 0 else { return }
            guard ftruncate(descriptor, 0) == 0 else { throw failure("truncate") }
            var bytes = Array(text.utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeMutableBytes { raw in
                    pwrite(descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset, off_t(offset))
                }
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { throw failure("write") }
                offset += written
            }
            bytes.removeAll()
        }
    }

    /// Gives the lock up (the file stays, see `FileLock`).
    public func release() {
        lock.withLock {
            guard descriptor >= 0 else { return }
            flock(descriptor, LOCK_UN)
            close(descriptor)
            descriptor = -1
        }
    }

    private func failure(_ action: String) -> StorageError {
        StorageError(.io, path: url.path, message: "cannot \(action) \(url.path): \(String(cString: strerror(errno)))")
    }
}
