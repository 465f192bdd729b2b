import CalendarBridge
import Foundation
import Testing

@Suite("Quick-add phrase corpus (Fixtures/quickadd)")
struct QuickAddCorpusTests {
    @Test("the corpus is as large as the issue asks: 250 English, 100 German, 30 rejections")
    func corpusSize() throws {
        let english = try QuickAddTestSupport.corpus("en")
        let german = try QuickAddTestSupport.corpus("de")
        #expect(english.count >= 250)
        #expect(german.count >= 100)
        #expect((english + german).filter { $0.reject != nil }.count >= 30)
    }

    @Test("every phrase parses to its expected JSON or is rejected with its expected code", arguments: ["en", "de"])
    func wholeCorpus(lang: String) throws {
        var parsers: [String: QuickAddParser] = [:]
        var failures: [String] = []
        let phrases = try QuickAddTestSupport.corpus(lang)
        for phrase in phrases {
            let key = "\(phrase.lang)/\(phrase.dateOrder ?? "")"
            let parser = parsers[key] ?? QuickAddTestSupport.parser(lang: phrase.lang, dateOrder: phrase.dateOrder)
            parsers[key] = parser
            let zone = try #require(QuickAddZone(identifier: phrase.tz))
            let now = QuickAddTestSupport.instant(phrase.now)
            let outcome = Result { () throws(QuickAddError) in try parser.parse(phrase.text, now: now, zone: zone) }
            switch (outcome, phrase.reject, phrase.expect) {
            case (.success(let result), let reject?, _):
                failures.append("\(phrase): expected rejection \(reject), got \(try QuickAddTestSupport.fields(result))")
            case (.success(let result), nil, let expect?):
                let actual = try QuickAddTestSupport.fields(result)
                for key in expect.keys.sorted() where actual[key] != expect[key] {
                    failures.append("\(phrase): \(key) is \(actual[key] ?? "missing"), expected \(expect[key]!)")
                }
                if Set(actual.keys) != Set(expect.keys) { failures.append("\(phrase): keys \(actual.keys.sorted())") }
            case (.failure(let error), let reject?, _):
                if error.code.rawValue != reject {
                    failures.append("\(phrase): rejected as \(error.code), expected \(reject) (\(error))")
                }
            case (.failure(let error), nil, _):
                failures.append("\(phrase): rejected: \(error)")
            default:
                failures.append("\(phrase): corpus line has neither expect nor reject")
            }
        }
        #expect(failures.isEmpty, Comment(rawValue: "\(failures.count) of \(phrases.count) phrases differ:\n" + failures.joined(separator: "\n")))
    }
}
