import Foundation
import HTTP
import LoopbackServer

/// A local emulation of the Microsoft Graph v1.0 calendar API (`/v1.0/me`, calendars, events, calendarView,
/// instances, `$batch`), written from Graph's public reference: same paths (case-insensitive, as Graph's),
/// query options, JSON shapes, status codes and error bodies.
///
/// Requests need `Authorization: Bearer <token>`, checked with the injected validator; the token's user
/// selects the mailbox. At most `mailboxConcurrencyLimit` requests run at once per mailbox (Exchange's
/// MailboxConcurrency limit of 4); the next one gets 429 `ApplicationThrottled` with `Retry-After`.
package actor GraphEmulator: SandboxComponent {
    /// The seeded users (sign-in accounts), provider `.microsoft`.
    package nonisolated let users: [SandboxUser]

    let tokens: any SandboxAccessTokenValidator
    let now: @Sendable () -> Date
    let zoneNames: GraphTimeZoneNames
    let mailboxConcurrencyLimit: Int
    /// A test knob: each request holds its mailbox slot until this returns (nil: not held).
    let holdSlot: (@Sendable () async -> Void)?
    /// A test knob: writes (also inside `$batch`) whose body it accepts get 400 ErrorInvalidRequest.
    let refuseWrite: (@Sendable (_ body: Data) -> Bool)?
    /// A fault knob: PATCHes (also inside `$batch`) whose body and target (its `type`: singleInstance,
    /// seriesMaster, occurrence, exception) it accepts are answered 200 with the event as they would make it,
    /// and not applied: reported of Graph, an occurrence's PATCH answered as done while every later read
    /// showed the event as before (microsoft-graph-docs #12141, once in 15 tries).
    let ignoreUpdate: (@Sendable (_ body: Data, _ type: String) -> Bool)?
    /// Whether a change of a series master's subject, body, location, free/busy state or reminder reaches its
    /// exceptions that did not change that field themselves. Exchange stores of an exception only what was
    /// changed in it, the rest coming from its series (MS-OXOCAL's override flags), but what Graph shows of
    /// an exception after its series changes is documented nowhere: off (the default), an exception keeps
    /// the content it had, as Google's do; the sync model runs under both.
    let exceptionsFollowSeries: Bool
    /// Every change (a write, a restore) bumps `stateVersion`, which invalidates `viewCache`.
    var state: GraphState { didSet { stateVersion &+= 1 } }
    /// The invitation mails Exchange would have sent: one to every attendee of each new event.
    package internal(set) var sentInvitations: [SandboxInvitation] = []

    package func sentMails() -> [SandboxInvitation] { sentInvitations }
    var stateVersion = 0
    /// Expanded, filtered and sorted calendarView results of the current state version, so paging through a
    /// view does not expand and sort the whole calendar again for every page.
    var viewCache: [GraphViewKey: [GraphStoredEvent]] = [:]
    var viewCacheVersion = 0
    /// Requests in progress per mailbox id.
    var inFlight: [String: Int] = [:]
    /// Requests per mailbox and app in the current window (oldest first).
    var requestTimes: [String: [Date]] = [:]
    let mailboxRequestLimit: Int
    let mailboxRequestWindow: TimeInterval
    var zoneCache: [String: TimeZone] = [:]
    /// Where each mailbox is in `state.mailboxes`, by id and by lowercased id, address or UPN: a request finds its
    /// mailbox without comparing against every other (an organisation has thousands). Built at init and restore,
    /// the only times the list of mailboxes changes; checked on use.
    var mailboxPositions = GraphMailboxPositions()
    /// Work counted where it could grow with the number of mailboxes (tests: an idle request's must not).
    package internal(set) var work = GraphEmulatorWork()
    /// calendarView delta rounds being paged through (`$skiptoken`), by round key.
    var deltaRounds: [String: GraphDeltaRound] = [:]

    /// - Parameters:
    ///   - seed: the Microsoft seed document (`Fixtures/sandbox/microsoft.json`; format described there).
    ///   - tokens: checks bearer tokens; `.valid(user:)` names the mailbox by e-mail address.
    ///   - now: the clock (seed times are relative to its current week; created/modified stamps).
    ///   - timeZoneNames: Windows ↔ IANA conversion; `.common` is a small stopgap table.
    ///   - mailboxConcurrencyLimit: concurrent requests allowed per mailbox (Graph: 4).
    ///   - mailboxRequestLimit: requests allowed per mailbox and app in `mailboxRequestWindow` seconds (Outlook:
    ///     10,000 in 600).
    ///   - holdSlot: awaited by each request while it holds its mailbox slot (a test knob: a gate makes
    ///     concurrency deterministic where a sleep depends on the machine's load).
    ///   - ignoreUpdate: PATCHes whose body it accepts are answered as done and not applied (`ignoreUpdate`).
    ///   - exceptionsFollowSeries: a master's changed fields reach the exceptions that kept them
    ///     (`exceptionsFollowSeries`).
    /// - Throws: `GraphSeedError` when the seed is malformed.
    package init(
        seed: Data,
        tokens: any SandboxAccessTokenValidator,
        now: @escaping @Sendable () -> Date = { Date() },
        timeZoneNames: GraphTimeZoneNames = .common,
        mailboxConcurrencyLimit: Int = 4,
        mailboxRequestLimit: Int = 10_000,
        mailboxRequestWindow: TimeInterval = 600,
        holdSlot: (@Sendable () async -> Void)? = nil,
        refuseWrite: (@Sendable (_ body: Data) -> Bool)? = nil,
        ignoreUpdate: (@Sendable (_ body: Data, _ type: String) -> Bool)? = nil,
        exceptionsFollowSeries: Bool = false
    ) throws {
        let state = try GraphSeed.load(seed, now: now(), zones: timeZoneNames)
        self.state = state
        self.users = state.mailboxes.map { SandboxUser(provider: .microsoft, email: $0.mail, displayName: $0.displayName) }
        self.tokens = tokens
        self.now = now
        self.zoneNames = timeZoneNames
        self.mailboxConcurrencyLimit = mailboxConcurrencyLimit
        self.mailboxRequestLimit = mailboxRequestLimit
        self.mailboxRequestWindow = mailboxRequestWindow
        self.holdSlot = holdSlot
        self.refuseWrite = refuseWrite
        self.ignoreUpdate = ignoreUpdate
        self.exceptionsFollowSeries = exceptionsFollowSeries
        self.mailboxPositions = GraphMailboxPositions(state.mailboxes)
    }

    /// The default seed compiled into the module.
    package static var defaultSeed: Data { Data(PackageResources.microsoft_json) }

    // MARK: SandboxComponent

    package func handle(_ request: ServerRequest) async -> ServerResponse? {
        guard let first = request.pathSegments.first, first.caseInsensitiveCompare("v1.0") == .orderedSame else { return nil }
        let requestID = UUID().uuidString.lowercased()
        let clientRequestID = request.headers["client-request-id"] ?? requestID
        var response: ServerResponse
        do throws(GraphError) {
            let caller = try await authenticate(request)
            let rest = Array(request.pathSegments.dropFirst())
            if rest.count == 1, rest[0].caseInsensitiveCompare("$batch") == .orderedSame {
                guard request.method == "POST" else { throw GraphError.methodNotAllowed }
                response = try await batch(request, caller: caller)
            } else {
                response = try await perform(
                    method: request.method, segments: rest, query: request.query, headers: request.headers, body: request.body,
                    caller: caller)
            }
        } catch {
            return error.response(requestID: requestID, clientRequestID: clientRequestID, date: now())
        }
        response.headers["request-id"] = requestID
        response.headers["client-request-id"] = clientRequestID
        return response
    }

    package func snapshot() async throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(state)
    }

    package func restore(_ snapshot: Data) async throws {
        state = try JSONDecoder().decode(GraphState.self, from: snapshot)
        mailboxPositions = GraphMailboxPositions(state.mailboxes)
    }

    // MARK: Authentication and the per-mailbox slot

    /// The mailbox id for the request's bearer token, or Graph's 401.
    func authenticate(_ request: ServerRequest) async throws(GraphError) -> GraphCaller {
        let header = request.headers["Authorization"] ?? ""
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].caseInsensitiveCompare("Bearer") == .orderedSame else {
            throw GraphError.emptyToken
        }
        let token = String(parts[1]).trimmingCharacters(in: .whitespaces)
        guard !token.isEmpty else { throw GraphError.emptyToken }
        switch await tokens.check(accessToken: token, provider: .microsoft) {
        case .valid(let user):
            guard
                let index = mailboxPositions.index(
                    named: user, in: state.mailboxes, compared: &work.mailboxesCompared, where: { [$0.mail] })
            else {
                throw GraphError(status: 404, code: "MailboxNotEnabledForRESTAPI",
                                 message: "The mailbox is either inactive, soft-deleted, or is hosted on-premise.")
            }
            return .user(mailboxID: state.mailboxes[index].id)
        case .application(let clientId, let scope):
            return .application(clientId: clientId, mailboxScope: scope)
        case .expired:
            throw GraphError.expiredToken
        case .invalid:
            throw token.contains(".") ? GraphError.invalidToken : GraphError.malformedToken
        }
    }

    /// Runs one request while holding one of the mailbox's concurrency slots, within the mailbox's request
    /// budget (per app, as Outlook counts it).
    func perform(
        method: String, segments: [String], query: [ServerRequest.QueryItem], headers: HTTPHeaders, body: Data, caller: GraphCaller
    ) async throws(GraphError) -> ServerResponse {
        let mailboxID = try mailboxID(of: caller, segments: segments)
        try countRequest(mailboxID: mailboxID, app: caller.app)
        let running = inFlight[mailboxID, default: 0]
        guard running < mailboxConcurrencyLimit else { throw GraphError.mailboxConcurrency() }
        inFlight[mailboxID] = running + 1
        if let holdSlot { await holdSlot() }
        defer { inFlight[mailboxID, default: 1] -= 1 }
        if method != "GET", let refuseWrite, refuseWrite(body) {
            throw GraphError.invalidRequest("The sandbox was told to refuse this write.")
        }
        let context = GraphRequestContext(method: method, segments: segments, query: query, headers: headers,
                                          body: body, mailboxID: mailboxID)
        return try route(context)
    }

    /// The mailbox a request works on: the signed-in user's, or for an app-only token the one its path names
    /// (`/users/{id or userPrincipalName}`), which must be inside the app's RBAC scope.
    func mailboxID(of caller: GraphCaller, segments: [String]) throws(GraphError) -> String {
        switch caller {
        case .user(let mailboxID):
            return mailboxID
        case .application(_, let scope):
            guard let head = segments.first else { throw GraphError.badRequest("Invalid request.") }
            if head.caseInsensitiveCompare("me") == .orderedSame {
                throw GraphError.badRequest("/me request is only valid with delegated authentication flow.")
            }
            guard head.caseInsensitiveCompare("users") == .orderedSame, segments.count >= 2 else {
                throw GraphError.segmentNotFound(head)
            }
            let who = segments[1]
            guard
                let index = mailboxPositions.index(
                    named: who, in: state.mailboxes, compared: &work.mailboxesCompared, where: { [$0.id, $0.userPrincipalName, $0.mail] })
            else {
                throw GraphError(status: 404, code: "ErrorInvalidUser", message: "The requested user '\(who)' is invalid.")
            }
            let mailbox = state.mailboxes[index]
            if let scope, !scope.contains(mailbox.mail.lowercased()), !scope.contains(mailbox.userPrincipalName.lowercased()) {
                throw GraphError.outsideApplicationScope
            }
            return mailbox.id
        }
    }

    /// Counts a request against the mailbox's budget for this app (`mailboxRequestLimit` in
    /// `mailboxRequestWindow`, Outlook's 10,000 in 10 minutes); past it, 429 with the seconds until the oldest
    /// counted request leaves the window.
    func countRequest(mailboxID: String, app: String) throws(GraphError) {
        let key = mailboxID + "|" + app
        let time = now()
        let cutoff = time.addingTimeInterval(-mailboxRequestWindow)
        // In place: a copy of a busy mailbox's times per request would cost as much as all of them.
        let live = requestTimes[key, default: []].firstIndex { $0 > cutoff } ?? requestTimes[key, default: []].count
        if live > 0 { requestTimes[key, default: []].removeFirst(live) }
        let counted = requestTimes[key, default: []]
        guard counted.count < mailboxRequestLimit else {
            let wait = max(1, Int((counted[0].timeIntervalSince(cutoff)).rounded(.up)))
            throw GraphError.mailboxRequestLimit(retryAfter: wait)
        }
        requestTimes[key, default: []].append(time)
    }

    // MARK: Helpers shared by the endpoint extensions

    func mailboxIndex(_ id: String) throws(GraphError) -> Int {
        work.mailboxesCompared += 1
        if let index = mailboxPositions.byID[id], state.mailboxes.indices.contains(index), state.mailboxes[index].id == id {
            return index
        }
        guard let index = state.mailboxes.firstIndex(where: { $0.id == id }) else {
            work.mailboxesCompared += state.mailboxes.count
            throw GraphError.itemNotFound
        }
        work.mailboxesCompared += index + 1
        return index
    }

    /// The tz zone for a Graph zone name (cached), or `TimeZoneNotSupportedException`.
    func zone(named name: String) throws(GraphError) -> TimeZone {
        if let cached = zoneCache[name] { return cached }
        guard let zone = zoneNames.zone(named: name) else { throw GraphError.timeZoneNotSupported(name) }
        zoneCache[name] = zone
        return zone
    }

    /// A fresh change key (Exchange's are base64; ours are too).
    func newChangeKey() -> String {
        var bytes = [UInt8](repeating: 0, count: 12)
        for i in bytes.indices { bytes[i] = UInt8.random(in: 0...255) }
        return Data(bytes).base64EncodedString()
    }

    func jsonResponse(_ status: Int, _ object: [String: SandboxJSON], headers: HTTPHeaders = [:]) -> ServerResponse {
        // The shared hand-written writer: JSONSerialization made a 999-event calendarView page take ~0.45 s on
        // Linux (dynamic casts and bridging), the writer takes a few milliseconds.
        GraphEmulator.jsonResponse(status, body: SandboxJSON.object(object).serialized(), headers: headers)
    }

    static func jsonResponse(_ status: Int, body data: Data, headers: HTTPHeaders = [:]) -> ServerResponse {
        var headers = headers
        headers["Content-Type"] = "application/json;odata.metadata=minimal;odata.streaming=true;IEEE754Compatible=false;charset=utf-8"
        return ServerResponse(status: status, headers: headers, body: data)
    }
}

/// Where each mailbox is in the emulator's list, by id and by every name a request may give it (lowercased).
struct GraphMailboxPositions: Sendable {
    private(set) var byID: [String: Int] = [:]
    private var byName: [String: [Int]] = [:]

    init() {}

    init(_ mailboxes: [GraphMailbox]) {
        for (index, mailbox) in mailboxes.enumerated() {
            byID[mailbox.id] = index
            for name in Set([mailbox.id, mailbox.userPrincipalName, mailbox.mail].map { $0.lowercased() }) {
                byName[name, default: []].append(index)
            }
        }
    }

    /// The first mailbox, in list order, one of whose `names` equals `name` ignoring case, as a scan of the list
    /// would find it; `compared` counts the mailboxes it compared `name` with.
    func index(named name: String, in mailboxes: [GraphMailbox], compared: inout Int, where names: (GraphMailbox) -> [String]) -> Int? {
        for index in byName[name.lowercased()] ?? [] where mailboxes.indices.contains(index) {
            compared += 1
            if names(mailboxes[index]).contains(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) { return index }
        }
        // Not indexed under its lowercase form (a name whose case folds differently): the full scan.
        for index in mailboxes.indices {
            compared += 1
            if names(mailboxes[index]).contains(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) { return index }
        }
        return nil
    }
}

/// Work the Graph emulator did for its requests, counted where it could grow with the number of mailboxes: a
/// machine-independent measure, so that a test can tell that an idle request costs the same with ten mailboxes
/// as with thousands (the organisation benchmark runs 2,000 in one process).
package struct GraphEmulatorWork: Sendable, Equatable {
    /// Mailboxes compared with a request's id, address or UPN to find its own.
    package var mailboxesCompared = 0
    /// Delta sync states looked at (kept, moved or dropped) to issue a delta token.
    package var deltaStatesVisited = 0

    /// The work done since `earlier`.
    package func since(_ earlier: GraphEmulatorWork) -> GraphEmulatorWork {
        GraphEmulatorWork(
            mailboxesCompared: mailboxesCompared - earlier.mailboxesCompared,
            deltaStatesVisited: deltaStatesVisited - earlier.deltaStatesVisited)
    }
}

/// Who sent a request: a signed-in user (delegated token), or an app with an app-only token.
enum GraphCaller: Sendable {
    case user(mailboxID: String)
    case application(clientId: String, mailboxScope: Set<String>?)

    /// Whose budget a request counts against, beside its mailbox's.
    var app: String {
        switch self {
        case .user: "delegated"
        case .application(let clientId, _): clientId
        }
    }
}

/// One request inside the emulator (a top-level request or a `$batch` step), after authentication.
struct GraphRequestContext: Sendable {
    var method: String
    /// Path segments after `v1.0`.
    var segments: [String]
    var query: [ServerRequest.QueryItem]
    var headers: HTTPHeaders
    var body: Data
    var mailboxID: String

    /// The last value of a query option; `$`-options also match without the `$`, case-insensitively, as Graph's.
    func option(_ name: String) -> String? {
        let bare = name.hasPrefix("$") ? String(name.dropFirst()) : name
        return query.last {
            $0.name.caseInsensitiveCompare(name) == .orderedSame
                || (name.hasPrefix("$") && $0.name.caseInsensitiveCompare(bare) == .orderedSame)
        }?.value
    }

    /// `http://host` of this sandbox, for `@odata.context` and `@odata.nextLink`.
    var baseURL: String { "http://" + (headers["Host"] ?? "127.0.0.1") + "/v1.0" }
}

/// What a calendarView result depends on besides the store: the calendar, the window, the zone all-day
/// events are anchored in, `$filter` and `$orderby`.
struct GraphViewKey: Hashable {
    var mailboxID: String
    var calendarID: String
    var start: Date
    var end: Date
    var zone: String
    var filter: String?
    var order: String?
}
