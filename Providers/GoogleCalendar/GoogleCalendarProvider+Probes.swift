import CalendarBridge
import Foundation
import HTTP

/// The copy engine's proof reads through Google's batch endpoint: `events.get` by id (404/410 or
/// `status: cancelled` is proof an event is gone), and for an occurrence the master by id with
/// `events.instances` over the occurrence's own time with `showDeleted=true`, which lists a cancelled
/// instance as such.
extension GoogleCalendarProvider {
    public func probeEvents(ids: [String], calendarID: String) async -> [EventProbe] {
        let calls = ids.map { GoogleBatchCodec.Call(method: .get, target: events(calendarID).segment($0)) }
        return await batchedGets(calls, calendarID: calendarID).map { answer in
            switch answer {
            case .failure(let error): return .unknown(error.description)
            case .success(let response):
                if response.status == 404 || response.status == 410 { return .gone }
                switch eventResult(response, calendarID: calendarID) {
                case .success(let event): return event.status == .cancelled ? .gone : .exists(event)
                case .failure(let error): return EventProbe.reading(error)
                }
            }
        }
    }

    public func probeOccurrences(_ queries: [OccurrenceQuery], calendarID: String) async -> [OccurrenceProbe] {
        var calls: [GoogleBatchCodec.Call] = []
        for query in queries {
            calls.append(.init(method: .get, target: events(calendarID).segment(query.seriesID)))
            calls.append(
                .init(
                    method: .get,
                    target: events(calendarID).segment(query.seriesID).path("instances")
                        .query("timeMin", RFC3339.format(query.range.start, in: queryZone))
                        .query("timeMax", RFC3339.format(query.range.end, in: queryZone))
                        .query("showDeleted", "true")
                        .query("maxResults", String(Self.eventsPageSize))))
        }
        let answers = await batchedGets(calls, calendarID: calendarID)
        return queries.enumerated().map { offset, query in
            switch answers[2 * offset] {
            case .failure(let error): return .unknown(error.description)
            case .success(let response):
                if response.status == 404 || response.status == 410 { return .seriesGone }
                switch eventResult(response, calendarID: calendarID) {
                case .success(let master) where master.status == .cancelled: return .seriesGone
                case .success: break
                case .failure(let error): return .unknown((error as? CalendarError)?.description ?? "\(error)")
                }
            }
            do {
                let response = try answers[2 * offset + 1].get()
                try check(response, calendar: calendarID)
                let page = try decode(GoogleEvents.self, response)
                let listed = try (page.items ?? []).map {
                    try GoogleEventMapping.event($0, calendarID: calendarID, calendarZone: page.timeZone)
                }
                let answer = OccurrenceProbe.answer(query, listed: listed)
                if case .cancelled = answer, page.nextPageToken != nil { return .unknown("the instance listing has more pages") }
                return answer
            } catch {
                return .unknown((error as? CalendarError)?.description ?? "\(error)")
            }
        }
    }

    /// GETs in batch requests (50 calls each), throttled calls sent again in a later batch.
    func batchedGets(_ calls: [GoogleBatchCodec.Call], calendarID: String) async -> [Result<HTTPResponse, CalendarError>] {
        var answers = [Result<HTTPResponse, CalendarError>?](repeating: nil, count: calls.count)
        var pending = Array(calls.indices)
        var round = 0
        while !pending.isEmpty && round < Self.maxBatchAttempts {
            round += 1
            let results = await sendBatches(pending.map { calls[$0] }, calendarID: calendarID, maxConcurrent: 4)
            var next: [Int] = []
            var delay: Double = 0
            for (index, result) in zip(pending, results) {
                let throttled: Double?? =
                    switch result {
                    case .failure(let error) where error.code == .rateLimited: .some(error.retryAfterSeconds)
                    case .success(let response) where !response.isSuccess:
                        {
                            let error = GoogleErrorMapping.error(for: response, account: account, calendar: calendarID)
                            return error.code == .rateLimited ? .some(error.retryAfterSeconds) : nil
                        }()
                    default: nil
                    }
                if let after = throttled, round < Self.maxBatchAttempts {
                    next.append(index)
                    delay = max(delay, after ?? Self.backoff(round))
                } else {
                    answers[index] = result
                }
            }
            pending = next
            if delay > 0, !pending.isEmpty { try? await Task.sleep(for: .milliseconds(Int(min(delay, 60) * 1000))) }
        }
        return answers.map {
            $0 ?? .failure(CalendarError(.rateLimited, "Google did not answer this read", provider: .google, account: account))
        }
    }
}
