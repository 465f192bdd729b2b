import Foundation
import HTTP
import LoopbackServer

/// calendarList.list, calendarList.get and calendars.get.
extension GoogleCalendarEmulator {
    func listCalendarList(_ request: ServerRequest, user: GoogleUserRecord) throws(GoogleAPIError) -> ServerResponse {
        let maxResults = try Self.intParameter(request, "maxResults", default: 100, max: 250)
        let showHidden = try Self.boolParameter(request, "showHidden")
        _ = try Self.boolParameter(request, "showDeleted")
        var minimum = 0
        if let role = request.queryValue("minAccessRole") {
            guard let rank = GoogleListEntry.roleRank[role] else {
                throw .invalid("Invalid value for minAccessRole: \(role)", parameter: "minAccessRole")
            }
            minimum = rank
        }
        var entries = user.entries
        if let syncToken = request.queryValue("syncToken") {
            if request.queryValue("minAccessRole") != nil {
                throw .invalid("The minAccessRole parameter cannot be used with a syncToken.", parameter: "minAccessRole")
            }
            // Calendar lists never change in the sandbox: a token of this run means "nothing new".
            guard Self.decodeSyncToken(syncToken, epoch: state.epoch).map({ $0.scope == "calendarList:" + user.email }) == true else {
                throw GoogleAPIError.fullSyncRequired
            }
            entries = []
        } else {
            entries = entries.filter { $0.rank >= minimum && (showHidden || !$0.hidden) }
        }
        let offset = try Self.pageOffset(request)
        let page = Array(entries.dropFirst(offset).prefix(maxResults))
        var body: [String: GoogleJSON] = [
            "kind": "calendar#calendarList",
            "etag": .string(Self.etag(state.changeCounter)),
            "items": .array(page.compactMap { entry in state.calendars[entry.calendarID].map { render(entry, $0) } }),
        ]
        if offset + page.count < entries.count {
            body["nextPageToken"] = .string(Self.pageToken(offset: offset + page.count))
        } else {
            body["nextSyncToken"] = .string(Self.syncToken(scope: "calendarList:" + user.email, change: state.changeCounter, epoch: state.epoch))
        }
        return Self.okJSON(.object(body))
    }

    func getCalendarListEntry(_ calendarID: String, user: GoogleUserRecord) throws(GoogleAPIError) -> ServerResponse {
        let (entry, calendar) = try resolve(calendarID, user: user)
        let json = render(entry, calendar)
        return Self.okJSON(json, etag: json["etag"]?.stringValue)
    }

    func getCalendar(_ calendarID: String, user: GoogleUserRecord) throws(GoogleAPIError) -> ServerResponse {
        let (_, calendar) = try resolve(calendarID, user: user)
        var json: [String: GoogleJSON] = [
            "kind": "calendar#calendar",
            "etag": .string(Self.etag(calendar.nextOrder)),
            "id": .string(calendar.id),
            "summary": .string(calendar.summary),
            "timeZone": .string(calendar.timeZone),
            "conferenceProperties": ["allowedConferenceSolutionTypes": ["hangoutsMeet"]],
        ]
        if let description = calendar.description { json["description"] = .string(description) }
        if let location = calendar.location { json["location"] = .string(location) }
        if let owner = calendar.dataOwner { json["dataOwner"] = .string(owner) }
        return Self.okJSON(.object(json), etag: json["etag"]?.stringValue)
    }

    /// A CalendarListEntry as Google renders it (only-true booleans such as `primary`/`hidden` omitted otherwise).
    func render(_ entry: GoogleListEntry, _ calendar: GoogleCalendarRecord) -> GoogleJSON {
        var json: [String: GoogleJSON] = [
            "kind": "calendar#calendarListEntry",
            "etag": .string(Self.etag(calendar.id.utf8.reduce(7) { ($0 &* 31 &+ Int($1)) & 0xFFFFFF })),
            "id": .string(calendar.id),
            "summary": .string(calendar.summary),
            "timeZone": .string(calendar.timeZone),
            "colorId": .string(entry.colorID),
            "backgroundColor": .string(entry.backgroundColor),
            "foregroundColor": .string(entry.foregroundColor),
            "accessRole": .string(entry.accessRole),
            "defaultReminders": .array(entry.defaultReminders),
            "conferenceProperties": ["allowedConferenceSolutionTypes": ["hangoutsMeet"]],
        ]
        if entry.selected { json["selected"] = true }
        if entry.primary {
            json["primary"] = true
            json["notificationSettings"] = [
                "notifications": [
                    ["type": "eventCreation", "method": "email"], ["type": "eventChange", "method": "email"],
                    ["type": "eventCancellation", "method": "email"], ["type": "eventResponse", "method": "email"],
                ]
            ]
        }
        if entry.hidden { json["hidden"] = true }
        if let description = calendar.description { json["description"] = .string(description) }
        if let location = calendar.location { json["location"] = .string(location) }
        if let summaryOverride = entry.summaryOverride { json["summaryOverride"] = .string(summaryOverride) }
        if !entry.primary, let owner = calendar.dataOwner { json["dataOwner"] = .string(owner) }
        return .object(json)
    }

    // MARK: Sync tokens

    /// Opaque sync token: scope, change counter and the state's epoch, base64url-wrapped.
    static func syncToken(scope: String, change: Int, epoch: String) -> String {
        let text = "s1|\(epoch)|\(change)|\(scope)"
        return Data(text.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    }

    static func decodeSyncToken(_ token: String, epoch: String) -> (scope: String, change: Int)? {
        var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8) else { return nil }
        let parts = text.split(separator: "|", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "s1", parts[1] == epoch, let change = Int(parts[2]) else { return nil }
        return (String(parts[3]), change)
    }
}
