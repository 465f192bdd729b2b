import CLI
import CalbridgeSupport
import Foundation
import Testing

/// `config.toml`'s reading: the TOML subset, its errors with line numbers, and the settings' checks.
@Suite struct ConfigFileTests {
    @Test func readsCommentsSectionsBasicAndLiteralStrings() throws {
        let file = try ConfigFile(
            parsing: """
                # defaults
                zone = "Europe/Berlin"   # where I live
                format='json'
                \r
                [aliases]\r
                "carol work" = "carol@contoso.com"
                w = "C:\\\\path \\"quoted\\" \\u00e9"
                """)
        #expect(file.entries.map(\.key) == ["zone", "format", "carol work", "w"])
        #expect(file.entries.map(\.section) == ["", "", "aliases", "aliases"])
        #expect(file.entries.map(\.line) == [2, 3, 6, 7])
        #expect(file.entries[3].value == "C:\\path \"quoted\" é")
    }

    @Test(arguments: [
        ("zone = Europe/Berlin", 1, "a value is a quoted string"),
        ("zone = \"Europe/Berlin", 1, "missing its closing"),
        ("\n\n[aliases\n", 3, "closing ']'"),
        ("zone = \"a\" extra", 1, "unexpected 'extra'"),
        ("zone \"a\"", 1, "expected 'key = \"value\"'"),
        ("zone = \"a\"\nzone = \"b\"", 2, "set twice"),
        ("[aliases]\n[aliases]", 2, "appears twice"),
        ("zone = \"\\q\"", 1, "unknown escape"),
        ("zone = \"\\u12\"", 1, "hex digits"),
        ("zone = \"a\tb\"\nx = \"\u{1}\"", 2, "control character"),
        ("a.b = \"c\"", 1, "a key is letters"),
    ])
    func refusesWhatItDoesNotUnderstandNamingTheLine(text: String, line: Int, message: String) {
        #expect {
            try ConfigFile(parsing: text)
        } throws: { error in
            guard let error = error as? ConfigFile.SyntaxError else { return false }
            return error.line == line && error.message.contains(message)
        }
    }

    @Test func aCombiningMarkAfterABackslashOrQuoteDoesNotHideTheDelimiter() throws {
        // By Characters, a backslash or a quote followed by U+0301 is one grapheme: the delimiter would be missed.
        let file = try ConfigFile(parsing: "a = \"x\\\\\u{301}\"")
        let expected = "x\\\u{301}"
        #expect(file.entries.first?.value == expected)
        #expect(throws: ConfigFile.SyntaxError.self) { try ConfigFile(parsing: "b = \"y\"\u{301}") }
    }

    @Test func randomBytesNeverCrashAndWhatParsesReadsBackTheSame() {
        // Seeded: the same inputs every run. Bytes from the grammar's own alphabet, so many parse.
        var generator = SplitMix64(seed: 0x5EED_C0F1)
        let alphabet = Array("ab =\"'#[]\\nu0\t\r\n.:-_é\u{301}".unicodeScalars)
        var parsed = 0
        for _ in 0..<20_000 {
            let length = Int(generator.next() % 40)
            var text = String.UnicodeScalarView()
            for _ in 0..<length { text.append(alphabet[Int(generator.next() % UInt64(alphabet.count))]) }
            if let file = try? ConfigFile(parsing: String(text)) {
                parsed += 1
                for entry in file.entries { #expect(!entry.key.isEmpty) }
            }
        }
        #expect(parsed > 1_000, "the generator should reach the parser's accepting paths")
    }
}
