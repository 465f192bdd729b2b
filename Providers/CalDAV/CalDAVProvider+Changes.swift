import CalendarBridge
import Foundation
import ICalendar

/// Change reads (RFC 6578 `sync-collection`), in Google's form: series masters with their rules, single
/// events and overrides; a cancelled occurrence (an `EXDATE`) and a removed resource (a 404 in the report)
/// are removals. Changes cover the whole calendar; changed events outside the window are dropped, removals
/// never.
extension CalDAVProvider: ChangeReadingProvider {
    /// The prefix of calbridge's CalDAV cursors (`caldav1:` and the collection's sync token).
    static let cursorPrefix = "caldav1:"
    /// How many truncated answers (507 on the collection) are followed in one read.
    static let maxSyncPages = 200

    public func changes(calendarID: String, window: TimeRange, cursor: String?) async throws -> ChangeRead {
        let url = try await calendarURL(calendarID)
        guard let cursor else { return .changes(try await fullRead(calendarID: calendarID, url: url, window: window)) }
        if let ctagCursor = CtagCursor(cursor) {
            return try await ctagChanges(calendarID: calendarID, url: url, window: window, cursor: ctagCursor)
        }
        guard cursor.hasPrefix(Self.cursorPrefix) else {
            return .cursorExpired(CursorExpiry(.unreadable, message: "the cursor is not one of calbridge's CalDAV cursors"))
        }
        var token = String(cursor.dropFirst(Self.cursorPrefix.count))
        var changed: [String: CalDAVResource] = [:]
        var removedNames: Set<String> = []
        var requests = 0
        for _ in 0..<Self.maxSyncPages {
            let body = """
                <?xml version="1.0" encoding="utf-8"?>
                <d:sync-collection xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:sync-token>\(DAVElement.escape(token))\
                </d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/><c:calendar-data/></d:prop></d:sync-collection>
                """
            let answer: Multistatus
            let base: URL
            do {
                (answer, base) = try await client.multistatus(.report, url, depth: "0", body: body, calendar: calendarID)
            } catch let error as CalendarError where Self.isInvalidToken(error) {
                return .cursorExpired(
                    CursorExpiry(
                        .expired, message: "the server no longer knows the sync token (HTTP \(error.httpStatus ?? 0))",
                        providerCode: error.providerCode))
            }
            requests += 1
            var truncated = false
            for response in answer.responses {
                guard let member = CalDAVClient.resolve(response.href, against: base) else { continue }
                // The collection itself: 507 says the answer was cut (RFC 6578 §3.6); it is never a member.
                if response.href.hasSuffix("/") || member.path == url.path || member.path + "/" == url.path {
                    if response.status == 507 { truncated = true }
                    continue
                }
                let name = member.lastPathComponent
                if response.status == 404 {
                    // Only a 404 is a removal (positive evidence).
                    removedNames.insert(name)
                    changed[name] = nil
                    continue
                }
                guard let data = response.property(DAVNamespace.caldav, "calendar-data")?.text, !data.isEmpty else {
                    // Changed, but its data not in the report (a server that answers only ETags): read it.
                    if let resource = try? await read(name: name, calendarID: calendarID) {
                        changed[name] = resource
                        removedNames.remove(name)
                    }
                    continue
                }
                do {
                    changed[name] = try CalDAVResource(
                        name: name, etag: response.property(DAVNamespace.dav, "getetag")?.text, calendarData: data, calendarID: calendarID)
                    removedNames.remove(name)
                } catch {
                    throw CalendarError(
                        .invalidResponse, "the event \(name) is iCalendar calbridge cannot read: \(error)", provider: provider,
                        account: account,
                        calendar: calendarID)
                }
            }
            guard let next = answer.syncToken else {
                throw CalendarError(
                    .invalidResponse, "the server's sync-collection answer has no sync token", provider: provider, account: account,
                    calendar: calendarID)
            }
            token = next
            if !truncated { break }
        }
        let resources = changed.keys.sorted().compactMap { changed[$0] }
        await etags.remember(resources, calendarID: calendarID)
        var set = try await changeSet(
            resources, calendarID: calendarID, window: window, isFullRead: false, cursor: Self.cursorPrefix + token)
        set.removed += removedNames.sorted().map { RemovedEvent(id: $0) }
        set.requests = requests
        return .changes(set)
    }

    /// Everything in the window, and the token to continue from (asked for first: a change between the two
    /// requests is then reported again, never lost). A server without sync tokens but with a ctag is followed
    /// by ctag and ETags (`ctagFullRead`).
    func fullRead(calendarID: String, url: URL, window: TimeRange) async throws -> ChangeSet {
        let tokenQuery = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:propfind xmlns:d="DAV:" xmlns:cs="http://calendarserver.org/ns/"><d:prop><d:sync-token/><cs:getctag/></d:prop></d:propfind>
            """
        let (answer, _) = try await client.multistatus(.propfind, url, depth: "0", body: tokenQuery, calendar: calendarID)
        let first = answer.responses.first
        guard let token = first?.property(DAVNamespace.dav, "sync-token")?.text.trimmingCharacters(in: .whitespacesAndNewlines),
            !token.isEmpty
        else {
            if let ctag = first?.property(DAVNamespace.calendarServer, "getctag")?.text.trimmingCharacters(in: .whitespacesAndNewlines),
                !ctag.isEmpty
            {
                return try await ctagFullRead(calendarID: calendarID, url: url, window: window, ctag: ctag)
            }
            throw CalendarError(
                .unsupported,
                "this CalDAV server does not report changes (neither sync-token, RFC 6578, nor a ctag): sync cannot follow it; copy can",
                provider: provider, account: account, calendar: calendarID)
        }
        let resources = try await query(calendarID: calendarID, range: window)
        var set = try await changeSet(
            resources, calendarID: calendarID, window: window, isFullRead: true, cursor: Self.cursorPrefix + token)
        set.requests = 2
        return set
    }

    /// The resources' masters, singles and overrides in the window, and their series' cancelled occurrences
    /// (`EXDATE`) as removals.
    func changeSet(_ resources: [CalDAVResource], calendarID: String, window: TimeRange, isFullRead: Bool, cursor: String) async throws
        -> ChangeSet
    {
        let changed = try await expandOrList(resources, calendarID: calendarID, range: window, expand: false)
        var removed: [RemovedEvent] = []
        let through = LocalDate(instant: window.end, in: TimeZone(secondsFromGMT: 0)!).adding(days: 1)
        for resource in resources {
            guard let master = resource.main, let recurrence = master.recurrence, recurrence.hasExceptionDates else { continue }
            // The cancelled occurrences: those of the rule without its EXDATEs that the rule with them lacks.
            let rule = recurrence.withoutExceptionDates
            guard let all = try? RecurrenceExpansion.starts(of: rule, from: master.start, through: through),
                let kept = try? RecurrenceExpansion.starts(of: recurrence, from: master.start, through: through)
            else { continue }
            let keptKeys = Set(kept.map(ICalendarReader.occurrenceKey))
            for start in all where !keptKeys.contains(ICalendarReader.occurrenceKey(start)) {
                removed.append(
                    RemovedEvent(id: master.id + "_" + ICalendarReader.occurrenceKey(start), seriesID: master.id, originalStart: start))
            }
        }
        return ChangeSet(isFullRead: isFullRead, changed: changed, removed: removed, cursor: cursor, requests: 1)
    }

    /// RFC 6578 §3.2: a token the server refuses is answered with the `valid-sync-token` precondition, as 403
    /// or 409 (Radicale 403, Xandikos 412); a 409 or 412 without a body is taken as the same. A 403 without
    /// it is a refusal of access, not an expired token.
    static func isInvalidToken(_ error: CalendarError) -> Bool {
        guard let status = error.httpStatus, [403, 409, 412].contains(status) else { return false }
        return error.providerCode == "valid-sync-token" || (error.providerCode == nil && status != 403)
    }
}
