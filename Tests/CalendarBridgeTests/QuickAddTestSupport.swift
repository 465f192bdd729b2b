import CalendarBridge
import Foundation

/// Shared helpers for the quick-add tests: fixtures, a small Windows-name table, parsers per configuration.
enum QuickAddTestSupport {
    /// The package root, found by walking up from this file to Package.swift.
    static let packageRoot: URL = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path),
            directory.path != "/"
        {
            directory.deleteLastPathComponent()
        }
        return directory
    }()

    static var corpusDirectory: URL { packageRoot.appendingPathComponent("Fixtures/quickadd") }

    /// The few Windows names the corpus uses (CLDR windowsZones.xml, territory 001). The real table comes
    /// from the TimeZones module.
    static let windowsNames: [String: String] = [
        "W. Europe Standard Time": "Europe/Berlin",
        "Eastern Standard Time": "America/New_York",
        "Pacific Standard Time": "America/Los_Angeles",
        "GMT Standard Time": "Europe/London",
        "Tokyo Standard Time": "Asia/Tokyo",
    ]

    static func parser(lang: String, dateOrder: String? = nil) -> QuickAddParser {
        let locale = QuickAddLocale.named(lang)!
        return QuickAddParser(options: QuickAddOptions(
            locale: locale,
            dateOrder: dateOrder.flatMap(QuickAddDateOrder.init(rawValue:)),
            windowsZoneResolver: { windowsNames[$0] }))
    }

    static func instant(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        guard let date = formatter.date(from: text) else { fatalError("bad instant in test data: \(text)") }
        return date
    }

    /// One corpus line.
    struct Phrase: Sendable, CustomStringConvertible {
        var text: String
        var now: String
        var tz: String
        var lang: String
        var dateOrder: String?
        var expect: [String: String]?
        var reject: String?
        var description: String { "[\(lang) \(now) \(tz)] \(text)" }
    }

    /// Every phrase of `<lang>.jsonl`.
    static func corpus(_ lang: String) throws -> [Phrase] {
        let url = corpusDirectory.appendingPathComponent("\(lang).jsonl")
        let text = try String(contentsOf: url, encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            var expect: [String: String]?
            if let fields = object["expect"] as? [String: Any] {
                expect = fields.mapValues(canonical)
            }
            return Phrase(
                text: object["text"] as! String, now: object["now"] as! String, tz: object["tz"] as! String,
                lang: object["lang"] as! String, dateOrder: object["dateOrder"] as? String, expect: expect,
                reject: object["reject"] as? String)
        }
    }

    /// A JSON value as comparable text: the corpus scorer's own rule.
    static func canonical(_ value: Any) -> String { QuickAddCorpus.canonical(value) }

    /// The keys a corpus line labels: the event itself (`parser`, `repeat` and `past` are derived from it
    /// or from the reference moment and checked by their own tests).
    static let eventKeys: Set<String> = ["title", "start", "end", "allDay", "timeZone", "location", "recurrence"]

    /// A result in the same canonical form as the corpus, via the real JSON encoding.
    static func fields(_ result: QuickAddResult) throws -> [String: String] {
        let data = try JSONEncoder().encode(result)
        let object = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        return object.filter { eventKeys.contains($0.key) }.mapValues(canonical)
    }
}
