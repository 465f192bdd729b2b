import Foundation

/// A hand-labelled quick-add corpus (`Fixtures/quickadd/*.jsonl`) and its exact-match score: the one
/// scoring function that the corpus tests and `calbridge-bench quick-add` share.
///
/// A line is `{"text", "now", "tz", "lang", "dateOrder"?, "expect": {...}}` or `{..., "reject": CODE}`;
/// `expect` labels the event's `title`, `start`, `end`, `allDay`, `timeZone`, `location` and
/// `recurrence` (as the parser's JSON writes them). A phrase is exactly right when every labelled key is; a
/// refusal labelled `"a|b"` is right with either code.
public struct QuickAddCorpus: Sendable {
    public struct Phrase: Sendable, CustomStringConvertible {
        public var text: String
        public var now: Date
        public var zone: String
        public var lang: String
        public var dateOrder: QuickAddDateOrder?
        /// Labelled key -> canonical value text (see `canonical`).
        public var expect: [String: String]?
        public var reject: String?
        /// A reviewed disagreement with ctparse: who read the date and time as labelled, and why.
        public var ctparseReview: String?
        public var description: String { "[\(lang) \(zone) \(now)] \(text)" }
    }

    /// One phrase that is not exactly right, and how.
    public struct Miss: Sendable, CustomStringConvertible {
        public var phrase: Phrase
        public var problem: String
        /// The parser refused the phrase (the user is told), rather than reading it into another event.
        public var refused = false
        /// The parser read another event but flagged a doubt (shown, and not written without `--yes`).
        public var flagged = false
        public var description: String { "\(phrase): \(problem)" }
    }

    public struct Score: Sendable {
        public var total = 0
        public var right = 0
        public var misses: [Miss] = []
        /// Exactly right, as a fraction of the phrases.
        public var rate: Double { total == 0 ? 0 : Double(right) / Double(total) }
        /// Phrases read exactly right but flagged with a doubt: false alarms (the user must confirm a right event).
        public var flaggedRight = 0
        /// Misses that became an event other than the label's (or an event where a refusal was meant) with no
        /// doubt: the wrong events a user would get without a word, as opposed to refusals and flagged readings.
        public var silentlyWrong: Int { misses.count { !$0.refused && !$0.flagged } }
        /// Misses that became another event but were flagged with a doubt.
        public var flaggedWrong: Int { misses.count { $0.flagged } }
        /// False alarms as a fraction of the phrases read exactly right.
        public var falseAlarmRate: Double { right == 0 ? 0 : Double(flaggedRight) / Double(right) }
    }

    public var phrases: [Phrase]

    /// Reads one JSON-lines file; a malformed line is an error naming its number.
    public init(contentsOf url: URL) throws {
        let text = try String(contentsOf: url, encoding: .utf8)
        let formatter = ISO8601DateFormatter()
        var phrases: [Phrase] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let phrase = object["text"] as? String, let nowText = object["now"] as? String,
                let now = formatter.date(from: nowText), let zone = object["tz"] as? String,
                let lang = object["lang"] as? String
            else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: url.path, "line": number + 1]) }
            let expect = (object["expect"] as? [String: Any])?.mapValues(Self.canonical)
            let entry = Phrase(
                text: phrase, now: now, zone: zone, lang: lang,
                dateOrder: (object["dateOrder"] as? String).flatMap(QuickAddDateOrder.init(rawValue:)),
                expect: expect, reject: object["reject"] as? String, ctparseReview: object["ctparse"] as? String)
            phrases.append(entry)
        }
        self.phrases = phrases
    }

    public init(phrases: [Phrase]) { self.phrases = phrases }

    /// A JSON value as comparable text (null, booleans and arrays spelled out).
    public static func canonical(_ value: Any) -> String {
        switch value {
        case is NSNull: return "null"
        case let flag as Bool where type(of: value) != NSNumber.self || "\(value)" == "true" || "\(value)" == "false":
            return flag ? "true" : "false"
        case let list as [Any]: return "[" + list.map(canonical).joined(separator: ",") + "]"
        default: return "\(value)"
        }
    }

    /// The result's labelled fields in the corpus's canonical form.
    public static func fields(_ result: QuickAddResult) -> [String: String] {
        var fields: [String: String] = [
            "title": result.title, "start": result.start.description, "end": result.end.description,
            "allDay": result.isAllDay ? "true" : "false", "timeZone": result.timeZone,
            "location": result.location ?? "null",
            "recurrence": "[" + result.recurrence.joined(separator: ",") + "]",
        ]
        fields["past"] = result.isPast ? "true" : "false"
        return fields
    }

    /// The doubts of a result as a suffix of a miss's problem ("" when none).
    static func doubtText(_ result: QuickAddResult) -> String {
        result.doubts.isEmpty ? "" : " [doubts: " + result.doubts.map(\.code.rawValue).joined(separator: ", ") + "]"
    }

    /// Parses every phrase (with `resolver` for Windows zone names) and scores it exactly.
    public func score(windowsZoneResolver resolver: (@Sendable (String) -> String?)? = nil) -> Score {
        var parsers: [String: QuickAddParser] = [:]
        var score = Score()
        for phrase in phrases {
            score.total += 1
            guard let locale = QuickAddLocale.named(phrase.lang), let zone = QuickAddZone(identifier: phrase.zone) else {
                score.misses.append(Miss(phrase: phrase, problem: "unknown language or zone"))
                continue
            }
            let key = "\(phrase.lang)/\(phrase.dateOrder?.rawValue ?? "")"
            let parser =
                parsers[key]
                ?? QuickAddParser(
                    options: QuickAddOptions(
                        locale: locale, dateOrder: phrase.dateOrder, windowsZoneResolver: resolver))
            parsers[key] = parser
            let outcome = Result { () throws(QuickAddError) in try parser.parse(phrase.text, now: phrase.now, zone: zone) }
            switch (outcome, phrase.reject, phrase.expect) {
            case (.success(let result), let reject?, _):
                score.misses.append(
                    Miss(
                        phrase: phrase, problem: "expected refusal \(reject), got \(Self.fields(result))\(Self.doubtText(result))",
                        flagged: !result.doubts.isEmpty))
            case (.success(let result), nil, let expect?):
                let actual = Self.fields(result)
                let wrong = expect.keys.sorted().filter { actual[$0] != expect[$0] }
                if wrong.isEmpty {
                    score.right += 1
                    if !result.doubts.isEmpty { score.flaggedRight += 1 }
                } else {
                    score.misses.append(
                        Miss(
                            phrase: phrase,
                            problem: wrong.map { "\($0) is \(actual[$0] ?? "missing"), expected \(expect[$0]!)" }.joined(separator: "; ")
                                + Self.doubtText(result),
                            flagged: !result.doubts.isEmpty))
                }
            case (.failure(let error), let reject?, _):
                if reject.split(separator: "|").contains(Substring(error.code.rawValue)) {
                    score.right += 1
                } else {
                    score.misses.append(Miss(phrase: phrase, problem: "refused as \(error.code), expected \(reject)", refused: true))
                }
            case (.failure(let error), nil, _):
                score.misses.append(Miss(phrase: phrase, problem: "refused: \(error)", refused: true))
            default:
                score.misses.append(Miss(phrase: phrase, problem: "the line has neither expect nor reject"))
            }
        }
        return score
    }
}
