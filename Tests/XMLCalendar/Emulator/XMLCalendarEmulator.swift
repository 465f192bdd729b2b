import CalDAV
import CalendarBridge
import Foundation
import HTTP
import LoopbackServer
import Sandbox
import TestSupport
import XMLCalendar

/// The XML calendar service in the sandbox: `/xmlcal/...` (as `XMLCalendarProvider` documents it), HTTP
/// Basic authentication against its seeded users (401 with `WWW-Authenticate` otherwise), each user's
/// calendars kept by an `InMemoryCalendarProvider`. A fictional service, so the emulator reads and writes
/// the wire format with the provider's own `DAVElement` and codec; its state is not kept across restarts.
package struct XMLCalendarEmulator: SandboxComponent {
    /// A seeded user: the user name and app password that sign in, and who they are.
    package struct User: Sendable {
        package var userName: String
        package var password: String
        package var email: String
        package var displayName: String

        package init(userName: String, password: String, email: String, displayName: String) {
            self.userName = userName
            self.password = password
            self.email = email
            self.displayName = displayName
        }
    }

    private let users: [String: (user: User, calendars: InMemoryCalendarProvider)]

    package init(users: [User]) {
        var byName: [String: (User, InMemoryCalendarProvider)] = [:]
        for user in users {
            let calendar = CalendarInfo(
                id: "diary-\(user.userName)", name: "Diary", account: user.userName, provider: XMLCalendarRegistration.kind,
                isPrimary: true,
                accessRole: .owner, timeZone: "Europe/Berlin")
            byName[user.userName] = (
                user, InMemoryCalendarProvider(provider: XMLCalendarRegistration.kind, account: user.userName, calendars: [calendar])
            )
        }
        self.users = byName
    }

    /// This emulator as a service for `SandboxServer.start(services:)`: one line in a sandbox's list. It needs
    /// nothing of the seed or the token authority (its users sign in with passwords).
    package var service: SandboxService {
        SandboxService(name: "xmlcal", apiPaths: ["/xmlcal"]) { _, _, _ in (self, []) }
    }

    /// The calendars of a user, for tests to look at.
    package func calendars(of userName: String) -> InMemoryCalendarProvider? { users[userName]?.calendars }

    package func handle(_ request: ServerRequest) async -> ServerResponse? {
        guard request.pathSegments.first == "xmlcal" else { return nil }
        guard let (user, store) = authenticated(request) else {
            var response = Self.error(401, "unauthorized", "the user name or password is wrong")
            response.headers["WWW-Authenticate"] = "Basic realm=\"xmlcal\""
            return response
        }
        do {
            return try await route(request, Array(request.pathSegments.dropFirst()), user, store)
        } catch let error as CalendarError {
            return Self.error(error.code == .notFound ? 404 : 400, error.code.rawValue, error.message)
        } catch {
            return Self.error(400, "bad-request", "\(error)")
        }
    }

    package func snapshot() async throws -> Data { Data("{}".utf8) }
    package func restore(_ snapshot: Data) async throws {}

    private func route(_ request: ServerRequest, _ path: [String], _ user: User, _ store: InMemoryCalendarProvider) async throws
        -> ServerResponse
    {
        switch (request.method, path.count) {
        case ("GET", 1) where path[0] == "me":
            let attributes = ["name": user.displayName, "email": user.email, "timeZone": "Europe/Berlin"]
            return Self.ok(DAVElement("", "user", attributes: attributes))
        case ("GET", 1) where path[0] == "calendars":
            let calendars = try await store.listCalendars().map { calendar in
                DAVElement(
                    "", "calendar",
                    attributes: [
                        "id": calendar.id, "name": calendar.name, "timeZone": calendar.timeZone ?? "UTC",
                        "primary": calendar.isPrimary ? "true" : "false", "role": calendar.accessRole.rawValue,
                    ])
            }
            return Self.ok(DAVElement("", "calendars", children: calendars))
        case ("GET", 3) where path[0] == "calendars" && path[2] == "events":
            let value = { (name: String) in request.query.first { $0.name == name }?.value }
            let from = value("from").flatMap(XMLCalendarCodec.instant) ?? .distantPast
            let to = value("to").flatMap(XMLCalendarCodec.instant) ?? .distantFuture
            let events = try await store.listEvents(calendarID: path[1], range: TimeRange(start: from, end: to), expand: false)
            return Self.ok(DAVElement("", "events", children: events.map(XMLCalendarCodec.element(for:))))
        case ("POST", 3) where path[0] == "calendars" && path[2] == "events":
            let event = try XMLCalendarCodec.event(from: try DAVElement.parse(request.body))
            let created = try await store.createEvent(event, in: path[1], idempotencyKey: nil)
            var response = Self.ok(XMLCalendarCodec.element(for: created))
            response.status = 201
            return response
        case ("GET", 4) where path[0] == "calendars" && path[2] == "events":
            return Self.ok(XMLCalendarCodec.element(for: try await store.getEvent(id: path[3], calendarID: path[1])))
        case ("PUT", 4) where path[0] == "calendars" && path[2] == "events":
            var event = try XMLCalendarCodec.event(from: try DAVElement.parse(request.body))
            event.id = path[3]
            event.calendarID = path[1]
            return Self.ok(XMLCalendarCodec.element(for: try await store.updateEvent(event, fields: .all)))
        case ("DELETE", 4) where path[0] == "calendars" && path[2] == "events":
            _ = try await store.getEvent(id: path[3], calendarID: path[1])
            try await store.deleteEvent(id: path[3], calendarID: path[1])
            return ServerResponse(status: 204)
        default:
            return Self.error(404, "not-found", "no such resource: \(request.method) \(request.rawPath)")
        }
    }

    private func authenticated(_ request: ServerRequest) -> (User, InMemoryCalendarProvider)? {
        guard let header = request.headers["Authorization"], header.hasPrefix("Basic "),
            let decoded = Data(base64Encoded: String(header.dropFirst(6))).map({ String(decoding: $0, as: UTF8.self) }),
            let colon = decoded.firstIndex(of: ":"),
            let entry = users[String(decoded[..<colon])], entry.user.password == String(decoded[decoded.index(after: colon)...])
        else { return nil }
        return (entry.user, entry.calendars)
    }

    private static func ok(_ element: DAVElement) -> ServerResponse {
        ServerResponse(status: 200, headers: ["Content-Type": "application/xml; charset=utf-8"], body: element.document())
    }

    private static func error(_ status: Int, _ code: String, _ message: String) -> ServerResponse {
        ServerResponse(
            status: status, headers: ["Content-Type": "application/xml; charset=utf-8"],
            body: DAVElement("", "error", attributes: ["code": code], text: message).document())
    }
}
