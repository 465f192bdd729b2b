import Foundation

/// What the quick-add parser understood in one line of text: an event ready to be created.
public struct QuickAddResult: Sendable, Equatable, Encodable {
    /// A start or end: an instant shown with its zone's offset, or a whole day.
    public enum Time: Sendable, Equatable, CustomStringConvertible {
        /// Seconds since the epoch, and the RFC 3339 text with the event zone's offset at that instant.
        case dateTime(seconds: Int, rfc3339: String)
        /// An all-day date; as an end it is exclusive (the day after the last day).
        case date(QuickAddDate)

        /// RFC 3339 with offset for a timed value, `YYYY-MM-DD` for a date.
        public var description: String {
            switch self {
            case .dateTime(_, let text): text
            case .date(let date): date.description
            }
        }

        /// The instant, for a timed value.
        public var instant: Date? {
            if case .dateTime(let seconds, _) = self { return Date(timeIntervalSince1970: TimeInterval(seconds)) }
            return nil
        }
    }

    /// The remaining words, whitespace normalised, capitalisation as typed.
    public var title: String
    public var start: Time
    /// Exclusive: one hour after a lone start time; the day after the last day of an all-day event.
    public var end: Time
    public var isAllDay: Bool
    public var location: String?
    /// IANA identifier of the event's zone (a zone named in the text, else the user's zone).
    public var timeZone: String
    /// RFC 5545 recurrence lines, each starting with `RRULE:`; empty for a single event.
    public var recurrence: [String]
    /// The event (its first occurrence) starts before the reference instant: shown, and refused by the
    /// CLI without `--allow-past`.
    public var isPast: Bool
    /// Who read the text: `calbridge` (this parser) or `google` (Google Calendar's quickAdd).
    public var parser: String
    /// Why the parser may have read the text other than meant (empty when it is sure): shown, and refused
    /// by the CLI without `--yes`.
    public var doubts: [QuickAddDoubt]

    public init(
        title: String, start: Time, end: Time, isAllDay: Bool, location: String?, timeZone: String, recurrence: [String],
        isPast: Bool = false, parser: String = "calbridge", doubts: [QuickAddDoubt] = []
    ) {
        self.title = title
        self.start = start
        self.end = end
        self.isAllDay = isAllDay
        self.location = location
        self.timeZone = timeZone
        self.recurrence = recurrence
        self.isPast = isPast
        self.parser = parser
        self.doubts = doubts
    }

    /// The repeat rule in words ("every weekday at 09:30"); nil for a single event.
    public var repeatDescription: String? {
        QuickAddRepeatText.describe(recurrence, start: start, zone: timeZone)
    }

    private enum CodingKeys: String, CodingKey {
        case title, start, end, allDay, timeZone, location, recurrence, `repeat`, past, parser, doubts
    }

    /// The documented JSON shape: `title`, `start`, `end`, `allDay`, `timeZone`, `location` (or null),
    /// `recurrence` (RRULE lines), `repeat` (the rule in words, or null), `past`, `parser`, `doubts` (a list of
    /// `{code, reason}`, empty when the parser is sure).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(start.description, forKey: .start)
        try container.encode(end.description, forKey: .end)
        try container.encode(isAllDay, forKey: .allDay)
        try container.encode(timeZone, forKey: .timeZone)
        if let location { try container.encode(location, forKey: .location) } else { try container.encodeNil(forKey: .location) }
        try container.encode(recurrence, forKey: .recurrence)
        if let words = repeatDescription { try container.encode(words, forKey: .repeat) } else { try container.encodeNil(forKey: .repeat) }
        try container.encode(isPast, forKey: .past)
        try container.encode(parser, forKey: .parser)
        try container.encode(doubts, forKey: .doubts)
    }
}
