import Foundation
import HTTP
import LoopbackServer

/// events.insert, import, patch, update, delete and quickAdd.
extension GoogleCalendarEmulator {
    /// Fields the server owns: ignored in request bodies.
    static let readOnlyFields: Set<String> = ["kind", "etag", "created", "updated", "htmlLink", "creator", "hangoutLink"]

    func insertEvent(_ request: ServerRequest, calendarID: String, user: GoogleUserRecord) throws(GoogleAPIError) -> ServerResponse {
        let (entry, calendar) = try writable(calendarID, user: user)
        try Self.checkSendUpdates(request)
        var body = try Self.bodyObject(request)
        if let id = body["id"], id != .null {
            guard let text = id.stringValue, Self.isValidEventID(text) else { throw .invalid("Invalid resource id value.") }
            if lookup(text, in: stored(calendar)) != nil { throw GoogleAPIError.duplicate }
        } else {
            body["id"] = .string(Self.newEventID())
        }
        if request.queryValue("conferenceDataVersion") != "1" { body["conferenceData"] = nil }
        let record = try makeRecord(body, previous: nil, calendar: calendar, user: user, recurringMaster: nil)
        recordMails(before: nil, after: record.resource, sendUpdates: request.queryValue("sendUpdates"), organizer: user.email)
        return storeAndRender(record, calendar: calendar, entry: entry, user: user)
    }

    /// The mails a write makes Google send (an insert: `before` nil; a deletion: `after` nil), as
    /// `SandboxInvitation.mails` lists them: to every guest with `sendUpdates=all`, to guests outside the
    /// organizer's domain with `externalOnly`, to nobody with `none` (or, for API callers, without it).
    private func recordMails(before: [String: GoogleJSON]?, after: [String: GoogleJSON]?, sendUpdates: String?, organizer: String) {
        guard sendUpdates == "all" || sendUpdates == "externalOnly", let event = after ?? before else { return }
        let domain = organizer.split(separator: "@").last.map { $0.lowercased() }
        func guests(_ resource: [String: GoogleJSON]?) -> [String]? {
            resource.map { ($0["attendees"]?.arrayValue ?? []).compactMap { $0.objectValue?["email"]?.stringValue } }
        }
        sentInvitations += SandboxInvitation.mails(
            from: organizer, subject: event["summary"]?.stringValue ?? "", before: guests(before), after: guests(after)
        ).filter { sendUpdates == "all" || $0.to.split(separator: "@").last.map({ $0.lowercased() }) != domain }
    }

    func importEvent(_ request: ServerRequest, calendarID: String, user: GoogleUserRecord) throws(GoogleAPIError) -> ServerResponse {
        let (entry, calendar) = try writable(calendarID, user: user)
        var body = try Self.bodyObject(request)
        guard let uid = body["iCalUID"]?.stringValue, !uid.isEmpty else { throw .required("Missing iCalUID.") }
        if request.queryValue("conferenceDataVersion") != "1" { body["conferenceData"] = nil }
        // The same iCalUID in this calendar: the import updates that event instead of adding a second one.
        if let existing = stored(calendar).events.values.first(where: { $0.resource["iCalUID"]?.stringValue == uid && $0.recurringEventID == nil }) {
            body["id"] = .string(existing.id)
            let record = try makeRecord(body, previous: existing, calendar: calendar, user: user, recurringMaster: nil)
            return storeAndRender(record, calendar: calendar, entry: entry, user: user)
        }
        if let id = body["id"], id != .null {
            guard let text = id.stringValue, Self.isValidEventID(text) else { throw .invalid("Invalid resource id value.") }
            if storedEvent(text, in: calendar) != nil { throw GoogleAPIError.duplicate }
        } else {
            body["id"] = .string(Self.newEventID())
        }
        let record = try makeRecord(body, previous: nil, calendar: calendar, user: user, recurringMaster: nil)
        return storeAndRender(record, calendar: calendar, entry: entry, user: user)
    }

    func updateEvent(
        _ request: ServerRequest, calendarID: String, eventID: String, user: GoogleUserRecord, patch: Bool
    ) throws(GoogleAPIError) -> ServerResponse {
        let (entry, calendar) = try writable(calendarID, user: user)
        try Self.checkSendUpdates(request)
        let body = try Self.bodyObject(request)
        guard let current = lookup(eventID, in: stored(calendar)) else { throw GoogleAPIError.notFound }
        let previous = storedEvent(eventID, in: calendar)
        var merged: [String: GoogleJSON]
        if patch {
            merged = current.resource
            for (key, value) in body {
                // Google merges start and end like any object: a patch that turns a timed event all-day
                // must send `"dateTime": null` (and `"timeZone": null`), or the merged start holds both
                // and is refused ("Invalid start time.").
                if key == "originalStartTime" {
                    merged[key] = value == .null ? nil : value
                } else {
                    merged[key] = Self.merge(merged[key], value)
                }
            }
        } else {
            merged = body
            for key in ["recurringEventId", "originalStartTime", "iCalUID", "organizer"] where merged[key] == nil {
                merged[key] = current.resource[key]
            }
        }
        merged["id"] = .string(eventID)
        if request.queryValue("conferenceDataVersion") != "1" { merged["conferenceData"] = current.resource["conferenceData"] }
        let master = current.resource["recurringEventId"]?.stringValue.flatMap { storedEvent($0, in: calendar) }
        var base = previous
        if base == nil {
            // First change to an instance: it becomes a stored exception of its series.
            base = GoogleEventRecord(resource: current.resource, changeSeq: 0, order: current.order, start: current.start, end: current.end, allDay: false)
        }
        let record = try makeRecord(merged, previous: base, calendar: calendar, user: user, recurringMaster: master)
        recordMails(before: current.resource, after: record.resource, sendUpdates: request.queryValue("sendUpdates"), organizer: user.email)
        return storeAndRender(record, calendar: calendar, entry: entry, user: user)
    }

    func deleteEvent(_ request: ServerRequest, calendarID: String, eventID: String, user: GoogleUserRecord) throws(GoogleAPIError) -> ServerResponse {
        let (_, calendar) = try writable(calendarID, user: user)
        try Self.checkSendUpdates(request)
        guard let current = lookup(eventID, in: stored(calendar)) else { throw GoogleAPIError.notFound }
        if current.resource["status"]?.stringValue == "cancelled" { throw GoogleAPIError.deleted }
        recordMails(before: current.resource, after: nil, sendUpdates: request.queryValue("sendUpdates"), organizer: user.email)
        var record = storedEvent(eventID, in: calendar)
            ?? GoogleEventRecord(resource: current.resource, changeSeq: 0, order: current.order, start: current.start, end: current.end, allDay: false)
        let change = nextChange()
        record.resource["status"] = "cancelled"
        record.resource["updated"] = .string(GoogleTime.formatTimestamp(now()))
        record.resource["etag"] = .string(Self.etag(change))
        record.changeSeq = change
        state.calendars[calendar.id]?.events[eventID] = record
        return ServerResponse(status: 204, headers: ["Vary": "Origin, X-Origin, Referer"])
    }

    func quickAdd(_ request: ServerRequest, calendarID: String, user: GoogleUserRecord) throws(GoogleAPIError) -> ServerResponse {
        let (entry, calendar) = try writable(calendarID, user: user)
        try Self.checkSendUpdates(request)
        guard let text = request.queryValue("text"), !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw .required("Required parameter: text", parameter: "text")
        }
        let zone = Self.zone(calendar.timeZone)
        let current = now()
        let meaning = quickAddInterpreter?(text, current, zone) ?? Self.defaultInterpretation(text, now: current, zone: zone)
        var body: [String: GoogleJSON] = ["id": .string(Self.newEventID()), "summary": .string(meaning.summary)]
        if let location = meaning.location { body["location"] = .string(location) }
        if meaning.allDay {
            let day = GoogleTime.local(meaning.start, in: zone).day
            let endDay = meaning.end.map { max(GoogleTime.local($0, in: zone).day, day + 1) } ?? day + 1
            body["start"] = ["date": .string(GoogleTime.formatDate(day))]
            body["end"] = ["date": .string(GoogleTime.formatDate(endDay))]
        } else {
            let end = meaning.end ?? meaning.start.addingTimeInterval(3600)
            body["start"] = ["dateTime": .string(GoogleTime.formatDateTime(meaning.start, in: zone)), "timeZone": .string(calendar.timeZone)]
            body["end"] = ["dateTime": .string(GoogleTime.formatDateTime(max(end, meaning.start), in: zone)), "timeZone": .string(calendar.timeZone)]
        }
        let record = try makeRecord(body, previous: nil, calendar: calendar, user: user, recurringMaster: nil)
        return storeAndRender(record, calendar: calendar, entry: entry, user: user)
    }

    /// Without an interpreter: the whole text as the summary, one hour from the next full hour.
    static func defaultInterpretation(_ text: String, now: Date, zone: TimeZone) -> QuickAddInterpretation {
        let local = GoogleTime.local(now, in: zone)
        let nextHour = GoogleTime.Local(day: local.day, seconds: (local.seconds / 3600 + 1) * 3600)
        let normalized = nextHour.seconds >= 86400 ? GoogleTime.Local(day: local.day + 1, seconds: nextHour.seconds - 86400) : nextHour
        return QuickAddInterpretation(summary: text, start: GoogleTime.instant(normalized, in: zone))
    }

    // MARK: Building records

    /// The entry and the calendar's settings, for a write. The calendar comes without its events: a copy of
    /// the events dictionary held across the write would make storing the new record copy all of them
    /// (copy-on-write), so inserts got slower as the calendar grew. Read events with `stored(_:)` or
    /// `storedEvent(_:in:)` instead.
    func writable(_ calendarID: String, user: GoogleUserRecord) throws(GoogleAPIError) -> (GoogleListEntry, GoogleCalendarRecord) {
        var (entry, calendar) = try resolve(calendarID, user: user)
        guard entry.canWrite else { throw GoogleAPIError.writerAccessRequired }
        calendar.events = [:]
        return (entry, calendar)
    }

    /// The stored calendar with its events (use it within one expression; see `writable`).
    func stored(_ calendar: GoogleCalendarRecord) -> GoogleCalendarRecord { state.calendars[calendar.id] ?? calendar }

    func storedEvent(_ id: String, in calendar: GoogleCalendarRecord) -> GoogleEventRecord? { state.calendars[calendar.id]?.events[id] }

    /// Validates a client resource and adds the server's fields. `previous` is the stored version on updates.
    /// The change counter advances only when the resource is valid.
    func makeRecord(
        _ input: [String: GoogleJSON], previous: GoogleEventRecord?, calendar: GoogleCalendarRecord, user: GoogleUserRecord,
        recurringMaster: GoogleEventRecord?
    ) throws(GoogleAPIError) -> GoogleEventRecord {
        let record = try Self.buildRecord(
            input, previous: previous, calendar: calendar, userEmail: user.email, recurringMaster: recurringMaster,
            change: state.changeCounter + 1, now: now())
        state.changeCounter += 1
        return record
    }

    /// Validates a resource and adds the server's fields; pure, so the seed loader uses it too.
    static func buildRecord(
        _ input: [String: GoogleJSON], previous: GoogleEventRecord?, calendar: GoogleCalendarRecord, userEmail: String,
        recurringMaster: GoogleEventRecord?, change: Int, now: Date, seeding: Bool = false
    ) throws(GoogleAPIError) -> GoogleEventRecord {
        var resource = input.filter { $0.value != .null }
        if !seeding { for key in Self.readOnlyFields { resource[key] = previous?.resource[key] } }
        let id = resource["id"]?.stringValue ?? ""
        let zone = Self.zone(calendar.timeZone)
        try Self.validate(resource)
        if let lines = resource["recurrence"]?.arrayValue {
            guard lines.allSatisfy({ $0.stringValue != nil }) else { throw .invalid("Invalid recurrence rule.") }
            if !lines.isEmpty {
                let startZone = resource["start"]?["timeZone"]?.stringValue.flatMap(TimeZone.init(identifier:)) ?? zone
                do {
                    _ = try GoogleRecurrence.parse(lines.compactMap(\.stringValue), zone: startZone)
                } catch {
                    throw .invalid("Invalid recurrence rule.")
                }
            }
        }
        let times: GoogleEventTimes.Normalized
        if resource["status"]?.stringValue == "cancelled", resource["start"] == nil, let previous {
            // A cancelled exception needs no times of its own.
            times = .init(start: previous.resource["start"] ?? .null, end: previous.resource["end"] ?? .null,
                          startInstant: previous.start, endInstant: previous.end, allDay: previous.allDay)
        } else {
            times = try GoogleEventTimes.normalize(resource, calendarZone: zone)
        }
        resource["start"] = times.start
        resource["end"] = times.end
        if let original = resource["originalStartTime"] {
            resource["originalStartTime"] = GoogleEventTimes.stored(try GoogleEventTimes.parse(original, field: "originalStartTime", requireZone: false))
        }
        let stamp = GoogleTime.formatTimestamp(now)
        resource["kind"] = "calendar#event"
        resource["etag"] = .string(Self.etag(change))
        resource["status"] = resource["status"] ?? "confirmed"
        resource["eventType"] = resource["eventType"] ?? "default"
        resource["created"] = previous?.resource["created"] ?? resource["created"] ?? .string(stamp)
        resource["updated"] = .string(stamp)
        let owner = calendar.dataOwner ?? calendar.id
        if resource["creator"] == nil { resource["creator"] = ["email": .string(userEmail)] }
        if resource["organizer"] == nil {
            resource["organizer"] = calendar.id == owner
                ? ["email": .string(calendar.id)] : ["email": .string(calendar.id), "displayName": .string(calendar.summary)]
        }
        let uid = recurringMaster?.resource["iCalUID"] ?? previous?.resource["iCalUID"] ?? resource["iCalUID"]
        resource["iCalUID"] = uid ?? .string(id + "@google.com")
        let eid = Data((id + " " + calendar.id).utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
        resource["htmlLink"] = .string("https://www.google.com/calendar/event?eid=" + eid)
        if resource["reminders"] == nil { resource["reminders"] = ["useDefault": true] }
        var sequence = previous?.resource["sequence"]?.intValue ?? resource["sequence"]?.intValue ?? 0
        if let previous, !seeding, previous.resource["start"] != resource["start"] || previous.resource["end"] != resource["end"]
            || previous.resource["recurrence"] != resource["recurrence"] || previous.resource["status"] != resource["status"] {
            sequence += 1
        }
        resource["sequence"] = .int(sequence)
        if let attendees = resource["attendees"]?.arrayValue {
            resource["attendees"] = .array(attendees.map { attendee in
                guard var object = attendee.objectValue else { return attendee }
                if object["responseStatus"] == nil { object["responseStatus"] = "needsAction" }
                if object["email"]?.stringValue?.caseInsensitiveEquals(owner) == true { object["organizer"] = true }
                return .object(object)
            })
        }
        return GoogleEventRecord(
            resource: resource, changeSeq: change, order: previous?.order ?? calendar.nextOrder, start: times.startInstant,
            end: times.endInstant, allDay: times.allDay)
    }

    func storeAndRender(_ record: GoogleEventRecord, calendar: GoogleCalendarRecord, entry: GoogleListEntry, user: GoogleUserRecord) -> ServerResponse {
        state.calendars[calendar.id]?.events[record.id] = record
        if record.order >= calendar.nextOrder { state.calendars[calendar.id]?.nextOrder = record.order + 1 }
        let json = render(record.resource, entry: entry, calendar: state.calendars[calendar.id] ?? calendar, zone: Self.zone(calendar.timeZone), viewer: user.email)
        return Self.okJSON(json, etag: json["etag"]?.stringValue)
    }

    // MARK: Validation

    static func validate(_ resource: [String: GoogleJSON]) throws(GoogleAPIError) {
        let enums: [String: Set<String>] = [
            "status": ["confirmed", "tentative", "cancelled"],
            "visibility": ["default", "public", "private", "confidential"],
            "transparency": ["opaque", "transparent"],
            "eventType": ["default", "birthday", "focusTime", "fromGmail", "outOfOffice", "workingLocation"],
        ]
        for (key, allowed) in enums {
            guard let value = resource[key] else { continue }
            guard let text = value.stringValue, allowed.contains(text) else { throw .invalid("Invalid value for: \(key)") }
        }
        for key in ["summary", "description", "location", "colorId", "iCalUID", "recurringEventId"] {
            if let value = resource[key], value.stringValue == nil { throw .invalid("Invalid value for: \(key)") }
        }
        if let properties = resource["extendedProperties"] {
            guard let object = properties.objectValue else { throw .invalid("Invalid value for: extendedProperties") }
            for (scope, values) in object {
                guard scope == "private" || scope == "shared", let map = values.objectValue,
                      map.values.allSatisfy({ $0.stringValue != nil }) else { throw .invalid("Invalid value for: extendedProperties") }
            }
        }
        if let reminders = resource["reminders"] {
            guard let object = reminders.objectValue else { throw .invalid("Invalid value for: reminders") }
            let overrides = object["overrides"]?.arrayValue ?? []
            if object["useDefault"]?.boolValue == true && !overrides.isEmpty {
                throw GoogleAPIError(code: 400, reason: "cannotUseDefaultRemindersAndSpecifyOverride",
                                     message: "Cannot specify both default reminders and overrides at the same time.")
            }
            guard overrides.count <= 5 else { throw .invalid("Too many reminders.") }
            for reminder in overrides {
                guard let method = reminder["method"]?.stringValue else { throw .required("Missing reminder method.") }
                guard method == "email" || method == "popup" else { throw .invalid("Invalid reminder method.") }
                guard let minutes = reminder["minutes"]?.intValue else { throw .required("Missing reminder minutes.") }
                guard (0...40320).contains(minutes) else { throw .invalid("Invalid reminder minutes.") }
            }
        }
        if let attendees = resource["attendees"] {
            guard let list = attendees.arrayValue else { throw .invalid("Invalid value for: attendees") }
            for attendee in list {
                guard let email = attendee["email"]?.stringValue, !email.isEmpty else { throw .required("Missing attendee email.") }
                guard email.contains("@") else { throw .invalid("Invalid attendee email.") }
            }
        }
    }

    static func checkSendUpdates(_ request: ServerRequest) throws(GoogleAPIError) {
        guard let value = request.queryValue("sendUpdates") else { return }
        guard ["all", "externalOnly", "none"].contains(value) else {
            throw .invalid("Invalid value for sendUpdates: \(value)", parameter: "sendUpdates")
        }
    }

    static func bodyObject(_ request: ServerRequest) throws(GoogleAPIError) -> [String: GoogleJSON] {
        guard !request.body.isEmpty else { throw .required("Missing request body.") }
        guard let json = GoogleJSON.parse(request.body) else {
            throw GoogleAPIError(code: 400, reason: "parseError", message: "Parse Error")
        }
        guard let object = json.objectValue else {
            throw GoogleAPIError(code: 400, reason: "badRequest", message: "Invalid JSON payload received. Expected an object.")
        }
        return object
    }

    /// base32hex characters (a-v, 0-9), 5 to 1024 long: Google's rule for client-chosen event ids.
    static func isValidEventID(_ id: String) -> Bool {
        guard (5...1024).contains(id.utf8.count) else { return false }
        return id.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 118) }
    }

    static func newEventID() -> String {
        let alphabet = Array("0123456789abcdefghijklmnopqrstuv")
        var generator = SystemRandomNumberGenerator()
        return String((0..<26).map { _ in alphabet[Int(generator.next() % 32)] })
    }

    /// Patch semantics: objects merge key by key (null removes), everything else replaces.
    static func merge(_ current: GoogleJSON?, _ patch: GoogleJSON) -> GoogleJSON? {
        if patch == .null { return nil }
        guard case .object(let patchObject) = patch, case .object(var object)? = current else { return patch }
        for (key, value) in patchObject { object[key] = merge(object[key], value) }
        return .object(object)
    }
}
