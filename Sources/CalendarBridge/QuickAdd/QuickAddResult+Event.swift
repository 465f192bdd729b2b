import Foundation

extension QuickAddResult {
    /// The event this parse describes, in the result's zone, ready for `CalendarProvider.createEvent`.
    public var event: Event {
        func time(_ value: Time) -> EventTime {
            switch value {
            case .dateTime(let seconds, _):
                return .timed(instant: Date(timeIntervalSince1970: TimeInterval(seconds)), zone: timeZone)
            case .date(let date):
                return .allDay(date: LocalDate(year: date.year, month: date.month, day: date.day)!)
            }
        }
        return Event(
            title: title, location: location, start: time(start), end: time(end),
            recurrence: recurrence.isEmpty ? nil : Recurrence(lines: recurrence))
    }

    /// The same view of an event a provider wrote, so that what was created is shown (and compared) in the
    /// form of the preview: timed values in the event's zone (`fallbackZone` when it has none).
    ///
    /// A provider may spell the zone it was given another way (Graph answers with CLDR's `Asia/Calcutta` for
    /// `Asia/Kolkata`): when `isSameZone` says the event's zone is `fallbackZone`, the result shows that spelling, the
    /// preview's.
    public init(
        created event: Event, parser: String, fallbackZone: String, now: Date, isSameZone: (String, String) -> Bool = { $0 == $1 }
    ) {
        let zoneID = event.start.zone.map { isSameZone($0, fallbackZone) ? fallbackZone : $0 } ?? fallbackZone
        let zone = QuickAddZone(identifier: zoneID) ?? QuickAddZone(identifier: "UTC")!
        func time(_ value: EventTime) -> Time {
            switch value {
            case .timed(let instant, _):
                let seconds = Int(instant.timeIntervalSince1970.rounded(.down))
                return .dateTime(seconds: seconds, rfc3339: zone.rfc3339(seconds))
            case .allDay(let date):
                return .date(QuickAddDate(year: date.year, month: date.month, day: date.day))
            }
        }
        let start = time(event.start)
        let nowSeconds = Int(now.timeIntervalSince1970.rounded(.down))
        let past: Bool
        switch time(event.end) {
        case .dateTime(let seconds, _): past = (start.instant.map { Int($0.timeIntervalSince1970) } ?? seconds) < nowSeconds
        case .date(let last): past = last <= zone.date(at: nowSeconds)
        }
        let firstDay: QuickAddDate = {
            switch start {
            case .date(let date): return date
            case .dateTime(let seconds, _): return zone.date(at: seconds)
            }
        }()
        self.init(
            title: event.title, start: start, end: time(event.end), isAllDay: event.isAllDay,
            location: (event.location?.isEmpty ?? true) ? nil : event.location,
            timeZone: Self.utcAliases.contains(zone.identifier) ? "UTC" : zone.identifier,
            recurrence: (event.recurrence?.lines ?? []).filter { $0.hasPrefix("RRULE:") }.map { Self.quickAddForm($0, first: firstDay) },
            isPast: past, parser: parser)
    }

    /// The names of UTC a provider may answer with; shown as the parser writes it.
    static let utcAliases: Set<String> = ["UTC", "Etc/UTC", "Etc/GMT", "GMT", "Etc/Universal", "Etc/Zulu"]

    /// A rule a provider returned, written as the parser writes the same rule, so that the created event
    /// shows what the preview showed when they mean the same: parts in the parser's order (FREQ,
    /// INTERVAL, BYDAY, BYMONTHDAY, COUNT, UNTIL), the default week start (`WKST=MO`) left out, and a
    /// yearly rule's BYMONTH/BYMONTHDAY left out when they are the first occurrence's (RFC 5545 takes
    /// them from the start). Any other part keeps the rule as the provider wrote it.
    static func quickAddForm(_ line: String, first: QuickAddDate) -> String {
        var parts: [String: String] = [:]
        for part in line.dropFirst("RRULE:".count).split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, parts[pair[0]] == nil else { return line }
            parts[pair[0]] = pair[1]
        }
        if parts["WKST"] == "MO" { parts["WKST"] = nil }
        if parts["FREQ"] == "YEARLY", parts["BYMONTH"] == "\(first.month)", parts["BYMONTHDAY"] == "\(first.day)" {
            parts["BYMONTH"] = nil
            parts["BYMONTHDAY"] = nil
        }
        if parts["INTERVAL"] == "1" { parts["INTERVAL"] = nil }
        let order = ["FREQ", "INTERVAL", "BYDAY", "BYMONTHDAY", "COUNT", "UNTIL"]
        guard parts["FREQ"] != nil, Set(parts.keys).isSubset(of: order) else { return line }
        return "RRULE:" + order.compactMap { key in parts[key].map { "\(key)=\($0)" } }.joined(separator: ";")
    }
}
