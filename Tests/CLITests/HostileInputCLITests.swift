import Foundation
import Testing
@testable import CLI

/// Issue 13 through the built binary: out-of-range dates are usage errors (exit 2) naming the value and
/// the range; control characters a server stores come out neutralised on a terminal, escaped in JSON.
@Suite("calbridge: out-of-range dates and hostile text, end to end against the sandbox")
struct HostileInputCLITests {
    @Test("dates out of range: exit 2, one line naming the value and the allowed range, nothing sent")
    func datesOutOfRange() async throws {
        try await SandboxHome.with { home in
            let cases: [([String], [String])] = [
                (["events", "ann:primary", "--from", "2026-01-01T00:00:00+19:00"], ["+19:00", "-18:00 to +18:00"]),
                (["events", "carol:Calendar", "--from", "2026-01-01T00:00:00-23:59"], ["-23:59", "-18:00 to +18:00"]),
                (["events", "ann:primary", "--to", "9999-12-31"], ["--to 9999-12-31", "1900-01-01 to 9998-12-31"]),
                (["events", "ann:primary", "--from", "1899-12-31"], ["--from 1899-12-31", "1900-01-01 to 9998-12-31"]),
                (["copy", "ann:primary", "carol:Calendar", "--to", "9999-12-31"], ["--to 9999-12-31", "9998-12-31"]),
                (["copy", "ann:primary", "carol:Calendar", "--from", "2026-01-01T00:00:00+19:00"], ["+19:00"]),
                (["add", "ann:Family", "--title", "x", "--start", "9999-12-31T10:00"], ["--start 9999-12-31T10:00", "9998-12-31"]),
                (["add", "ann:Family", "--title", "x", "--all-day", "--start", "9999-12-31"], ["--start 9999-12-31"]),
                (["add", "ann:Family", "--title", "x", "--start", "2027-01-01T10:00+19:00"], ["+19:00"]),
            ]
            let before = home.sandbox.requestLog.filter { !$0.path.hasSuffix("/token") }.count
            for (arguments, mentions) in cases {
                let result = try await home.run(arguments)
                #expect(result.status == 2, "\(arguments): \(result.stderr)")
                #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
                for mention in mentions { #expect(result.stderr.contains(mention), "\(arguments): \(result.stderr)") }
            }
            // Refused before any request reaches a calendar server.
            #expect(home.sandbox.requestLog.filter { !$0.path.hasSuffix("/token") }.count == before)
        }
    }

    @Test("a title with escape sequences is neutralised in the table and TSV, kept (escaped) in JSON")
    func escapeSequences() async throws {
        try await SandboxHome.with { home in
            let title = "Lunch \u{1B}]0;owned\u{07}\u{1B}[2J\u{9B}31m\u{202E}evil"
            let added = try await home.run([
                "add", "ann:Family", "--title", title, "--start", "2027-03-02T12:00", "--end", "2027-03-02T13:00",
            ])
            #expect(added.status == 0, "\(added.stderr)")
            let window = ["--from", "2027-03-02", "--to", "2027-03-03"]
            for format in ["table", "tsv"] {
                let listed = try await home.run(["events", "ann:Family", "--format", format] + window)
                #expect(listed.status == 0, "\(listed.stderr)")
                #expect(!listed.stdout.unicodeScalars.contains { TerminalText.isUnsafe($0) && $0 != "\n" && $0 != "\t" })
                #expect(listed.stdout.contains("Lunch \u{FFFD}]0;owned\u{FFFD}"), "\(listed.stdout)")
            }
            let json = try await home.run(["events", "ann:Family", "--format", "json"] + window)
            #expect(json.stdout.contains(#"\u001b]0;owned\u0007\u001b[2J\u009b31m\u202eevil"#), "\(json.stdout)")
            let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            let events = document?["events"] as? [[String: Any]]
            #expect(events?.contains { $0["title"] as? String == title } == true)
            // The copy report too: its JSON used to go through the line sanitiser, which replaced them.
            let copied = try await home.run(["copy", "ann:Family", "carol:Calendar", "--format", "json"] + window)
            #expect(copied.status == 0, "\(copied.stderr)")
            #expect(copied.stdout.contains(#"\u001b]0;owned\u0007\u001b[2J\u009b31m\u202eevil"#), "\(copied.stdout)")
            #expect(!copied.stdout.unicodeScalars.contains { TerminalText.isUnsafe($0) && $0 != "\n" })
            let report = try JSONSerialization.jsonObject(with: Data(copied.stdout.utf8)) as? [String: Any]
            let items = report?["items"] as? [[String: Any]]
            #expect(items?.contains { $0["title"] as? String == title && $0["action"] as? String == "create" } == true, "\(copied.stdout)")
        }
    }
}

@Suite("TerminalText: one sanitizer for everything people read")
struct TerminalTextTests {
    @Test("C0, DEL, C1 and bidirectional controls are replaced; text and emoji are kept")
    func sanitize() {
        #expect(TerminalText.sanitize("a\u{1B}[31mb\u{7F}c\u{85}d\u{202E}e") == "a\u{FFFD}[31mb\u{FFFD}c\u{FFFD}d\u{FFFD}e")
        #expect(TerminalText.sanitize("tab\there\r\nline") == "tab here  line")
        #expect(TerminalText.sanitize("keep\tlayout\nlines\r", keepingLayout: true) == "keep\tlayout\nlines ")
        #expect(TerminalText.sanitize("Café 🎉 日本") == "Café 🎉 日本")
    }

    @Test("JSON escaping of what JSONSerialization leaves raw reads back to the same value")
    func json() throws {
        let value = "x\u{7F}\u{9B}\u{2066}y"
        let raw = String(decoding: try JSONSerialization.data(withJSONObject: ["t": value]), as: UTF8.self)
        let escaped = TerminalText.escapeJSON(raw)
        #expect(escaped == #"{"t":"x\u007f\u009b\u2066y"}"#)
        let back = try JSONSerialization.jsonObject(with: Data(escaped.utf8)) as? [String: String]
        #expect(back?["t"] == value)
    }
}
