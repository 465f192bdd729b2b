import Foundation
import Sandbox
import TestSupport
import Testing

/// `calbridge import` and iCalendar revisions (`SEQUENCE`, `LAST-MODIFIED`), the built binary against the
/// sandbox: a newer revision updates the copy, an older one never overwrites it.
@Suite("calbridge import: SEQUENCE and LAST-MODIFIED decide which revision wins, end to end")
struct ImportSequenceEndToEndTests {
    /// One event, `seq-1@example`, at 09:00 UTC on 2027-04-10, with the given revision and title.
    static func file(sequence: Int?, modified: String, title: String) -> String {
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//revisions//EN", "BEGIN:VEVENT", "UID:seq-1@example",
            "DTSTAMP:20270101T000000Z", "DTSTART:20270410T090000Z", "DTEND:20270410T100000Z", "SUMMARY:\(title)",
            "LAST-MODIFIED:\(modified)",
        ]
        if let sequence { lines.append("SEQUENCE:\(sequence)") }
        lines += ["END:VEVENT", "END:VCALENDAR"]
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    func importFile(_ home: SandboxHome, _ url: URL, _ text: String) async throws -> [String: Any] {
        try text.write(to: url, atomically: true, encoding: .utf8)
        let run = try await home.run(["import", url.path, "ann:primary", "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        return try JSONOutput.object(run.stdout)
    }

    func titles(_ home: SandboxHome) async throws -> [String] {
        let listed = try await home.run(["events", "ann:primary", "--tz", "UTC", "--format", "json"] + CopyFixtures.windowOptions)
        return (try JSONOutput.object(listed.stdout)["events"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
    }

    @Test("SEQUENCE 2 is copied; SEQUENCE 1 later writes nothing; SEQUENCE 3 updates; an equal SEQUENCE modified earlier writes nothing")
    func revisions() async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            let url = home.directory.url.appendingPathComponent("team.ics")
            let first = try await importFile(home, url, Self.file(sequence: 2, modified: "20270105T100000Z", title: "Final agenda"))
            #expect(first["created"] as? Int == 1, "\(first)")

            // An older revision (a stale export, a feed that went back): not written, and the item says why.
            var mark = home.sandbox.log.count
            let older = try await importFile(home, url, Self.file(sequence: 1, modified: "20270106T100000Z", title: "Draft agenda"))
            #expect(older["updated"] as? Int == 0 && older["unchanged"] as? Int == 1, "\(older)")
            let items = older["items"] as? [[String: Any]] ?? []
            #expect(items.contains { ($0["reason"] as? String ?? "").contains("SEQUENCE 2; the source has 1") }, "\(items)")
            #expect(home.apiMethods(since: mark).isDisjoint(with: ["POST", "PATCH", "PUT", "DELETE"]), "\(home.apiMethods(since: mark))")
            #expect(try await titles(home) == ["Final agenda"])

            // A newer revision is written.
            let newer = try await importFile(home, url, Self.file(sequence: 3, modified: "20270107T100000Z", title: "Moved agenda"))
            #expect(newer["updated"] as? Int == 1, "\(newer)")
            #expect(try await titles(home) == ["Moved agenda"])

            // The same SEQUENCE, modified before the copied revision was: older, not written.
            mark = home.sandbox.log.count
            let earlier = try await importFile(home, url, Self.file(sequence: 3, modified: "20270106T090000Z", title: "Other agenda"))
            #expect(earlier["updated"] as? Int == 0, "\(earlier)")
            #expect(home.apiMethods(since: mark).isDisjoint(with: ["POST", "PATCH", "PUT", "DELETE"]), "\(home.apiMethods(since: mark))")
            #expect(try await titles(home) == ["Moved agenda"])

            // The same SEQUENCE modified later, content changed: written (a change without a new SEQUENCE).
            let later = try await importFile(home, url, Self.file(sequence: 3, modified: "20270108T090000Z", title: "Agenda, typo fixed"))
            #expect(later["updated"] as? Int == 1, "\(later)")
            // And the same file again: nothing.
            let again = try await importFile(home, url, Self.file(sequence: 3, modified: "20270108T090000Z", title: "Agenda, typo fixed"))
            #expect(again["updated"] as? Int == 0 && again["unchanged"] as? Int == 1, "\(again)")
            #expect(try await titles(home) == ["Agenda, typo fixed"])
        }
    }
}
