import Foundation
import HTTP
import Sandbox
import Testing

/// Checks emulator responses against the schemas of Google's own discovery document: every field present
/// must be declared there, with a compatible JSON type, recursively.
@Suite("Google emulator: responses match the discovery document's schemas")
struct GoogleSchemaTests {
    static let discovery: GoogleJSON = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/reference/google-calendar-v3.discovery.json")
        return (try? Data(contentsOf: url)).flatMap(GoogleJSON.parse) ?? .null
    }()

    /// Problems found in `value` against `schema` (empty when it conforms).
    func violations(_ value: GoogleJSON, _ schema: GoogleJSON, at path: String) -> [String] {
        var schema = schema
        if let ref = schema["$ref"]?.stringValue {
            guard let resolved = Self.discovery["schemas"]?[ref] else { return ["\(path): unknown $ref \(ref)"] }
            schema = resolved
        }
        let type = schema["type"]?.stringValue ?? "any"
        switch (type, value) {
        case ("any", _), ("string", .string), ("boolean", .bool), ("integer", .int), ("number", .int), ("number", .double):
            return []
        case ("array", .array(let items)):
            guard let itemSchema = schema["items"] else { return ["\(path): array without item schema"] }
            return items.enumerated().flatMap { violations($0.element, itemSchema, at: "\(path)[\($0.offset)]") }
        case ("object", .object(let object)):
            var problems: [String] = []
            for (key, child) in object {
                if let property = schema["properties"]?[key] {
                    problems += violations(child, property, at: "\(path).\(key)")
                } else if let additional = schema["additionalProperties"] {
                    problems += violations(child, additional, at: "\(path).\(key)")
                } else {
                    problems.append("\(path).\(key): not declared in the schema")
                }
            }
            return problems
        default:
            return ["\(path): expected \(type), got \(value)"]
        }
    }

    func check(_ reply: GoogleReply, _ schemaName: String) throws {
        #expect(reply.status == 200)
        let json = try #require(reply.json)
        let problems = violations(json, ["$ref": .string(schemaName)], at: schemaName)
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("the discovery document is there and the checker catches a wrong field and a wrong type")
    func checkerWorks() throws {
        #expect(Self.discovery["schemas"]?["Event"] != nil)
        #expect(!violations(["summary": 5], ["$ref": "Event"], at: "Event").isEmpty)
        #expect(!violations(["subject": "x"], ["$ref": "Event"], at: "Event").isEmpty)
        #expect(!violations(["start": ["dateTime": true]], ["$ref": "Event"], at: "Event").isEmpty)
        #expect(violations(["summary": "x", "extendedProperties": ["private": ["a": "b"]]], ["$ref": "Event"], at: "Event").isEmpty)
    }

    @Test("calendarList.list, calendarList.get and calendars.get")
    func calendars() async throws {
        let emulator = try GoogleFixture.emulator()
        for user in [GoogleFixture.ann, GoogleFixture.bob] {
            try check(await emulator.call("GET", "/calendar/v3/users/me/calendarList?showHidden=true", as: user), "CalendarList")
            try check(await emulator.call("GET", "/calendar/v3/users/me/calendarList?maxResults=1", as: user), "CalendarList")
            try check(await emulator.call("GET", GoogleFixture.path("users", "me", "calendarList", "primary"), as: user), "CalendarListEntry")
            try check(await emulator.call("GET", GoogleFixture.path("calendars", "primary"), as: user), "Calendar")
        }
    }

    @Test("events.list (both modes, every seeded calendar and role), events.get and instances")
    func events() async throws {
        let emulator = try GoogleFixture.emulator()
        let window = [("timeMin", "2026-09-01T00:00:00Z"), ("timeMax", "2026-12-31T00:00:00Z")]
        for (user, calendars) in [
            (GoogleFixture.ann, [GoogleFixture.ann, GoogleFixture.holidaysDE, GoogleFixture.family, GoogleFixture.bob]),
            (GoogleFixture.bob, [GoogleFixture.bob, "en.usa#holiday@group.v.calendar.google.com", GoogleFixture.family, GoogleFixture.ann]),
        ] {
            for calendar in calendars {
                try check(await emulator.list(calendar, window, as: user), "Events")
                try check(await emulator.list(calendar, window + [("singleEvents", "true"), ("showDeleted", "true")], as: user), "Events")
            }
        }
        try check(await emulator.call("GET", GoogleFixture.path("calendars", "primary", "events", "annkickoff0001")), "Event")
        try check(await emulator.call("GET", GoogleFixture.path("calendars", "primary", "events", "annstandup0001_20261021T070000Z")), "Event")
        try check(await emulator.call("GET", GoogleFixture.path("calendars", "primary", "events", "annstandup0001", "instances")), "Events")
    }

    @Test("insert, patch, import and quickAdd responses")
    func writes() async throws {
        let emulator = try GoogleFixture.emulator()
        let events = GoogleFixture.path("calendars", "primary", "events")
        let body = #"{"summary": "Schema", "start": {"dateTime": "2026-10-22T10:00:00Z", "timeZone": "UTC"}, "end": {"dateTime": "2026-10-22T11:00:00Z", "timeZone": "UTC"}, "attendees": [{"email": "x@example.com"}], "reminders": {"useDefault": false, "overrides": [{"method": "email", "minutes": 30}]}, "recurrence": ["RRULE:FREQ=DAILY;COUNT=3"], "colorId": "5", "transparency": "transparent", "visibility": "private"}"#
        let inserted = await emulator.call("POST", events, body: body)
        try check(inserted, "Event")
        try check(await emulator.call("PATCH", events + "/" + (inserted.json?.id ?? ""), body: #"{"location": "Here"}"#), "Event")
        try check(await emulator.call("POST", events + "/import", body: #"{"iCalUID": "u1@example.com", "start": {"date": "2026-10-22"}, "end": {"date": "2026-10-23"}}"#), "Event")
        try check(await emulator.call("POST", events + "/quickAdd?text=Coffee"), "Event")
    }
}
