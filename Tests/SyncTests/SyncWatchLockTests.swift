import Accounts
import Foundation
import Testing
import TestSupport

@testable import Sync

/// One watcher per home: the second is refused with the first one's pid, and the lock is free again once
/// the first lets go.
@Suite("Sync watcher lock")
struct SyncWatchLockTests {
    @Test("a second watcher is refused, naming the first one's pid; after release a new one starts")
    func secondWatcher() throws {
        let temp = try TemporaryDirectory(prefix: "calbridge-watch-lock")
        defer { temp.remove() }
        let home = CalbridgeHome(directory: temp.url.appendingPathComponent("home"))
        let first = try SyncWatchLock.acquire(home: home, pid: 4242)
        do {
            _ = try SyncWatchLock.acquire(home: home, pid: 4343)
            Issue.record("the second watcher got the lock")
        } catch let error as SyncWatcherRunning {
            #expect(error.pid == 4242)
            #expect(error.description.contains("pid 4242"))
        }
        first.release()
        let second = try SyncWatchLock.acquire(home: home, pid: 4343)
        #expect(try String(contentsOf: home.syncWatchLock, encoding: .utf8) == "4343\n")
        let mode = try FileManager.default.attributesOfItem(atPath: home.syncWatchLock.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        second.release()
    }
}
