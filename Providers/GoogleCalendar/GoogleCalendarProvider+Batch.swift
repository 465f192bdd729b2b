import CalendarBridge
import Foundation
import HTTP
import JSON

/// Writes through Google's batch endpoint (`POST /batch/calendar/v3`): many inserts, patches and deletes
/// in one HTTP request. Each inner answer is judged exactly as the single call's would be: a 409 on an
/// insert with our deterministic id means an earlier attempt created it (adopted, or revived when it was
/// deleted since), 404/410 on a delete means done, rate-limited calls are sent again in a later batch.
extension GoogleCalendarProvider {
    /// Calls per batch request. Google allows 1000, but a batch counts as that many calls against the
    /// quota and large batches invite rate limiting; 50 keeps a throttled batch cheap to repeat.
    static let maxBatchCalls = 50
    /// Rounds a rate-limited call is sent before its error is reported.
    static let maxBatchAttempts = 5

    public func applyWrites(_ writes: [EventWrite], in calendarID: String, maxConcurrent: Int) async
        -> [EventWriteResult]
    {
        guard !writes.isEmpty else { return [] }
        var results = [EventWriteResult?](repeating: nil, count: writes.count)
        var pending: [PendingCall] = []
        for (index, write) in writes.enumerated() {
            do {
                pending.append(try firstCall(for: write, index: index, calendarID: calendarID))
            } catch {
                results[index] = .failure(error)
            }
        }
        while !pending.isEmpty {
            let answers = await sendBatches(pending.map(\.call), calendarID: calendarID, maxConcurrent: maxConcurrent)
            var next: [PendingCall] = []
            var delay: Double = 0
            for (call, answer) in zip(pending, answers) {
                switch judge(call, answer, calendarID: calendarID) {
                case .done(let result): results[call.index] = result
                case .then(let followUp): next.append(followUp)
                case .retry(let after):
                    next.append(call.retried())
                    delay = max(delay, after ?? Self.backoff(call.retries))
                }
            }
            pending = next
            if delay > 0, !pending.isEmpty { try? await Task.sleep(for: .milliseconds(Int(min(delay, 60) * 1000))) }
        }
        return results.map { $0 ?? .failure(CalendarError(.invalidResponse, "no outcome", provider: .google, account: account)) }
    }

    /// What a call is for, so its answer can be read.
    enum CallKind: Sendable {
        /// An insert; `id` is the deterministic id when there is one, `revive` the event whose patch body
        /// brings a deleted copy back (encoded only when that happens: most inserts never need it).
        case create(id: String?, revive: Event?)
        case update
        case delete(id: String)
        /// After a 409: fetch the event the earlier attempt created.
        case adopt(id: String, revive: Event?)
        /// The adopted event was deleted since: patch it back to confirmed.
        case revive
    }

    struct PendingCall: Sendable {
        var index: Int
        var kind: CallKind
        var call: GoogleBatchCodec.Call
        var retries = 0

        func retried() -> PendingCall {
            var copy = self
            copy.retries += 1
            return copy
        }
    }

    enum Judgement {
        case done(EventWriteResult)
        case then(PendingCall)
        case retry(after: Double?)
    }

    func firstCall(for write: EventWrite, index: Int, calendarID: String) throws -> PendingCall {
        switch write {
        case .create(let event, let key):
            let id = key?.googleEventID
            let body = try GoogleEventMapping.insertBody(for: event, id: id) ?? Self.json(GoogleEventMapping.body(for: event, id: id))
            let url = events(calendarID).query("sendUpdates", "none")
            return PendingCall(
                index: index, kind: .create(id: id, revive: id != nil ? event : nil),
                call: .init(method: .post, target: url, body: body, isRetrySafe: id != nil))
        case .update(let event, let fields):
            let body = try GoogleEventMapping.patchBody(for: event, fields: fields)
            let url = events(calendarID).segment(event.id).query("sendUpdates", "none")
            return PendingCall(index: index, kind: .update, call: .init(method: .patch, target: url, body: try Self.json(body)))
        case .delete(let id):
            let url = events(calendarID).segment(id).query("sendUpdates", "none")
            return PendingCall(index: index, kind: .delete(id: id), call: .init(method: .delete, target: url, body: nil))
        }
    }

    /// Reads one inner answer as the single call would.
    func judge(_ call: PendingCall, _ answer: Result<HTTPResponse, CalendarError>, calendarID: String) -> Judgement
    {
        let response: HTTPResponse
        switch answer {
        case .failure(let error):
            if error.code == .rateLimited && call.retries < Self.maxBatchAttempts - 1 {
                return .retry(after: error.retryAfterSeconds)
            }
            return .done(.failure(error))
        case .success(let r): response = r
        }
        if !response.isSuccess {
            let error = GoogleErrorMapping.error(for: response, account: account, calendar: calendarID)
            // Throttled calls were not carried out; server errors are repeated only where a repeat is harmless.
            let repeatable = error.code == .rateLimited || (error.code == .server && call.call.isRetrySafe)
            if repeatable && call.retries < Self.maxBatchAttempts - 1 { return .retry(after: error.retryAfterSeconds) }
        }
        switch call.kind {
        case .create(let id, let revive):
            if response.status == 409, let id {
                let url = events(calendarID).segment(id)
                return .then(PendingCall(index: call.index, kind: .adopt(id: id, revive: revive), call: .init(method: .get, target: url)))
            }
            return .done(eventResult(response, calendarID: calendarID).map(EventWriteOutcome.created))
        case .update:
            return .done(eventResult(response, calendarID: calendarID).map(EventWriteOutcome.updated))
        case .delete(let id):
            if response.isSuccess || response.status == 404 || response.status == 410 { return .done(.success(.deleted(id: id))) }
            return .done(.failure(GoogleErrorMapping.error(for: response, account: account, calendar: calendarID)))
        case .adopt(let id, let revive):
            let found = eventResult(response, calendarID: calendarID)
            guard case .success(let event) = found, event.status == .cancelled, let revive else {
                return .done(found.map(EventWriteOutcome.created))
            }
            let body: Data
            do {
                body = try Self.reviveBody(revive)
            } catch {
                return .done(.failure(error))
            }
            let url = events(calendarID).segment(id).query("sendUpdates", "none")
            return .then(PendingCall(index: call.index, kind: .revive, call: .init(method: .patch, target: url, body: body)))
        case .revive:
            return .done(eventResult(response, calendarID: calendarID).map(EventWriteOutcome.created))
        }
    }

    func eventResult(_ response: HTTPResponse, calendarID: String) -> Result<Event, any Error> {
        do {
            try check(response, calendar: calendarID)
            return .success(try decodeEvent(response, calendarID: calendarID))
        } catch {
            return .failure(error)
        }
    }

    /// Sends the calls in batches of `maxBatchCalls`, at most `maxConcurrent` batches at once; the answers
    /// come back in the calls' order.
    func sendBatches(_ calls: [GoogleBatchCodec.Call], calendarID: String, maxConcurrent: Int) async
        -> [Result<HTTPResponse, CalendarError>]
    {
        let chunks = stride(from: 0, to: calls.count, by: Self.maxBatchCalls).map {
            $0..<min($0 + Self.maxBatchCalls, calls.count)
        }
        return await mapConcurrently(chunks, limit: maxConcurrent) {
            await self.sendBatch(Array(calls[$0]), calendarID: calendarID)
        }.flatMap { $0 }
    }

    /// One batch request: every call's answer, or the batch's own failure for each of them.
    func sendBatch(_ calls: [GoogleBatchCodec.Call], calendarID: String) async -> [Result<HTTPResponse, CalendarError>] {
        if calls.count == 1, let only = calls.first {
            // A batch of one costs the same round trip and a larger body: send it plainly.
            return [await sendPlain(only, calendarID: calendarID)]
        }
        let boundary = "calbridge_" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let (body, contentType) = GoogleBatchCodec.encode(calls, boundary: boundary)
        let url = APIURL(base: baseURL).path("batch/calendar/v3").url
        var request = HTTPRequest(method: .post, url: url, headers: ["Content-Type": contentType], body: body)
        // Repeating the whole batch is harmless only when every call in it is.
        request.isRetrySafe = calls.allSatisfy(\.isRetrySafe)
        let failAll = { (error: CalendarError) in [Result<HTTPResponse, CalendarError>](repeating: .failure(error), count: calls.count) }
        let response: HTTPResponse
        do {
            response = try await transport.send(request)
        } catch let error as HTTPError {
            return failAll(CalendarError(.transport, error.description, provider: .google, account: account, calendar: calendarID))
        } catch {
            return failAll(CalendarError(.transport, "\(error)", provider: .google, account: account, calendar: calendarID))
        }
        guard response.isSuccess else {
            return failAll(GoogleErrorMapping.error(for: response, account: account, calendar: calendarID))
        }
        let parts: [String: HTTPResponse]
        do {
            parts = try GoogleBatchCodec.decode(response)
        } catch {
            return failAll(CalendarError(
                .invalidResponse, "unreadable Google batch answer: \(error)", provider: .google, account: account,
                calendar: calendarID))
        }
        return calls.indices.map { index in
            guard let part = parts[GoogleBatchCodec.contentID(index)] else {
                return .failure(CalendarError(
                    .invalidResponse, "the Google batch answer has no part for call \(index + 1)", provider: .google,
                    account: account, calendar: calendarID))
            }
            return .success(part)
        }
    }

    func sendPlain(_ call: GoogleBatchCodec.Call, calendarID: String) async -> Result<HTTPResponse, CalendarError> {
        var request = HTTPRequest(method: call.method, url: call.url, headers: ["Accept": "application/json"], body: call.body)
        if call.body != nil { request.headers["Content-Type"] = "application/json" }
        request.isRetrySafe = call.isRetrySafe && !call.method.isIdempotent
        do {
            return .success(try await transport.send(request))
        } catch let error as HTTPError {
            return .failure(CalendarError(.transport, error.description, provider: .google, account: account, calendar: calendarID))
        } catch {
            return .failure(CalendarError(.transport, "\(error)", provider: .google, account: account, calendar: calendarID))
        }
    }

    static func json(_ object: [String: Any]) throws -> Data {
        try SortedJSONWriter.data(object)
    }

    /// The patch that brings a deleted copy of `event` back: its fields, confirmed.
    static func reviveBody(_ event: Event) throws -> Data {
        var patch = try GoogleEventMapping.body(for: event, patching: true)
        patch["status"] = "confirmed"
        patch["id"] = nil
        return try json(patch)
    }

    /// Seconds before resending throttled calls that named no `Retry-After`.
    static func backoff(_ attempt: Int) -> Double { min(8, 0.5 * Double(1 << min(attempt, 4))) }
}
