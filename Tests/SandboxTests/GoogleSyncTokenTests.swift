import Foundation
import HTTP
import Sandbox
import Testing

/// events.list with `syncToken`, as Google's "Synchronize resources efficiently" guide and the events.list
/// reference describe it (the basic round trip is in GoogleEventsWriteTests).
@Suite("Sandbox Google: incremental sync")
struct GoogleSyncTokenTests {
    let events = GoogleFixture.path("calendars", "primary", "events")

    /// Pages through one listing: its items, page count and the final nextSyncToken.
    func all(_ emulator: GoogleCalendarEmulator, _ query: [(String, String)]) async throws -> (items: [GoogleJSON], pages: Int, syncToken: String) {
        var items: [GoogleJSON] = []
        var pageToken: String?
        var pages = 0
        repeat {
            let reply = await emulator.list("primary", query + (pageToken.map { [("pageToken", $0)] } ?? []))
            try #require(reply.status == 200, "\(reply.errorReason ?? "")")
            items += reply.items
            pages += 1
            pageToken = reply.json?["nextPageToken"]?.stringValue
            #expect((pageToken == nil) == (reply.json?["nextSyncToken"] != nil), "nextSyncToken on the last page only")
            if pageToken == nil { return (items, pages, try #require(reply.json?["nextSyncToken"]?.stringValue)) }
        } while pages < 100
        Issue.record("no last page")
        return (items, pages, "")
    }

    @Test("changes page with pageToken under the same syncToken; the last page carries nextSyncToken")
    func pagedChanges() async throws {
        let emulator = try GoogleFixture.emulator()
        let full = try await all(emulator, [])
        var created: [String] = []
        for n in 0..<5 {
            let id = "pagedsnc000\(n)"
            let reply = await emulator.call("POST", events, body: #"{"id": "\#(id)", "start": {"dateTime": "2026-10-2\#(n)T10:00:00Z"}, "end": {"dateTime": "2026-10-2\#(n)T11:00:00Z"}}"#)
            #expect(reply.status == 200)
            created.append(id)
        }
        let changes = try await all(emulator, [("syncToken", full.syncToken), ("maxResults", "2")])
        #expect(changes.pages == 3)
        #expect(changes.items.map(\.id).sorted() == created)
        #expect(try await all(emulator, [("syncToken", changes.syncToken)]).items.isEmpty)
    }

    @Test("a deleted series instance and a deleted series come back as cancelled (showDeleted is implied)")
    func cancelledItems() async throws {
        let emulator = try GoogleFixture.emulator()
        let full = try await all(emulator, [("singleEvents", "true"), ("timeMin", "2026-10-19T00:00:00Z"), ("timeMax", "2026-10-26T00:00:00Z")])
        let instance = try #require(full.items.first { $0["recurringEventId"]?.stringValue == "annstandup0001" })
        #expect(await emulator.call("DELETE", GoogleFixture.path("calendars", "primary", "events", instance.id)).status == 204)
        let changes = try await all(emulator, [("singleEvents", "true"), ("syncToken", full.syncToken)])
        #expect(changes.items.map(\.id) == [instance.id])
        #expect(changes.items.first?["status"] == "cancelled")

        #expect(await emulator.call("DELETE", GoogleFixture.path("calendars", "primary", "events", "annmonthrev0001")).status == 204)
        let masters = try await all(emulator, [("syncToken", changes.syncToken)])
        #expect(masters.items.map(\.id) == ["annmonthrev0001"])
        #expect(masters.items.first?["status"] == "cancelled")
    }

    @Test("syncToken cannot be combined with filters: 400 naming the parameter", arguments: [
        "timeMin", "timeMax", "q", "privateExtendedProperty", "sharedExtendedProperty", "iCalUID", "orderBy", "updatedMin",
    ])
    func refusedCombination(parameter: String) async throws {
        let emulator = try GoogleFixture.emulator()
        let token = try #require(await emulator.list("primary").json?["nextSyncToken"]?.stringValue)
        let value = switch parameter {
        case "timeMin", "timeMax", "updatedMin": "2026-10-19T00:00:00Z"
        case "privateExtendedProperty", "sharedExtendedProperty": "k=v"
        case "orderBy": "updated"
        default: "x"
        }
        let reply = await emulator.list("primary", [("syncToken", token), (parameter, value)])
        #expect(reply.status == 400)
        #expect(reply.json?["error"]?["errors"]?.arrayValue?.first?["location"]?.stringValue == parameter)
    }

    @Test("the expiry switch makes the next use of any token answer 410 fullSyncRequired; a full sync recovers")
    func expirySwitch() async throws {
        let emulator = try GoogleFixture.emulator()
        let first = try await all(emulator, [])
        await emulator.expireSyncTokens()
        let reply = await emulator.list("primary", [("syncToken", first.syncToken)])
        #expect(reply.status == 410)
        #expect(reply.errorReason == "fullSyncRequired")
        let again = try await all(emulator, [])
        #expect(again.items.count == first.items.count)
        #expect(await emulator.list("primary", [("syncToken", again.syncToken)]).status == 200)
    }
}
