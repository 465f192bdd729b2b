/// A reason the parser may have read a phrase other than meant: a probable mistake that is shown with the result
/// (table and JSON) and that the CLI will not write without the user's `--yes` (docs/quick-add.md, "Doubts").
///
/// Doubts are about the reading, never about particular phrases: a number or a date word left in the title
/// next to the date, a word split by the date, a connecting word left without its date, an hour read by the
/// default clock rule where both halves of the day are common, a numeric date that reads as another date in
/// the other order, a date without a year that has just passed this year, a place that ends in a number that may
/// be the hour, an amount of time left in the title, a timed event made days long by "for N days".
public struct QuickAddDoubt: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// What kind of doubt; stable names, used in JSON.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// A number that could be an hour or a day is left in the title right next to the date or time
        /// ("Dentist Tuesday 2": 2 o'clock, or part of the title?).
        public static let numberInTitle = Code(rawValue: "numberInTitle")
        /// A weekday, month, part of the day or time word is left in the title ("Meet morning").
        public static let dateWordInTitle = Code(rawValue: "dateWordInTitle")
        /// Part of a word was read as a date or time and the rest left in the title ("v1.2.3" -> "v 3").
        public static let splitWord = Code(rawValue: "splitWord")
        /// A connecting word ("at", "by", "um", "bis") is left at the end of the title or before the date
        /// without a date or time of its own ("Submit report by").
        public static let strandedWord = Code(rawValue: "strandedWord")
        /// An hour with no am/pm read by the default rule where both halves of the day are common ("at 7:30").
        public static let defaultHour = Code(rawValue: "defaultHour")
        /// A numeric date that is another date in the other day/month order ("5/6").
        public static let dateOrder = Code(rawValue: "dateOrder")
        /// A date without a year that passed only days ago this year, read as next year's.
        public static let nextYear = Code(rawValue: "nextYear")
        /// An event without a time whose place ends in a number that could be the hour ("at the gym 6 tomorrow").
        public static let numberInPlace = Code(rawValue: "numberInPlace")
        /// A number and a unit of time left in the title ("2 weeks from today"): a date or a duration not read.
        public static let amountInTitle = Code(rawValue: "amountInTitle")
        /// An event with a clock time made a day or more long by "for N days" without a repeat ("Daily vitamin 8am for
        /// 30 days"): one long event, or a series?
        public static let longEvent = Code(rawValue: "longEvent")
    }

    public var code: Code
    /// Why, in one short clause in the text's language, naming the words at fault.
    public var reason: String

    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { reason }

    private enum CodingKeys: String, CodingKey { case code, reason }

    /// `{"code": ..., "reason": ...}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code.rawValue, forKey: .code)
        try container.encode(reason, forKey: .reason)
    }
}
