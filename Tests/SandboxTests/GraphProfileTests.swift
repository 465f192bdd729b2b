import Foundation
import HTTP
import Sandbox
import Testing
import LoopbackServer

@Suite("Graph emulator: /me, mailbox settings and calendars")
struct GraphProfileTests {
    @Test("the seeded users are Microsoft sign-in accounts")
    func users() throws {
        let emulator = try GraphTest.emulator()
        #expect(emulator.users.map(\.email) == [GraphTest.carol, GraphTest.dan])
        #expect(emulator.users.allSatisfy { $0.provider == .microsoft })
    }

    @Test("GET /me returns the profile of the token's user; $select narrows it and can embed mailboxSettings")
    func me() async throws {
        let emulator = try GraphTest.emulator()
        let full = try await GraphTest.send(emulator, "GET", "/v1.0/me/")
        #expect(full.status == 200)
        #expect(full.json["displayName"] as? String == "Carol Diaz")
        #expect(full.json["mail"] as? String == GraphTest.carol)
        #expect(full.json["userPrincipalName"] as? String == GraphTest.carol)
        #expect(full.json["id"] as? String == "6e1b2c3d-4f50-4a61-8b72-93a4b5c6d701")
        #expect(full.json["businessPhones"] is [Any])
        #expect(full.headers["request-id"] != nil)

        let selected = try await GraphTest.send(
            emulator, "GET", "/v1.0/me?$select=displayName,mail,mailboxSettings,userPrincipalName", as: GraphTest.dan)
        #expect(selected.status == 200)
        #expect(selected.json["displayName"] as? String == "Dan Wu")
        #expect(selected.json["jobTitle"] == nil)
        #expect((selected.json["mailboxSettings"] as? [String: Any])?["timeZone"] as? String == "W. Europe Standard Time")
        #expect((selected.json["@odata.context"] as? String)?.hasSuffix("$metadata#users(displayName,mail,mailboxSettings,userPrincipalName)/$entity") == true)

        let bad = try await GraphTest.send(emulator, "GET", "/v1.0/me?$select=shoeSize")
        #expect(bad.status == 400)
        #expect(bad.errorMessage == "Could not find a property named 'shoeSize' on type 'microsoft.graph.user'.")
    }

    @Test("mailboxSettings carries a Windows time zone; one mailbox is not UTC")
    func mailboxSettings() async throws {
        let emulator = try GraphTest.emulator()
        let carol = try await GraphTest.send(emulator, "GET", "/v1.0/me/mailboxSettings")
        #expect(carol.status == 200)
        #expect(carol.json["timeZone"] as? String == "Pacific Standard Time")
        #expect((carol.json["workingHours"] as? [String: Any])?["daysOfWeek"] as? [String] != nil)
        let dan = try await GraphTest.send(emulator, "GET", "/v1.0/me/MailboxSettings", as: GraphTest.dan)
        #expect(dan.json["timeZone"] as? String == "W. Europe Standard Time")
    }

    @Test("calendars list the default, a read-only and an editable shared calendar with Graph's fields")
    func calendars() async throws {
        let emulator = try GraphTest.emulator()
        let reply = try await GraphTest.send(emulator, "GET", "/v1.0/me/calendars")
        #expect(reply.status == 200)
        let calendars = reply.value
        #expect(calendars.map { $0["name"] as? String } == ["Calendar", "Contoso Holidays", "Project Falcon"])
        let fields = ["id", "name", "color", "hexColor", "isDefaultCalendar", "canEdit", "canShare", "canViewPrivateItems",
                      "owner", "isRemovable", "allowedOnlineMeetingProviders", "defaultOnlineMeetingProvider", "changeKey"]
        for calendar in calendars { for field in fields { #expect(calendar[field] != nil, "missing \(field)") } }
        #expect(calendars[0]["isDefaultCalendar"] as? Bool == true)
        #expect(calendars[1]["canEdit"] as? Bool == false)
        #expect(calendars[2]["canEdit"] as? Bool == true)
        #expect((calendars[2]["owner"] as? [String: Any])?["address"] as? String == GraphTest.dan)
        #expect(reply.json["@odata.nextLink"] == nil)
    }

    @Test("calendar paging: $top pages and @odata.nextLink, followed through handle, yields every calendar once")
    func calendarPaging() async throws {
        let emulator = try GraphTest.emulator()
        let first = try await GraphTest.send(emulator, "GET", "/v1.0/me/calendars?$top=2")
        #expect(first.value.count == 2)
        let link = try #require(first.json["@odata.nextLink"] as? String)
        #expect(link.hasPrefix("http://127.0.0.1:8765/v1.0/me/calendars?"))
        #expect(link.contains("$skip=2"))
        var pages = 0
        let all = try await GraphTest.all(emulator, "/v1.0/me/calendars?$top=2", pages: &pages)
        #expect(pages == 2)
        #expect(Set(all.compactMap { $0["id"] as? String }).count == 3)
    }

    @Test("GET /me/calendar is the default calendar; /me/calendars/{id} one calendar; unknown ids are 404")
    func oneCalendar() async throws {
        let emulator = try GraphTest.emulator()
        let list = try await GraphTest.send(emulator, "GET", "/v1.0/me/calendars")
        let defaultID = try #require(list.value.first?["id"] as? String)
        let sharedID = try #require(list.value.last?["id"] as? String)
        let byDefault = try await GraphTest.send(emulator, "GET", "/v1.0/me/calendar")
        #expect(byDefault.json["id"] as? String == defaultID)
        let shared = try await GraphTest.send(emulator, "GET", "/v1.0/ME/Calendars/\(sharedID)?$select=name,canEdit")
        #expect(shared.json["name"] as? String == "Project Falcon")
        #expect(shared.json["color"] == nil)
        let missing = try await GraphTest.send(emulator, "GET", "/v1.0/me/calendars/AAMkAGnope=")
        #expect(missing.status == 404)
        #expect(missing.errorCode == "ErrorItemNotFound")
        #expect(missing.errorMessage == "The specified object was not found in the store.")
    }

    @Test("/users/{upn} reaches one's own mailbox; another user's is access denied")
    func usersPath() async throws {
        let emulator = try GraphTest.emulator()
        let own = try await GraphTest.send(emulator, "GET", "/v1.0/users/\(GraphTest.carol)/calendars")
        #expect(own.status == 200)
        #expect(own.value.count == 3)
        let other = try await GraphTest.send(emulator, "GET", "/v1.0/users/\(GraphTest.dan)/calendars")
        #expect(other.status == 403)
        #expect(other.errorCode == "ErrorAccessDenied")
    }

    @Test("paths outside /v1.0 are not this component's")
    func notMine() async throws {
        let emulator = try GraphTest.emulator()
        #expect(await emulator.handle(ServerRequest(method: "GET", target: "/calendar/v3/users/me/calendarList")) == nil)
        #expect(await emulator.handle(ServerRequest(method: "GET", target: "/common/oauth2/v2.0/token")) == nil)
    }
}
