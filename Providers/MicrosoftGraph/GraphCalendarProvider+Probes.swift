import CalendarBridge
import Foundation
import HTTP

/// The copy engine's proof reads through `$batch`: `GET /me/events/{id}` (404/410 or `isCancelled` is
/// proof an event is gone), and for an occurrence the master read by id with `GET /me/events/{master}/
/// instances` over the occurrence's own time (the master exists and the listing answers without the
/// occurrence: it is cancelled). Graph v1.0 documents no list of a master's cancelled occurrences
/// (`cancelledOccurrences` was taken out of the v1.0 reference again, microsoft-graph-docs #14928); when an
/// answer carries one anyway it is not needed, since the instance listing already decides.
extension GraphCalendarProvider {
    /// Rounds of `$batch` in a row that answer nothing (all throttled) before the remaining reads are
    /// reported unknown. A round that answers anything does not count: a failed read (404 is an answer here,
    /// but Graph treats it as a failure) makes the rest of its serial chain answer 424, so reads of many
    /// deleted events take a round per failure and chain.
    static let maxStalledProbeRounds = 5

    public func probeEvents(ids: [String], calendarID: String) async -> [EventProbe] {
        let urls = ids.map { relative(mailboxRoot.path("events").segment($0).query("$expand", Self.expandProperties)) }
        let answers = await batchedGets(urls, calendarID: calendarID)
        return answers.map { answer in
            switch answer {
            case .failure(let error): return .unknown(error.description)
            case .success(let response): return probe(response, calendarID: calendarID)
            }
        }
    }

    public func probeOccurrences(_ queries: [OccurrenceQuery], calendarID: String) async -> [OccurrenceProbe] {
        var urls: [String] = []
        for query in queries {
            urls.append(relative(mailboxRoot.path("events").segment(query.seriesID).query("$select", "id,isCancelled,recurrence")))
            urls.append(
                relative(
                    mailboxRoot.path("events").segment(query.seriesID).path("instances")
                        .query("startDateTime", RFC3339.formatUTC(query.range.start))
                        .query("endDateTime", RFC3339.formatUTC(query.range.end))
                        .query("$top", String(Self.pageSize))
                        .query("$expand", Self.expandProperties)))
        }
        let answers = await batchedGets(urls, calendarID: calendarID)
        return queries.enumerated().map { offset, query in
            let master = answers[2 * offset]
            let instances = answers[2 * offset + 1]
            // The master's recurrence zone dates its all-day instances (`GraphEventMapping.seriesZone`).
            var seriesZones: [String: TimeZone] = [:]
            switch master {
            case .failure(let error): return .unknown(error.description)
            case .success(let response):
                if response.status == 404 || response.status == 410 { return .seriesGone }
                do {
                    try check(response, calendar: calendarID, writing: false)
                    let head = try decode(GraphEvent.Head.self, response)
                    if head.isCancelled == true { return .seriesGone }
                    if let zone = mapping.namedZone(head.recurrence?.range.recurrenceTimeZone.flatMap { $0.isEmpty ? nil : $0 }) {
                        seriesZones[query.seriesID] = zone
                    }
                } catch {
                    return .unknown((error as? CalendarError)?.description ?? "\(error)")
                }
            }
            do {
                let response = try instances.get()
                try check(response, calendar: calendarID, writing: false)
                let page = try decode(GraphCollection<GraphEvent>.self, response)
                // A listing cut short is no proof of absence.
                let listed = try map(page.value, calendarID: calendarID, seriesZones: seriesZones)
                let answer = OccurrenceProbe.answer(query, listed: listed)
                if case .cancelled = answer, page.nextLink != nil { return .unknown("the instance listing has more pages") }
                return answer
            } catch {
                return .unknown((error as? CalendarError)?.description ?? "\(error)")
            }
        }
    }

    /// A read by id's answer as proof: 404/410 or a cancelled event is gone; 200 exists; anything else
    /// is unknown.
    func probe(_ response: HTTPResponse, calendarID: String) -> EventProbe {
        if response.status == 404 || response.status == 410 { return .gone }
        do {
            try check(response, calendar: calendarID, writing: false)
            let g = try decode(GraphEvent.self, response)
            if g.isCancelled == true { return .gone }
            return .exists(try map([g], calendarID: calendarID)[0])
        } catch {
            return EventProbe.reading(error)
        }
    }

    /// GETs through `$batch` (20 per request, the provider's 4 permits), each answered once: requests
    /// that did not run (424 after an earlier failure in the chain) or were throttled go again, spread over
    /// as many chains as the permits run at once (a chain advances past one failure a round; reads that
    /// prove deletions fail, and 39 of them in two chains of 20 took 25 rounds).
    func batchedGets(_ urls: [String], calendarID: String) async -> [Result<HTTPResponse, CalendarError>] {
        var answers = [Result<HTTPResponse, CalendarError>?](repeating: nil, count: urls.count)
        var pending = Array(urls.indices)
        var round = 0
        var stalled = 0
        while !pending.isEmpty && stalled < Self.maxStalledProbeRounds {
            round += 1
            let steps = pending.map { BatchStep(method: .get, url: urls[$0], body: nil) }
            // The first round as few batches as will do (nothing has failed yet); later ones in as many chains
            // as run at once.
            let perChain = (pending.count + Self.maxConcurrentRequests - 1) / Self.maxConcurrentRequests
            let results = await sendBatches(steps, calendarID: calendarID, perBatch: round == 1 ? Self.maxBatchRequests : perChain)
            var next: [Int] = []
            var delay: Double = 0
            for (index, result) in zip(pending, results) {
                switch result {
                case .success(let response) where response.status == 424:
                    next.append(index)
                case .success(let response) where response.status == 429:
                    next.append(index)
                    delay = max(delay, RetryAfter.seconds(response.headers["Retry-After"]) ?? Self.backoff(stalled + 1))
                case .failure(let error) where error.code == .rateLimited:
                    next.append(index)
                    delay = max(delay, error.retryAfterSeconds ?? Self.backoff(stalled + 1))
                default:
                    answers[index] = result
                }
            }
            stalled = next.count == pending.count ? stalled + 1 : 0
            pending = next
            if delay > 0, !pending.isEmpty { try? await Task.sleep(for: .milliseconds(Int(min(delay, 60) * 1000))) }
        }
        return answers.map {
            $0 ?? .failure(CalendarError(.rateLimited, "Graph did not answer this read", provider: .microsoft, account: account))
        }
    }
}
