import CalbridgeSupport
import Foundation

/// What a copy of a source event looks like on a target: the field selection (`CopyFields`) applied,
/// adapted to what the target can store, and the content hash that recognises an unchanged copy.
///
/// Pure: the same source event, options and target capabilities always give the same copy and hash,
/// whatever ids, etags or update stamps the providers assigned.
public struct CopyProjection: Sendable, Hashable {
    public var fields: CopyFields
    public var target: ProviderCapabilities

    public init(fields: CopyFields, target: ProviderCapabilities) {
        self.fields = fields
        self.target = target
    }

    /// The title `busy` copies get.
    public static let busyTitle = "Busy"

    /// The event to write for `source` (no id, no calendar, no origin marker yet).
    /// - Parameter recurrence: the series rule to write (a master copied as a series), or nil (single
    ///   events, occurrences, and series copied as instances).
    public func copy(of source: Event, recurrence: Recurrence? = nil) -> Event {
        var copy = Event(
            title: source.title, start: source.start, end: source.end, recurrence: recurrence,
            showAs: showAs(source.showAs), sensitivity: sensitivity(source.sensitivity))
        switch fields {
        case .busy:
            copy.title = Self.busyTitle
            copy.sensitivity = .private
            copy.reminders = []
        case .basic, .all:
            copy.reminders = source.reminders
            var location = source.location.flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }
            var notes: [String] = []
            if let url = source.onlineMeetingURL {
                if location == nil { location = url.absoluteString } else { notes.append("Online meeting: \(url.absoluteString)") }
            }
            notes += attendeeLines(source)
            copy.location = location
            copy.body = body(source.body, appending: notes)
            if fields == .all && target.categories { copy.categories = source.categories }
        }
        return copy
    }

    /// The hash of what a copy carries (`OriginMarker.contentHash`): 64 hex digits over the copied
    /// fields. Ids, calendar, status, update stamps and the marker itself are left out.
    public static func contentHash(of copy: Event) -> String {
        var fields: [String] = ["calbridge-copy-v1"]
        fields.append(copy.title)
        switch copy.body {
        case .html(let s)?: fields.append("html:" + s)
        case .text(let s)?: fields.append("text:" + s)
        case nil: fields.append("")
        }
        fields.append(copy.location ?? "")
        fields.append(timeKey(copy.start))
        fields.append(timeKey(copy.end))
        fields.append(copy.recurrence?.lines.joined(separator: "\n") ?? "")
        fields.append(copy.showAs.rawValue)
        fields.append(copy.sensitivity.rawValue)
        if let reminders = copy.reminders {
            fields.append("reminders:" + reminders.map { "\($0.method.rawValue)\($0.minutesBefore)" }.sorted().joined(separator: ","))
        } else {
            fields.append("reminders:default")
        }
        fields.append(copy.categories.sorted().joined(separator: "\n"))
        // Length-prefixed, so no field's content can imitate a boundary.
        return SHA256.hex(fields.map { "\($0.utf8.count):\($0)" }.joined())
    }

    /// A time as text for hashing: the instant in milliseconds and the zone, or the date.
    static func timeKey(_ time: EventTime) -> String {
        switch time {
        case .allDay(let date): "date:\(date)"
        case .timed(let instant, let zone): "at:\(Int64((instant.timeIntervalSince1970 * 1000).rounded()))@\(zone)"
        }
    }

    func showAs(_ value: ShowAs) -> ShowAs {
        guard !target.richShowAs else { return value }
        switch value {
        case .busy, .tentative, .oof: return .busy
        case .free, .workingElsewhere: return .free
        }
    }

    func sensitivity(_ value: Sensitivity) -> Sensitivity {
        value == .personal && !target.personalSensitivity ? .private : value
    }

    /// "Organizer: …" and "Attendees:" lines (names and addresses), never written as attendees
    /// (also what `add --no-invitations` writes into the body).
    public func attendeeLines(_ source: Event) -> [String] {
        func person(_ a: Attendee) -> String {
            guard let name = a.name?.trimmingCharacters(in: .whitespaces), !name.isEmpty, name != a.email else {
                return a.email
            }
            return "\(name) <\(a.email)>"
        }
        var lines: [String] = []
        if let organizer = source.organizer, !source.attendees.isEmpty { lines.append("Organizer: " + person(organizer)) }
        let others = source.attendees.filter { $0.email.lowercased() != source.organizer?.email.lowercased() }
        if !others.isEmpty {
            lines.append("Attendees:")
            lines += others.map { "- " + person($0) + ($0.role == .optional ? " (optional)" : "") }
        }
        return lines
    }

    /// The source body in a form the target takes, with `notes` appended as their own paragraph.
    public func body(_ source: EventBody?, appending notes: [String]) -> EventBody? {
        var body = source.flatMap { $0.isEmpty ? nil : $0 }
        if case .html(let html)? = body, !target.htmlBody {
            let text = HTMLText.plainText(fromHTML: html)
            body = text.isEmpty ? nil : .text(text)
        }
        guard !notes.isEmpty else { return body }
        let extra = notes.joined(separator: "\n")
        switch body {
        case nil:
            return .text(extra)
        case .text(let text)?:
            return .text(text + "\n\n" + extra)
        case .html(let html)?:
            let paragraph = "<p>" + HTMLText.html(fromText: extra) + "</p>"
            if let end = html.range(of: "</body>", options: [.caseInsensitive, .backwards]) {
                return .html(html.replacingCharacters(in: end.lowerBound..<end.lowerBound, with: paragraph))
            }
            return .html(html + paragraph)
        }
    }
}
