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
        // Each field length-prefixed ("<UTF-8 count>:<field>"), so no field's content can imitate a
        // boundary; written straight into one buffer (joining per-field strings was a third of this).
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256 + copy.title.utf8.count + (copy.body.map { $0.content.utf8.count } ?? 0))
        // A field may come in two parts (a tag and the text), counted as one; no variadic array per call.
        func field(_ tag: String, _ text: String = "") {
            bytes.append(contentsOf: String(tag.utf8.count + text.utf8.count).utf8)
            bytes.append(UInt8(ascii: ":"))
            bytes.append(contentsOf: tag.utf8)
            bytes.append(contentsOf: text.utf8)
        }
        field("calbridge-copy-v1")
        field(copy.title)
        switch copy.body {
        case .html(let s)?: field("html:", s)
        case .text(let s)?: field("text:", s)
        case nil: field("")
        }
        field(copy.location ?? "")
        field(timeKey(copy.start))
        field(timeKey(copy.end))
        field(copy.recurrence?.lines.joined(separator: "\n") ?? "")
        field(copy.showAs.rawValue)
        field(copy.sensitivity.rawValue)
        if let reminders = copy.reminders {
            field("reminders:", reminders.map { "\($0.method.rawValue)\($0.minutesBefore)" }.sorted().joined(separator: ","))
        } else {
            field("reminders:default")
        }
        field(copy.categories.sorted().joined(separator: "\n"))
        return SHA256.hex(bytes: bytes)
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
