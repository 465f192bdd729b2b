import Accounts
import Foundation

extension CalbridgeHome {
    /// The lock a `sync --watch` holds while it runs (its content is the holder's pid).
    public var syncWatchLock: URL { directory.appendingPathComponent("sync-watch.lock") }
}

/// Another watcher already runs on this home.
public struct SyncWatcherRunning: Error, Sendable, CustomStringConvertible {
    /// The running watcher's process id, when its lock file names one.
    public var pid: Int32?
    public var lockFile: String

    public var description: String {
        let who = pid.map { "pid \($0)" } ?? "another process"
        return "a sync watcher is already running on this calbridge home (\(who), lock \(lockFile)); "
            + "stop it first (kill \(pid.map(String.init) ?? "<pid>")) or use another CALBRIDGE_HOME"
    }
}

/// The one-watcher-per-home rule: `sync --watch` takes this lock (`flock`, so a crashed watcher never
/// leaves it taken) and writes its pid into it; a second watcher is refused, naming that pid.
public enum SyncWatchLock {
    /// Takes the home's watcher lock for as long as the returned holder lives.
    /// - Throws: `SyncWatcherRunning` when another process holds it; `StorageError` when the file cannot be used.
    public static func acquire(home: CalbridgeHome, pid: Int32 = getpid()) throws -> HeldFileLock {
        try SecureFile().ensureDirectory(home.directory)
        let url = home.syncWatchLock
        guard let held = try FileLock(url: url).holdWithoutWaiting() else {
            throw SyncWatcherRunning(pid: holder(of: url), lockFile: url.path)
        }
        try held.write("\(pid)\n")
        return held
    }

    /// The pid in a lock file, if it holds one. The holder writes it right after taking the lock, so a
    /// refused watcher reads a few times before it settles for "another process".
    static func holder(of url: URL) -> Int32? {
        for attempt in 0..<20 {
            if let text = try? String(contentsOf: url, encoding: .utf8),
                let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0
            {
                return pid
            }
            if attempt < 19 { usleep(10_000) }
        }
        return nil
    }
}
