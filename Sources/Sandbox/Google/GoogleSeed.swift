import Foundation

/// A Google seed document that cannot be loaded, with the place that is wrong.
package struct GoogleSeedError: Error, Sendable, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = description }
}

/// Loads the Google seed (`Fixtures/sandbox/google.json`):
///
/// ```
/// {"users": [{"email", "displayName", "calendars": [{"id", "accessRole", "primary"?, "hidden"?, "selected"?,
///             "colorId"?, "backgroundColor"?, "foregroundColor"?, "summaryOverride"?, "defaultReminders"?}]}],
///  "calendars": [{"id", "summary", "description"?, "location"?, "timeZone", "dataOwner"?, "events": [Event]}]}
/// ```
/// Events are Google Event resources, except that `start`/`end`/`originalStartTime` `dateTime` and `date`
/// values may be `SeedTime` texts (`week+2d 09:30`, resolved in the object's `timeZone`, else the calendar's),
/// and `{week+7d 09:00}` inside a `recurrence` line becomes that instant in UTC basic form (`20261207T080000Z`)
/// or, for a date, `20261207`. An exception (`recurringEventId` + `originalStartTime`) without an `id` gets
/// Google's instance id `<seriesId>_<originalStart>`. Since relative times cannot name "the third monthly
/// occurrence", an exception may say `"seedOccurrence": N` (0-based occurrence of its series) and optionally
/// `"seedShiftMinutes": M` (moved by M minutes; whole days for all-day series) instead of giving times. Server fields (`created`, `updated`, `etag`, ...) are
/// filled in; `hangoutLink` and `conferenceData` are taken as given.
enum GoogleSeed {
    static func load(_ data: Data, now: Date) throws -> GoogleState {
        guard let root = GoogleJSON.parse(data)?.objectValue else { throw GoogleSeedError("google seed: not a JSON object") }
        var state = GoogleState(users: [], calendars: [:], changeCounter: 0, epoch: String(Int(now.timeIntervalSince1970)))
        for calendarJSON in root["calendars"]?.arrayValue ?? [] {
            guard let id = calendarJSON["id"]?.stringValue, let summary = calendarJSON["summary"]?.stringValue else {
                throw GoogleSeedError("google seed: a calendar needs id and summary")
            }
            let zoneName = calendarJSON["timeZone"]?.stringValue ?? "UTC"
            guard TimeZone(identifier: zoneName) != nil else { throw GoogleSeedError("google seed: calendar \(id): unknown time zone \(zoneName)") }
            var calendar = GoogleCalendarRecord(
                id: id, summary: summary, description: calendarJSON["description"]?.stringValue,
                location: calendarJSON["location"]?.stringValue, timeZone: zoneName, dataOwner: calendarJSON["dataOwner"]?.stringValue,
                created: now.addingTimeInterval(-86400 * 400), events: [:], nextOrder: 1)
            // Series first, so that exceptions can find their master.
            let events = (calendarJSON["events"]?.arrayValue ?? []).sorted {
                ($0["recurringEventId"] == nil ? 0 : 1) < ($1["recurringEventId"] == nil ? 0 : 1)
            }
            for (index, eventJSON) in events.enumerated() {
                guard var event = eventJSON.objectValue else { throw GoogleSeedError("google seed: \(id): event \(index) is not an object") }
                let calendarZone = TimeZone(identifier: zoneName)!
                for key in ["start", "end", "originalStartTime"] {
                    if let value = event[key] { event[key] = try resolveTime(value, calendarZone: calendarZone, now: now, place: "\(id) event \(index) \(key)") }
                }
                if let lines = event["recurrence"]?.arrayValue {
                    let zone = event["start"]?["timeZone"]?.stringValue.flatMap(TimeZone.init(identifier:)) ?? calendarZone
                    event["recurrence"] = .array(try lines.map { .string(try substitute($0.stringValue ?? "", zone: zone, now: now)) })
                }
                var master: GoogleEventRecord?
                if let masterID = event["recurringEventId"]?.stringValue {
                    master = calendar.events[masterID]
                    guard let master else { throw GoogleSeedError("google seed: \(id): exception of unknown series \(masterID)") }
                    if let occurrence = event.removeValue(forKey: "seedOccurrence")?.intValue {
                        let shift = event.removeValue(forKey: "seedShiftMinutes")?.intValue ?? 0
                        try placeOccurrence(&event, master: master, index: occurrence, shiftMinutes: shift, calendarZone: calendarZone)
                    }
                    if event["id"] == nil {
                        let original = try GoogleEventTimes.parse(event["originalStartTime"], field: "originalStartTime", requireZone: false)
                        switch original {
                        case .date(let day): event["id"] = .string(masterID + "_" + GoogleTime.basicDate(day))
                        case .dateTime(let instant, _): event["id"] = .string(masterID + "_" + GoogleTime.basicUTC(instant))
                        }
                    }
                    if event["start"] == nil { event["start"] = master.resource["start"] }
                    if event["end"] == nil { event["end"] = master.resource["end"] }
                }
                if event["id"] == nil { event["id"] = .string(GoogleCalendarEmulator.newEventID()) }
                if event["created"] == nil { event["created"] = .string(GoogleTime.formatTimestamp(now.addingTimeInterval(-86400 * 14))) }
                state.changeCounter += 1
                do {
                    var record = try GoogleCalendarEmulator.buildRecord(
                        event, previous: nil, calendar: calendar, userEmail: calendar.dataOwner ?? id, recurringMaster: master,
                        change: state.changeCounter, now: now.addingTimeInterval(-86400 * 7), seeding: true)
                    record.order = calendar.nextOrder
                    calendar.nextOrder += 1
                    calendar.events[record.id] = record
                } catch {
                    throw GoogleSeedError("google seed: \(id) event \(event["id"]?.stringValue ?? String(index)): \(error.message)")
                }
            }
            state.calendars[id] = calendar
        }
        for userJSON in root["users"]?.arrayValue ?? [] {
            guard let email = userJSON["email"]?.stringValue else { throw GoogleSeedError("google seed: a user needs an email") }
            var entries: [GoogleListEntry] = []
            for (index, entryJSON) in (userJSON["calendars"]?.arrayValue ?? []).enumerated() {
                guard let calendarID = entryJSON["id"]?.stringValue, state.calendars[calendarID] != nil else {
                    throw GoogleSeedError("google seed: \(email): calendar list entry \(index) names no seeded calendar")
                }
                let role = entryJSON["accessRole"]?.stringValue ?? "owner"
                guard GoogleListEntry.roleRank[role] != nil else { throw GoogleSeedError("google seed: \(email): unknown accessRole \(role)") }
                let palette = [("14", "#9fe1e7"), ("9", "#7bd148"), ("3", "#f83a22"), ("7", "#42d692"), ("16", "#4986e7")]
                entries.append(GoogleListEntry(
                    calendarID: calendarID, accessRole: role, primary: entryJSON["primary"]?.boolValue ?? false,
                    hidden: entryJSON["hidden"]?.boolValue ?? false, selected: entryJSON["selected"]?.boolValue ?? true,
                    colorID: entryJSON["colorId"]?.stringValue ?? palette[index % palette.count].0,
                    backgroundColor: entryJSON["backgroundColor"]?.stringValue ?? palette[index % palette.count].1,
                    foregroundColor: entryJSON["foregroundColor"]?.stringValue ?? "#000000",
                    summaryOverride: entryJSON["summaryOverride"]?.stringValue,
                    defaultReminders: entryJSON["defaultReminders"]?.arrayValue ?? []))
            }
            guard entries.filter(\.primary).count <= 1 else { throw GoogleSeedError("google seed: \(email) has more than one primary calendar") }
            state.users.append(GoogleUserRecord(email: email, displayName: userJSON["displayName"]?.stringValue ?? email, entries: entries))
        }
        return state
    }

    /// Sets `originalStartTime` to the series' occurrence number `index` (0-based), and start/end to that
    /// occurrence moved by `shiftMinutes` (days for all-day series), for exceptions of relative-time series.
    private static func placeOccurrence(
        _ event: inout [String: GoogleJSON], master: GoogleEventRecord, index: Int, shiftMinutes: Int, calendarZone: TimeZone
    ) throws {
        let seriesZone = master.resource["start"]?["timeZone"]?.stringValue.flatMap(TimeZone.init(identifier:)) ?? calendarZone
        guard let lines = master.recurrence, let rule = try? GoogleRecurrence.parse(lines, zone: seriesZone) else {
            throw GoogleSeedError("google seed: seedOccurrence on an event that is not a series")
        }
        if master.allDay, let startDay = master.resource["start"]?["date"]?.stringValue.flatMap(GoogleTime.parseDate) {
            let days = rule.starts(allDayFrom: startDay, beforeDay: nil)
            guard days.indices.contains(index) else { throw GoogleSeedError("google seed: the series has no occurrence \(index)") }
            let length = Int((master.end.timeIntervalSince(master.start) / 86400).rounded())
            let start = days[index] + shiftMinutes / 1440
            event["originalStartTime"] = ["date": .string(GoogleTime.formatDate(days[index]))]
            event["start"] = ["date": .string(GoogleTime.formatDate(start))]
            event["end"] = ["date": .string(GoogleTime.formatDate(start + length))]
        } else {
            let starts = rule.starts(timedFrom: master.start, zone: seriesZone, before: nil)
            guard starts.indices.contains(index) else { throw GoogleSeedError("google seed: the series has no occurrence \(index)") }
            let zoneName = master.resource["start"]?["timeZone"] ?? .null
            let start = starts[index].addingTimeInterval(TimeInterval(shiftMinutes * 60))
            let end = start.addingTimeInterval(master.end.timeIntervalSince(master.start))
            func value(_ date: Date) -> GoogleJSON {
                zoneName == .null ? ["dateTime": .string(GoogleTime.formatDateTime(date, in: GoogleEventTimes.utc))]
                    : ["dateTime": .string(GoogleTime.formatDateTime(date, in: GoogleEventTimes.utc)), "timeZone": zoneName]
            }
            event["originalStartTime"] = value(starts[index])
            event["start"] = value(start)
            event["end"] = value(end)
        }
    }

    /// Resolves SeedTime texts inside one EventDateTime object.
    private static func resolveTime(_ value: GoogleJSON, calendarZone: TimeZone, now: Date, place: String) throws -> GoogleJSON {
        guard var object = value.objectValue else { throw GoogleSeedError("google seed: \(place) is not an object") }
        let zone = object["timeZone"]?.stringValue.flatMap(TimeZone.init(identifier:)) ?? calendarZone
        if let text = object["dateTime"]?.stringValue, GoogleTime.parseDateTime(text)?.offset == nil {
            guard let local = SeedTime.resolve(text, in: zone, now: now), let date = local.date(in: zone), local.hour != nil else {
                throw GoogleSeedError("google seed: \(place): bad time \(text)")
            }
            object["dateTime"] = .string(GoogleTime.formatDateTime(date, in: zone))
        }
        if let text = object["date"]?.stringValue, GoogleTime.parseDate(text) == nil {
            guard let local = SeedTime.resolve(text, in: zone, now: now) else { throw GoogleSeedError("google seed: \(place): bad date \(text)") }
            object["date"] = .string(local.dateString)
        }
        return .object(object)
    }

    /// Replaces `{seed time}` in a recurrence line with the iCalendar basic form.
    private static func substitute(_ line: String, zone: TimeZone, now: Date) throws -> String {
        var result = ""
        var rest = Substring(line)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { throw GoogleSeedError("google seed: unclosed { in \(line)") }
            result += rest[..<open]
            let text = String(rest[rest.index(after: open)..<close])
            guard let local = SeedTime.resolve(text, in: zone, now: now) else { throw GoogleSeedError("google seed: bad time {\(text)}") }
            if local.hour != nil, let date = local.date(in: zone) {
                result += GoogleTime.basicUTC(date)
            } else {
                result += local.dateString.replacingOccurrences(of: "-", with: "")
            }
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }
}
