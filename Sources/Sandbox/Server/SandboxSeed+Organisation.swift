import Foundation

extension SandboxSeed {
    /// An organisation of `count` Outlook mailboxes (`outlook<i>@contoso.sandbox`, two events each) and
    /// `count` Google users (`google<i>@gmail.sandbox`, one event each), every event in UTC next week: what
    /// `calbridge worker` syncs in the organisation tests and in `calbridge-bench org`, pair `i` being the
    /// two accounts with index `i`.
    package static func organisation(pairs count: Int) throws -> SandboxSeed {
        var googleUsers: [[String: Any]] = []
        var googleCalendars: [[String: Any]] = []
        var outlookUsers: [[String: Any]] = []
        for index in 0..<count {
            let gmail = "google\(index)@gmail.sandbox"
            googleUsers.append([
                "email": gmail, "displayName": "Google \(index)", "calendars": [["id": gmail, "accessRole": "owner", "primary": true]],
            ])
            googleCalendars.append([
                "id": gmail, "summary": gmail, "timeZone": "UTC",
                "events": [
                    [
                        "id": "g\(index)lunch", "summary": "Lunch \(index)", "start": ["dateTime": "week+9d 12:00", "timeZone": "UTC"],
                        "end": ["dateTime": "week+9d 13:00", "timeZone": "UTC"],
                    ]
                ],
            ])
            outlookUsers.append([
                "id": String(format: "00000000-0000-4000-8000-%012d", index), "displayName": "Outlook \(index)",
                "mail": "outlook\(index)@contoso.sandbox", "mailboxSettings": ["timeZone": "UTC"],
                "calendars": [
                    [
                        "key": "calendar", "name": "Calendar", "isDefaultCalendar": true, "isRemovable": false,
                        "events": [
                            [
                                "key": "standup", "subject": "Standup \(index)", "start": "week+8d 09:00", "end": "week+8d 09:30",
                                "timeZone": "UTC",
                            ],
                            [
                                "key": "review", "subject": "Review \(index)", "start": "week+10d 14:00", "end": "week+10d 15:00",
                                "timeZone": "UTC",
                            ],
                        ],
                    ]
                ],
            ])
        }
        return SandboxSeed(
            google: try JSONSerialization.data(withJSONObject: ["users": googleUsers, "calendars": googleCalendars]),
            microsoft: try JSONSerialization.data(withJSONObject: ["users": outlookUsers]))
    }
}
