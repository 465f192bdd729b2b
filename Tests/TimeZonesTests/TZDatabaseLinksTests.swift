import Testing
@testable import TimeZones

@Suite("TimeZones: reading the tz database's links")
struct TZDatabaseLinksTests {
    @Test("L lines are read, chains followed, other lines ignored")
    func parse() {
        let links = TZDatabaseLinks(tzdataZI: """
            # version 2025b
            Z Asia/Kolkata 5:53:28 - LMT 1854 Jun 28
            L Asia/Kolkata Asia/Calcutta
            L Asia/Calcutta Old/Chain
            R X 1 2 - Ja 1 0 0 -
            L Etc/UTC UTC
            """)
        #expect(links.canonical("Asia/Calcutta") == "Asia/Kolkata")
        #expect(links.canonical("Old/Chain") == "Asia/Kolkata")
        #expect(links.canonical("Asia/Kolkata") == "Asia/Kolkata")
        #expect(links.canonical("Europe/Berlin") == "Europe/Berlin")
        #expect(links.spellings(of: "Old/Chain") == ["Asia/Kolkata", "Asia/Calcutta", "Old/Chain"])
        #expect(links.allIdentifiers == ["Asia/Kolkata", "Asia/Calcutta", "Old/Chain", "Etc/UTC", "UTC"])
    }

    @Test("a cycle does not loop")
    func cycle() {
        let links = TZDatabaseLinks(pairs: [("A", "B"), ("B", "A")])
        #expect(["A", "B"].contains(links.canonical("A")))
    }

    @Test("a missing tzdata.zi gives no links rather than an error")
    func missingFile() {
        #expect(TZDatabaseLinks.load(contentsOf: "/nonexistent/tzdata.zi").targets.isEmpty)
    }

    @Test("this machine's tzdata.zi has the links the lookups rely on")
    func systemLinks() {
        let links = TZDatabaseLinks.system
        #expect(links.canonical("Asia/Calcutta") == "Asia/Kolkata")
        #expect(links.canonical("Europe/Kiev") == "Europe/Kyiv")
        #expect(links.canonical("America/Godthab") == "America/Nuuk")
        #expect(links.canonical("Asia/Saigon") == "Asia/Ho_Chi_Minh")
        #expect(links.canonical("UTC") == "Etc/UTC")
    }
}
