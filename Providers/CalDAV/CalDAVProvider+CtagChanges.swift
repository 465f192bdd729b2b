import CalendarBridge
import Foundation

/// Change reads for servers without `sync-collection` (RFC 6578): the collection's ctag (CalendarServer's
/// `getctag`) says whether anything changed, the members' ETags say what. The cursor carries the ctag and
/// every member's ETag. An idle check is one PROPFIND of the home (every calendar's ctag at once); after a
/// ctag change, one PROPFIND lists every member with its ETag and one `calendar-multiget` fetches only the
/// new and changed ones. A removal is only a name missing from that whole listing.
extension CalDAVProvider {
    /// The prefix of ctag cursors (`caldavctag1:` and the JSON of `CtagCursor`).
    static let ctagCursorPrefix = "caldavctag1:"
    /// The most members one `calendar-multiget` asks for.
    static let multigetBatch = 100

    /// What a ctag cursor remembers of the calendar.
    struct CtagCursor: Codable, Equatable {
        var ctag: String
        /// Every member's ETag, by resource name.
        var etags: [String: String]

        var text: String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let data = (try? encoder.encode(self)) ?? Data()
            return CalDAVProvider.ctagCursorPrefix + String(decoding: data, as: UTF8.self)
        }

        init(ctag: String, etags: [String: String]) {
            self.ctag = ctag
            self.etags = etags
        }

        init?(_ cursor: String) {
            guard cursor.hasPrefix(CalDAVProvider.ctagCursorPrefix),
                let value = try? JSONDecoder().decode(
                    CtagCursor.self, from: Data(cursor.dropFirst(CalDAVProvider.ctagCursorPrefix.count).utf8))
            else { return nil }
            self = value
        }
    }

    /// The changes since a ctag cursor.
    func ctagChanges(calendarID: String, url: URL, window: TimeRange, cursor: CtagCursor) async throws -> ChangeRead {
        // One PROPFIND of the home: every calendar's ctag.
        let collections = try await listCollections()
        guard let collection = collections.first(where: { $0.info.id == calendarID || $0.url.path == url.path }) else {
            throw CalendarError(.notFound, "no calendar \(calendarID)", provider: provider, account: account, calendar: calendarID)
        }
        guard let ctag = collection.ctag, !ctag.isEmpty else {
            return .cursorExpired(CursorExpiry(.expired, message: "the server no longer reports the calendar's ctag"))
        }
        if ctag == cursor.ctag {
            return .changes(ChangeSet(isFullRead: false, changed: [], removed: [], cursor: cursor.text, requests: 1))
        }
        let listing = try await memberETags(calendarID: calendarID, url: url)
        let changedNames = listing.etags.filter { cursor.etags[$0.key] != $0.value }.keys.sorted()
        let removedNames = cursor.etags.keys.filter { listing.etags[$0] == nil }.sorted()
        var resources: [CalDAVResource] = []
        var requests = 2
        var start = 0
        while start < changedNames.count {
            let batch = Array(changedNames[start..<min(start + Self.multigetBatch, changedNames.count)])
            resources += try await multiget(batch.compactMap { listing.hrefs[$0] }, calendarID: calendarID, url: url)
            requests += 1
            start += Self.multigetBatch
        }
        // A member changed between the listing and the multiget is fetched again next time: its ETag in the
        // cursor is the one the multiget returned, or none.
        var etags = listing.etags
        for name in changedNames { etags[name] = resources.first { $0.name == name }?.etag }
        var set = try await changeSet(
            resources, calendarID: calendarID, window: window, isFullRead: false, cursor: CtagCursor(ctag: ctag, etags: etags).text)
        set.removed += removedNames.map { RemovedEvent(id: $0) }
        set.requests = requests
        return .changes(set)
    }

    /// A full read on a server without sync tokens: the window's events, and a cursor of the ctag (read
    /// first, so a change meanwhile is seen again) and every member's ETag.
    func ctagFullRead(calendarID: String, url: URL, window: TimeRange, ctag: String) async throws -> ChangeSet {
        let listing = try await memberETags(calendarID: calendarID, url: url)
        let resources = try await query(calendarID: calendarID, range: window)
        var set = try await changeSet(
            resources, calendarID: calendarID, window: window, isFullRead: true,
            cursor: CtagCursor(ctag: ctag, etags: listing.etags).text)
        set.requests = 3
        return set
    }

    /// Every member of the calendar with its ETag (PROPFIND, Depth 1), and the href each was named by.
    func memberETags(calendarID: String, url: URL) async throws -> (etags: [String: String], hrefs: [String: String]) {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/><d:getetag/></d:prop></d:propfind>
            """
        let (answer, base) = try await client.multistatus(.propfind, url, depth: "1", body: body, calendar: calendarID)
        var etags: [String: String] = [:]
        var hrefs: [String: String] = [:]
        for response in answer.responses {
            guard let member = CalDAVClient.resolve(response.href, against: base), !response.href.hasSuffix("/"),
                member.path != url.path, response.property(DAVNamespace.dav, "resourcetype")?.children.isEmpty ?? true,
                let etag = response.property(DAVNamespace.dav, "getetag")?.text.trimmingCharacters(in: .whitespacesAndNewlines)
            else { continue }
            etags[member.lastPathComponent] = etag
            hrefs[member.lastPathComponent] = response.href
        }
        return (etags, hrefs)
    }

    /// The named members with their data (`calendar-multiget`, RFC 4791 §7.9); a member gone meanwhile is
    /// left out.
    func multiget(_ hrefs: [String], calendarID: String, url: URL) async throws -> [CalDAVResource] {
        guard !hrefs.isEmpty else { return [] }
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/>\
            </d:prop>\(hrefs.map { "<d:href>\(DAVElement.escape($0))</d:href>" }.joined())</c:calendar-multiget>
            """
        let (answer, base) = try await client.multistatus(.report, url, depth: "1", body: body, calendar: calendarID)
        let found = try resources(answer, base: base, calendarID: calendarID)
        await etags.remember(found, calendarID: calendarID)
        return found
    }
}
