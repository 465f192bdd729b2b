import Foundation

extension SecureFile {
    /// Read-modify-write of a small 0600 document (`accounts.json`, `sync-pairs.json`) under its lock
    /// (`FileLock.guarding(url)`), so that two processes changing it at once keep both changes: the home
    /// `directory` checked (created 0700 if missing), temporaries of a crashed earlier write removed, the
    /// value read, changed, and written only when it differs.
    /// - Parameters:
    ///   - read: the document's current value (its "no file yet" value when there is none).
    ///   - write: writes a changed value whole (through `write(_:to:)`).
    ///   - always: write even when `change` left the value as it was (rewrites the file in the current format).
    ///   - change: edits the value; its result is returned.
    public func update<Value: Equatable, Result>(
        _ url: URL, in directory: URL, always: Bool = false, read: () throws -> Value, write: (Value) throws -> Void,
        change: (inout Value) throws -> Result
    ) throws -> Result {
        try ensureDirectory(directory)
        return try FileLock.guarding(url).withLock {
            removeStaleTemporaries(of: url)
            var value = try read()
            let before = value
            let result = try change(&value)
            if always || value != before { try write(value) }
            return result
        }
    }
}
