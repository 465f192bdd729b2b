import Foundation

/// What the sandbox's CalDAV service keeps: each user's calendars, each calendar's resources exactly as
/// they were PUT, and the change numbers its ctag, ETags and sync tokens come from. Codable: the `--state`
/// snapshot.
struct CalDAVServiceState: Codable, Sendable {
    struct User: Codable, Sendable {
        var id: String
        var userName: String
        var password: String
        var displayName: String
        var calendars: [String: Calendar]
    }

    struct Calendar: Codable, Sendable {
        var id: String
        var name: String
        var color: String?
        var timeZone: String?
        var order: Int
        var readOnly: Bool
        /// Makes this collection's sync tokens its own (a token of another calendar is unknown here).
        var tokenKey: String
        /// The change number of the last write in this calendar: the ctag and the newest sync token.
        var version: Int
        /// Sync tokens older than this are refused (`expireSyncTokens`, a server's token age limit).
        var oldestToken: Int
        var resources: [String: Resource]
        /// Removed resources and the change that removed them (sync-collection reports them as 404).
        var removed: [String: Int]

        var ctag: String { "\(tokenKey)-\(version)" }
        func syncToken(_ version: Int) -> String { "http://calbridge.sandbox/ns/sync/\(tokenKey)-\(version)" }

        /// The change number a token of this calendar names, or nil when it is not one of its tokens or too old.
        func version(ofToken token: String) -> Int? {
            let prefix = "http://calbridge.sandbox/ns/sync/\(tokenKey)-"
            guard token.hasPrefix(prefix), let number = Int(token.dropFirst(prefix.count)), number >= oldestToken, number <= version
            else { return nil }
            return number
        }
    }

    struct Resource: Codable, Sendable {
        /// The iCalendar text as the client sent it (less X- properties where the service drops them).
        var text: String
        var uid: String
        var etag: String
        /// The change that wrote it.
        var version: Int
    }

    var users: [String: User]
}
