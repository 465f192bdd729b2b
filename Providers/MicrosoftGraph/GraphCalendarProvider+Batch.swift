import CalendarBridge
import Foundation
import HTTP
import JSON

/// Writes through Graph JSON batching (`POST /v1.0/$batch`, learn.microsoft.com/graph/json-batching): up to
/// 20 requests in one HTTP request, answers matched by `id`. Each inner answer is judged as the single call's
/// would be (409 on a create with our `transactionId`: look the event up; 404/410 on a delete: done), and
/// per-item 429s are sent again after their `Retry-After`, alone.
///
/// Concurrency: Graph evaluates its MailboxConcurrency limit (4 requests per mailbox) per inner request, and
/// runs the inner requests of a batch in parallel unless `dependsOn` orders them. The documented orderings
/// are "parallel", "serial" (each request depends on the one before) and "same"; only "serial" bounds what
/// one batch runs at once. So every batch is one serial chain: one inner request runs at a time, and a batch
/// takes one of the provider's 4 limiter permits like any request, so at most 4 inner requests run per
/// mailbox in total. The price: when an inner request fails, Graph answers the rest of its chain 424
/// (Failed Dependency) without running them; those are sent again in the next round, which costs one more
/// round trip only when something failed.
extension GraphCalendarProvider {
    /// Graph's limit on requests per `$batch`.
    static let maxBatchRequests = 20
    /// Rounds a throttled request is sent before its error is reported.
    static let maxBatchAttempts = 5

    public func applyWrites(_ writes: [EventWrite], in calendarID: String, maxConcurrent: Int) async
        -> [EventWriteResult]
    {
        guard !writes.isEmpty else { return [] }
        var results = [EventWriteResult?](repeating: nil, count: writes.count)
        var pending: [PendingStep] = []
        for (index, write) in writes.enumerated() {
            do {
                pending.append(try firstStep(for: write, index: index, calendarID: calendarID))
            } catch {
                results[index] = .failure(error)
            }
        }
        while !pending.isEmpty {
            let answers = await sendBatches(pending.map(\.step), calendarID: calendarID)
            var next: [PendingStep] = []
            var delay: Double = 0
            for (step, answer) in zip(pending, answers) {
                switch judge(step, answer, calendarID: calendarID) {
                case .done(let result): results[step.index] = result
                case .then(let followUp): next.append(followUp)
                case .notRun: next.append(step)
                case .retry(let after):
                    var again = step
                    again.retries += 1
                    next.append(again)
                    delay = max(delay, after ?? Self.backoff(step.retries))
                }
            }
            pending = next
            if delay > 0, !pending.isEmpty { try? await Task.sleep(for: .milliseconds(Int(min(delay, 60) * 1000))) }
        }
        return results.map { $0 ?? .failure(CalendarError(.invalidResponse, "no outcome", provider: .microsoft, account: account)) }
    }

    /// One inner request, before ids are given.
    struct BatchStep: Sendable {
        var method: HTTPMethod
        /// Relative to `/v1.0`, starting with `/` (`/me/calendars/{id}/events`).
        var url: String
        var body: Data?
    }

    enum StepKind: Sendable {
        /// A create; `event` and `key` are kept to recover from `ErrorDuplicateTransactionId`.
        case create(transactionID: String?, event: Event, key: IdempotencyKey?, attempt: Int)
        /// After `ErrorDuplicateTransactionId`: is there a copy with this marker already?
        case findByMarker(event: Event, key: IdempotencyKey, attempt: Int)
        case update
        case delete(id: String)
        /// After a 409 on a create: find the event by its transaction id.
        case find
    }

    struct PendingStep: Sendable {
        var index: Int
        var kind: StepKind
        var step: BatchStep
        var retries = 0
    }

    enum StepJudgement {
        case done(EventWriteResult)
        case then(PendingStep)
        /// 424: a request before it in the chain failed, so it never ran.
        case notRun
        case retry(after: Double?)
    }

    func firstStep(for write: EventWrite, index: Int, calendarID: String) throws -> PendingStep {
        switch write {
        case .create(let event, let key):
            return try createStep(event, key: key, attempt: 0, index: index, calendarID: calendarID)
        case .update(let event, let fields):
            let body = try withContext(calendarID) { () throws(CalendarError) in try mapping.body(for: event, fields: fields) }
            return PendingStep(
                index: index, kind: .update,
                step: BatchStep(method: .patch, url: relative(mailboxRoot.path("events").segment(event.id)), body: try Self.json(body)))
        case .delete(let id):
            return PendingStep(
                index: index, kind: .delete(id: id),
                step: BatchStep(method: .delete, url: relative(mailboxRoot.path("events").segment(id)), body: nil))
        }
    }

    /// Most creates with derived transaction ids one copy goes through (the user deleted it that often).
    static let maxTransactionSuccessors = 8

    func createStep(_ event: Event, key: IdempotencyKey?, attempt: Int, index: Int, calendarID: String) throws -> PendingStep {
        let transactionID = key?.transactionID
        let body = try withContext(calendarID) { () throws(CalendarError) in
            try mapping.body(for: event, transactionID: transactionID)
        }
        return PendingStep(
            index: index, kind: .create(transactionID: transactionID, event: event, key: key, attempt: attempt),
            step: BatchStep(method: .post, url: relative(calendar(calendarID).path("events")), body: try Self.json(body)))
    }

    /// The lookup of a create's copies by its origin marker (`ErrorDuplicateTransactionId` recovery).
    func markerLookupURL(_ event: Event, calendarID: String) -> APIURL? {
        guard let origin = event.origin else { return nil }
        let lookup = OriginLookup.event(origin)
        let id = GraphEventMapping.propertyID(lookup.property)
        return calendar(calendarID).path("events")
            .query("$filter", "singleValueExtendedProperties/Any(ep: ep/id eq '\(Self.quoted(id))' and ep/value eq '\(Self.quoted(lookup.value))')")
            .query("$expand", Self.expandProperties)
    }

    /// Exchange's answer to a create whose `transactionId` belonged to an event since deleted.
    static func isDuplicateTransaction(_ response: HTTPResponse) -> Bool {
        response.status == 400 && response.bodyText.contains("ErrorDuplicateTransactionId")
    }

    func judge(_ step: PendingStep, _ answer: Result<HTTPResponse, CalendarError>, calendarID: String) -> StepJudgement {
        let response: HTTPResponse
        switch answer {
        case .failure(let error):
            if error.code == .rateLimited && step.retries < Self.maxBatchAttempts - 1 { return .retry(after: error.retryAfterSeconds) }
            return .done(.failure(error))
        case .success(let r): response = r
        }
        if response.status == 424 { return .notRun }
        if !response.isSuccess {
            let error = GraphErrorMapping.error(for: response, account: account, calendar: calendarID)
            let repeatable = error.code == .rateLimited || (error.code == .server && response.status != 500)
            if repeatable && step.retries < Self.maxBatchAttempts - 1 { return .retry(after: error.retryAfterSeconds) }
        }
        switch step.kind {
        case .create(let transactionID, let event, let key, let attempt):
            if Self.isDuplicateTransaction(response), let key, attempt < Self.maxTransactionSuccessors,
                let url = markerLookupURL(event, calendarID: calendarID)
            {
                // The copy this id once created was deleted: find a live copy by marker, else create anew.
                return .then(PendingStep(
                    index: step.index, kind: .findByMarker(event: event, key: key, attempt: attempt),
                    step: BatchStep(method: .get, url: relative(url))))
            }
            if response.status == 409, let transactionID {
                let url = calendar(calendarID).path("events")
                    .query("$filter", "transactionId eq '\(Self.quoted(transactionID))'")
                    .query("$expand", Self.expandProperties)
                return .then(PendingStep(index: step.index, kind: .find, step: BatchStep(method: .get, url: relative(url))))
            }
            return .done(eventResult(response, calendarID: calendarID).map(EventWriteOutcome.created))
        case .update:
            return .done(eventResult(response, calendarID: calendarID).map(EventWriteOutcome.updated))
        case .delete(let id):
            if response.isSuccess || response.status == 404 || response.status == 410 { return .done(.success(.deleted(id: id))) }
            return .done(.failure(checked(response, calendarID: calendarID)))
        case .findByMarker(let event, let key, let attempt):
            do {
                try check(response, calendar: calendarID, writing: false)
                let found = try decode(GraphCollection<GraphEvent>.self, response).value
                if let first = found.first(where: { $0.seriesMasterId == nil }) {
                    return .done(.success(.created(try map([first], calendarID: calendarID)[0])))
                }
                return .then(try createStep(event, key: key.successor, attempt: attempt + 1, index: step.index, calendarID: calendarID))
            } catch {
                return .done(.failure(error))
            }
        case .find:
            do {
                try check(response, calendar: calendarID, writing: false)
                let found = try decode(GraphCollection<GraphEvent>.self, response).value
                guard let first = found.first else {
                    return .done(.failure(CalendarError(
                        .conflict, "Graph refused the create as a repeat, but no event has its transaction id",
                        provider: .microsoft, account: account, calendar: calendarID, httpStatus: 409)))
                }
                return .done(.success(.created(try map([first], calendarID: calendarID)[0])))
            } catch {
                return .done(.failure(error))
            }
        }
    }

    func checked(_ response: HTTPResponse, calendarID: String) -> any Error {
        do {
            try check(response, calendar: calendarID, writing: true)
            return CalendarError(.invalidResponse, "unexpected HTTP \(response.status)", provider: .microsoft, account: account)
        } catch {
            return error
        }
    }

    func eventResult(_ response: HTTPResponse, calendarID: String) -> Result<Event, any Error> {
        do {
            try check(response, calendar: calendarID, writing: true)
            return .success(try map([decode(GraphEvent.self, response)], calendarID: calendarID)[0])
        } catch {
            return .failure(error)
        }
    }

    /// Sends the steps in batches of 20, all at once: the provider's limiter lets 4 run.
    func sendBatches(_ steps: [BatchStep], calendarID: String, perBatch: Int = maxBatchRequests) async -> [Result<HTTPResponse, CalendarError>] {
        let size = max(1, min(perBatch, Self.maxBatchRequests))
        let chunks = stride(from: 0, to: steps.count, by: size).map {
            $0..<min($0 + size, steps.count)
        }
        return await mapConcurrently(chunks, limit: chunks.count) {
            await self.sendBatch(Array(steps[$0]), calendarID: calendarID)
        }.flatMap { $0 }
    }

    /// One `$batch`: ids are positions ("1", "2", ...), each depending on the one before (see above).
    func sendBatch(_ steps: [BatchStep], calendarID: String) async -> [Result<HTTPResponse, CalendarError>] {
        var requests: [[String: Any]] = []
        for (offset, step) in steps.enumerated() {
            var request: [String: Any] = ["id": String(offset + 1), "method": step.method.rawValue, "url": step.url]
            var headers = ["Prefer": preferHeader]
            // A step's body is JSON this provider wrote (`json(_:)`): spliced in as it is, not parsed again.
            if let body = step.body {
                request["body"] = SortedJSONWriter.Fragment(body)
                headers["Content-Type"] = "application/json"
            }
            request["headers"] = headers
            if offset > 0 { request["dependsOn"] = [String(offset)] }
            requests.append(request)
        }
        let failAll = { (error: CalendarError) in
            [Result<HTTPResponse, CalendarError>](repeating: .failure(error), count: steps.count)
        }
        let response: HTTPResponse
        do {
            // Every step is safe to repeat (creates carry a transactionId, patches and deletes are idempotent).
            response = try await send(.post, api.path("$batch").url, json: ["requests": requests], calendar: calendarID, retrySafe: true)
        } catch let error as CalendarError {
            return failAll(error)
        } catch {
            return failAll(CalendarError(.transport, "\(error)", provider: .microsoft, account: account, calendar: calendarID))
        }
        guard response.isSuccess else {
            return failAll(GraphErrorMapping.error(for: response, account: account, calendar: calendarID))
        }
        guard let byID = Self.batchAnswers(response.body) else {
            return failAll(CalendarError(
                .invalidResponse, "unreadable Graph $batch answer", provider: .microsoft, account: account,
                calendar: calendarID, httpStatus: response.status))
        }
        return steps.indices.map { offset in
            guard let answer = byID[String(offset + 1)] else {
                return .failure(CalendarError(
                    .invalidResponse, "the Graph $batch answer has no response for request \(offset + 1)",
                    provider: .microsoft, account: account, calendar: calendarID))
            }
            return .success(answer)
        }
    }

    /// The answers of a `$batch` response body by request id; nil when it is not `{"responses": [...]}`.
    /// Answers without a string id or a status in 100...599 are left out (their request then has no answer).
    static func batchAnswers(_ data: Data) -> [String: HTTPResponse]? {
        // Read by hand, each body passed on as the bytes it came in: JSONSerialization parsing the whole
        // answer and writing every body again was 16% of a 10,000-event first sync's CPU (perf).
        var reader = JSONReader(data)
        var byID: [String: HTTPResponse]?
        do {
            try reader.beginObject()
            while let key = try reader.nextKey() {
                guard case "responses" = key, try reader.nextKind() == .array else {
                    try reader.skipValue()
                    continue
                }
                var answers: [String: HTTPResponse] = [:]
                try reader.beginArray()
                while try reader.nextElement() {
                    if let (id, response) = try batchAnswer(&reader) { answers[id] = response }
                }
                byID = answers
            }
            try reader.end()
        } catch {
            return nil
        }
        return byID
    }

    /// One element of `responses`: nil (skipped, so its request counts as unanswered) without a string id
    /// or with a status outside 100-599.
    private static func batchAnswer(_ reader: inout JSONReader) throws(JSONReader.Error) -> (String, HTTPResponse)? {
        var id: String?
        var status: Int?
        var headers: [(String, String)] = []
        var body = Data()
        try reader.beginObject()
        while let key = try reader.nextKey() {
            switch (key, try reader.nextKind()) {
            case ("id", .string): id = try reader.string()
            case ("status", .number): status = try? reader.int()
            case ("headers", .object):
                try reader.beginObject()
                while let name = try reader.nextKey() {
                    switch try reader.nextKind() {
                    case .string: headers.append((name.string, try reader.string()))
                    case .number, .bool: headers.append((name.string, String(decoding: try reader.rawValue(), as: UTF8.self)))
                    default: try reader.skipValue()
                    }
                }
            case ("body", .string):
                // Non-JSON bodies come base64-encoded.
                let text = try reader.string()
                body = Data(base64Encoded: text) ?? Data(text.utf8)
            case ("body", .object), ("body", .array): body = try reader.rawValue()
            default: try reader.skipValue()
            }
        }
        guard let id, let status, (100...599).contains(status) else { return nil }
        var fields = HTTPHeaders()
        for (name, value) in headers.sorted(by: { $0.0 < $1.0 }) { fields.add(name: name, value: value) }
        return (id, HTTPResponse(status: status, headers: fields, body: body))
    }

    /// Several events by id through `$batch` (20 per request instead of one request each), in the order of
    /// `ids`. A single id is fetched plainly. Throws the first failure.
    func getEvents(ids: [String], calendarID: String) async throws -> [Event] {
        try map(try await getGraphEvents(ids: ids, calendarID: calendarID), calendarID: calendarID)
    }

    /// `getEvents(ids:calendarID:)` unmapped: the events as Graph answers them.
    func getGraphEvents(ids: [String], calendarID: String) async throws -> [GraphEvent] {
        if ids.count <= 1 { return try await ids.asyncMap { try await getGraphEvent(id: $0, calendarID: calendarID) } }
        let steps = ids.map { id in
            BatchStep(method: .get, url: relative(mailboxRoot.path("events").segment(id).query("$expand", Self.expandProperties)))
        }
        var events: [GraphEvent] = []
        for (id, answer) in zip(ids, await sendBatches(steps, calendarID: calendarID)) {
            switch answer {
            case .failure(let error): throw error
            case .success(let response) where response.status == 424 || response.status == 429:
                // Not run, or throttled: fetch this one alone (the transport's retry honours Retry-After).
                events.append(try await getGraphEvent(id: id, calendarID: calendarID))
            case .success(let response):
                try check(response, calendar: calendarID, writing: false)
                events.append(try decode(GraphEvent.self, response))
            }
        }
        return events
    }

    /// A URL of this provider as `$batch` wants it: relative to `/v1.0`.
    func relative(_ url: APIURL) -> String {
        let full = url.text
        let prefix = api.text
        return full.hasPrefix(prefix) ? String(full.dropFirst(prefix.count)) : full
    }

    static func json(_ object: [String: Any]) throws -> Data {
        try SortedJSONWriter.data(object)
    }

    /// Seconds before resending throttled requests that named no `Retry-After`.
    static func backoff(_ attempt: Int) -> Double { min(8, 0.5 * Double(1 << min(attempt, 4))) }
}

extension Array {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var out: [T] = []
        for element in self { out.append(try await transform(element)) }
        return out
    }
}
