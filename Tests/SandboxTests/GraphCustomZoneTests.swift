import Foundation
import HTTP
import Sandbox
import Testing
import TestSupport

@Suite("Graph emulator: events in a custom time zone (tzone://Microsoft/Custom, TZDEFINITION properties)")
struct GraphCustomZoneTests {
    typealias Z = CustomZone

    @Test("09:00 in a fixed +05:30 custom zone reads back as 03:30Z, originalStart/EndTimeZone custom, no blobs without $expand")
    func fixedOffset() async throws {
        let emulator = try Z.emulator([
            Z.event("Standup", "2027-03-10T09:00:00", "2027-03-10T09:30:00", zone: Z.india),
            // Relative seed times read the custom zone's wall clock too: Tuesday of the week of 13 January 2027.
            Z.event("Relative", "week+1d 09:00", "week+1d 10:00", zone: Z.india),
        ])
        #expect(try await Z.events(emulator)["Relative"]?.string("start.dateTime") == "2027-01-12T03:30:00.0000000")
        let event = try #require(try await Z.events(emulator)["Standup"])
        #expect(event.string("start.dateTime") == "2027-03-10T03:30:00.0000000")
        #expect(event.string("start.timeZone") == "UTC")
        #expect(event.string("end.dateTime") == "2027-03-10T04:00:00.0000000")
        #expect(event["originalStartTimeZone"] as? String == Z.name)
        #expect(event["originalEndTimeZone"] as? String == Z.name)
        #expect(event["singleValueExtendedProperties"] == nil)
        // In the Prefer zone, as every event: an IANA zone with the same offset gives the wall clock back.
        let kolkata = try #require(try await Z.events(emulator, headers: ["Prefer": "outlook.timezone=\"Asia/Kolkata\""])["Standup"])
        #expect(kolkata.string("start.dateTime") == "2027-03-10T09:00:00.0000000")
        #expect(kolkata.string("start.timeZone") == "Asia/Kolkata")
    }

    @Test("a custom US-rule zone gives America/Los_Angeles' instants on both sides of both 2027 changes")
    func northernDaylightTime() async throws {
        let walls = ["2027-01-20T09:00", "2027-03-13T09:00", "2027-03-14T01:59", "2027-03-14T03:00", "2027-03-15T09:00",
                     "2027-07-01T09:00", "2027-11-06T09:00", "2027-11-07T00:59", "2027-11-07T02:00", "2027-11-08T09:00"]
        let emulator = try Z.emulator(walls.map { Z.event("At \($0)", $0, $0, zone: Z.us) })
        let events = try await Z.events(emulator)
        for wall in walls {
            let event = try #require(events["At \(wall)"])
            #expect(event.string("start.dateTime") == Z.graphUTC(Z.tz(wall, "America/Los_Angeles")), "\(wall)")
            #expect(event.string("end.dateTime") == Z.graphUTC(Z.tz(wall, "America/Los_Angeles")), "\(wall)")
        }
        #expect(events["At 2027-03-13T09:00"]?.string("start.dateTime") == "2027-03-13T17:00:00.0000000")
        #expect(events["At 2027-03-15T09:00"]?.string("start.dateTime") == "2027-03-15T16:00:00.0000000")
        let pacific = try await Z.events(emulator, headers: ["Prefer": "outlook.timezone=\"Pacific Standard Time\""])
        for wall in walls { #expect(pacific["At \(wall)"]?.string("start.dateTime") == wall + ":00.0000000") }
    }

    @Test("a southern-hemisphere custom rule (daylight time across the new year) gives Australia/Sydney's instants")
    func southernDaylightTime() async throws {
        let walls = ["2027-01-15T09:00", "2027-04-03T09:00", "2027-04-04T01:59", "2027-04-04T03:00", "2027-04-05T09:00",
                     "2027-07-01T09:00", "2027-10-02T09:00", "2027-10-03T01:59", "2027-10-03T03:00", "2027-10-04T09:00",
                     "2027-12-31T23:30"]
        let emulator = try Z.emulator(walls.map { Z.event("At \($0)", $0, $0, zone: Z.sydney) })
        let events = try await Z.events(emulator)
        for wall in walls {
            #expect(events["At \(wall)"]?.string("start.dateTime") == Z.graphUTC(Z.tz(wall, "Australia/Sydney")), "\(wall)")
        }
        #expect(events["At 2027-01-15T09:00"]?.string("start.dateTime") == "2027-01-14T22:00:00.0000000")
        #expect(events["At 2027-07-01T09:00"]?.string("start.dateTime") == "2027-06-30T23:00:00.0000000")
        let sydney = try await Z.events(emulator, headers: ["Prefer": "outlook.timezone=\"Australia/Sydney\""])
        for wall in walls { #expect(sydney["At \(wall)"]?.string("start.dateTime") == wall + ":00.0000000") }
    }

    @Test("a wall time in a spring-forward gap moves forward by the gap; a repeated one takes its first (daylight) reading")
    func gapsAndRepeats() async throws {
        let emulator = try Z.emulator([
            Z.event("US gap", "2027-03-14T02:30", "2027-03-14T04:00", zone: Z.us),
            Z.event("US repeat", "2027-11-07T01:30", "2027-11-07T03:00", zone: Z.us),
            Z.event("Sydney gap", "2027-10-03T02:30", "2027-10-03T04:00", zone: Z.sydney),
            Z.event("Sydney repeat", "2027-04-04T02:30", "2027-04-04T04:00", zone: Z.sydney),
        ])
        let events = try await Z.events(emulator)
        // 02:30 does not exist in Los Angeles on 14 March: it is 03:30 PDT.
        #expect(events["US gap"]?.string("start.dateTime") == "2027-03-14T10:30:00.0000000")
        #expect(events["US gap"]?.string("start.dateTime") == Z.graphUTC(Z.tz("2027-03-14T03:30", "America/Los_Angeles")))
        #expect(events["US gap"]?.string("end.dateTime") == "2027-03-14T11:00:00.0000000")
        // 01:30 happens twice on 7 November: first as PDT (08:30Z), then as PST (09:30Z).
        #expect(events["US repeat"]?.string("start.dateTime") == "2027-11-07T08:30:00.0000000")
        #expect(events["Sydney gap"]?.string("start.dateTime") == "2027-10-02T16:30:00.0000000")
        #expect(events["Sydney gap"]?.string("start.dateTime") == Z.graphUTC(Z.tz("2027-10-03T03:30", "Australia/Sydney")))
        #expect(events["Sydney repeat"]?.string("start.dateTime") == "2027-04-03T15:30:00.0000000")
        let pacific = try await Z.events(emulator, headers: ["Prefer": "outlook.timezone=\"Pacific Standard Time\""])
        #expect(pacific["US gap"]?.string("start.dateTime") == "2027-03-14T03:30:00.0000000")
    }

    @Test("a weekly series in the custom US-rule zone keeps 09:00 local across the March change (as America/Los_Angeles)")
    func seriesAcrossDaylightTime() async throws {
        let emulator = try Z.emulator([
            Z.event("Weekly", "2027-03-01T09:00", "2027-03-01T09:30", zone: Z.us,
                    extra: ["recurrence": Z.weekly("monday", from: "2027-03-01", count: 4)]),
            Z.event("Sydney weekly", "2027-03-25T09:00", "2027-03-25T10:00", zone: Z.sydney,
                    extra: ["recurrence": Z.weekly("thursday", from: "2027-03-25", count: 4),
                            "exceptions": [["occurrence": 3, "start": "2027-04-08T11:00", "end": "2027-04-08T12:00"]],
                            "cancelled": ["2027-04-15"]]),
        ])
        let master = try #require(try await Z.events(emulator)["Weekly"])
        #expect(master["type"] as? String == "seriesMaster")
        #expect(master["originalStartTimeZone"] as? String == Z.name)
        #expect((master["recurrence"] as? [String: Any]).flatMap { ($0["range"] as? [String: Any])?["recurrenceTimeZone"] as? String } == Z.name)
        let window = "startDateTime=2027-02-28T00:00:00Z&endDateTime=2027-04-30T00:00:00Z&$top=50"
        let view = try await GraphTest.send(emulator, "GET", "/v1.0/me/calendarView?\(window)")
        #expect(view.status == 200)
        let weekly = view.value.filter { $0["subject"] as? String == "Weekly" }
        let expected = ["2027-03-01T09:00", "2027-03-08T09:00", "2027-03-15T09:00", "2027-03-22T09:00"]
        #expect(weekly.map { $0.string("start.dateTime") } == expected.map { Z.graphUTC(Z.tz($0, "America/Los_Angeles")) })
        #expect(weekly.map { $0.string("start.dateTime") } == ["2027-03-01T17:00:00.0000000", "2027-03-08T17:00:00.0000000",
                                                             "2027-03-15T16:00:00.0000000", "2027-03-22T16:00:00.0000000"])
        #expect(weekly.map { $0.string("end.dateTime") } == expected.map { Z.graphUTC(Z.tz($0, "America/Los_Angeles").addingTimeInterval(1800)) })
        #expect(weekly.allSatisfy { $0["type"] as? String == "occurrence" && $0["originalStartTimeZone"] as? String == Z.name })
        // The seeded exception and cancellation name occurrences by the custom zone's wall clock too.
        let sydney = view.value.filter { $0["subject"] as? String == "Sydney weekly" }
        #expect(sydney.map { $0.string("start.dateTime") }
            == ["2027-03-25T09:00", "2027-04-01T09:00", "2027-04-08T11:00"].map { Z.graphUTC(Z.tz($0, "Australia/Sydney")) })
        #expect(sydney.map { $0["type"] as? String } == ["occurrence", "occurrence", "exception"])
        #expect(sydney.last?["originalStart"] as? String == "2027-04-07T23:00:00.0000000Z")
        #expect(sydney.last?["originalStartTimeZone"] as? String == Z.name)

        let masterID = try #require(master["id"] as? String)
        let instances = try await GraphTest.send(emulator, "GET", "/v1.0/me/events/\(masterID)/instances?\(window)",
                                                 headers: ["Prefer": "outlook.timezone=\"Pacific Standard Time\""])
        #expect(instances.value.map { $0.string("start.dateTime") } == expected.map { $0 + ":00.0000000" })
        // One occurrence by its id: the same instant.
        let third = try #require(weekly.dropFirst(2).first?["id"] as? String)
        let fetched = try await GraphTest.send(emulator, "GET", "/v1.0/me/events/\(third)")
        #expect(fetched.json.string("start.dateTime") == "2027-03-15T16:00:00.0000000")
    }

    @Test("$expand returns the TZDEFINITION blobs, ids lower-cased, matched case-insensitively; they decode byte by byte")
    func definitionBlobs() async throws {
        let emulator = try Z.emulator([
            Z.event("Historic", "2027-03-20T09:00", "2027-03-20T10:00", zone: Z.historicUS),
            Z.event("Historic series", "2027-03-01T09:00", "2027-03-01T10:00", zone: Z.historicUS,
                    extra: ["recurrence": Z.weekly("monday", from: "2027-03-01", count: 2)]),
        ])
        let plain = try await Z.events(emulator)
        #expect(plain.values.allSatisfy { $0["singleValueExtendedProperties"] == nil })
        let events = try await Z.events(emulator, query: "&" + Z.expandAll)
        let single = Z.properties(try #require(events["Historic"]))
        #expect(Set(single.keys) == [Z.startIDReturned, Z.endIDReturned])
        let series = Z.properties(try #require(events["Historic series"]))
        #expect(Set(series.keys) == [Z.startIDReturned, Z.endIDReturned, Z.recurIDReturned])
        // Lower-case ids (and hex) in the filter find the same properties.
        let lower = try await Z.events(emulator, query: "&" + GraphTest.query(
            "$expand=singleValueExtendedProperties($filter=id eq '\(Z.recurIDReturned)')"))
        #expect(Z.properties(try #require(lower["Historic series"])) == [Z.recurIDReturned: series[Z.recurIDReturned]!])

        let keyName = "Pacific (custom)"
        for (value, recur) in [(single[Z.startIDReturned], false), (single[Z.endIDReturned], false),
                               (series[Z.startIDReturned], false), (series[Z.recurIDReturned], true)] {
            let blob = try TZDefinitionBlob(base64: try #require(value))
            #expect(blob.majorVersion == 0x02 && blob.minorVersion == 0x01)
            #expect(blob.flags == 0x0002) // TZDEFINITION_FLAG_VALID_KEYNAME, no GUID
            #expect(Int(blob.cbHeader) == 2 + 2 + 2 * keyName.utf16.count + 2)
            #expect(blob.keyName == keyName)
            #expect(blob.rules.count == 2)
            for rule in blob.rules {
                #expect(rule.majorVersion == 0x02 && rule.minorVersion == 0x01 && rule.cbRule == 0x003E)
                #expect(rule.bias == 480 && rule.standardBias == 0 && rule.daylightBias == -60)
            }
            // The rule in force in 2027 (the sandbox's now) is the effective one; the Recur property also flags it 0x0001.
            #expect(blob.rules.map(\.flags) == [0x0000, recur ? 0x0003 : 0x0002])
            #expect(blob.rules.map(\.start) == [[2000, 1, 0, 1, 0, 0, 0, 0], [2007, 1, 0, 1, 0, 0, 0, 0]])
            #expect(blob.rules[0].standardDate == [0, 10, 0, 5, 2, 0, 0, 0])
            #expect(blob.rules[0].daylightDate == [0, 4, 0, 1, 2, 0, 0, 0])
            #expect(blob.rules[1].standardDate == [0, 11, 0, 1, 2, 0, 0, 0])
            #expect(blob.rules[1].daylightDate == [0, 3, 0, 2, 2, 0, 0, 0])
        }
        // Occurrences show their master's properties.
        let view = try await GraphTest.send(emulator, "GET",
            "/v1.0/me/calendarView?startDateTime=2027-03-01T00:00:00Z&endDateTime=2027-03-31T00:00:00Z&" + Z.expandAll)
        let occurrences = view.value.filter { $0["type"] as? String == "occurrence" }
        #expect(occurrences.count == 2)
        #expect(occurrences.allSatisfy { Z.properties($0) == series })
    }

    @Test("a zone with two rules reads each year with its own rule (as the tz database's 2005 and 2027 US rules)")
    func ruleSelection() async throws {
        let walls = ["1999-04-02T09:00", "2005-03-20T09:00", "2005-04-04T09:00", "2005-10-29T09:00", "2005-10-31T09:00",
                     "2027-03-20T09:00", "2027-10-31T09:00", "2027-11-08T09:00"]
        let emulator = try Z.emulator(walls.map { Z.event("At \($0)", $0, $0, zone: Z.historicUS) })
        let events = try await Z.events(emulator)
        for wall in walls.dropFirst() {
            #expect(events["At \(wall)"]?.string("start.dateTime") == Z.graphUTC(Z.tz(wall, "America/Los_Angeles")), "\(wall)")
        }
        #expect(events["At 2005-03-20T09:00"]?.string("start.dateTime") == "2005-03-20T17:00:00.0000000")
        #expect(events["At 2027-03-20T09:00"]?.string("start.dateTime") == "2027-03-20T16:00:00.0000000")
        // Before the first rule's year, the first rule applies: 2 April 1999 is before its first Sunday of April.
        #expect(events["At 1999-04-02T09:00"]?.string("start.dateTime") == "1999-04-02T17:00:00.0000000")
    }

    @Test("bad custom zone specs are seed errors naming the event and the field")
    func seedErrors() throws {
        func rule(_ changes: [String: Any]) -> [String: Any] { ["custom": ["rules": [Z.usRule.merging(changes) { $1 }]]] }
        let cases: [(zone: Any, field: String, message: String)] = [
            (rule(["bias": 900]), "timeZone", "timeZone.custom.rules[0].bias: 900 is outside -840...840"),
            (rule(["standardDate": Z.date(month: 13, dayOfWeek: 0, day: 1, hour: 2)]), "timeZone",
             "timeZone.custom.rules[0].standardDate.month: 13 is outside 0...12"),
            (rule(["daylightDate": Z.date(month: 3, dayOfWeek: 0, day: 6, hour: 2)]), "timeZone",
             "timeZone.custom.rules[0].daylightDate.day: 6 is outside 1...5"),
            (rule(["daylightDate": Z.date(month: 3, dayOfWeek: 7, day: 2, hour: 2)]), "timeZone",
             "timeZone.custom.rules[0].daylightDate.dayOfWeek: 7 is outside 0...6"),
            (rule(["daylightDate": Z.date(month: 3, dayOfWeek: 0, day: 2, hour: 24)]), "timeZone",
             "timeZone.custom.rules[0].daylightDate.hour: 24 is outside 0...23"),
            (rule(["daylightDate": Z.date(month: 0, dayOfWeek: 0, day: 0, hour: 0)]), "timeZone",
             "timeZone.custom.rules[0]: standardDate and daylightDate must both have a month"),
            (rule(["bias": 840, "standardBias": 60]), "endTimeZone",
             "endTimeZone.custom.rules[0].standardBias: bias + standardBias = 900 is outside -840...840"),
            (rule(["bais": 480]), "timeZone", "timeZone.custom.rules[0]: unknown key 'bais'"),
            (rule(["year": 1600]), "timeZone", "timeZone.custom.rules[0].year: 1600 is outside 1601...9999"),
            (["custom": ["rules": [Z.usRule.merging(["year": 2007]) { $1 }, Z.usRule.merging(["year": 2000]) { $1 }]]], "timeZone",
             "timeZone.custom.rules[1].year: 2000 does not come after the previous rule's 2007"),
            (["custom": ["rules": []]], "timeZone", "timeZone.custom.rules: expected a list of 1 to 1024 rules"),
            (["custom": ["rules": [["standardBias": 0]]]], "timeZone", "timeZone.custom.rules[0].bias: required"),
            (["custom": ["keyName": "", "rules": [Z.usRule]]], "timeZone", "timeZone.custom.keyName: expected a name of 1 to 260"),
            (["kustom": [:]], "timeZone", "timeZone: expected a zone name or {\"custom\": {...}}"),
        ]
        for item in cases {
            var event = Z.event("Bad zone", "2027-03-10T09:00", "2027-03-10T10:00", zone: "Pacific Standard Time")
            event[item.field] = item.zone
            let error = #expect(throws: GraphSeedError.self) { try Z.emulator([event]) }
            #expect(error?.message.hasPrefix("\(GraphTest.carol): event 'Bad zone': \(item.message)") == true,
                    "\(error?.message ?? "no error")")
        }
        // A good end zone alongside a named start is accepted, and so is a custom recurrenceTimeZone on a custom series.
        _ = try Z.emulator([Z.event("Mixed", "2027-03-10T09:00", "2027-03-11T10:00", zone: "Pacific Standard Time",
                                    extra: ["endTimeZone": Z.india])])
        var series = Z.weekly("monday", from: "2027-03-01", count: 2)
        series["range"] = (series["range"] as! [String: Any]).merging(["recurrenceTimeZone": Z.name]) { $1 }
        _ = try Z.emulator([Z.event("Series", "2027-03-01T09:00", "2027-03-01T10:00", zone: Z.us, extra: ["recurrence": series])])
        // A named start cannot name the custom zone for its series.
        #expect(throws: GraphSeedError.self) {
            try Z.emulator([Z.event("Series", "2027-03-01T09:00", "2027-03-01T10:00", zone: "Pacific Standard Time",
                                    extra: ["recurrence": series])])
        }
    }

    @Test("clients cannot write tzone://Microsoft/Custom: refused as any unknown zone, the event unchanged")
    func customNameRefused() async throws {
        let emulator = try Z.emulator([Z.event("Custom", "2027-03-15T09:00", "2027-03-15T10:00", zone: Z.us)])
        let unknown = try await GraphTest.send(emulator, "POST", "/v1.0/me/events", body: GraphTest.newEvent(
            subject: "Unknown", start: "2027-03-15T09:00:00", end: "2027-03-15T10:00:00", zone: "Mars Standard Time"))
        let custom = try await GraphTest.send(emulator, "POST", "/v1.0/me/events", body: GraphTest.newEvent(
            subject: "Custom", start: "2027-03-15T09:00:00", end: "2027-03-15T10:00:00", zone: Z.name))
        #expect(custom.status == unknown.status)
        #expect(custom.status == 400)
        #expect(custom.errorCode == unknown.errorCode)
        #expect(custom.errorCode == "TimeZoneNotSupportedException")
        #expect(custom.errorMessage == "A valid TimeZone value must be specified. The following TimeZone value is not supported: '\(Z.name)'.")
        let recurrence = try await GraphTest.send(emulator, "POST", "/v1.0/me/events", body: GraphTest.newEvent(
            subject: "Series", start: "2027-03-15T09:00:00", end: "2027-03-15T10:00:00", extra: [
                "recurrence": ["pattern": ["type": "daily", "interval": 1],
                               "range": ["type": "numbered", "startDate": "2027-03-15", "numberOfOccurrences": 2,
                                         "recurrenceTimeZone": Z.name]],
            ]))
        #expect(recurrence.errorCode == "TimeZoneNotSupportedException")
        let prefer = try await GraphTest.send(emulator, "GET", "/v1.0/me/events", headers: ["Prefer": "outlook.timezone=\"\(Z.name)\""])
        #expect(prefer.errorCode == "TimeZoneNotSupportedException")

        let before = try #require(try await Z.events(emulator, query: "&" + Z.expandAll)["Custom"])
        let id = try #require(before["id"] as? String)
        let patch = try await GraphTest.send(emulator, "PATCH", "/v1.0/me/events/\(id)", body: [
            "start": ["dateTime": "2027-03-15T08:00:00", "timeZone": Z.name],
        ])
        #expect(patch.status == 400)
        #expect(patch.errorCode == "TimeZoneNotSupportedException")
        let after = try #require(try await Z.events(emulator, query: "&" + Z.expandAll)["Custom"])
        #expect(try Z.canonical(after) == Z.canonical(before))
    }

    @Test("PATCH: other fields keep the custom zone; a named start/end makes an ordinary event and drops the blobs")
    func patchSingleEvents() async throws {
        let emulator = try Z.emulator([
            Z.event("Custom", "2027-03-15T09:00", "2027-03-15T10:00", zone: Z.us,
                    extra: ["extendedProperties": [GraphTest.extendedID: "google:a:b:c1"]]),
            Z.event("Start only", "2027-03-10T09:00", "2027-03-10T10:00", zone: Z.india),
            Z.event("Holiday", "2027-03-10", "2027-03-11", zone: Z.india, extra: ["isAllDay": true]),
        ])
        let expandEverything = "&$expand=singleValueExtendedProperties"
        var events = try await Z.events(emulator, query: expandEverything)
        let custom = try #require(events["Custom"])
        let id = try #require(custom["id"] as? String)
        let blobs = Z.properties(custom)
        #expect(blobs.count == 3)

        // Only the subject: still custom, same instant, same blobs.
        let renamed = try await GraphTest.send(emulator, "PATCH", "/v1.0/me/events/\(id)", body: ["subject": "Custom, renamed"])
        #expect(renamed.status == 200)
        #expect(renamed.json["originalStartTimeZone"] as? String == Z.name)
        #expect(renamed.json["originalEndTimeZone"] as? String == Z.name)
        #expect(renamed.json.string("start.dateTime") == "2027-03-15T16:00:00.0000000")
        events = try await Z.events(emulator, query: expandEverything)
        #expect(Z.properties(try #require(events["Custom, renamed"])) == blobs)

        // A start and end in a named zone: an ordinary event there; only the unrelated property stays.
        let moved = try await GraphTest.send(emulator, "PATCH", "/v1.0/me/events/\(id)", body: [
            "start": ["dateTime": "2027-03-15T10:00:00", "timeZone": "Pacific Standard Time"],
            "end": ["dateTime": "2027-03-15T11:00:00", "timeZone": "Pacific Standard Time"],
        ])
        #expect(moved.status == 200)
        #expect(moved.json["originalStartTimeZone"] as? String == "Pacific Standard Time")
        #expect(moved.json["originalEndTimeZone"] as? String == "Pacific Standard Time")
        #expect(moved.json.string("start.dateTime") == "2027-03-15T17:00:00.0000000")
        events = try await Z.events(emulator, query: expandEverything)
        #expect(Z.properties(try #require(events["Custom, renamed"]))
            == ["String {00020329-0000-0000-c000-000000000046} Name calbridge.origin": "google:a:b:c1"])

        // Only the start: the end keeps its instant and takes the start's zone.
        let startOnlyID = try #require(events["Start only"]?["id"] as? String)
        let startOnly = try await GraphTest.send(emulator, "PATCH", "/v1.0/me/events/\(startOnlyID)", body: [
            "start": ["dateTime": "2027-03-10T08:00:00", "timeZone": "Tokyo Standard Time"],
        ])
        #expect(startOnly.status == 200)
        #expect(startOnly.json["originalStartTimeZone"] as? String == "Tokyo Standard Time")
        #expect(startOnly.json["originalEndTimeZone"] as? String == "Tokyo Standard Time")
        #expect(startOnly.json.string("start.dateTime") == "2027-03-09T23:00:00.0000000")
        #expect(startOnly.json.string("end.dateTime") == "2027-03-10T04:30:00.0000000")
        events = try await Z.events(emulator, query: expandEverything)
        #expect(events["Start only"]?["singleValueExtendedProperties"] == nil)

        // An all-day event in a custom zone: its days float as all-day events do, and a PATCH keeps it.
        let holiday = try #require(events["Holiday"])
        #expect(holiday.string("start.dateTime") == "2027-03-10T00:00:00.0000000")
        #expect(holiday.string("end.dateTime") == "2027-03-11T00:00:00.0000000")
        let holidayID = try #require(holiday["id"] as? String)
        let patched = try await GraphTest.send(emulator, "PATCH", "/v1.0/me/events/\(holidayID)", body: ["showAs": "free"])
        #expect(patched.status == 200, "\(patched.json)")
        #expect(patched.json["originalStartTimeZone"] as? String == Z.name)
        #expect(patched.json.string("start.dateTime") == "2027-03-10T00:00:00.0000000")
        let day = try await GraphTest.send(emulator, "GET",
            "/v1.0/me/calendarView?startDateTime=2027-03-10T05:00:00Z&endDateTime=2027-03-11T00:00:00Z")
        #expect(day.value.map { $0["subject"] as? String } == ["Holiday"])
    }

    @Test("PATCH a custom-zone series: recurrence and occurrence edits keep the zone; a named start moves the series")
    func patchSeries() async throws {
        let emulator = try Z.emulator([Z.event("Weekly", "2027-03-01T09:00", "2027-03-01T09:30", zone: Z.us,
                                               extra: ["recurrence": Z.weekly("monday", from: "2027-03-01", count: 4)])])
        let window = "/v1.0/me/calendarView?startDateTime=2027-02-28T00:00:00Z&endDateTime=2027-04-30T00:00:00Z&" + Z.expandAll
        let master = try #require(try await Z.events(emulator, query: "&" + Z.expandAll)["Weekly"])
        let masterID = try #require(master["id"] as? String)
        let blobs = Z.properties(master)
        #expect(blobs.count == 3)

        let shorter = try await GraphTest.send(emulator, "PATCH", "/v1.0/me/events/\(masterID)", body: [
            "recurrence": Z.weekly("monday", from: "2027-03-01", count: 3),
        ])
        #expect(shorter.status == 200, "\(shorter.json)")
        #expect((shorter.json["recurrence"] as? [String: Any]).flatMap { ($0["range"] as? [String: Any])?["recurrenceTimeZone"] as? String } == Z.name)
        var view = try await GraphTest.send(emulator, "GET", window)
        #expect(view.value.map { $0.string("start.dateTime") }
            == ["2027-03-01T17:00:00.0000000", "2027-03-08T17:00:00.0000000", "2027-03-15T16:00:00.0000000"])

        // Editing one occurrence: an exception that keeps the zone and shows the master's blobs.
        let thirdID = try #require(view.value.last?["id"] as? String)
        let exception = try await GraphTest.send(emulator, "PATCH", "/v1.0/me/events/\(thirdID)", body: ["subject": "Weekly (moved room)"])
        #expect(exception.status == 200)
        #expect(exception.json["type"] as? String == "exception")
        #expect(exception.json["originalStartTimeZone"] as? String == Z.name)
        view = try await GraphTest.send(emulator, "GET", window)
        #expect(view.value.map { $0["subject"] as? String } == ["Weekly", "Weekly", "Weekly (moved room)"])
        #expect(view.value.allSatisfy { Z.properties($0) == blobs })

        // The master moved to a named zone: the series expands there, without the blobs (and is reset, as Outlook does).
        let moved = try await GraphTest.send(emulator, "PATCH", "/v1.0/me/events/\(masterID)", body: [
            "start": ["dateTime": "2027-03-01T09:00:00", "timeZone": "Eastern Standard Time"],
            "end": ["dateTime": "2027-03-01T09:30:00", "timeZone": "Eastern Standard Time"],
        ])
        #expect(moved.status == 200)
        #expect(moved.json["originalStartTimeZone"] as? String == "Eastern Standard Time")
        #expect((moved.json["recurrence"] as? [String: Any]).flatMap { ($0["range"] as? [String: Any])?["recurrenceTimeZone"] as? String }
            == "Eastern Standard Time")
        view = try await GraphTest.send(emulator, "GET", window)
        #expect(view.value.map { $0.string("start.dateTime") }
            == ["2027-03-01T09:00", "2027-03-08T09:00", "2027-03-15T09:00"].map { Z.graphUTC(Z.tz($0, "America/New_York")) })
        #expect(view.value.allSatisfy { $0["singleValueExtendedProperties"] == nil && $0["subject"] as? String == "Weekly" })
    }

    @Test("PATCH a recurrence onto a custom-zone event: it expands in the custom zone and gains the Recur blob; null removes it")
    func patchIntoSeries() async throws {
        let emulator = try Z.emulator([Z.event("Single", "2027-03-08T09:00", "2027-03-08T10:00", zone: Z.us)])
        let id = try #require(try await Z.events(emulator)["Single"]?["id"] as? String)
        let series = try await GraphTest.send(emulator, "PATCH", "/v1.0/me/events/\(id)", body: [
            "recurrence": Z.weekly("monday", from: "2027-03-08", count: 2),
        ])
        #expect(series.status == 200, "\(series.json)")
        #expect(series.json["type"] as? String == "seriesMaster")
        #expect((series.json["recurrence"] as? [String: Any]).flatMap { ($0["range"] as? [String: Any])?["recurrenceTimeZone"] as? String } == Z.name)
        let master = try #require(try await Z.events(emulator, query: "&" + Z.expandAll)["Single"])
        let properties = Z.properties(master)
        #expect(Set(properties.keys) == [Z.startIDReturned, Z.endIDReturned, Z.recurIDReturned])
        let recur = try TZDefinitionBlob(base64: try #require(properties[Z.recurIDReturned]))
        #expect(recur.rules.map(\.flags) == [0x0003])
        #expect(recur.rules.first?.daylightDate == [0, 3, 0, 2, 2, 0, 0, 0])
        let view = try await GraphTest.send(emulator, "GET",
            "/v1.0/me/calendarView?startDateTime=2027-03-01T00:00:00Z&endDateTime=2027-03-31T00:00:00Z")
        #expect(view.value.map { $0.string("start.dateTime") } == ["2027-03-08T17:00:00.0000000", "2027-03-15T16:00:00.0000000"])

        let single = try await GraphTest.send(emulator, "PATCH", "/v1.0/me/events/\(id)", body: ["recurrence": NSNull()])
        #expect(single.status == 200)
        #expect(single.json["type"] as? String == "singleInstance")
        #expect(single.json["originalStartTimeZone"] as? String == Z.name)
        let after = try #require(try await Z.events(emulator, query: "&" + Z.expandAll)["Single"])
        #expect(Set(Z.properties(after).keys) == [Z.startIDReturned, Z.endIDReturned])
    }

    @Test("--state: custom-zone events and series survive a restart (zone rules, blobs, expansion)")
    func stateFileRoundTrip() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("state.json")
        let factory: SandboxComponentFactory = { seed, _, _ in
            let graph = try GraphEmulator(seed: seed.microsoft, tokens: StubGraphTokens(), now: { Z.now }, timeZoneNames: GraphTest.zones)
            return SandboxAPIComponents(components: [SandboxNamedComponent(name: "microsoft", component: graph)], users: graph.users)
        }
        func graph(_ sandbox: SandboxServer) throws -> GraphEmulator {
            try #require(sandbox.apiComponents.first?.component as? GraphEmulator)
        }
        let window = "/v1.0/me/calendarView?startDateTime=2027-02-28T00:00:00Z&endDateTime=2027-12-31T00:00:00Z&$top=100&" + Z.expandAll
        var options = SandboxOptions()
        options.stateFile = file
        options.now = { Z.now }
        options.seed = SandboxSeed(google: SandboxSeed.builtIn.google, microsoft: try Z.seed([
            Z.event("Sydney", "2027-10-04T09:00", "2027-10-04T10:00", zone: Z.sydney),
            Z.event("Historic", "2027-03-20T09:00", "2027-03-21T10:00", zone: Z.historicUS, extra: ["endTimeZone": Z.india]),
            Z.event("Weekly", "2027-03-01T09:00", "2027-03-01T09:30", zone: Z.us,
                    extra: ["recurrence": Z.weekly("monday", from: "2027-03-01", count: 4)]),
        ]))
        let first = try await SandboxServer.start(options, components: factory)
        let emulator = try graph(first)
        let weeklyID = try #require(try await Z.events(emulator)["Weekly"]?["id"] as? String)
        _ = try await GraphTest.send(emulator, "PATCH", "/v1.0/me/events/\(weeklyID)", body: ["subject": "Weekly, saved"])
        let events = try await GraphTest.send(emulator, "GET", "/v1.0/me/events?$top=100&" + Z.expandAll)
        let view = try await GraphTest.send(emulator, "GET", window)
        #expect(view.value.count == 6)
        try await first.stop()

        // The second start seeds the default calendar data: everything custom comes from the state file.
        options.seed = nil
        let second = try await SandboxServer.start(options, components: factory)
        defer { Task { try? await second.stop() } }
        let restored = try graph(second)
        let eventsAfter = try await GraphTest.send(restored, "GET", "/v1.0/me/events?$top=100&" + Z.expandAll)
        let viewAfter = try await GraphTest.send(restored, "GET", window)
        #expect(try Z.canonical(eventsAfter.value) == Z.canonical(events.value))
        #expect(try Z.canonical(viewAfter.value) == Z.canonical(view.value))
        let byName = Dictionary(eventsAfter.value.map { ($0["subject"] as? String ?? "", $0) }) { a, _ in a }
        #expect(byName["Weekly, saved"]?["originalStartTimeZone"] as? String == Z.name)
        #expect(byName["Historic"]?["originalEndTimeZone"] as? String == Z.name)
        #expect(byName["Historic"]?.string("end.dateTime") == "2027-03-21T04:30:00.0000000")
        #expect(Z.properties(byName["Historic"] ?? [:]).count == 2)

        // Writes after the restore still read the restored rules.
        let patched = try await GraphTest.send(restored, "PATCH", "/v1.0/me/events/\(weeklyID)", body: [
            "recurrence": Z.weekly("monday", from: "2027-03-01", count: 3),
        ])
        #expect(patched.status == 200)
        let shorter = try await GraphTest.send(restored, "GET", window)
        #expect(shorter.value.filter { ($0["subject"] as? String)?.hasPrefix("Weekly") == true }.map { $0.string("start.dateTime") }
            == ["2027-03-01T17:00:00.0000000", "2027-03-08T17:00:00.0000000", "2027-03-15T16:00:00.0000000"])
        try await second.stop()
    }
}
