import Accounts
import CalbridgeSupport
import CalendarBridge
import Foundation
import ICalendar

/// `import --prune`: which events an earlier import of the same file put on the same calendar, and the
/// removal of those gone from the file now.
///
/// Copies of every imported file carry the same source identity (UIDs are unique across files), so a
/// copy does not tell which file it came from. Each import of a file path therefore records the UIDs it
/// read (`import-<digest>.json` in calbridge's home, 0600, keyed by the file's absolute path and the target
/// calendar); `--prune` removes the copies of UIDs in that record that the file no longer has, and nothing
/// of any other file.
struct ImportPrune {
    let home: CalbridgeHome
    /// The file's absolute path.
    let path: String
    /// The target calendar as `account:id`.
    let target: String

    private struct Record: Codable {
        var file: String
        var target: String
        var uids: [String]
    }

    var recordFile: URL {
        home.directory.appendingPathComponent("import-\(SHA256.hex(target + "\n" + path).prefix(32)).json")
    }

    /// The UIDs the last recorded import of this file into this calendar read, or nil when none is recorded.
    func previousUIDs() throws -> Set<String>? {
        guard let data = try SecureFile().read(recordFile) else { return nil }
        guard let record = try? JSONDecoder().decode(Record.self, from: data) else { return nil }
        return Set(record.uids)
    }

    /// Records the UIDs of `file` (single events and series) as this file's last import into this calendar.
    func record(_ file: ICalendarFile) throws {
        let uids = file.events.filter { $0.seriesID == nil }.map(\.id).sorted()
        let data = try JSONEncoder().encode(Record(file: path, target: target, uids: uids))
        try SecureFile().ensureDirectory(home.directory)
        try FileLock.guarding(recordFile).withLock { try SecureFile().write(data, to: recordFile) }
    }

    /// The copies among `copies` (all copies of imported files on the target) of UIDs in `previous` that are
    /// not in `file`: a single event's or series' copy, or an occurrence copied singly (`UID_<start>`).
    static func gone(_ copies: [Event], previous: Set<String>, file: ICalendarFile) -> [Event] {
        let current = Set(file.events.map { $0.seriesID ?? $0.id })
        let goneUIDs = previous.subtracting(current)
        guard !goneUIDs.isEmpty else { return [] }
        return copies.filter { copy in
            guard copy.seriesID == nil, let eventID = copy.origin?.eventID else { return false }
            if goneUIDs.contains(eventID) { return true }
            guard let underscore = eventID.lastIndex(of: "_") else { return false }
            return goneUIDs.contains(String(eventID[..<underscore]))
        }
    }
}
