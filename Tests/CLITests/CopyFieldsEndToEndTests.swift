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

    // MARK: --recurrence instances

    @Test("--recurrence instances: a weekly series with one cancelled occurrence becomes 5 single events at the occurrences' instants and zone; a rerun writes nothing; back to series, the series is created and the single copies go only with --prune",
          arguments: CopyEndToEndTests.directions.prefix(2))
    func instances(_ direction: CopyEndToEndTests.Direction) async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            let api = home.api
            let weekly = CopyFixtures.weekly
            if let calendar = direction.seedOnGoogle {
                let calendarID = try await api.googleCalendarID(calendar)
                let id = try await CopyFixtures.insertGoogle(api, weekly, calendarID: calendarID)
                _ = try await CopyFixtures.cancelGoogleOccurrence(api, calendarID: calendarID, seriesID: id, index: CopyFixtures.weeklyCancelledIndex)
            } else {
                let id = try await CopyFixtures.createGraph(api, weekly)
                _ = try await CopyFixtures.cancelGraphOccurrence(api, seriesID: id, index: CopyFixtures.weeklyCancelledIndex)
            }
            let expected = Self.weeklyInstants
            let zone = direction.target.hasPrefix("carol:") ? weekly.windowsZone : weekly.zone

            let first = try await home.copy(direction.source, direction.target, ["--recurrence", "instances"])
            #expect(first["created"] as? Int == expected.count && first["failed"] as? Int == 0, "\(first)")
            let singles = try await Self.stored(home, direction.target, title: weekly.title)
            #expect(singles.map(\.start) == expected, "\(singles)")
            #expect(singles.allSatisfy { $0.zone == zone && !$0.recurring && $0.end == $0.start.addingTimeInterval(45 * 60) }, "\(singles)")

            // A second run: every copy unchanged, nothing but reads.
            let mark = home.sandbox.log.count
            let second = try await home.copy(direction.source, direction.target, ["--recurrence", "instances"])
            #expect(second["unchanged"] as? Int == expected.count, "\(second)")
            #expect(second["created"] as? Int == 0 && second["updated"] as? Int == 0 && second["deleted"] as? Int == 0, "\(second)")
            #expect(home.apiMethods(since: mark) == ["GET"], "the second run wrote")

            // Back to series: the series copy is created; the single copies stay (nothing is deleted without
            // --prune) until --prune removes them, since in series mode no source event is copied singly.
            let asSeries = try await home.copy(direction.source, direction.target)
            #expect(asSeries["created"] as? Int == 1 && asSeries["deleted"] as? Int == 0, "\(asSeries)")
            let both = try await Self.stored(home, direction.target, title: weekly.title)
            #expect(both.filter(\.recurring).count == 1 && both.filter { !$0.recurring }.count == expected.count, "\(both)")
            let pruned = try await home.copy(direction.source, direction.target, ["--prune"])
            #expect(pruned["deleted"] as? Int == expected.count && pruned["unchanged"] as? Int == 1, "\(pruned)")
            let left = try await Self.stored(home, direction.target, title: weekly.title)
            let master = try #require(left.count == 1 ? left.first : nil, "\(left)")
            #expect(master.recurring && master.zone == zone)
            #expect(try await Self.occurrences(home, direction.target, seriesID: master.id) == expected)
        }
    }

    // MARK: an expired sign-in

    /// An account whose sign-in no longer works, on one side of a copy.
    struct BrokenSignIn: Sendable, CustomTestStringConvertible {
        var name: String
        var source: String
        var target: String
        var account: String
        var provider: SandboxProvider
        /// The grant is revoked at the provider; otherwise the stored refresh token is one the provider
        /// refuses (password changed, rotated away) and the access tokens have expired.
        var revoked: Bool
        var testDescription: String { name }
    }

    static let brokenSignIns = [
        BrokenSignIn(name: "target's grant revoked (Outlook)", source: "ann:Family", target: "carol:Calendar", account: "carol", provider: .microsoft, revoked: true),
        BrokenSignIn(name: "target's refresh token refused (Google)", source: "carol:Calendar", target: "ann:Family", account: "ann", provider: .google, revoked: false),
        BrokenSignIn(name: "source's grant revoked (Google)", source: "ann:Family", target: "carol:Calendar", account: "ann", provider: .google, revoked: true),
        BrokenSignIn(name: "source's refresh token refused (Outlook)", source: "carol:Calendar", target: "ann:Family", account: "carol", provider: .microsoft, revoked: false),
    ]

    @Test("an expired sign-in on either side: exit 3, the exact sign-in command on stderr, and no write request", arguments: brokenSignIns)
    func expiredSignIn(_ broken: BrokenSignIn) async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            for title in ["Would be copied", "Would be copied too"] {
                let added = try await home.run(["add", broken.source, "--title", title, "--start", "2027-06-01T10:00", "--tz", "Europe/Berlin"])
                #expect(added.status == 0, "\(added.stderr)")
            }
            if broken.revoked {
                await home.sandbox.tokens.revokeAll(user: home.user(broken.provider), provider: broken.provider)
            } else {
                await home.sandbox.tokens.expireAllAccessTokens()
                try home.spoilRefreshToken(of: broken.account)
            }
            let mark = home.sandbox.log.count
            let result = try await home.run(["copy", broken.source, broken.target] + CopyFixtures.windowOptions)
            #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.isEmpty, "\(result.stdout)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            let descriptor = home.signIn.descriptorFile(broken.provider.rawValue)
            #expect(result.stderr.contains("sign in again with: calbridge accounts add \(descriptor) --name \(broken.account)\n"), "\(result.stderr)")

            // The refresh was tried and refused; the account's API answered nothing but 401; nothing was written.
            let refreshes = home.sandbox.requestLog.suffix(home.sandbox.log.count - mark).filter { $0.path.hasSuffix("/token") }
            #expect(refreshes.contains { $0.status == 400 }, "\(refreshes)")
            let requests = home.apiRequests(since: mark)
            let ofAccount = requests.filter { (broken.provider == .microsoft) == $0.path.hasPrefix("/v1.0") }
            #expect(!ofAccount.isEmpty && ofAccount.allSatisfy { $0.status == 401 }, "\(ofAccount.map { "\($0.method) \($0.path) \($0.status)" })")
            let writes = requests.filter(\.isWrite)
            #expect(writes.isEmpty, "\(writes.map { "\($0.method) \($0.path)" })")
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

    /// The instants of `CopyFixtures.weekly`'s occurrences, the cancelled one left out: 09:00 in Los Angeles
    /// every Tuesday, PST before March 14, PDT after.
    static var weeklyInstants: [Date] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: CopyFixtures.weekly.zone)!
        let first = calendar.date(from: DateComponents(year: 2027, month: 3, day: 9, hour: 9))!
        return (0..<6).filter { $0 != CopyFixtures.weeklyCancelledIndex }.map {
            calendar.date(byAdding: .day, value: 7 * $0, to: first)!
        }
    }

    /// An event as the target stores it: its instants, its own zone (IANA on Google, Windows on Outlook),
    /// and whether it is a series (or part of one).
    struct StoredEvent: CustomStringConvertible {
        var id: String
        var start: Date
        var end: Date
        var zone: String
        var recurring: Bool
        var description: String { "\(start)-\(end) \(zone)\(recurring ? " recurring" : "")" }
    }

    /// The target's stored events titled `title` (series unexpanded), by start.
    static func stored(_ home: SandboxHome, _ ref: String, title: String) async throws -> [StoredEvent] {
        let onOutlook = ref.hasPrefix("carol:")
        let listed = onOutlook ? try await home.api.graphEvents() : try await home.api.googleStored(ref: ref)
        return try listed.filter { $0[onOutlook ? "subject" : "summary"] as? String == title }.map { e in
            let zone: String
            let recurring: Bool
            if onOutlook {
                // Graph answers in UTC unless asked otherwise; the event's own zone is originalStartTimeZone.
                zone = e["originalStartTimeZone"] as? String ?? ""
                recurring = !(e["recurrence"] is NSNull || e["recurrence"] == nil) || e["type"] as? String != "singleInstance"
            } else {
                zone = (e["start"] as? [String: Any])?["timeZone"] as? String ?? ""
                recurring = e["recurrence"] != nil || e["recurringEventId"] != nil
            }
            return StoredEvent(
                id: e["id"] as? String ?? "", start: try Self.instant(e["start"]), end: try Self.instant(e["end"]),
                zone: zone, recurring: recurring)
        }.sorted { $0.start < $1.start }
    }

    /// The start instants of a stored series' occurrences in the window, as the target expands it.
    static func occurrences(_ home: SandboxHome, _ ref: String, seriesID: String) async throws -> [Date] {
        let listed: [[String: Any]]
        if ref.hasPrefix("carol:") {
            listed = try await home.api.graphInstances(seriesID, from: CopyFixtures.windowStart, to: CopyFixtures.windowEnd)
        } else {
            let id = try await home.api.googleCalendarID(String(ref.dropFirst("ann:".count)))
            listed = try await home.api.googleInstances(id, seriesID).filter { $0["status"] as? String != "cancelled" }
        }
        return try listed.map { try Self.instant($0["start"]) }.sorted()
    }

    /// The instant of a Google `{dateTime (RFC 3339)}` or a Graph `{dateTime (local), timeZone: UTC}`.
    static func instant(_ time: Any?) throws -> Date {
        let object = time as? [String: Any] ?? [:]
        let text = object["dateTime"] as? String ?? ""
        if let date = ISO8601DateFormatter().date(from: text) { return date }
        guard object["timeZone"] as? String == "UTC", let date = ISO8601DateFormatter().date(from: String(text.prefix(19)) + "Z") else {
            throw SandboxAPI.Failed(description: "not a time in UTC: \(object)")
        }
        return date
    }

    static func lines(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
