import Foundation
import HTTP
import LoopbackServer

/// `GET .../calendarView/delta`: Graph's change tracking over a calendar view, as the `event: delta` reference
/// and "Get incremental changes to events in a calendar view" describe it.
///
/// - The first request names the window (`startDateTime`, `endDateTime`); every later one only follows the
///   `@odata.nextLink` (`$skiptoken`) or `@odata.deltaLink` (`$deltatoken`) it was given, which carry the window.
/// - A round reports single events, occurrences and exceptions, never series masters; a changed series
///   reports its occurrences. What left the view since the token (deleted, cancelled, moved out of the
///   window) comes as `{"id": ..., "@removed": {"reason": "deleted"}}`.
/// - Pages hold `Prefer: odata.maxpagesize` items (sent again on every page; 10 without it). A page has a
///   next link or a delta link, never both.
/// - `$expand` fails as Graph fails it; `$filter`, `$orderby`, `$search`, `$top` and `$skip` are refused
///   (ErrorInvalidUrlQuery, worded as Graph's change-tracking refusal); `$select` is ignored: the reference
///   says a delta returns every property a calendarView would.
/// - An unknown, dropped or expired token answers 410 `SyncStateNotFound`, as Exchange does.
extension GraphEmulator {
    /// Delta rounds kept for paging before the oldest is dropped.
    static let deltaRoundCapacity = 16

    func calendarViewDelta(_ context: GraphRequestContext, calendarID: String?) throws(GraphError) -> ServerResponse {
        try Self.checkDeltaOptions(context)
        let mailbox = state.mailboxes[try mailboxIndex(context.mailboxID)]
        var plain = context
        plain.query.removeAll { ["$select", "select"].contains($0.name.lowercased()) }
        let options = try renderOptions(plain)
        let pageSize = GraphQuery.preferences(context.headers)["odata.maxpagesize"].flatMap { Int($0) }

        if let skipToken = context.option("$skiptoken") {
            guard let (roundKey, offset) = Self.decodeSkipToken(skipToken), let round = deltaRounds[roundKey],
                  round.mailboxID == mailbox.id, offset <= round.values.count else {
                throw syncStateNotFound(skipToken)
            }
            return deltaPage(round, key: roundKey, offset: offset, pageSize: pageSize, context: context, options: options)
        }

        let calendar: GraphCalendar
        let window: (start: Date, end: Date)
        var previous: GraphDeltaState?
        if let deltaToken = context.option("$deltatoken") {
            guard let known = state.delta?.states[deltaToken], known.mailboxID == mailbox.id else {
                throw syncStateNotFound(deltaToken)
            }
            guard let found = mailbox.calendar(id: known.calendarID) else { throw GraphError.itemNotFound }
            calendar = found
            window = (known.start, known.end)
            previous = known
        } else {
            calendar = try targetCalendar(mailbox, calendarID)
            window = try timeWindow(context)
            guard window.end > window.start else {
                throw GraphError.invalidParameter("EndDateTime", context.option("endDateTime") ?? "")
            }
        }

        let events = try viewEvents(plain, mailbox: mailbox, calendar: calendar, window: window, options: options)
        var seen: [String: String] = [:]
        var values: [[String: SandboxJSON]] = []
        for event in events {
            let fingerprint = Self.deltaFingerprint(event)
            seen[event.id] = fingerprint
            if previous?.seen[event.id] != fingerprint { values.append(render(event, mailbox: mailbox, options: options)) }
        }
        for id in (previous?.seen.keys).map(Array.init)?.sorted() ?? [] where seen[id] == nil {
            values.append(["@odata.type": "#microsoft.graph.event", "id": .string(id), "@removed": ["reason": "deleted"]])
        }

        // In place: a copy of the store (every mailbox's states) per request would cost as much as all of them.
        if state.delta == nil { state.delta = GraphDeltaStore() }
        state.delta!.generation += 1
        let generation = state.delta!.generation
        let deltaToken = "\(generation)." + GraphEmulator.base64URL(UUID())
        let issued = GraphDeltaState(
            mailboxID: mailbox.id, calendarID: calendar.id, start: window.start, end: window.end, seen: seen, generation: generation)
        work.deltaStatesVisited += state.delta!.insert(issued, key: deltaToken)

        let roundKey = GraphEmulator.base64URL(UUID())
        let round = GraphDeltaRound(mailboxID: mailbox.id, values: values, deltaToken: deltaToken, generation: generation)
        deltaRounds[roundKey] = round
        while deltaRounds.count > GraphEmulator.deltaRoundCapacity,
              let oldest = deltaRounds.min(by: { $0.value.generation < $1.value.generation })?.key {
            deltaRounds[oldest] = nil
        }
        return deltaPage(round, key: roundKey, offset: 0, pageSize: pageSize, context: context, options: options)
    }

    /// A sandbox switch: forgets every delta token and round in progress, so the next use of any of them
    /// answers 410 `SyncStateNotFound` (what a client sees after Exchange drops its sync state).
    package func expireDeltaTokens() {
        state.delta?.removeAll()
        deltaRounds = [:]
    }

    // MARK: Pieces

    func deltaPage(_ round: GraphDeltaRound, key: String, offset: Int, pageSize: Int?, context: GraphRequestContext,
                   options: GraphRenderOptions) -> ServerResponse {
        let size = min(max(pageSize ?? GraphQuery.defaultPageSize, 1), GraphQuery.maximumPageSize)
        let end = min(offset + size, round.values.count)
        let path = context.baseURL + "/" + context.segments.map(FormEncoding.percentEncode).joined(separator: "/")
        var body: [String: SandboxJSON] = [
            "@odata.context": .string(context.baseURL + "/$metadata#Collection(event)"),
            "value": .array(round.values[offset..<end].map { .object($0) }),
        ]
        if end < round.values.count {
            body["@odata.nextLink"] = .string(path + "?$skiptoken=" + Self.skipToken(round: key, offset: end))
        } else {
            body["@odata.deltaLink"] = .string(path + "?$deltatoken=" + FormEncoding.percentEncode(round.deltaToken))
        }
        var applied = ["odata.track-changes"] + options.applied
        if let pageSize { applied.append("odata.maxpagesize=\(min(max(pageSize, 1), GraphQuery.maximumPageSize))") }
        return jsonResponse(200, body, headers: ["Preference-Applied": applied.joined(separator: ", ")])
    }

    /// What makes a reported version differ: the item's change key (an occurrence carries its master's) and
    /// its times (an occurrence's change with its series' pattern).
    static func deltaFingerprint(_ event: GraphStoredEvent) -> String {
        "\(event.changeKey)|\(event.start.timeIntervalSince1970)|\(event.end.timeIntervalSince1970)|\(event.isAllDay)"
    }

    static func checkDeltaOptions(_ context: GraphRequestContext) throws(GraphError) {
        if context.option("$expand") != nil {
            // What Graph answers (reported against the .NET SDK, msgraph-sdk-dotnet#2678).
            throw GraphError.badRequest("Parsing OData Select and Expand failed: Value cannot be null. (Parameter 'initialState')")
        }
        let refused = ["$filter", "$orderby", "$search", "$top", "$skip"].filter { context.option($0) != nil }
        if !refused.isEmpty {
            throw GraphError(status: 400, code: "ErrorInvalidUrlQuery",
                             message: "The following parameters are not supported with change tracking over the 'CalendarView' "
                                 + "resource: '\(refused.joined(separator: ", "))'.")
        }
    }

    func syncStateNotFound(_ token: String) -> GraphError {
        let generation = token.split(separator: ".").first.flatMap { Int($0) } ?? 0
        let highest = state.delta?.generation ?? 0
        return GraphError(status: 410, code: "SyncStateNotFound",
                          message: "The sync state generation is not found; generation=\(generation);[highest=\(highest)].")
    }

    static func skipToken(round: String, offset: Int) -> String { round + "." + String(offset) }

    static func decodeSkipToken(_ token: String) -> (String, Int)? {
        guard let dot = token.lastIndex(of: "."), let offset = Int(token[token.index(after: dot)...]), offset >= 0 else {
            return nil
        }
        return (String(token[..<dot]), offset)
    }
}
