import Foundation

extension CalendarProvider {
    public func probeEvents(ids: [String], calendarID: String) async -> [EventProbe] {
        await probeEventsIndividually(ids: ids, calendarID: calendarID)
    }

    public func probeOccurrences(_ queries: [OccurrenceQuery], calendarID: String) async -> [OccurrenceProbe] {
        await probeOccurrencesIndividually(queries, calendarID: calendarID)
    }

    /// `getEvent` for each id, at most 4 at a time.
    public func probeEventsIndividually(ids: [String], calendarID: String) async -> [EventProbe] {
        await Self.concurrentMap(ids) { id in
            do {
                let event = try await getEvent(id: id, calendarID: calendarID)
                return event.status == .cancelled ? .gone : .exists(event)
            } catch {
                return EventProbe.reading(error)
            }
        }
    }

    /// The master by id, then an expanded listing over the query's range, for each query.
    public func probeOccurrencesIndividually(_ queries: [OccurrenceQuery], calendarID: String) async -> [OccurrenceProbe] {
        await Self.concurrentMap(queries) { query in
            switch await probeEventsIndividually(ids: [query.seriesID], calendarID: calendarID).first {
            case .gone?: return .seriesGone
            case .unknown(let why)?: return .unknown(why)
            case nil: return .unknown("no answer")
            case .exists?: break
            }
            do {
                let listed = try await listEvents(calendarID: calendarID, range: query.range, expand: true)
                return OccurrenceProbe.answer(query, listed: listed)
            } catch {
                return .unknown((error as? CalendarError)?.description ?? "\(error)")
            }
        }
    }

    static func concurrentMap<T: Sendable, R: Sendable>(_ items: [T], _ body: @escaping @Sendable (T) async -> R) async -> [R] {
        await mapConcurrently(items, limit: 4, body)
    }
}

extension EventProbe {
    /// A failed read as a probe: not found (404/410) is proof, anything else is not.
    public static func reading(_ error: any Error) -> EventProbe {
        if let error = error as? CalendarError, error.code == .notFound || error.httpStatus == 410 { return .gone }
        return .unknown((error as? CalendarError)?.description ?? "\(error)")
    }
}

extension OccurrenceProbe {
    /// The answer from a listing of the series' instances over the query's range (the master exists):
    /// the occurrence with the query's original start, else cancelled (or it reads back cancelled).
    public static func answer(_ query: OccurrenceQuery, listed: [Event]) -> OccurrenceProbe {
        let key = OccurrenceKey(query.originalStart)
        guard let found = listed.first(where: { $0.seriesID == query.seriesID && OccurrenceKey($0.originalStart ?? $0.start) == key })
        else { return .cancelled }
        return found.status == .cancelled ? .cancelled : .exists(found)
    }
}

/// An occurrence's identity within its series: its original start as an instant in milliseconds, or its date.
public struct OccurrenceKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var description: String

    public init(_ time: EventTime) {
        switch time {
        case .allDay(let date): description = "date:\(date)"
        case .timed(let instant, _): description = "at:\(Int64((instant.timeIntervalSince1970 * 1000).rounded()))"
        }
    }

    /// A key from its `description`, as `sync` stores it.
    public init(stored description: String) { self.description = description }

    public static func < (a: OccurrenceKey, b: OccurrenceKey) -> Bool { a.description < b.description }
}
