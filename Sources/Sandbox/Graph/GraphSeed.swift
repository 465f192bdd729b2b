import Foundation

/// A Microsoft seed document that could not be loaded; `message` names the user, calendar or event at fault.
package struct GraphSeedError: Error, Sendable, CustomStringConvertible {
    package var message: String
    package var description: String { "Microsoft seed: " + message }
}

/// Loads the Microsoft seed (`Fixtures/sandbox/microsoft.json`) into mailboxes.
///
/// Format (all times are `SeedTime` strings, so the seeded week is always the current one):
/// ```
/// {"users": [{
///    "id": "<GUID>", "displayName", "givenName", "surname", "mail", "userPrincipalName"?, "jobTitle"?,
///    "officeLocation"?, "mobilePhone"?, "businessPhones"?, "preferredLanguage"?,
///    "mailboxSettings": {"timeZone": "<Windows zone name>"},
///    "calendars": [{
///       "key": "<stable id part>", "name", "color"?, "hexColor"?, "isDefaultCalendar"?, "canEdit"?, "canShare"?,
///       "canViewPrivateItems"?, "isRemovable"?, "owner"?: {"name", "address"},
///       "events": [{
///          "key": "<stable id part>", "subject", "body"?: "text" | {"contentType", "content"},
///          "start": "week+1d 09:00", "end": "week+1d 10:00", "timeZone": "<Windows or IANA name>", "endTimeZone"?,
///          "isAllDay"? (start/end then dates: "week+2d", end exclusive), "location"?,
///          "attendees"?: [{"name", "address", "type"?, "response"?}], "organizer"?: {"name", "address"},
///          "isReminderOn"?, "reminderMinutesBeforeStart"?, "showAs"?, "sensitivity"?, "importance"?, "categories"?,
///          "onlineMeeting"?: {"joinUrl"}, "extendedProperties"?: {"<property id>": "<value>"}, "transactionId"?,
///          "recurrence"?: Graph's patternedRecurrence, range dates as SeedTime dates ("week-14d"),
///          ("dayOfMonth" may be a SeedTime date: its day of month),
///          "cancelled"?: ["week+2d" | 2, ...]  (occurrences deleted: by date, or 1-based number in the series),
///          "exceptions"?: [{"occurrence": "week+3d" | 2, "start"?, "end"?, "subject"?, "location"?}]  (moved/changed)
///       }]
///    }]
/// }]}
/// ```
/// Instead of a zone name, `timeZone` (and `endTimeZone`) may give a custom zone by its rules, as Outlook
/// desktop stores a zone Exchange does not know; `start`/`end` are then wall-clock times in it:
/// ```
/// "timeZone": {"custom": {
///    "keyName"?: "Customized Time Zone",
///    "rules": [{                       (1...1024, years strictly ascending; a year takes the last rule starting on or before it)
///       "year"?: 1601,                 (1601...9999: the rule applies from Jan 1 of that year; the first also before)
///       "bias": -330,                  (minutes, UTC = local + bias, -840...840)
///       "standardBias"?: 0, "daylightBias"?: -60 with daylight time, else 0,
///       "standardDate"?: {"month", "dayOfWeek", "day", "hour", "minute"},  (daylight time ends, on the daylight clock)
///       "daylightDate"?: {...}         (daylight time begins, on the standard clock)
///    }]}}
/// ```
/// A date is the `day`-th (1...4, 5 = last) `dayOfWeek` (0 = Sunday) of `month` at `hour`:`minute`; absent or
/// month 0 (all fields 0) in both: no daylight time. Such an event shows `tzone://Microsoft/Custom` as its
/// zone and carries the zone's TZDEFINITION (base64) in the extended properties `Binary
/// {00062002-0000-0000-c000-000000000046} Id 0x825e` (start), `0x825f` (end) and, on a series expanding in
/// it, `0x8260`; the series' `recurrenceTimeZone` is `tzone://Microsoft/Custom` unless the seed names another.
/// Ids are derived from the user id and the keys, so they are the same on every start.
enum GraphSeed {
    static func load(_ data: Data, now: Date, zones: GraphTimeZoneNames) throws -> GraphState {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let users = root["users"] as? [[String: Any]] else {
            throw GraphSeedError(message: "expected {\"users\": [...]}")
        }
        var mailboxes: [GraphMailbox] = []
        for (userIndex, user) in users.enumerated() {
            mailboxes.append(try mailbox(user, index: userIndex, now: now, zones: zones))
        }
        let mails = mailboxes.map { $0.mail.lowercased() }
        guard Set(mails).count == mails.count else { throw GraphSeedError(message: "two users share an e-mail address") }
        return GraphState(mailboxes: mailboxes)
    }

    private static func mailbox(_ user: [String: Any], index: Int, now: Date, zones: GraphTimeZoneNames) throws -> GraphMailbox {
        guard let mail = user["mail"] as? String, let displayName = user["displayName"] as? String else {
            throw GraphSeedError(message: "user \(index + 1) needs mail and displayName")
        }
        let id = user["id"] as? String ?? UUID().uuidString.lowercased()
        let timeZone = (user["mailboxSettings"] as? [String: Any])?["timeZone"] as? String ?? "UTC"
        guard zones.zone(named: timeZone) != nil else { throw GraphSeedError(message: "\(mail): unknown time zone '\(timeZone)'") }
        var mailbox = GraphMailbox(
            id: id, displayName: displayName, givenName: user["givenName"] as? String ?? "",
            surname: user["surname"] as? String ?? "", mail: mail,
            userPrincipalName: user["userPrincipalName"] as? String ?? mail, jobTitle: user["jobTitle"] as? String,
            officeLocation: user["officeLocation"] as? String, mobilePhone: user["mobilePhone"] as? String,
            businessPhones: user["businessPhones"] as? [String] ?? [], preferredLanguage: user["preferredLanguage"] as? String ?? "en-US",
            timeZone: timeZone, calendars: [], events: [], transactions: [:])
        for (calendarIndex, seed) in (user["calendars"] as? [[String: Any]] ?? []).enumerated() {
            let key = seed["key"] as? String ?? "calendar\(calendarIndex)"
            guard let name = seed["name"] as? String else { throw GraphSeedError(message: "\(mail): calendar '\(key)' needs a name") }
            let owner = seed["owner"] as? [String: Any]
            let calendar = GraphCalendar(
                id: stableID("AAMkAG", "\(id)/\(key)"), name: name, color: seed["color"] as? String ?? "auto",
                hexColor: seed["hexColor"] as? String ?? "", isDefaultCalendar: seed["isDefaultCalendar"] as? Bool ?? false,
                canEdit: seed["canEdit"] as? Bool ?? true, canShare: seed["canShare"] as? Bool ?? true,
                canViewPrivateItems: seed["canViewPrivateItems"] as? Bool ?? true, isRemovable: seed["isRemovable"] as? Bool ?? true,
                ownerName: owner?["name"] as? String ?? displayName, ownerAddress: owner?["address"] as? String ?? mail,
                changeKey: stableID("", "\(id)/\(key)/ck").prefix(22) + "AAA==")
            mailbox.calendars.append(calendar)
            for (eventIndex, eventSeed) in (seed["events"] as? [[String: Any]] ?? []).enumerated() {
                mailbox.events += try events(eventSeed, key: "\(id)/\(key)/\(eventSeed["key"] as? String ?? String(eventIndex))",
                                             calendar: calendar, mailbox: mailbox, now: now, zones: zones)
            }
        }
        guard mailbox.calendars.filter(\.isDefaultCalendar).count == 1 else {
            throw GraphSeedError(message: "\(mail): exactly one calendar must be isDefaultCalendar")
        }
        return mailbox
    }

    /// The stored events one seed entry makes: the event, and a series' exceptions.
    private static func events(_ seed: [String: Any], key: String, calendar: GraphCalendar, mailbox: GraphMailbox,
                               now: Date, zones: GraphTimeZoneNames) throws -> [GraphStoredEvent] {
        let subject = seed["subject"] as? String ?? ""
        func fail(_ text: String) -> GraphSeedError { GraphSeedError(message: "\(mailbox.mail): event '\(subject)': \(text)") }
        /// A zone name, or `{"custom": {...}}`: a zone given by its rules.
        func seedZone(_ value: Any, field: String) throws -> SeedZone {
            if let name = value as? String {
                guard let zone = zones.zone(named: name) else { throw fail("unknown time zone") }
                return SeedZone(name: name, zone: .tz(zone), custom: nil, days: zone)
            }
            guard let object = value as? [String: Any], object.count == 1, let spec = object["custom"] else {
                throw fail("\(field): expected a zone name or {\"custom\": {...}}")
            }
            let custom: GraphCustomZone
            do {
                custom = try GraphCustomZone(seed: spec)
            } catch {
                throw fail("\(field).\(error.field): \(error.problem)")
            }
            // Relative seed days ("week+1d") only need today's date in the zone: its offset now tells it.
            let days = TimeZone(secondsFromGMT: custom.offset(at: Int(now.timeIntervalSince1970))) ?? TimeZone(secondsFromGMT: 0)!
            return SeedZone(name: GraphCustomZone.name, zone: .custom(custom), custom: custom, days: days)
        }
        let zone = try seedZone(seed["timeZone"] ?? mailbox.timeZone, field: "timeZone")
        let endZone = try seed["endTimeZone"].map { try seedZone($0, field: "endTimeZone") } ?? zone
        let zoneName = zone.name
        let isAllDay = seed["isAllDay"] as? Bool ?? false
        func instant(_ text: Any?, _ zone: SeedZone) throws -> Date {
            guard let text = text as? String, !text.isEmpty, let local = SeedTime.resolve(text, in: zone.days, now: now),
                  let date = GraphLocalDate.parse(local.dateString) else { throw fail("bad time '\(text ?? "")'") }
            let seconds = (local.hour ?? 0) * 3600 + (local.minute ?? 0) * 60
            return zone.zone.instant(of: GraphLocalDateTime(date: date, secondOfDay: isAllDay ? 0 : seconds))
        }
        let start = try instant(seed["start"], zone)
        let end = try instant(seed["end"], endZone)
        guard end >= start else { throw fail("ends before it starts") }
        var body = ("text", "")
        if let text = seed["body"] as? String { body.1 = text }
        if let object = seed["body"] as? [String: Any] {
            body = ((object["contentType"] as? String ?? "text").lowercased(), object["content"] as? String ?? "")
        }
        let organizer = seed["organizer"] as? [String: Any]
        let attendees = (seed["attendees"] as? [[String: Any]] ?? []).map {
            GraphStoredEvent.Attendee(name: $0["name"] as? String ?? "", address: $0["address"] as? String ?? "",
                                      type: $0["type"] as? String ?? "required", response: $0["response"] as? String ?? "none")
        }
        let joinUrl = (seed["onlineMeeting"] as? [String: Any])?["joinUrl"] as? String
        let created = now.addingTimeInterval(-7 * 86_400)
        var event = GraphStoredEvent(
            id: stableID("AAMkAD", key), calendarID: calendar.id,
            iCalUId: "040000008200E00074C5B7101A82E00800000000" + stableHex(key), changeKey: stableID("", key + "/ck").prefix(22) + "AAA==",
            createdDateTime: created, lastModifiedDateTime: created, subject: subject,
            bodyContentType: body.0 == "html" ? "html" : "text", bodyContent: body.1, start: start, end: end,
            startTimeZone: zoneName, endTimeZone: endZone.name, isAllDay: isAllDay,
            location: seed["location"] as? String ?? "", attendees: attendees,
            organizerName: organizer?["name"] as? String ?? mailbox.displayName,
            organizerAddress: organizer?["address"] as? String ?? mailbox.mail,
            isReminderOn: seed["isReminderOn"] as? Bool ?? true,
            reminderMinutesBeforeStart: seed["reminderMinutesBeforeStart"] as? Int ?? 15,
            showAs: seed["showAs"] as? String ?? "busy", sensitivity: seed["sensitivity"] as? String ?? "normal",
            importance: seed["importance"] as? String ?? "normal", categories: seed["categories"] as? [String] ?? [],
            isOnlineMeeting: joinUrl != nil, onlineMeetingProvider: "teamsForBusiness", joinUrl: joinUrl, recurrence: nil,
            extendedProperties: seed["extendedProperties"] as? [String: String] ?? [:],
            transactionId: seed["transactionId"] as? String, type: "singleInstance", seriesMasterId: nil,
            originalStart: nil, cancelledOccurrences: [], customStartZone: zone.custom, customEndZone: endZone.custom)
        /// A custom zone's TZDEFINITION, as Outlook writes it (the rule of the zone's current year effective).
        func setDefinition(_ id: String, _ custom: GraphCustomZone?, recur: Bool) {
            guard let custom else { return }
            event.extendedProperties = event.extendedProperties.filter { $0.key.caseInsensitiveCompare(id) != .orderedSame }
            event.extendedProperties[id] = custom.definitionProperty(now: now, recur: recur)
        }
        setDefinition(GraphCustomZone.startDisplayPropertyID, zone.custom, recur: false)
        setDefinition(GraphCustomZone.endDisplayPropertyID, endZone.custom, recur: false)
        guard var recurrenceJSON = seed["recurrence"] as? [String: Any] else { return [event] }

        // The series: range dates are seed times in the series' zone.
        var range = recurrenceJSON["range"] as? [String: Any] ?? [:]
        var pattern = recurrenceJSON["pattern"] as? [String: Any] ?? [:]
        // A series in a custom zone expands in it, unless the seed names another recurrenceTimeZone.
        let seriesZoneName = range["recurrenceTimeZone"] as? String ?? zoneName
        let seriesZone: SeedZone
        if zone.custom != nil, GraphCustomZone.isCustomName(seriesZoneName) {
            seriesZone = zone
        } else {
            guard let named = zones.zone(named: seriesZoneName) else { throw fail("unknown recurrence time zone") }
            seriesZone = SeedZone(name: seriesZoneName, zone: .tz(named), custom: nil, days: named)
        }
        func day(_ text: Any?) throws -> GraphLocalDate {
            guard let text = text as? String, !text.isEmpty, let local = SeedTime.resolve(text, in: seriesZone.days, now: now),
                  let date = GraphLocalDate.parse(local.dateString) else { throw fail("bad date '\(text ?? "")'") }
            return date
        }
        range["startDate"] = try day(range["startDate"]).string
        if range["endDate"] != nil { range["endDate"] = try day(range["endDate"]).string }
        recurrenceJSON["range"] = range
        // "dayOfMonth": "week+2d" takes that date's day, so a monthly series can meet the seeded week.
        if pattern["dayOfMonth"] is String { pattern["dayOfMonth"] = try day(pattern["dayOfMonth"]).day }
        recurrenceJSON["pattern"] = pattern
        do {
            event.recurrence = try GraphRecurrence.parse(recurrenceJSON, defaultTimeZone: zoneName)
        } catch {
            throw fail("recurrence: \(error.message)")
        }
        event.type = "seriesMaster"
        setDefinition(GraphCustomZone.recurPropertyID, seriesZone.custom, recur: true)
        let startClock = seriesZone.zone.local(of: start).secondOfDay
        let duration = end.timeIntervalSince(start)
        // An occurrence is named by a seed date, or by its 1-based number in the series.
        let firstDates = event.recurrence!.dates(through: event.recurrence!.startDate.adding(days: 3660))
        // A master starts at its first occurrence (Graph: the range's startDate "must be the same value as the
        // start property of the recurring event"), whatever day the seed names for it (timed series; the
        // seeds' all-day series start on their range's first day).
        if !isAllDay, let first = firstDates.first {
            event.start = seriesZone.zone.instant(of: GraphLocalDateTime(date: first, secondOfDay: startClock))
            event.end = event.start.addingTimeInterval(duration)
        }
        func originalStart(_ value: Any?) throws -> Date {
            let date: GraphLocalDate
            if let number = value as? Int {
                guard number >= 1, number <= firstDates.count else { throw fail("no occurrence number \(number)") }
                date = firstDates[number - 1]
            } else {
                date = try day(value)
            }
            return seriesZone.zone.instant(of: GraphLocalDateTime(date: date, secondOfDay: isAllDay ? 0 : startClock))
        }
        event.cancelledOccurrences = try (seed["cancelled"] as? [Any] ?? []).map { try originalStart($0) }
        var result = [event]
        for exceptionSeed in seed["exceptions"] as? [[String: Any]] ?? [] {
            let original = try originalStart(exceptionSeed["occurrence"])
            var exception = event
            exception.id = GraphEmulator.occurrenceID(masterID: event.id, originalStart: original)
            exception.type = "exception"
            exception.seriesMasterId = event.id
            exception.recurrence = nil
            exception.cancelledOccurrences = []
            exception.originalStart = original
            exception.transactionId = nil
            exception.start = exceptionSeed["start"] == nil ? original : try instant(exceptionSeed["start"], zone)
            exception.end = exceptionSeed["end"] == nil ? exception.start.addingTimeInterval(duration)
                : try instant(exceptionSeed["end"], endZone)
            if let text = exceptionSeed["subject"] as? String { exception.subject = text }
            if let text = exceptionSeed["location"] as? String { exception.location = text }
            exception.changeKey = stableID("", key + "/ex/\(Int(original.timeIntervalSince1970))").prefix(22) + "AAA=="
            result.append(exception)
        }
        return result
    }

    /// A seed event's zone: the name events show, how wall clocks convert, the rules of a custom zone, and a
    /// tz zone that tells today's date in it (for relative seed times).
    private struct SeedZone {
        var name: String
        var zone: GraphZone
        var custom: GraphCustomZone?
        var days: TimeZone
    }

    /// A Graph-looking id that is the same on every start: prefix + base64url of a hash of `key`.
    static func stableID(_ prefix: String, _ key: String) -> String {
        prefix + Data(stableBytes(key)).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "") + (prefix.isEmpty ? "" : "=")
    }

    static func stableHex(_ key: String) -> String {
        stableBytes(key).prefix(16).map { String(format: "%02X", $0) }.joined()
    }

    /// 32 bytes from two FNV-1a-64 passes per word (ids only need to be distinct and stable, not secret).
    private static func stableBytes(_ key: String) -> [UInt8] {
        var bytes: [UInt8] = []
        for salt in 0..<4 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325 &+ UInt64(salt)
            for byte in key.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: hash >> UInt64(shift))) }
        }
        return bytes
    }
}
