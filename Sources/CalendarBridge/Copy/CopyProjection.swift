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
            var location = source.location.flatMap { $0.isBlank ? nil : $0 }
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
        // boundary; written straight into one buffer, numbers as digits, without a String per field (every
        // listed copy is hashed, so this is on a hot path).
        var input = HashInput(capacity: 256 + copy.title.utf8.count + (copy.body.map { $0.content.utf8.count } ?? 0))
        input.field("calbridge-copy-v1")
        input.field(copy.title)
        switch copy.body {
        case .html(let s)?: input.field("html:", s)
        case .text(let s)?: input.field("text:", s)
        case nil: input.field("")
        }
        input.field(copy.location ?? "")
        input.time(copy.start)
        input.time(copy.end)
        input.joined(copy.recurrence?.lines ?? [], separator: UInt8(ascii: "\n"))
        input.field(copy.showAs.rawValue)
        input.field(copy.sensitivity.rawValue)
        switch copy.reminders {
        case nil: input.field("reminders:default")
        case let reminders? where reminders.count == 1: input.reminder(reminders[0])
        case let reminders?:
            input.field("reminders:", reminders.map { "\($0.method.rawValue)\($0.minutesBefore)" }.sorted().joined(separator: ","))
        }
        input.joined(copy.categories.count > 1 ? copy.categories.sorted() : copy.categories, separator: UInt8(ascii: "\n"))
        return SHA256.hex(input.bytes)
    }

    /// The bytes `contentHash` hashes, written through a cursor into memory of its own: an array appended
    /// to piece by piece pays a uniqueness and capacity check per byte or piece.
    struct HashInput: ~Copyable {
        private var storage: UnsafeMutablePointer<UInt8>
        private var capacity: Int
        private var count = 0

        init(capacity: Int) {
            self.capacity = max(capacity, 64)
            storage = .allocate(capacity: self.capacity)
        }

        deinit { storage.deallocate() }

        /// The bytes written.
        var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage, count: count) }

        /// Room for `more` bytes after those written.
        private mutating func reserve(_ more: Int) {
            guard count + more > capacity else { return }
            let grown = max(2 * capacity, count + more)
            let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            moved.initialize(from: storage, count: count)
            storage.deallocate()
            storage = moved
            capacity = grown
        }

        private mutating func byte(_ value: UInt8) {
            reserve(1)
            storage[count] = value
            count += 1
        }

        /// `String(n)`'s digits (and sign).
        private mutating func decimal(_ n: Int) {
            reserve(20)
            count += PaddedDecimal.write(n, to: storage + count)
        }

        /// `<count>:` and the parts, the count being their UTF-8 bytes together.
        mutating func field(_ tag: String, _ text: String = "") {
            prefix(tag.utf8.count + text.utf8.count)
            append(tag)
            append(text)
        }

        /// One field of the parts with `separator` between them.
        mutating func joined(_ parts: [String], separator: UInt8) {
            prefix(parts.reduce(max(parts.count - 1, 0)) { $0 + $1.utf8.count })
            for (index, part) in parts.enumerated() {
                if index > 0 { byte(separator) }
                append(part)
            }
        }

        /// A string's UTF-8 bytes, copied at once from a native string's storage.
        private mutating func append(_ text: String) {
            let length = text.utf8.count
            reserve(length)
            let target = storage + count
            let copied: Void? = text.utf8.withContiguousStorageIfAvailable { source in
                if let base = source.baseAddress { target.initialize(from: base, count: source.count) }
            }
            if copied == nil {
                _ = UnsafeMutableBufferPointer(start: target, count: length).initialize(from: text.utf8)
            }
            count += length
        }

        /// A time: `date:<date>` for a date, `at:<milliseconds>@<zone>` for an instant.
        mutating func time(_ time: EventTime) {
            switch time {
            case .allDay(let date):
                field("date:", date.description)
            case .timed(let instant, let zone):
                let milliseconds = Int((instant.timeIntervalSince1970 * 1000).rounded())
                prefix(3 + PaddedDecimal.count(milliseconds) + 1 + zone.utf8.count)
                append("at:")
                decimal(milliseconds)
                byte(UInt8(ascii: "@"))
                append(zone)
            }
        }

        /// `reminders:<method><minutes>` for one reminder.
        mutating func reminder(_ reminder: Reminder) {
            let method = reminder.method.rawValue
            let minutes = reminder.minutesBefore
            prefix(10 + method.utf8.count + PaddedDecimal.count(minutes))
            append("reminders:")
            append(method)
            decimal(minutes)
        }

        private mutating func prefix(_ count: Int) {
            decimal(count)
            byte(UInt8(ascii: ":"))
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
        // Each line built in one string with room ahead, not concatenated piece by piece.
        func line(_ prefix: String, _ a: Attendee, _ suffix: String = "") -> String {
            let name = a.name.map(\.trimmingWhitespaces).flatMap { $0.isEmpty || $0 == a.email ? nil : $0 }
            var line = prefix
            line.reserveCapacity(prefix.utf8.count + (name?.utf8.count ?? 0) + a.email.utf8.count + suffix.utf8.count + 3)
            if let name {
                line += name
                line += " <"
                line += a.email
                line += ">"
            } else {
                line += a.email
            }
            line += suffix
            return line
        }
        guard !source.attendees.isEmpty else { return [] }
        var lines: [String] = []
        if let organizer = source.organizer { lines.append(line("Organizer: ", organizer)) }
        let others = source.attendees.filter { !Self.sameAddress($0.email, source.organizer?.email) }
        if !others.isEmpty {
            lines.append("Attendees:")
            for a in others { lines.append(line("- ", a, a.role == .optional ? " (optional)" : "")) }
        }
        return lines
    }

    /// `a.lowercased() == b?.lowercased()`, without lower-casing where no byte of either needs it.
    static func sameAddress(_ a: String, _ b: String?) -> Bool {
        guard let b else { return false }
        if a == b { return true }
        let plain = { (s: String) in s.utf8.allSatisfy { $0 < 0x80 && !($0 >= 0x41 && $0 <= 0x5A) } }
        if plain(a) && plain(b) { return false }
        return a.lowercased() == b.lowercased()
    }

    /// The source body in a form the target takes, with `notes` appended as their own paragraph.
    public func body(_ source: EventBody?, appending notes: [String]) -> EventBody? {
        var body = source.flatMap { $0.isEmpty ? nil : $0 }
        if case .html(let html)? = body, !target.htmlBody {
            let text = HTMLText.plainText(fromHTML: html)
            body = text.isEmpty ? nil : .text(text)
        }
        guard !notes.isEmpty else { return body }
        // Joined here: `joined(separator:)` runs unspecialised.
        var extra = ""
        for (position, line) in notes.enumerated() {
            if position > 0 { extra += "\n" }
            extra += line
        }
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
