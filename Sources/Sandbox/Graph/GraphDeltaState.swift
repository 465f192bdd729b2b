import Foundation

/// What one `@odata.deltaLink` stands for: the calendar and window of its round, and the version of each item
/// the client has been given (Exchange keeps such a "sync state" per token; the token only names it).
struct GraphDeltaState: Codable, Sendable {
    var mailboxID: String
    var calendarID: String
    var start: Date
    var end: Date
    /// Item id (single event, occurrence or exception) → the fingerprint of the version last reported.
    var seen: [String: String]
    /// Issue order; the oldest states are dropped first when the cache is full.
    var generation: Int
}

/// The delta tokens the emulator remembers. Exchange keeps a bounded cache of sync states per mailbox (the
/// sync state is stored in the mailbox; "after the cache capacity is exceeded, the older delta tokens are
/// deleted"); so does this, and a dropped or unknown token answers 410 `SyncStateNotFound`. Per mailbox, so
/// that an organisation's thousand mailboxes do not push each other's tokens out.
struct GraphDeltaStore: Codable, Sendable {
    var states: [String: GraphDeltaState] = [:]
    var generation = 0

    /// Sync states kept per mailbox before its oldest is dropped.
    static let capacity = 256

    mutating func insert(_ state: GraphDeltaState, key: String) {
        states[key] = state
        let mailbox = state.mailboxID
        var mine = states.filter { $0.value.mailboxID == mailbox }
        while mine.count > GraphDeltaStore.capacity, let oldest = mine.min(by: { $0.value.generation < $1.value.generation })?.key {
            states[oldest] = nil
            mine[oldest] = nil
        }
    }
}

/// The pages of one delta round in progress (`@odata.nextLink` with `$skiptoken`), kept in memory only: a
/// skip token does not survive a restart of the sandbox, as a sync state generation does not survive
/// Exchange's maintenance.
struct GraphDeltaRound: Sendable {
    var mailboxID: String
    var values: [[String: SandboxJSON]]
    /// The delta token the round's last page hands out.
    var deltaToken: String
    var generation: Int
}
