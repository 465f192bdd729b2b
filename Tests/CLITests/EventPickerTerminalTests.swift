import Foundation
import Sandbox
import TestSupport
import Testing

/// `show`, `edit` and `delete` when --query matches several events, at a terminal (stdin, stdout and stderr
/// on a pseudo-terminal): a numbered list and one line read; an empty line or Ctrl-C cancels with exit 2.
@Suite("Picking one of several matches at a terminal")
struct EventPickerTerminalTests {
    static let prompt = "Enter cancels): "

    /// Runs `arguments` at a terminal, types `answer` once the question is asked, and returns the exit status,
    /// the whole output, and what came after the question.
    static func answer(_ arguments: [String], _ answer: String, home: SandboxHome) async throws -> (
        status: Int32, output: String, after: String
    ) {
        let environment = home.environment
        return try await blocking {
            let session = try TerminalSession(arguments, environment: environment, columns: 120)
            let asked = session.waitFor(seconds: 60) { $0.contains(Self.prompt) }
            if asked { session.type(answer) }
            let (status, output) = session.finish(seconds: 60)
            let after = output.components(separatedBy: Self.prompt).dropFirst().joined()
            return (status, output, after)
        }
    }

    @Test("a number picks one (show, delete); Enter and Ctrl-C cancel with exit 2 and nothing done; off a terminal the list and exit 2")
    func pick() async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            let api = home.api
            let family = try await api.googleCalendarID("Family")
            _ = try await api.googleInsert(family, SyncEndToEndTests.googleEvent("Standup early", day: 1))
            _ = try await api.googleInsert(family, SyncEndToEndTests.googleEvent("Standup late", day: 2))
            let query = ["--query", "standup"]

            let shown = try await Self.answer(["show", "ann:Family"] + query, "2\r", home: home)
            #expect(shown.status == 0, "\(shown.output)")
            #expect(shown.output.contains("2 events match. Which one? (1-2"), "\(shown.output)")
            #expect(shown.after.contains("Standup late") && !shown.after.contains("Standup early"), "\(shown.after)")

            for (answer, name) in [("\r", "Enter"), ("\u{3}", "Ctrl-C"), ("7\r", "a number off the list")] {
                let cancelled = try await Self.answer(["delete", "ann:Family"] + query, answer, home: home)
                #expect(cancelled.status == 2, "\(name): \(cancelled.output)")
                #expect(!cancelled.after.contains("Deleted"), "\(name): \(cancelled.after)")
            }
            #expect(try await SyncEndToEndTests().googleTitles(api, family) == ["Standup early", "Standup late"])

            let deleted = try await Self.answer(["delete", "ann:Family"] + query, "1\r", home: home)
            #expect(deleted.status == 0, "\(deleted.output)")
            #expect(deleted.after.contains("Deleted 'Standup early'"), "\(deleted.after)")
            #expect(try await SyncEndToEndTests().googleTitles(api, family) == ["Standup late"])

            // Not at a terminal: the matches listed, how to pick one said, exit 2 (as before).
            _ = try await api.googleInsert(family, SyncEndToEndTests.googleEvent("Standup again", day: 3))
            let piped = try await home.run(["show", "ann:Family"] + query)
            #expect(piped.status == 2, "\(piped.stderr)")
            #expect(piped.stderr.contains("events of ann:Family match 'standup'"), "\(piped.stderr)")
            #expect(!piped.stderr.contains("Which one?"))
        }
    }
}
