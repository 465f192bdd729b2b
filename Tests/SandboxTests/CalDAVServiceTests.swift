import Foundation
import HTTP
import LoopbackServer
import Sandbox
import Testing

/// The sandbox's CalDAV service on the wire, request by request (RFC 4791, 6578, 6764): what a client of
/// any CalDAV server relies on. The provider's own suite runs against it too (CalDAVServerTests).
@Suite("Sandbox CalDAV service")
struct CalDAVServiceTests {
    static let now = ISO8601DateFormatter().date(from: "2027-01-06T12:00:00Z")!
    static let user = "dana@icloud.sandbox"
    static let password = "pw-dana"
    static let seed = """
        {"users": [{"id": "42", "userName": "\(user)", "password": "\(password)", "displayName": "Dana Ito", "calendars": [
          {"id": "home", "name": "Home", "color": "#34AADCFF", "timeZone": "America/Los_Angeles", "events": [
            {"uid": "yoga", "summary": "Yoga", "start": "2027-01-05T07:30", "end": "2027-01-05T08:30", "rrule": "FREQ=WEEKLY;COUNT=10"},
            {"uid": "dentist", "summary": "Dentist", "start": "2027-01-07T16:00", "end": "2027-01-07T16:45"}]},
          {"id": "holidays", "name": "Holidays", "access": "read", "timeZone": "UTC", "events": []}]}]}
        """

    static func emulator(_ quirks: CalDAVQuirks = CalDAVQuirks()) throws -> CalDAVEmulator {
        try CalDAVEmulator(seed: Data(seed.utf8), quirks: quirks, now: now)
    }

    static var authorization: String { "Basic " + Data("\(user):\(password)".utf8).base64EncodedString() }

    static func send(
        _ emulator: CalDAVEmulator, _ method: String, _ path: String, _ body: String = "", headers: HTTPHeaders = [:], auth: Bool = true
    ) async throws -> ServerResponse {
        var all = headers
        if auth { all["Authorization"] = authorization }
        return try #require(await emulator.handle(ServerRequest(method: method, target: path, headers: all, body: Data(body.utf8))))
    }

    /// The `response` elements of a multistatus, by href.
    static func responses(_ response: ServerResponse) throws -> [String: DAVNode] {
        #expect(response.status == 207, "\(String(decoding: response.body, as: UTF8.self))")
        let root = try #require(DAVNode.parse(response.body))
        var byHref: [String: DAVNode] = [:]
        for item in root.all("DAV:", "response") {
            byHref[try #require(item.child("DAV:", "href")).text] = item
        }
        return byHref
    }

    /// A property of a response with status 200, or nil.
    static func found(_ response: DAVNode?, _ namespace: String, _ name: String) -> DAVNode? {
        response?.all("DAV:", "propstat").first { $0.child("DAV:", "status")?.text.contains(" 200 ") == true }?
            .child("DAV:", "prop")?.child(namespace, name)
    }

    static let home = "/caldav/42/calendars/"
    static let calendar = "/caldav/42/calendars/home/"

    static func event(_ uid: String, _ start: String, extra: String = "") -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20270101T000000Z\r\n"
            + "DTSTART:\(start)\r\nDURATION:PT1H\r\nSUMMARY:\(uid)\r\n\(extra)END:VEVENT\r\nEND:VCALENDAR\r\n"
    }

    static func query(_ start: String, _ end: String) -> String {
        """
        <?xml version="1.0"?><c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/>\
        <c:calendar-data/></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT">\
        <c:time-range start="\(start)" end="\(end)"/></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>
        """
    }

    static func sync(_ token: String, limit: Int? = nil) -> String {
        """
        <?xml version="1.0"?><d:sync-collection xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">\
        <d:sync-token>\(token)</d:sync-token><d:sync-level>1</d:sync-level>\
        \(limit.map { "<d:limit><d:nresults>\($0)</d:nresults></d:limit>" } ?? "")<d:prop><d:getetag/></d:prop></d:sync-collection>
        """
    }

    @Test("discovery: the well-known URL redirects without a password; everything else asks for Basic; principal and home")
    func discovery() async throws {
        let emulator = try Self.emulator()
        let wellKnown = try await Self.send(emulator, "PROPFIND", "/.well-known/caldav", auth: false)
        #expect(wellKnown.status == 301)
        #expect(wellKnown.headers["Location"] == "/caldav/")
        let anonymous = try await Self.send(emulator, "PROPFIND", "/caldav/", auth: false)
        #expect(anonymous.status == 401)
        #expect(anonymous.headers["WWW-Authenticate"]?.hasPrefix("Basic ") == true)
        var wrong = HTTPHeaders()
        wrong["Authorization"] = "Basic " + Data("\(Self.user):nope".utf8).base64EncodedString()
        #expect(try await Self.send(emulator, "PROPFIND", "/caldav/", headers: wrong, auth: false).status == 401)

        let body = #"<d:propfind xmlns:d="DAV:"><d:prop><d:current-user-principal/></d:prop></d:propfind>"#
        let root = try Self.responses(try await Self.send(emulator, "PROPFIND", "/caldav/", body, headers: ["Depth": "0"]))
        #expect(Self.found(root["/caldav/"], "DAV:", "current-user-principal")?.child("DAV:", "href")?.text == "/caldav/42/principal/")
        let principalQuery = """
            <d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><c:calendar-home-set/><d:displayname/>\
            <c:calendar-user-address-set/><d:getetag/></d:prop></d:propfind>
            """
        let principal = try Self.responses(
            try await Self.send(emulator, "PROPFIND", "/caldav/42/principal/", principalQuery, headers: ["Depth": "0"]))
        let item = principal["/caldav/42/principal/"]
        #expect(Self.found(item, "urn:ietf:params:xml:ns:caldav", "calendar-home-set")?.child("DAV:", "href")?.text == Self.home)
        #expect(Self.found(item, "DAV:", "displayname")?.text == "Dana Ito")
        #expect(
            Self.found(item, "urn:ietf:params:xml:ns:caldav", "calendar-user-address-set")?.child("DAV:", "href")?.text
                == "mailto:\(Self.user)")
        // Asked for and not there: 404 in its own propstat.
        #expect(
            item?.all("DAV:", "propstat").contains {
                $0.child("DAV:", "status")?.text.contains("404") == true && $0.child("DAV:", "prop")?.child("DAV:", "getetag") != nil
            } == true)
        // Another account's home is refused.
        #expect(try await Self.send(emulator, "PROPFIND", "/caldav/7/calendars/", headers: ["Depth": "1"]).status == 403)
    }

    @Test("one PROPFIND of the home: every calendar with name, colour, zone, components, privileges, ctag and sync token")
    func homeListing() async throws {
        let emulator = try Self.emulator()
        let body = """
            <d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/" \
            xmlns:a="http://apple.com/ns/ical/"><d:prop><d:resourcetype/><d:displayname/><a:calendar-color/><c:calendar-timezone/>\
            <c:supported-calendar-component-set/><d:current-user-privilege-set/><cs:getctag/><d:sync-token/></d:prop></d:propfind>
            """
        let listing = try Self.responses(try await Self.send(emulator, "PROPFIND", Self.home, body, headers: ["Depth": "1"]))
        #expect(Set(listing.keys) == [Self.home, Self.calendar, "/caldav/42/calendars/holidays/"])
        let home = listing[Self.calendar]
        #expect(Self.found(home, "DAV:", "resourcetype")?.child("urn:ietf:params:xml:ns:caldav", "calendar") != nil)
        #expect(Self.found(home, "DAV:", "displayname")?.text == "Home")
        #expect(Self.found(home, "http://apple.com/ns/ical/", "calendar-color")?.text == "#34AADCFF")
        #expect(Self.found(home, "urn:ietf:params:xml:ns:caldav", "calendar-timezone")?.text.contains("TZID:America/Los_Angeles") == true)
        #expect(
            Self.found(home, "urn:ietf:params:xml:ns:caldav", "supported-calendar-component-set")?.children.map { $0.attributes["name"] }
                == ["VEVENT"])
        #expect(Self.found(home, "http://calendarserver.org/ns/", "getctag")?.text.isEmpty == false)
        #expect(Self.found(home, "DAV:", "sync-token")?.text.hasPrefix("http") == true)
        let privileges = { (node: DAVNode?) in Set(node?.all("DAV:", "privilege").flatMap { $0.children.map(\.name) } ?? []) }
        #expect(privileges(Self.found(home, "DAV:", "current-user-privilege-set")).isSuperset(of: ["all", "write", "read"]))
        let holidays = listing["/caldav/42/calendars/holidays/"]
        #expect(privileges(Self.found(holidays, "DAV:", "current-user-privilege-set")) == ["read", "read-current-user-privilege-set"])

        // Without sync-collection: no sync-token (404), and the report is refused.
        let plain = try Self.emulator(CalDAVQuirks(syncCollection: false))
        let plainListing = try Self.responses(try await Self.send(plain, "PROPFIND", Self.home, body, headers: ["Depth": "1"]))
        #expect(Self.found(plainListing[Self.calendar], "DAV:", "sync-token") == nil)
        #expect(Self.found(plainListing[Self.calendar], "http://calendarserver.org/ns/", "getctag") != nil)
        let refused = try await Self.send(plain, "REPORT", Self.calendar, Self.sync(""), headers: ["Depth": "0"])
        #expect(refused.status == 403)
        #expect(String(decoding: refused.body, as: UTF8.self).contains("supported-report"))
    }

    @Test("calendar-query with a time range: series expanded to decide, nothing cut off; calendar-data is the text as PUT")
    func timeRangeQuery() async throws {
        let emulator = try Self.emulator()
        // The yoga series starts before the window and has occurrences in it; the dentist is outside it.
        let week3 = try Self.responses(
            try await Self.send(
                emulator, "REPORT", Self.calendar, Self.query("20270118T000000Z", "20270125T000000Z"), headers: ["Depth": "1"]))
        #expect(Set(week3.keys) == [Self.calendar + "yoga.ics"])
        // 300 more events: every one in the window comes back.
        for index in 0..<300 {
            let put = try await Self.send(
                emulator, "PUT", Self.calendar + "e\(index).ics",
                Self.event("e\(index)", "20270210T\(String(format: "%02d", index % 24))0000Z"))
            #expect(put.status == 201)
        }
        let february = try Self.responses(
            try await Self.send(
                emulator, "REPORT", Self.calendar, Self.query("20270201T000000Z", "20270301T000000Z"), headers: ["Depth": "1"]))
        // The 300, and the yoga series, whose last occurrences are in February.
        #expect(february.count == 301)
        #expect(february[Self.calendar + "yoga.ics"] != nil)
        // The stored text comes back byte for byte, CR LF included.
        let text = Self.event("exact", "20270211T090000Z", extra: "X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC\r\nDESCRIPTION:a\\, b\r\n")
        #expect(try await Self.send(emulator, "PUT", Self.calendar + "exact.ics", text).status == 201)
        let one = try Self.responses(
            try await Self.send(
                emulator, "REPORT", Self.calendar, Self.query("20270211T000000Z", "20270211T100000Z"), headers: ["Depth": "1"]))
        #expect(Self.found(one[Self.calendar + "exact.ics"], "urn:ietf:params:xml:ns:caldav", "calendar-data")?.text == text)
        #expect(String(decoding: try await Self.send(emulator, "GET", Self.calendar + "exact.ics").body, as: UTF8.self) == text)
    }

    @Test(
        "PUT and DELETE with preconditions: If-None-Match * on an existing resource and a stale If-Match are 412; a UID in use; read-only")
    func preconditions() async throws {
        let emulator = try Self.emulator()
        let created = try await Self.send(
            emulator, "PUT", Self.calendar + "a.ics", Self.event("a", "20270110T100000Z"), headers: ["If-None-Match": "*"])
        #expect(created.status == 201)
        let etag = try #require(created.headers["ETag"])
        #expect(
            try await Self.send(
                emulator, "PUT", Self.calendar + "a.ics", Self.event("a", "20270110T110000Z"), headers: ["If-None-Match": "*"]
            ).status == 412)
        #expect(
            try await Self.send(
                emulator, "PUT", Self.calendar + "a.ics", Self.event("a", "20270110T110000Z"), headers: ["If-Match": "\"stale\""]
            ).status == 412)
        let updated = try await Self.send(
            emulator, "PUT", Self.calendar + "a.ics", Self.event("a", "20270110T110000Z"), headers: ["If-Match": etag])
        #expect(updated.status == 204)
        #expect(updated.headers["ETag"] != etag)
        #expect(try await Self.send(emulator, "DELETE", Self.calendar + "a.ics", headers: ["If-Match": etag]).status == 412)
        #expect(
            try await Self.send(emulator, "DELETE", Self.calendar + "a.ics", headers: ["If-Match": try #require(updated.headers["ETag"])])
                .status == 204)
        #expect(try await Self.send(emulator, "DELETE", Self.calendar + "a.ics").status == 404)
        // A second resource with a UID in use: Radicale's 409 by default, Xandikos's 412 by the switch.
        #expect(try await Self.send(emulator, "PUT", Self.calendar + "b.ics", Self.event("dentist", "20270110T100000Z")).status == 409)
        let xandikos = try Self.emulator(CalDAVQuirks(refusals: .xandikos))
        let conflict = try await Self.send(xandikos, "PUT", Self.calendar + "b.ics", Self.event("dentist", "20270110T100000Z"))
        #expect(conflict.status == 412)
        #expect(String(decoding: conflict.body, as: UTF8.self).contains("no-uid-conflict"))
        #expect(
            try await Self.send(emulator, "PUT", "/caldav/42/calendars/holidays/x.ics", Self.event("x", "20270110T100000Z")).status == 403)
        #expect(try await Self.send(emulator, "PUT", Self.calendar + "bad.ics", "BEGIN:VCALENDAR\r\nnot a calendar").status == 403)
        // Dropped X- properties: stored without them, and the answer carries no ETag (RFC 4791 §5.3.4).
        let dropping = try Self.emulator(CalDAVQuirks(dropsXProperties: true))
        let stripped = try await Self.send(
            dropping, "PUT", Self.calendar + "x.ics", Self.event("x", "20270110T100000Z", extra: "X-CALBRIDGE-ORIGIN:abc\r\n"))
        #expect(stripped.status == 201 && stripped.headers["ETag"] == nil)
        #expect(await dropping.storedText(user: Self.user, calendar: "home", name: "x.ics")?.contains("X-CALBRIDGE") == false)
    }

    @Test("multiget: the named resources, a missing one as 404")
    func multiget() async throws {
        let emulator = try Self.emulator()
        let body = """
            <c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop>\
            <d:href>\(Self.calendar)dentist.ics</d:href><d:href>\(Self.calendar)missing.ics</d:href></c:calendar-multiget>
            """
        let answer = try Self.responses(try await Self.send(emulator, "REPORT", Self.calendar, body, headers: ["Depth": "1"]))
        #expect(
            Self.found(answer[Self.calendar + "dentist.ics"], "urn:ietf:params:xml:ns:caldav", "calendar-data")?.text.contains(
                "UID:dentist") == true)
        #expect(answer[Self.calendar + "missing.ics"]?.child("DAV:", "status")?.text.contains("404") == true)
    }

    @Test(
        "sync-collection: everything first, then changes and removals (404); a limit cuts with 507 and the token continues; unknown tokens refused"
    )
    func syncCollection() async throws {
        let emulator = try Self.emulator()
        func report(_ token: String, limit: Int? = nil) async throws -> (items: [String: DAVNode], token: String) {
            let response = try await Self.send(emulator, "REPORT", Self.calendar, Self.sync(token, limit: limit), headers: ["Depth": "0"])
            let items = try Self.responses(response)
            return (items, try #require(DAVNode.parse(response.body)?.child("DAV:", "sync-token")).text)
        }
        let initial = try await report("")
        #expect(Set(initial.items.keys) == [Self.calendar + "yoga.ics", Self.calendar + "dentist.ics"])
        for name in ["a", "b", "c"] {
            _ = try await Self.send(emulator, "PUT", Self.calendar + "\(name).ics", Self.event(name, "20270110T100000Z"))
        }
        _ = try await Self.send(emulator, "DELETE", Self.calendar + "dentist.ics")
        let first = try await report(initial.token, limit: 2)
        #expect(first.items[Self.calendar]?.child("DAV:", "status")?.text.contains("507") == true)
        #expect(Set(first.items.keys) == [Self.calendar, Self.calendar + "a.ics", Self.calendar + "b.ics"])
        let rest = try await report(first.token)
        #expect(Set(rest.items.keys) == [Self.calendar + "c.ics", Self.calendar + "dentist.ics"])
        #expect(rest.items[Self.calendar + "dentist.ics"]?.child("DAV:", "status")?.text.contains("404") == true)
        let idle = try await report(rest.token)
        #expect(idle.items.isEmpty && idle.token == rest.token)

        let unknown = try await Self.send(emulator, "REPORT", Self.calendar, Self.sync("http://elsewhere/1"), headers: ["Depth": "0"])
        #expect(unknown.status == 403)
        #expect(String(decoding: unknown.body, as: UTF8.self).contains("valid-sync-token"))
        await emulator.expireSyncTokens()
        #expect(try await Self.send(emulator, "REPORT", Self.calendar, Self.sync(rest.token), headers: ["Depth": "0"]).status == 403)
        let xandikos = try Self.emulator(CalDAVQuirks(refusals: .xandikos))
        #expect(
            try await Self.send(xandikos, "REPORT", Self.calendar, Self.sync("http://elsewhere/1"), headers: ["Depth": "0"]).status == 412)
    }

    @Test("MKCALENDAR with a name and colour; a second one at the same URL is refused; state survives a snapshot")
    func makeCalendarAndSnapshot() async throws {
        let emulator = try Self.emulator()
        let body = """
            <c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:a="http://apple.com/ns/ical/"><d:set><d:prop>\
            <d:displayname>Trips &amp; more</d:displayname><a:calendar-color>#FF0000FF</a:calendar-color></d:prop></d:set></c:mkcalendar>
            """
        #expect(try await Self.send(emulator, "MKCALENDAR", "/caldav/42/calendars/trips/", body).status == 201)
        #expect(try await Self.send(emulator, "MKCALENDAR", "/caldav/42/calendars/trips/", body).status == 405)
        let restored = try Self.emulator()
        try await restored.restore(try await emulator.snapshot())
        let listing = try Self.responses(try await Self.send(restored, "PROPFIND", "/caldav/42/calendars/trips/", headers: ["Depth": "0"]))
        #expect(Self.found(listing["/caldav/42/calendars/trips/"], "DAV:", "displayname")?.text == "Trips & more")
        #expect(await restored.passwordAccounts() == [SandboxPasswordAccount(service: "caldav", user: Self.user, password: Self.password)])
    }
}
