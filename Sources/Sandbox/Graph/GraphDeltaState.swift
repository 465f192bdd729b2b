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
///
/// The bookkeeping is per mailbox too (each mailbox's tokens oldest first), so that issuing a token costs the
/// same with one mailbox or ten thousand: no request looks at another mailbox's states.
struct GraphDeltaStore: Codable, Sendable {
    private(set) var states: [String: GraphDeltaState] = [:]
    var generation = 0
    /// Each mailbox's tokens, oldest first (derived from `states`; not persisted).
    private var tokensByMailbox: [String: [String]] = [:]

    /// Sync states kept per mailbox before its oldest is dropped.
    static let capacity = 256

    init() {}

    /// Keeps `state` under `key`, dropping its mailbox's oldest past `capacity`.
    /// - Returns: the sync states it looked at (the new one, any it replaced or dropped): the emulator's work count.
    @discardableResult
    mutating func insert(_ state: GraphDeltaState, key: String) -> Int {
        var visited = 1
        if let replaced = states.updateValue(state, forKey: key) {
            visited += tokensByMailbox[replaced.mailboxID]?.count ?? 0
            tokensByMailbox[replaced.mailboxID]?.removeAll { $0 == key }
        }
        tokensByMailbox[state.mailboxID, default: []].append(key)
        // Tokens are issued in generation order, so the first of a mailbox's list is its oldest.
        while let mine = tokensByMailbox[state.mailboxID], mine.count > GraphDeltaStore.capacity {
            visited += 1
            states[mine[0]] = nil
            tokensByMailbox[state.mailboxID]?.removeFirst()
        }
        return visited
    }

    /// Forgets every token (Exchange dropped the sync states).
    mutating func removeAll() {
        states = [:]
        tokensByMailbox = [:]
    }

    private enum CodingKeys: String, CodingKey {
        case states, generation
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        states = try container.decode([String: GraphDeltaState].self, forKey: .states)
        generation = try container.decode(Int.self, forKey: .generation)
        for (key, state) in states.sorted(by: { $0.value.generation < $1.value.generation }) {
            tokensByMailbox[state.mailboxID, default: []].append(key)
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(states, forKey: .states)
        try container.encode(generation, forKey: .generation)
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
