import Foundation
import Sandbox
import Testing
import TestSupport

/// What `calbridge copy` promises field by field (README, "Copying events"), checked on the target as the
/// sandbox's own API stores it: reminders, show-as, sensitivity and the online-meeting link in both
/// directions; `--recurrence instances`; and an expired sign-in, which must stop the copy before any write.
@Suite("calbridge copy, field by field and before any write, end to end against the sandbox")
struct CopyFieldsEndToEndTests {
    // MARK: fields

    @Test("reminders: Outlook 30 min -> Google popup 30, Outlook off -> Google none; Google 10 min -> Outlook 10, Google none -> Outlook off")
    func reminders() async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            let copies = try await Self.copyBothWays(
                home,
                outlook: [
                    ("Reminder 30 minutes", ["isReminderOn": true, "reminderMinutesBeforeStart": 30]),
                    // Graph keeps the minutes of a reminder that is off: they must not come along.
                    ("Reminder off", ["isReminderOn": false, "reminderMinutesBeforeStart": 45]),
                ],
                google: [
                    ("Reminder 10 minutes", ["reminders": ["useDefault": false, "overrides": [["method": "popup", "minutes": 10]]]]),
                    ("No reminders", ["reminders": ["useDefault": false]]),
                ])
            let thirty = try #require(copies.onGoogle["Reminder 30 minutes"]?["reminders"] as? [String: Any])
            #expect(thirty["useDefault"] as? Bool == false)
            let overrides = thirty["overrides"] as? [[String: Any]] ?? []
            #expect(overrides.count == 1 && overrides.first?["method"] as? String == "popup" && overrides.first?["minutes"] as? Int == 30, "\(thirty)")
            let off = try #require(copies.onGoogle["Reminder off"]?["reminders"] as? [String: Any])
            #expect(off["useDefault"] as? Bool == false, "\(off)")
            #expect((off["overrides"] as? [Any] ?? []).isEmpty, "\(off)")

            let ten = try #require(copies.onOutlook["Reminder 10 minutes"])
            #expect(ten["isReminderOn"] as? Bool == true)
            #expect(ten["reminderMinutesBeforeStart"] as? Int == 10)
            #expect(copies.onOutlook["No reminders"]?["isReminderOn"] as? Bool == false)
        }
    }

    @Test("show-as: Outlook free and working elsewhere -> Google transparent, busy/tentative/away -> opaque; Google transparent -> free, opaque -> busy")
    func showAs() async throws {
        // Google knows only "blocks time" or not. Working elsewhere means available (Google's own working-location
        // events are transparent); tentative and away (oof) block the time.
        let outlook = ["free": "transparent", "workingElsewhere": "transparent", "busy": "opaque", "tentative": "opaque", "oof": "opaque"]
        let google = ["transparent": "free", "opaque": "busy"]
        try await SandboxHome.with(seed: .withoutEvents) { home in
            let copies = try await Self.copyBothWays(
                home, outlook: outlook.keys.sorted().map { ("Shown as \($0)", ["showAs": $0]) },
                google: google.keys.sorted().map { ("Google \($0)", ["transparency": $0]) })
            for (showAs, transparency) in outlook {
                let copy = try #require(copies.onGoogle["Shown as \(showAs)"])
                // Google leaves out the default (opaque) when it reads an event back.
                #expect((copy["transparency"] as? String ?? "opaque") == transparency, "\(showAs): \(copy["transparency"] ?? "none")")
            }
            for (transparency, showAs) in google {
                #expect(copies.onOutlook["Google \(transparency)"]?["showAs"] as? String == showAs, "\(transparency)")
            }
        }
    }

    @Test("sensitivity: Outlook personal and private -> Google private, confidential -> confidential; Google private -> Outlook private, public -> normal")
    func sensitivity() async throws {
        let outlook = ["normal": "default", "personal": "private", "private": "private", "confidential": "confidential"]
        let google = ["default": "normal", "public": "normal", "private": "private", "confidential": "confidential"]
        try await SandboxHome.with(seed: .withoutEvents) { home in
            let copies = try await Self.copyBothWays(
                home, outlook: outlook.keys.sorted().map { ("Sensitivity \($0)", ["sensitivity": $0]) },
                google: google.keys.sorted().map { ("Visibility \($0)", ["visibility": $0]) })
            for (sensitivity, visibility) in outlook {
                let copy = try #require(copies.onGoogle["Sensitivity \(sensitivity)"])
                #expect((copy["visibility"] as? String ?? "default") == visibility, "\(sensitivity): \(copy["visibility"] ?? "none")")
            }
            for (visibility, sensitivity) in google {
                #expect(copies.onOutlook["Visibility \(visibility)"]?["sensitivity"] as? String == sensitivity, "\(visibility)")
            }
        }
    }

    @Test("online-meeting link: the location when there is none, else a line in the body; Teams -> Google and Meet -> Outlook")
    func onlineMeeting() async throws {
        let teams = ["https://teams.microsoft.com/l/meetup-join/19%3ameeting_one%40thread.v2/0",
                     "https://teams.microsoft.com/l/meetup-join/19%3ameeting_two%40thread.v2/0"]
        let meet = ["https://meet.google.com/abc-defg-hij", "https://meet.google.com/klm-nopq-rst"]
        func conference(_ uri: String) -> [String: Any] {
            let id = String(uri.dropFirst("https://meet.google.com/".count))
            return [
                "conferenceId": id, "conferenceSolution": ["key": ["type": "hangoutsMeet"], "name": "Google Meet"],
                "entryPoints": [["entryPointType": "video", "uri": uri, "label": "meet.google.com/" + id]],
            ]
        }
        try await SandboxHome.with(seed: .withoutEvents) { home in
            let copies = try await Self.copyBothWays(
                home,
                outlook: [
                    ("Teams call", ["isOnlineMeeting": true, "onlineMeetingProvider": "teamsForBusiness", "onlineMeeting": ["joinUrl": teams[0]]]),
                    ("Teams call in Room 5", [
                        "isOnlineMeeting": true, "onlineMeeting": ["joinUrl": teams[1]], "location": ["displayName": "Room 5"],
                        "body": ["contentType": "text", "content": "Bring the slides."],
                    ]),
                ],
                google: [
                    ("Meet call", ["conferenceData": conference(meet[0])]),
                    ("Meet call in Room 5", ["conferenceData": conference(meet[1]), "location": "Room 5", "description": "Bring the slides."]),
                ])
            let teamsCall = try #require(copies.onGoogle["Teams call"])
            #expect(teamsCall["location"] as? String == teams[0])
            #expect(!(teamsCall["description"] as? String ?? "").contains("teams.microsoft.com"), "\(teamsCall["description"] ?? "")")
            let teamsInRoom = try #require(copies.onGoogle["Teams call in Room 5"])
            #expect(teamsInRoom["location"] as? String == "Room 5")
            let description = teamsInRoom["description"] as? String ?? ""
            #expect(description.hasPrefix("Bring the slides."), "\(description)")
            #expect(Self.lines(description).contains("Online meeting: \(teams[1])"), "\(description)")

            let meetCall = try #require(copies.onOutlook["Meet call"])
            #expect((meetCall["location"] as? [String: Any])?["displayName"] as? String == meet[0])
            let meetInRoom = try #require(copies.onOutlook["Meet call in Room 5"])
            #expect((meetInRoom["location"] as? [String: Any])?["displayName"] as? String == "Room 5")
            let body = (meetInRoom["body"] as? [String: Any])?["content"] as? String ?? ""
            #expect(body.hasPrefix("Bring the slides."), "\(body)")
            #expect(Self.lines(body).contains("Online meeting: \(meet[1])"), "\(body)")
            // The link is text on the copy: Outlook was not asked to set up a Teams meeting of its own.
            for copy in [meetCall, meetInRoom] {
                #expect(copy["isOnlineMeeting"] as? Bool == false, "\(copy["subject"] ?? "")")
                #expect(copy["onlineMeeting"] == nil || copy["onlineMeeting"] is NSNull, "\(copy["subject"] ?? "")")
            }
        }
    }

    // MARK: helpers

    /// The copies of both directions, read back by title: the Outlook events' on Google and the Google
    /// events' on Outlook.
    struct Copies {
        var onGoogle: [String: [String: Any]]
        var onOutlook: [String: [String: Any]]
    }

    /// Writes one event per title with the given fields (on the 1st, 2nd, ... of May 2027, 10:00 Berlin time)
    /// into carol's Outlook calendar and ann's Google Family calendar, copies Outlook -> `ann:primary` and
    /// Google -> `carol:Project Falcon`, and reads both targets back through the sandbox's API.
    static func copyBothWays(
        _ home: SandboxHome, outlook: [(String, [String: Any])], google: [(String, [String: Any])]
    ) async throws -> Copies {
        let api = home.api
        let family = try await api.googleCalendarID("Family")
        for (day, (title, fields)) in outlook.enumerated() {
            let (start, end) = Self.slot(day)
            let event: [String: Any] = [
                "subject": title,
                "start": ["dateTime": start, "timeZone": "W. Europe Standard Time"],
                "end": ["dateTime": end, "timeZone": "W. Europe Standard Time"],
            ]
            _ = try await api.graphCreate(event.merging(fields) { $1 })
        }
        for (day, (title, fields)) in google.enumerated() {
            let (start, end) = Self.slot(day)
            let event: [String: Any] = [
                "summary": title,
                "start": ["dateTime": start, "timeZone": "Europe/Berlin"],
                "end": ["dateTime": end, "timeZone": "Europe/Berlin"],
            ]
            _ = try await api.googleInsert(family, event.merging(fields) { $1 }, query: "?conferenceDataVersion=1")
        }
        let toGoogle = try await home.copy("carol:Calendar", "ann:primary")
        #expect(toGoogle["created"] as? Int == outlook.count && toGoogle["failed"] as? Int == 0, "\(toGoogle)")
        let toOutlook = try await home.copy("ann:Family", "carol:Project Falcon")
        #expect(toOutlook["created"] as? Int == google.count && toOutlook["failed"] as? Int == 0, "\(toOutlook)")
        return Copies(
            onGoogle: try await api.googleEventsByTitle("primary"),
            onOutlook: try await api.graphEventsBySubject("Project Falcon"))
    }

    /// Start and end (local, an hour) of the `day`th test event.
    static func slot(_ day: Int) -> (String, String) {
        let date = "2027-05-" + (day < 9 ? "0" : "") + "\(day + 1)"
        return (date + "T10:00:00", date + "T11:00:00")
    }

    static func lines(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
