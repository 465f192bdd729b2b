import Foundation
import HTTP
import LoopbackServer

extension GraphEmulator {
    // MARK: Reading

    /// The calendar a collection path names (`/me/events` and `/me/calendarView` mean the default calendar).
    func targetCalendar(_ mailbox: GraphMailbox, _ calendarID: String?) throws(GraphError) -> GraphCalendar {
        guard let calendar = calendarID.map({ mailbox.calendar(id: $0) }) ?? mailbox.defaultCalendar else {
            throw GraphError.itemNotFound
        }
        return calendar
    }

    func listEvents(_ context: GraphRequestContext, calendarID: String?) throws(GraphError) -> ServerResponse {
        let mailbox = state.mailboxes[try mailboxIndex(context.mailboxID)]
        let calendar = try targetCalendar(mailbox, calendarID)
        let options = try renderOptions(context)
        let filter = try context.option("$filter").map { text throws(GraphError) in try GraphFilter.parse(text) }
        var events = mailbox.events.filter {
            $0.calendarID == calendar.id && ($0.type == "singleInstance" || $0.type == "seriesMaster")
        }
        if let filter { events = events.filter(filter.matches) }
        if let orderText = context.option("$orderby"), let order = try GraphQuery.orderBy(orderText) {
            events = sorted(events, by: order, zone: options.zone)
        }
        let preferences = GraphQuery.preferences(context.headers)
        let page = try GraphQuery.page(count: events.count, context: context,
                                       preferPageSize: preferences["odata.maxpagesize"].flatMap { Int($0) })
        let values = events[page.range].map { render($0, mailbox: mailbox, options: options) }
        let path = calendarID == nil ? "users('\(mailbox.id)')/events" : "users('\(mailbox.id)')/calendars('\(calendar.id)')/events"
        return collectionResponse(context, contextPath: path, values: values, page: page, options: options)
    }

    /// The required `startDateTime` / `endDateTime` window.
    func timeWindow(_ context: GraphRequestContext) throws(GraphError) -> (start: Date, end: Date) {
        guard let startText = context.option("startDateTime"), let endText = context.option("endDateTime") else {
            throw GraphError.missingTimeWindow
        }
        guard let start = GraphInstant.parse(startText) else { throw GraphError.invalidParameter("StartDateTime", startText) }
        guard let end = GraphInstant.parse(endText) else { throw GraphError.invalidParameter("EndDateTime", endText) }
        return (start, end)
    }

    func calendarView(_ context: GraphRequestContext, calendarID: String?) throws(GraphError) -> ServerResponse {
        let mailbox = state.mailboxes[try mailboxIndex(context.mailboxID)]
        let calendar = try targetCalendar(mailbox, calendarID)
        let window = try timeWindow(context)
        let options = try renderOptions(context)
        let events = try viewEvents(context, mailbox: mailbox, calendar: calendar, window: window, options: options)
        let preferences = GraphQuery.preferences(context.headers)
        let page = try GraphQuery.page(count: events.count, context: context,
                                       preferPageSize: preferences["odata.maxpagesize"].flatMap { Int($0) })
        let values = events[page.range].map { render($0, mailbox: mailbox, options: options) }
        let path = calendarID == nil ? "users('\(mailbox.id)')/calendarView"
            : "users('\(mailbox.id)')/calendars('\(calendar.id)')/calendarView"
        return collectionResponse(context, contextPath: path, values: values, page: page, options: options)
    }

    /// The calendarView's occurrences in order: from the cache when the store has not changed since they were
    /// computed (the pages of one listing), else expanded, filtered and sorted afresh.
    func viewEvents(_ context: GraphRequestContext, mailbox: GraphMailbox, calendar: GraphCalendar,
                    window: (start: Date, end: Date), options: GraphRenderOptions) throws(GraphError) -> [GraphStoredEvent] {
        let filterText = context.option("$filter")
        let orderText = context.option("$orderby")
        let filter = try filterText.map { text throws(GraphError) in try GraphFilter.parse(text) }
        let order = try orderText.flatMap { text throws(GraphError) in try GraphQuery.orderBy(text) }
        let key = GraphViewKey(mailboxID: mailbox.id, calendarID: calendar.id, start: window.start, end: window.end,
                               zone: options.zoneLabel, filter: filterText, order: orderText)
        if viewCacheVersion != stateVersion {
            viewCache = [:]
            viewCacheVersion = stateVersion
        }
        if let cached = viewCache[key] { return cached }
        var exceptionStarts: [String: Set<Date>] = [:]
        for event in mailbox.events {
            if let masterID = event.seriesMasterId, let start = event.originalStart { exceptionStarts[masterID, default: []].insert(start) }
        }
        var events: [GraphStoredEvent] = []
        for event in mailbox.events where event.calendarID == calendar.id {
            if event.type == "seriesMaster" {
                events += occurrences(of: event, in: mailbox, from: window.start, to: window.end, zone: options.zone,
                                      exceptionStarts: exceptionStarts)
            } else if overlaps(event, window.start, window.end, zone: options.zone) {
                events.append(event)
            }
        }
        if let filter { events = events.filter(filter.matches) }
        events = sorted(events, by: order ?? ("start/datetime", false), zone: options.zone)
        // A few views at most: clients page through one listing at a time.
        if viewCache.count >= 4 { viewCache = [:] }
        viewCache[key] = events
        return events
    }

    func instances(_ context: GraphRequestContext, id: String, calendarID: String?) throws(GraphError) -> ServerResponse {
        let mailbox = state.mailboxes[try mailboxIndex(context.mailboxID)]
        guard let index = mailbox.eventIndex(id: id), calendarID.map({ $0 == mailbox.events[index].calendarID }) ?? true else {
            throw GraphError.itemNotFound
        }
        let master = mailbox.events[index]
        let window = try timeWindow(context)
        let options = try renderOptions(context)
        var events: [GraphStoredEvent] = []
        if master.type == "seriesMaster" {
            events = occurrences(of: master, in: mailbox, from: window.start, to: window.end, zone: options.zone)
            events += mailbox.events.filter {
                $0.seriesMasterId == master.id && overlaps($0, window.start, window.end, zone: options.zone)
            }
        }
        events = sorted(events, by: ("start/datetime", false), zone: options.zone)
        let page = try GraphQuery.page(count: events.count, context: context, preferPageSize: nil)
        let values = events[page.range].map { render($0, mailbox: mailbox, options: options) }
        return collectionResponse(context, contextPath: "users('\(mailbox.id)')/events('\(master.id)')/instances",
                                  values: values, page: page, options: options)
    }

    func getEvent(_ context: GraphRequestContext, id: String, calendarID: String?) throws(GraphError) -> ServerResponse {
        let mailbox = state.mailboxes[try mailboxIndex(context.mailboxID)]
        let options = try renderOptions(context)
        let event = try findEvent(id, in: mailbox, calendarID: calendarID)
        var object = render(event, mailbox: mailbox, options: options)
        object["@odata.context"] = .string(context.baseURL + "/$metadata#users('\(mailbox.id)')/events/$entity")
        var headers: HTTPHeaders = [:]
        if !options.applied.isEmpty { headers["Preference-Applied"] = options.applied.joined(separator: ", ") }
        return jsonResponse(200, object, headers: headers)
    }

    /// A stored event, or the occurrence an occurrence id denotes.
    func findEvent(_ id: String, in mailbox: GraphMailbox, calendarID: String?) throws(GraphError) -> GraphStoredEvent {
        let event: GraphStoredEvent
        if let index = mailbox.eventIndex(id: id) {
            event = mailbox.events[index]
        } else if let occurrence = occurrence(id: id, in: mailbox) {
            event = occurrence
        } else {
            throw GraphError.itemNotFound
        }
        if let calendarID, calendarID != event.calendarID { throw GraphError.itemNotFound }
        return event
    }

    // MARK: Series expansion

    static func occurrenceID(masterID: String, originalStart: Date) -> String {
        let payload = Data("\(masterID)|\(Int(originalStart.timeIntervalSince1970))".utf8).base64EncodedString()
        return "AAMkOC" + payload.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    }

    static func parseOccurrenceID(_ id: String) -> (masterID: String, originalStart: Date)? {
        guard id.hasPrefix("AAMkOC") else { return nil }
        let base64 = id.dropFirst(6).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8) else { return nil }
        let parts = text.split(separator: "|")
        guard parts.count == 2, let seconds = Int(parts[1]) else { return nil }
        return (String(parts[0]), Date(timeIntervalSince1970: Double(seconds)))
    }

    /// The zone a series expands in (its `recurrenceTimeZone`, else its start zone, else UTC); a series in a
    /// custom zone expands in its own rules.
    func seriesZone(_ master: GraphStoredEvent) -> GraphZone {
        if let name = master.recurrence?.recurrenceTimeZone {
            if let custom = master.customStartZone, GraphCustomZone.isCustomName(name) { return .custom(custom) }
            if let zone = try? zone(named: name) { return .tz(zone) }
        }
        return startZone(of: master)
    }

    /// The zone an event's start wall clock is read in (UTC if its name is unknown, as in a damaged state file).
    func startZone(of event: GraphStoredEvent) -> GraphZone {
        if let custom = event.customStartZone { return .custom(custom) }
        return (try? zone(named: event.startTimeZone)).map(GraphZone.tz) ?? .utc
    }

    /// Original starts of the series' occurrences whose dates fall on or before `lastDate` (cancelled included).
    func occurrenceStarts(of master: GraphStoredEvent, through lastDate: GraphLocalDate) -> [(start: Date, end: Date)] {
        guard let recurrence = master.recurrence else { return [] }
        let zone = seriesZone(master)
        let startLocal = zone.local(of: master.start)
        let endLocal = zone.local(of: master.end)
        let duration = master.end.timeIntervalSince(master.start)
        let spanDays = endLocal.date.dayNumber - startLocal.date.dayNumber
        return recurrence.dates(through: lastDate).map { date in
            let start = zone.instant(of: GraphLocalDateTime(date: date, secondOfDay: startLocal.secondOfDay))
            if master.isAllDay {
                return (start, zone.instant(of: GraphLocalDateTime(date: date.adding(days: max(spanDays, 1)), secondOfDay: 0)))
            }
            return (start, start.addingTimeInterval(duration))
        }
    }

    /// The occurrences of a series overlapping the window: not cancelled, not replaced by an exception.
    /// - Parameter exceptionStarts: original starts of the exceptions by master id, when the caller has them
    ///   (expanding many series); else the mailbox is searched.
    func occurrences(of master: GraphStoredEvent, in mailbox: GraphMailbox, from: Date, to: Date,
                     zone renderZone: TimeZone, exceptionStarts: [String: Set<Date>]? = nil) -> [GraphStoredEvent] {
        let zone = seriesZone(master)
        let lastDate = zone.local(of: to).date.adding(days: 1)
        let exceptions = exceptionStarts.map { $0[master.id] ?? [] }
            ?? Set(mailbox.events.compactMap { $0.seriesMasterId == master.id ? $0.originalStart : nil })
        let cancelled = Set(master.cancelledOccurrences)
        var result: [GraphStoredEvent] = []
        for slot in occurrenceStarts(of: master, through: lastDate)
        where !cancelled.contains(slot.start) && !exceptions.contains(slot.start) {
            let occurrence = makeOccurrence(master, start: slot.start, end: slot.end)
            if overlaps(occurrence, from, to, zone: renderZone) { result.append(occurrence) }
        }
        return result
    }

    func makeOccurrence(_ master: GraphStoredEvent, start: Date, end: Date) -> GraphStoredEvent {
        var occurrence = master
        occurrence.id = GraphEmulator.occurrenceID(masterID: master.id, originalStart: start)
        occurrence.type = "occurrence"
        occurrence.seriesMasterId = master.id
        occurrence.recurrence = nil
        occurrence.start = start
        occurrence.end = end
        occurrence.originalStart = start
        occurrence.cancelledOccurrences = []
        occurrence.transactionId = nil
        return occurrence
    }

    /// The unmodified occurrence an occurrence id names, if the series has it and it is not cancelled or an exception.
    func occurrence(id: String, in mailbox: GraphMailbox) -> GraphStoredEvent? {
        guard let (masterID, originalStart) = GraphEmulator.parseOccurrenceID(id),
              let index = mailbox.eventIndex(id: masterID), mailbox.events[index].type == "seriesMaster" else { return nil }
        let master = mailbox.events[index]
        guard !master.cancelledOccurrences.contains(originalStart) else { return nil }
        let lastDate = seriesZone(master).local(of: originalStart).date.adding(days: 1)
        guard let slot = occurrenceStarts(of: master, through: lastDate).first(where: { $0.start == originalStart }) else {
            return nil
        }
        return makeOccurrence(master, start: slot.start, end: slot.end)
    }

    func overlaps(_ event: GraphStoredEvent, _ from: Date, _ to: Date, zone: TimeZone) -> Bool {
        let times = effectiveTimes(event, in: zone)
        if times.start == times.end { return times.start >= from && times.start < to }
        return times.start < to && times.end > from
    }

    func sorted(_ events: [GraphStoredEvent], by order: (key: String, descending: Bool), zone: TimeZone) -> [GraphStoredEvent] {
        let keyed = events.map { event -> (GraphStoredEvent, Date, Date) in
            let times = effectiveTimes(event, in: zone)
            return (event, times.start, times.end)
        }
        let result = keyed.sorted { a, b in
            let ascending: Bool
            switch order.key {
            case "end/datetime": ascending = a.2 != b.2 ? a.2 < b.2 : a.0.id < b.0.id
            case "subject":
                let comparison = a.0.subject.caseInsensitiveCompare(b.0.subject)
                ascending = comparison != .orderedSame ? comparison == .orderedAscending : a.0.id < b.0.id
            case "createddatetime":
                ascending = a.0.createdDateTime != b.0.createdDateTime ? a.0.createdDateTime < b.0.createdDateTime : a.0.id < b.0.id
            case "lastmodifieddatetime":
                ascending = a.0.lastModifiedDateTime != b.0.lastModifiedDateTime
                    ? a.0.lastModifiedDateTime < b.0.lastModifiedDateTime : a.0.id < b.0.id
            default:
                ascending = a.1 != b.1 ? a.1 < b.1 : (a.2 != b.2 ? a.2 < b.2 : a.0.id < b.0.id)
            }
            return order.descending ? !ascending : ascending
        }
        return result.map(\.0)
    }
}
