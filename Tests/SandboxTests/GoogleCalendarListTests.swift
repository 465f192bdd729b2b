import Foundation
import HTTP
import Sandbox
import Testing

@Suite("Google emulator: calendarList and calendars")
struct GoogleCalendarListTests {
    @Test("the seed has two users, each with a primary, a read-only and a shared calendar")
    func seededUsers() async throws {
        let emulator = try GoogleFixture.emulator()
        #expect(emulator.users.map(\.email) == [GoogleFixture.ann, GoogleFixture.bob])
        #expect(emulator.users.map(\.displayName) == ["Ann Lee", "Bob Kim"])
        let reply = await emulator.call("GET", "/calendar/v3/users/me/calendarList")
        #expect(reply.status == 200)
        #expect(reply.json?["kind"] == "calendar#calendarList")
        let items = reply.items
        #expect(items.map(\.id) == [GoogleFixture.ann, GoogleFixture.holidaysDE, GoogleFixture.family])  // hidden one left out
        #expect(items[0]["primary"] == true)
        #expect(items[0]["timeZone"] == "Europe/Berlin")
        #expect(items[1]["accessRole"] == "reader")
        #expect(items[2]["accessRole"] == "owner")
        #expect(reply.json?["nextSyncToken"]?.stringValue != nil)
    }

    @Test("showHidden, minAccessRole and paging with maxResults/pageToken")
    func filtersAndPaging() async throws {
        let emulator = try GoogleFixture.emulator()
        let hidden = await emulator.call("GET", "/calendar/v3/users/me/calendarList?showHidden=true")
        #expect(hidden.items.count == 4)
        #expect(hidden.items.last?["hidden"] == true)
        let writers = await emulator.call("GET", "/calendar/v3/users/me/calendarList?minAccessRole=writer", as: GoogleFixture.bob)
        #expect(writers.items.map(\.id) == [GoogleFixture.bob, GoogleFixture.family])
        #expect(writers.items[1]["summaryOverride"] == "Lee-Kim family")
        let readers = await emulator.call("GET", "/calendar/v3/users/me/calendarList?minAccessRole=reader", as: GoogleFixture.bob)
        #expect(readers.items.count == 3)  // freeBusyReader entry excluded
        var seen: [String] = []
        var token: String?
        var pages = 0
        repeat {
            let query = "?maxResults=1&showHidden=true" + (token.map { "&pageToken=" + $0 } ?? "")
            let page = await emulator.call("GET", "/calendar/v3/users/me/calendarList" + query)
            #expect(page.status == 200)
            #expect(page.items.count == 1)
            seen += page.items.map(\.id)
            token = page.json?["nextPageToken"]?.stringValue
            if token == nil { #expect(page.json?["nextSyncToken"]?.stringValue != nil) }
            pages += 1
        } while token != nil && pages < 10
        #expect(pages == 4)
        #expect(seen.count == 4 && Set(seen).count == 4)
        let bad = await emulator.call("GET", "/calendar/v3/users/me/calendarList?maxResults=0")
        #expect(bad.status == 400)
        #expect(bad.errorReason == "invalid")
        let badRole = await emulator.call("GET", "/calendar/v3/users/me/calendarList?minAccessRole=boss")
        #expect(badRole.status == 400)
    }

    @Test("calendarList.get and calendars.get accept ids with # and @, and the primary alias")
    func getters() async throws {
        let emulator = try GoogleFixture.emulator()
        let entry = await emulator.call("GET", GoogleFixture.path("users", "me", "calendarList", GoogleFixture.holidaysDE))
        #expect(entry.status == 200)
        #expect(entry.json?["kind"] == "calendar#calendarListEntry")
        #expect(entry.json?["summary"] == "Holidays in Germany")
        let primary = await emulator.call("GET", GoogleFixture.path("users", "me", "calendarList", "primary"), as: GoogleFixture.bob)
        #expect(primary.json?.id == GoogleFixture.bob)
        let calendar = await emulator.call("GET", GoogleFixture.path("calendars", "primary"))
        #expect(calendar.status == 200)
        #expect(calendar.json?["kind"] == "calendar#calendar")
        #expect(calendar.json?.id == GoogleFixture.ann)
        #expect(calendar.json?["timeZone"] == "Europe/Berlin")
        let unknown = await emulator.call("GET", GoogleFixture.path("calendars", "nobody@example.com"))
        #expect(unknown.status == 404)
        #expect(unknown.errorReason == "notFound")
    }
}
