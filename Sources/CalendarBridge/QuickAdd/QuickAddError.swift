/// Why a line of text could not become an event, with an example of one that would.
///
/// The CLI maps every `QuickAddError` to exit code 2 (an input error).
public struct QuickAddError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem; stable names, used by the phrase corpus.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// No date, time, "all day" or repeat rule anywhere in the text.
        public static let nothingToSchedule = Code(rawValue: "nothingToSchedule")
        /// A date or time but no words left for the title.
        public static let missingTitle = Code(rawValue: "missingTitle")
        /// A day that does not exist (February 30, 2025-02-29, month 13).
        public static let invalidDate = Code(rawValue: "invalidDate")
        /// A time that does not exist (13pm, 25:00, 10:75).
        public static let invalidTime = Code(rawValue: "invalidTime")
        /// An hour from 1 to 12 with no am/pm, minutes or o'clock ("at 3").
        public static let ambiguousTime = Code(rawValue: "ambiguousTime")
        /// Two dates, two times, two zones, two locations, or a time with "all day".
        public static let conflict = Code(rawValue: "conflict")
        /// An Area/Location zone name the tz database does not know.
        public static let unknownTimeZone = Code(rawValue: "unknownTimeZone")
        /// A date outside the years 1900-2999, or a duration over 366 days, or a count over 999.
        public static let outOfRange = Code(rawValue: "outOfRange")
        /// A range that ends before it starts, or an UNTIL before the first occurrence.
        public static let invalidRange = Code(rawValue: "invalidRange")
        /// "until" or "N times" without an "every ..." rule.
        public static let untilWithoutRepeat = Code(rawValue: "untilWithoutRepeat")
        /// "except" before anything but weekdays, or after a series other than a daily or weekly one.
        public static let unsupportedException = Code(rawValue: "unsupportedException")
        /// A duration in hours or minutes on an event that has no start time.
        public static let durationWithoutTime = Code(rawValue: "durationWithoutTime")
        /// A span that names no one day: "next week", "this weekend", "nächsten Monat".
        public static let vagueDate = Code(rawValue: "vagueDate")
        /// More than `QuickAddParser.maximumLength` characters.
        public static let tooLong = Code(rawValue: "tooLong")
    }

    public var code: Code
    /// What was wrong, naming the words at fault.
    public var message: String
    /// A phrase in the same language that would work.
    public var example: String
    /// The language of `message` and `example` (`en`, `de`), so that the line around them fits too.
    public var language: String

    public init(_ code: Code, _ message: String, example: String, language: String = "en") {
        self.code = code
        self.message = message
        self.example = example
        self.language = language
    }

    /// One line: the problem, then an example to copy, in the message's language.
    public var description: String {
        language == "de" ? "\(message); zum Beispiel „\(example)“" : "\(message); try for example \"\(example)\""
    }
}
