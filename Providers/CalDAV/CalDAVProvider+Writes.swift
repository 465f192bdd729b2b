import CalendarBridge
import Foundation
import HTTP
import ICalendar

extension CalDAVProvider {
    public func createEvent(_ event: Event, in calendarID: String, idempotencyKey: IdempotencyKey?) async throws -> Event {
        // The name and UID derive from the key: a repeated create (a lost answer, a rerun after a crash) is
        // refused by If-None-Match and finds the first one's resource.
        let base = idempotencyKey?.googleEventID ?? UUID().uuidString.lowercased()
        let name = base + ".ics"
        var created = event
        created.id = name
        created.calendarID = calendarID
        created.iCalUID = base
        created.seriesID = nil
        created.originalStart = nil
        // CREATED, LAST-MODIFIED and DTSTAMP say when calbridge wrote it (sync's "newer wins" reads them).
        let now = Date()
        created.created = now
        created.updated = now
        let resource = CalDAVResource(name: name, etag: nil, events: [created])
        do {
            return try await put(resource, calendarID: calendarID, condition: .absent).main ?? created
        } catch let error as CalendarError where error.httpStatus == 412 {
            let existing = try await read(name: name, calendarID: calendarID)
            guard let main = existing.main, main.iCalUID == base else { throw error }
            return main
        }
    }

    public func updateEvent(_ event: Event, fields: EventFields) async throws -> Event {
        let (name, occurrence) = CalDAVResource.split(id: event.id)
        let updated = try await modify(name: name, calendarID: event.calendarID) { resource in
            guard let main = resource.main else { throw notFound(event.id, event.calendarID) }
            guard occurrence != nil else {
                let updated = Self.merge(event, onto: main, fields: fields)
                let seriesChanged = updated.recurrence != main.recurrence || updated.start != main.start
                // A new rule or start makes the old overrides' occurrences meaningless (as Google and Outlook do).
                resource.events = [updated] + (seriesChanged ? [] : resource.events.filter { $0.seriesID != nil })
                return updated
            }
            let stored: Event
            if let override = resource.events.first(where: { $0.id == event.id }) {
                stored = override
            } else {
                stored = try await occurrenceOf(resource, id: event.id, calendarID: event.calendarID)
            }
            var updated = Self.merge(event, onto: stored, fields: fields)
            updated.seriesID = name
            updated.recurrence = nil
            updated.iCalUID = main.iCalUID
            resource.events = resource.events.filter { $0.id != event.id } + [updated]
            return updated
        }
        guard let updated else { throw notFound(event.id, event.calendarID) }
        return updated
    }

    public func deleteEvent(id: String, calendarID: String) async throws {
        let (name, occurrence) = CalDAVResource.split(id: id)
        guard occurrence != nil else {
            let url = try await calendarURL(calendarID).appendingPathComponent(name)
            var headers: HTTPHeaders = [:]
            if let etag = await etags.etag(calendarID: calendarID, name: name) { headers["If-Match"] = etag }
            let (response, _) = try await client.send(.delete, url, headers: headers, calendar: calendarID)
            // Gone already: done. 412: changed since calbridge read it, so the delete is decided again on a new read.
            guard response.isSuccess || response.status == 404 || response.status == 410 else {
                throw client.failure(response, calendar: calendarID)
            }
            await etags.forget(calendarID: calendarID, name: name)
            return
        }
        do {
            _ = try await modify(name: name, calendarID: calendarID) { resource in
                guard resource.main?.recurrence != nil else { return nil }
                // The occurrence's own start (its override's, or the series' rule's).
                let occurrence: Event
                do {
                    occurrence = try await occurrenceOf(resource, id: id, calendarID: calendarID)
                } catch let error as CalendarError where error.code == .notFound {
                    return nil  // Cancelled already.
                }
                var cancelled = occurrence
                cancelled.status = .cancelled
                cancelled.seriesID = name
                cancelled.recurrence = nil
                resource.events =
                    resource.events.filter { $0.id != id }.map { event in
                        guard event.seriesID == nil else { return event }
                        var master = event
                        master.updated = Date()
                        return master
                    } + [cancelled]
                return cancelled
            }
        } catch let error as CalendarError where error.code == .notFound {
            // The series is gone: so is its occurrence.
        }
    }

    // MARK: - Read, change, write

    /// Reads the resource, lets `change` edit it, and writes it back with `If-Match`; when another client
    /// changed it meanwhile (412), reads it again and applies the change to what is there now.
    /// `change` returns nil when there is nothing to write, and so does `modify` then.
    func modify(name: String, calendarID: String, _ change: (inout CalDAVResource) async throws -> Event?) async throws -> Event? {
        var attempt = 0
        while true {
            var resource = try await read(name: name, calendarID: calendarID)
            guard let result = try await change(&resource) else { return nil }
            do {
                let written = try await put(resource, calendarID: calendarID, condition: resource.etag.map { .matching($0) } ?? .any)
                return written.events.first { $0.id == result.id } ?? result
            } catch let error as CalendarError where error.httpStatus == 412 && attempt < Self.maxPreconditionRetries {
                attempt += 1
            }
        }
    }

    /// The occurrence `id` of the resource's series as its rule (or its override) has it.
    func occurrenceOf(_ resource: CalDAVResource, id: String, calendarID: String) async throws -> Event {
        do {
            var event = try await CalDAVResource.expansion(of: [resource]).getEvent(id: id, calendarID: ICalendarFileProvider.calendarID)
            event.calendarID = calendarID
            return event
        } catch {
            throw notFound(id, calendarID)
        }
    }

    enum WriteCondition {
        /// `If-None-Match: *`: only if no resource has the name.
        case absent
        /// `If-Match`: only if the resource is still the one read.
        case matching(String)
        /// Unconditionally (a server that gave no ETag).
        case any
    }

    /// PUTs the resource's calendar data.
    /// - Returns: the resource as written, read again from the data sent: what the server now holds, with what
    ///   calbridge does not model (kept from the stored data) and times as iCalendar carries them. The event a
    ///   write returns is this one, so that the hash sync records for it is the hash of what its next read
    ///   gives (a copy's attendees kept, a zone written as UTC read as UTC).
    @discardableResult
    func put(_ resource: CalDAVResource, calendarID: String, condition: WriteCondition) async throws -> CalDAVResource {
        let data: String
        do {
            data = try resource.calendarData()
        } catch {
            throw CalendarError(
                .invalidRequest, "cannot write the event as iCalendar: \(error)", provider: provider, account: account, calendar: calendarID
            )
        }
        var headers: HTTPHeaders = ["Content-Type": "text/calendar; charset=utf-8"]
        switch condition {
        case .absent: headers["If-None-Match"] = "*"
        case .matching(let etag): headers["If-Match"] = etag
        case .any: break
        }
        let url = try await calendarURL(calendarID).appendingPathComponent(resource.name)
        let (response, _) = try await client.send(.put, url, headers: headers, body: Data(data.utf8), calendar: calendarID)
        guard response.isSuccess else { throw client.failure(response, calendar: calendarID) }
        if let etag = response.headers["ETag"] {
            await etags.remember(calendarID: calendarID, name: resource.name, etag: etag)
        } else {
            await etags.forget(calendarID: calendarID, name: resource.name)
        }
        return (try? CalDAVResource(name: resource.name, etag: response.headers["ETag"], calendarData: data, calendarID: calendarID))
            ?? resource
    }

    /// `event`'s values of `fields` on `stored`; its identity (id, UID, series, original start) stays.
    static func merge(_ event: Event, onto stored: Event, fields: EventFields) -> Event {
        var result = merged(event, onto: stored, fields: fields)
        result.updated = Date()
        return result
    }

    private static func merged(_ event: Event, onto stored: Event, fields: EventFields) -> Event {
        var result = stored
        if fields == .all {
            result = event
            result.id = stored.id
            result.calendarID = stored.calendarID
            result.iCalUID = stored.iCalUID
            result.seriesID = stored.seriesID
            result.originalStart = stored.originalStart
            result.created = stored.created
            if event.origin == nil { result.origin = stored.origin }
            return result
        }
        if fields.contains(.title) { result.title = event.title }
        if fields.contains(.times) {
            result.start = event.start
            result.end = event.end
        }
        if fields.contains(.location) { result.location = event.location }
        if fields.contains(.recurrence), stored.seriesID == nil { result.recurrence = event.recurrence }
        if fields.contains(.body) { result.body = event.body }
        if fields.contains(.reminders) { result.reminders = event.reminders }
        if fields.contains(.showAs) { result.showAs = event.showAs }
        if fields.contains(.sensitivity) { result.sensitivity = event.sensitivity }
        return result
    }

    func notFound(_ id: String, _ calendarID: String) -> CalendarError {
        CalendarError(.notFound, "no event \(id)", provider: provider, account: account, calendar: calendarID, httpStatus: 404)
    }
}

/// The ETags calbridge last saw, per calendar and resource name, so that a delete is conditional on the
/// resource being what calbridge read (`If-Match`) without reading it again.
actor CalDAVETags {
    private var tags: [String: String] = [:]

    func etag(calendarID: String, name: String) -> String? { tags[calendarID + "\u{1F}" + name] }
    func remember(calendarID: String, name: String, etag: String) { tags[calendarID + "\u{1F}" + name] = etag }
    func forget(calendarID: String, name: String) { tags[calendarID + "\u{1F}" + name] = nil }
    func remember(_ resources: [CalDAVResource], calendarID: String) {
        for resource in resources { if let etag = resource.etag { tags[calendarID + "\u{1F}" + resource.name] = etag } }
    }
}
