import Foundation
import HTTP
import Sandbox
import Testing

@Suite("Google emulator: partial responses (fields)")
struct GoogleFieldSelectionTests {
    static let event: GoogleJSON = [
        "kind": "calendar#event", "id": "e1", "summary": "Review", "description": "long text",
        "start": ["dateTime": "2026-10-19T09:00:00+02:00", "timeZone": "Europe/Berlin"],
        "attendees": [["email": "a@example.com", "responseStatus": "accepted"], ["email": "b@example.com"]],
        "extendedProperties": ["private": ["k": "v"], "shared": ["s": "t"]],
    ]

    @Test("paths, slashes, parentheses and * select as Google documents; arrays are cut element by element")
    func projection() throws {
        let page: GoogleJSON = ["items": [Self.event, Self.event], "nextPageToken": "p2", "etag": "x"]
        let cut = try GoogleFieldSelection(parsing: "items(id,start/dateTime,attendees/email,extendedProperties/private),nextPageToken")
            .project(page)
        let item: GoogleJSON = [
            "id": "e1", "start": ["dateTime": "2026-10-19T09:00:00+02:00"],
            "attendees": [["email": "a@example.com"], ["email": "b@example.com"]],
            "extendedProperties": ["private": ["k": "v"]],
        ]
        #expect(cut == ["items": [item, item], "nextPageToken": "p2"])
        #expect(try GoogleFieldSelection(parsing: "items(start,start/timeZone)").project(page)
            == ["items": [["start": Self.event["start"]!], ["start": Self.event["start"]!]]], "a whole member stays whole")
        #expect(try GoogleFieldSelection(parsing: "items/id, nextPageToken").project(page)
            == ["items": [["id": "e1"], ["id": "e1"]], "nextPageToken": "p2"])
        #expect(try GoogleFieldSelection(parsing: "*").project(page) == page)
        #expect(try GoogleFieldSelection(parsing: "items(missing)").project(page) == ["items": [[:], [:]]])
    }

    @Test("a malformed selection is Google's 400", arguments: ["", "items(", "items(id))", "a,,b", "items/", "(id)", "items(id,)"])
    func malformed(text: String) {
        #expect(throws: GoogleAPIError.self) { try GoogleFieldSelection(parsing: text) }
    }

    @Test("selections nest up to 32 levels; deeper ones are refused, not recursed into")
    func depth() throws {
        func nested(_ levels: Int) -> String {
            String(repeating: "a(", count: levels - 1) + "b" + String(repeating: ")", count: levels - 1)
        }
        #expect(throws: Never.self) { try GoogleFieldSelection(parsing: nested(32)) }
        #expect(throws: GoogleAPIError.self) { try GoogleFieldSelection(parsing: nested(33)) }
        #expect(throws: GoogleAPIError.self) { try GoogleFieldSelection(parsing: nested(4_000)) }
        #expect(throws: GoogleAPIError.self) { try GoogleFieldSelection(parsing: Array(repeating: "a", count: 4_000).joined(separator: "/")) }
    }

    @Test("events.list answers the page cut to fields; a malformed one is 400 invalid on the parameter")
    func listing() async throws {
        let emulator = try GoogleFixture.emulator()
        let whole = await emulator.list("primary", [("maxResults", "3")])
        let cut = await emulator.list("primary", [("maxResults", "3"), ("fields", "items(id,summary),nextPageToken")])
        #expect(whole.status == 200 && cut.status == 200)
        #expect(cut.json?["kind"] == nil && cut.json?["nextPageToken"] == whole.json?["nextPageToken"])
        #expect(cut.items.map(\.id) == whole.items.map(\.id))
        #expect(cut.items.map(\.summary) == whole.items.map(\.summary))
        #expect(cut.items.allSatisfy { $0["start"] == nil && $0["etag"] == nil })
        let bad = await emulator.list("primary", [("fields", "items(id")])
        #expect(bad.status == 400)
        #expect(String(decoding: bad.body, as: UTF8.self).contains("Invalid field selection"))
    }

    @Test("a name the Events resource does not have is Google's 400 naming it; maps take any key", arguments: [
        ("pagetoken,items(id)", "pagetoken"),  // reported against Google: the member is nextPageToken
        ("items(id,colour)", "colour"),
        ("items(start/hour)", "hour"),
        ("items(summary/text)", "text"),
        ("Items(id)", "Items"),
        ("items(id),nextPageToken", nil),
        ("items(extendedProperties/private/calbridge.origin,start(dateTime,timeZone)),nextPageToken", nil),
        ("items(*),*", nil),
        ("items(attendees(email,responseStatus),reminders/overrides/minutes)", nil),
    ] as [(String, String?)])
    func unknownNames(text: String, unknown: String?) async throws {
        let emulator = try GoogleFixture.emulator()
        let reply = await emulator.list("primary", [("fields", text)])
        if let unknown {
            #expect(reply.status == 400)
            let error = reply.json?["error"]
            #expect(error?["message"]?.stringValue == "Invalid field selection \(unknown)")
            #expect(error?["errors"]?.arrayValue?.first?["location"]?.stringValue == "fields")
        } else {
            #expect(reply.status == 200)
        }
    }

    @Test("the Events schema the selections are checked against is the discovery document's, member for member")
    func schemaFromDiscovery() throws {
        let schemas = try #require(GoogleSchemaTests.discovery["schemas"])
        /// `schema` in `fields` syntax: members with what is inside them, a map as `*`; nil for a plain value.
        func render(_ schema: GoogleJSON, seen: Set<String>) -> String? {
            if let ref = schema["$ref"]?.stringValue {
                guard !seen.contains(ref), let resolved = schemas[ref] else { return "*" }
                return render(resolved, seen: seen.union([ref]))
            }
            if schema["type"]?.stringValue == "array", let items = schema["items"] { return render(items, seen: seen) }
            guard case .object(let properties)? = schema["properties"] else {
                return schema["additionalProperties"] != nil || schema["type"]?.stringValue == "object" ? "*" : nil
            }
            return properties.keys.sorted().map { name in
                properties[name].flatMap { render($0, seen: seen) }.map { "\(name)(\($0))" } ?? name
            }.joined(separator: ",")
        }
        let derived = try #require(render(["$ref": "Events"], seen: []))
        let table = try #require(GoogleFieldSelection.eventsSchema)
        #expect(try GoogleFieldSelection(parsing: derived) == table)
        #expect(derived == GoogleFieldSelection.eventsSchemaText, "the table, as written, is the derived text")
    }
}
