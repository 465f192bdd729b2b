import CalendarBridge
import Foundation
import GoogleCalendar
import MicrosoftGraph
import Sandbox
import Testing
import TimeZones

/// Preview equals result for every corpus phrase: each labelled phrase is read as `quick-add --dry-run`
/// reads it (calbridge's parser, in the calendar's zone: the Outlook mailbox's, the Google calendar's
/// own), written to both sandbox providers through the library as the real run writes it, and the event
/// the provider returns, shown as the real run shows it, must equal the preview field by field. In
/// process: spawning the binary twice per phrase and provider would take minutes.
@Suite("Quick-add: the preview equals the created event for every corpus phrase, on both sandbox providers", .serialized)
struct QuickAddPreviewSandboxTests {
    static let corpusDirectory: URL = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path), directory.path != "/" {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("Fixtures/quickadd")
    }()

    /// Each phrase once (at its Friday-evening moment, the one where "past" and "next week" decide most),
    /// with its language; refusals are left out (nothing is written).
    static func phrases() throws -> [QuickAddCorpus.Phrase] {
        var seen: Set<String> = []
        var phrases: [QuickAddCorpus.Phrase] = []
        for name in [
            "moments-en", "moments-de", "heldout", "heldout-2026-12-05", "heldout-2026-12-05b", "heldout-2026-12-06", "heldout-2026-12-06b",
            "heldout-2026-12-06c", "heldout-2026-12-06d", "heldout-2026-12-06e",
        ] {
            let corpus = try QuickAddCorpus(contentsOf: corpusDirectory.appendingPathComponent("\(name).jsonl"))
            for phrase in corpus.phrases where phrase.expect != nil && phrase.now > Date(timeIntervalSince1970: 1_790_000_000) {
                if seen.insert(phrase.lang + phrase.text).inserted { phrases.append(phrase) }
            }
        }
        return phrases
    }

    /// The fields both the preview and the created event show.
    static func fields(_ result: QuickAddResult) -> [String: String] {
        var fields = QuickAddCorpus.fields(result)
        fields["repeat"] = result.repeatDescription ?? "null"
        return fields
    }

    @Test("Outlook (the mailbox's zone) and Google with --parser local (the calendar's zone)")
    func previewEqualsResult() async throws {
        let phrases = try Self.phrases()
        #expect(phrases.count >= 400)
        let sandbox = try await BatchSandbox.start()
        defer { Task { try? await sandbox.server.stop() } }
        let providers: [(String, any CalendarProvider)] = [("outlook", sandbox.graph), ("google", sandbox.google)]
        for (name, provider) in providers {
            let calendars = try await provider.listCalendars()
            let calendar = try #require(calendars.first { $0.isPrimary })
            // The zone quick-add reads in: the calendar's own (Google), else the owner's (the mailbox's).
            let owner = try await provider.userInfo().timeZone
            let zoneName = try #require(name == "google" ? calendar.timeZone ?? owner : owner ?? calendar.timeZone)
            let zone = try #require(QuickAddZone(identifier: zoneName))
            var parsers: [String: QuickAddParser] = [:]
            var compared = 0
            var differences: [String] = []
            for phrase in phrases {
                let locale = try #require(QuickAddLocale.named(phrase.lang))
                let parser = parsers[phrase.lang] ?? QuickAddParser(options: QuickAddOptions(locale: locale))
                parsers[phrase.lang] = parser
                // A phrase that reads differently in this zone may be refused here; the preview then
                // writes nothing, as the real run would.
                guard let preview = try? parser.parse(phrase.text, now: phrase.now, zone: zone) else { continue }
                // Named, so that a failure (seen once, on a loaded machine, without its phrase) says which one.
                let written: Event
                do {
                    written = try await provider.createEvent(preview.event, in: calendar.id)
                } catch {
                    Issue.record("\(name) \(phrase.text): the sandbox refused the event: \(error)")
                    continue
                }
                let created = QuickAddResult(
                    created: written, parser: "calbridge", fallbackZone: preview.timeZone, now: phrase.now,
                    isSameZone: WindowsZones.areSameZone)
                let (shown, stored) = (Self.fields(preview), Self.fields(created))
                let wrong = shown.keys.sorted().filter { shown[$0] != stored[$0] }
                if !wrong.isEmpty {
                    differences.append(
                        "\(name) \(phrase.text): "
                            + wrong.map { "\($0) preview \(shown[$0]!), created \(stored[$0] ?? "missing")" }.joined(separator: "; "))
                }
                compared += 1
            }
            #expect(compared >= 380, "\(name): only \(compared) phrases were read in \(zone.identifier)")
            #expect(
                differences.isEmpty,
                Comment(
                    rawValue: "\(differences.count) of \(compared) differ on \(name):\n" + differences.prefix(40).joined(separator: "\n")))
        }
    }

    /// `--parser google` as far as the sandbox emulates Google's quick add (one event, no repeat, read in the
    /// calendar's zone at the server's clock): for every English phrase without a repeat or a zone of its
    /// own, the event Google's quick add creates equals calbridge's preview of it now.
    @Test("Google with --parser google: the created event equals the preview for the English phrases the emulator reads")
    func googleQuickAddEqualsPreview() async throws {
        let phrases = try Self.phrases().filter { $0.lang == "en" && $0.expect?["recurrence"] == "[]" }
        let sandbox = try await BatchSandbox.start()
        defer { Task { try? await sandbox.server.stop() } }
        let calendars = try await sandbox.google.listCalendars()
        let calendar = try #require(calendars.first { $0.isPrimary })
        let zoneName = try #require(calendar.timeZone)
        let zone = try #require(QuickAddZone(identifier: zoneName))
        let parser = QuickAddParser()
        var compared = 0
        var differences: [String] = []
        for phrase in phrases where phrase.expect?["timeZone"] == phrase.zone {
            let now = Date()
            // A zone named in the text equal to the writer's own ("1pm ET" in New York) passes the label's filter
            // above; read in the calendar's zone, the preview shows it as a zone of its own.
            guard let preview = try? parser.parse(phrase.text, now: now, zone: zone), Self.fields(preview)["timeZone"] == zoneName
            else { continue }
            let written = try await sandbox.google.quickAdd(text: phrase.text, in: calendar.id)
            let created = QuickAddResult(
                created: written, parser: "calbridge", fallbackZone: zone.identifier, now: now, isSameZone: WindowsZones.areSameZone)
            let (shown, stored) = (Self.fields(preview), Self.fields(created))
            let wrong = shown.keys.sorted().filter { shown[$0] != stored[$0] }
            if !wrong.isEmpty {
                differences.append(
                    "\(phrase.text): "
                        + wrong.map { "\($0) preview \(shown[$0]!), created \(stored[$0] ?? "missing")" }.joined(separator: "; "))
            }
            compared += 1
        }
        #expect(compared >= 150, "only \(compared) English phrases compared")
        #expect(
            differences.isEmpty,
            Comment(rawValue: "\(differences.count) of \(compared) differ:\n" + differences.prefix(40).joined(separator: "\n")))
    }
}
