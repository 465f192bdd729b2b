import Foundation
import OAuth
#if canImport(Glibc)
import Glibc
#endif

/// Reads and writes calbridge's private files: directories 0700, files 0600, writes atomic.
///
/// A write goes to a temporary file in the same directory (created 0600 with `O_EXCL`), is synced,
/// renamed over the target, and the directory is synced. A crash at any point leaves either the old
/// or the new file, never a partial one. Anything with group or other permission bits is refused.
public struct SecureFile: Sendable {
    /// The steps of an atomic write, for crash tests.
    public enum WriteStep: String, Sendable, CaseIterable {
        case tempCreated, dataWritten, dataSynced, renamed, directorySynced
    }

    /// Called after each step; returning false stops the write right there, as if the process had
    /// died (nothing is cleaned up). Only tests set it.
    public var crashHook: (@Sendable (WriteStep) -> Bool)?

    public init(crashHook: (@Sendable (WriteStep) -> Bool)? = nil) {
        self.crashHook = crashHook
    }

    /// The error a write stopped by `crashHook` throws.
    public struct SimulatedCrash: Error, Sendable, Equatable {
        public var step: WriteStep
    }

    // MARK: - Directories

    /// Creates the directory (and parents) if needed, 0700; refuses an existing one open to others.
    public func ensureDirectory(_ url: URL) throws {
        let path = url.path
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw StorageError(.io, path: path, message: "\(path) exists but is not a directory")
            }
            try checkPermissions(path, mode: info.st_mode, isDirectory: true)
            return
        }
        let parent = url.deletingLastPathComponent()
        if parent.path != path, !FileManager.default.fileExists(atPath: parent.path) {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        }
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
            throw StorageError(.io, path: path, message: "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        // mkdir honours the umask, which can only remove bits; make it exactly 0700.
        chmod(path, 0o700)
    }

    // MARK: - Reading

    /// The file's contents, or nil when it does not exist. Refuses a file open to others.
    public func read(_ url: URL) throws -> Data? {
        let path = url.path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw StorageError(.io, path: path, message: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw StorageError(.io, path: path, message: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        try checkPermissions(path, mode: info.st_mode, isDirectory: false)
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw StorageError(.io, path: path, message: "cannot read \(path): \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        return data
    }

    // MARK: - Writing

    /// Replaces the file's contents atomically, mode 0600.
    /// - Parameter privateDirectory: true: the directory is made (or checked to be) 0700, as calbridge's own
    ///   files need; false: a user's directory (`export --output`), which must exist and is left as it is.
    public func write(_ data: Data, to url: URL, privateDirectory: Bool = true) throws {
        let directory = url.deletingLastPathComponent()
        if privateDirectory { try ensureDirectory(directory) }
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(Base64URL.random(bytes: 9)).tmp").path
        let path = url.path

        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ioError("create a temporary file for", path) }
        var open = true
        var renamed = false
        defer {
            if open { close(descriptor) }
        }
        func stop(_ step: WriteStep) throws {
            if let crashHook, !crashHook(step) {
                // A simulated crash: leave everything as a dead process would.
                throw SimulatedCrash(step: step)
            }
        }
        do {
            fchmod(descriptor, 0o600)
            try stop(.tempCreated)
            var offset = 0
            let bytes = [UInt8](data)
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
                if written < 0 {
                    if errno == EINTR { continue }
                    throw ioError("write", path)
                }
                offset += written
            }
            try stop(.dataWritten)
            guard fsync(descriptor) == 0 else { throw ioError("sync", path) }
            try stop(.dataSynced)
            close(descriptor)
            open = false
            guard rename(temporary, path) == 0 else { throw ioError("replace", path) }
            renamed = true
            try stop(.renamed)
            syncDirectory(directory.path)
            try stop(.directorySynced)
        } catch let crash as SimulatedCrash {
            throw crash
        } catch {
            if !renamed { unlink(temporary) }
            throw error
        }
    }

    /// Deletes the temporary files a crashed write of `url` left behind (`.<name>.<random>.tmp`).
    /// Call it only while holding the lock every writer of `url` takes (`FileLock.guarding(url)`): then
    /// no live writer can own such a file. Returns how many were removed.
    @discardableResult
    public func removeStaleTemporaries(of url: URL) -> Int {
        let directory = url.deletingLastPathComponent()
        let prefix = ".\(url.lastPathComponent)."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return 0 }
        var removed = 0
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            // Exactly one random part (no dot), so that another file's temporaries never match
            // (`.tokens-a.json.json.X.tmp` is not a temporary of `tokens-a.json`).
            let middle = name.dropFirst(prefix.count).dropLast(4)
            guard !middle.isEmpty, !middle.contains(".") else { continue }
            if unlink(directory.appendingPathComponent(name).path) == 0 { removed += 1 }
        }
        if removed > 0 { syncDirectory(directory.path) }
        return removed
    }

    /// Deletes the file (no error when it is already gone) and syncs its directory.
    public func delete(_ url: URL) throws {
        guard unlink(url.path) == 0 || errno == ENOENT else { throw ioError("delete", url.path) }
        syncDirectory(url.deletingLastPathComponent().path)
    }

    // MARK: - Helpers

    private func syncDirectory(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    private func checkPermissions(_ path: String, mode: mode_t, isDirectory: Bool) throws {
        guard mode & 0o077 != 0 else { return }
        let octal = String(mode & 0o777, radix: 8)
        let fix = isDirectory ? "chmod 700 \(path)" : "chmod 600 \(path)"
        throw StorageError(
            .loosePermissions, path: path,
            message: "\(path) is readable or writable by others (mode \(octal)); calbridge keeps tokens there, so fix it with: \(fix)"
        )
    }

    private func ioError(_ action: String, _ path: String) -> StorageError {
        StorageError(.io, path: path, message: "cannot \(action) \(path): \(String(cString: strerror(errno)))")
    }
}
