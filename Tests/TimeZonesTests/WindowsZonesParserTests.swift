import Foundation
import Testing
import TestSupport
import WindowsZonesCore

@Suite("WindowsZonesCore: parsing windowsZones.xml and rendering Swift")
struct WindowsZonesParserTests {
    @Test("golden: a small fixture renders to exactly the expected Swift")
    func golden() async throws {
        let table = try WindowsZonesParser.parse(fileAt: Fixtures.windowsZones("small.xml"))
        let rendered = SwiftTableRenderer.render(table, sourceName: "small.xml")
        let expected = try Fixtures.text(Fixtures.windowsZones("small.swift.expected"))
        #expect(rendered == expected)
    }

    @Test("rendering is deterministic: the same rows in another order give the same Swift")
    func deterministic() async throws {
        let table = try WindowsZonesParser.parse(fileAt: Fixtures.windowsZones("small.xml"))
        var shuffled = table
        shuffled.rows.reverse()
        shuffled.displayNames.reverse()
        #expect(SwiftTableRenderer.render(shuffled, sourceName: "x.xml") == SwiftTableRenderer.render(table, sourceName: "x.xml"))
    }

    @Test("the type attribute is split on any whitespace, including a trailing space and a tab")
    func splitting() async throws {
        let table = try WindowsZonesParser.parse(fileAt: Fixtures.windowsZones("small.xml"))
        let mexico = try #require(table.rows.first { $0.windows == "Central Standard Time (Mexico)" && $0.territory == "MX" })
        #expect(mexico.iana == ["America/Mexico_City", "America/Merida"])
        let utc = try #require(table.rows.first { $0.windows == "UTC" && $0.territory == "ZZ" })
        #expect(utc.iana == ["Etc/UTC", "Etc/GMT"])
        #expect(table.rows.first { $0.windows.hasPrefix("Quote") }?.windows == "Quote \"Test\" \\ Time")
    }

    @Test("the vendored CLDR file: versions, 500 rows, 139 Windows names each with one 001 row")
    func vendoredFile() async throws {
        let table = try WindowsZonesParser.parse(fileAt: Fixtures.vendoredXML)
        #expect(table.typeVersion == "2021a")
        #expect(table.otherVersion == "7e11800")
        #expect(table.rows.count == 500)
        #expect(Set(table.rows.map(\.windows)).count == 139)
        #expect(table.rows.filter { $0.territory == "001" }.count == 139)
        // The row with the trailing space in the file.
        let mexico = try #require(table.rows.first { $0.windows == "Central Standard Time (Mexico)" && $0.territory == "MX" })
        #expect(mexico.iana == ["America/Mexico_City", "America/Bahia_Banderas", "America/Merida", "America/Monterrey", "America/Chihuahua"])
        #expect(table.rows.allSatisfy { row in row.iana.allSatisfy { !$0.isEmpty && !$0.contains(" ") } })
        #expect(table.displayNames.count == 139)
        #expect(table.displayNames.contains(.init(
            displayName: "(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna", windows: "W. Europe Standard Time"
        )))
    }

    @Test(
        "broken XML is rejected with the file and the line",
        arguments: [
            ("missing-attribute.xml", 6, "no 'type' attribute"),
            ("no-rows.xml", 5, "no <mapZone> rows"),
            ("duplicate-001.xml", 8, "duplicate 001 row for 'W. Europe Standard Time' (the first is at line 5)"),
            ("not-xml.xml", 6, "not well-formed XML"),
        ]
    )
    func brokenFixtures(file: String, line: Int, message: String) async throws {
        let path = Fixtures.windowsZones(file)
        #expect {
            _ = try WindowsZonesParser.parse(fileAt: path)
        } throws: { error in
            guard let error = error as? WindowsZonesParseError else { return false }
            return error.file == path && error.line == line && error.message.contains(message)
                && error.description.hasPrefix("\(path):\(line): error: ")
        }
    }

    @Test("more structural errors: wrong root, missing versions, bad territory, id under two names, no 001 row")
    func structuralErrors() async throws {
        func message(_ body: String) -> String? {
            let xml = "<?xml version=\"1.0\"?>\n" + body
            do {
                _ = try WindowsZonesParser.parse(Array(xml.utf8), fileName: "inline.xml")
                return nil
            } catch {
                return error.description
            }
        }
        func zones(_ rows: String, versions: String = "otherVersion=\"1\" typeVersion=\"2021a\"") -> String {
            "<supplementalData>\n<windowsZones>\n<mapTimezones \(versions)>\n\(rows)\n</mapTimezones>\n</windowsZones>\n</supplementalData>\n"
        }
        #expect(message("<ldml/>\n")?.hasPrefix("inline.xml:2: error: the root element is <ldml>") == true)
        #expect(message("<supplementalData>\n</supplementalData>\n")?.contains("has no <windowsZones>") == true)
        #expect(message(zones("<mapZone other=\"A\" territory=\"001\" type=\"Etc/UTC\"/>", versions: "otherVersion=\"1\""))
            == "inline.xml:4: error: <mapTimezones> has no 'typeVersion' attribute")
        #expect(message(zones("<mapZone other=\"A\" territory=\"Europe\" type=\"Etc/UTC\"/>"))?.contains("inline.xml:5:") == true)
        #expect(message(zones("<mapZone other=\"A\" territory=\"001\" type=\"  \"/>"))
            == "inline.xml:5: error: <mapZone> has an empty 'type' attribute")
        #expect(message(zones("<mapZone other=\"A\" territory=\"001\" type=\"Etc/UTC\"/>\n<mapZone other=\"B\" territory=\"001\" type=\"Etc/UTC\"/>"))?
            .hasPrefix("inline.xml:6: error: 'Etc/UTC' is listed under 'B' and under 'A'") == true)
        #expect(message(zones("<mapZone other=\"A\" territory=\"001\" type=\"Etc/UTC\"/>\n<mapZone other=\"B\" territory=\"DE\" type=\"Europe/Berlin\"/>"))
            == "inline.xml:6: error: 'B' has no territory=\"001\" (default) row")
        #expect(message(zones("<mapZone other=\"A\" territory=\"001\" type=\"Etc/UTC\"/>\n<mapZone other=\"a\" territory=\"ZZ\" type=\"Etc/GMT\"/>"))?
            .contains("differs only in case") == true)
        #expect(message(zones("<foo/>"))?.contains("unexpected <foo>") == true)
        #expect(try WindowsZonesParser.parse(Array(zones("<mapZone other=\"A\" territory=\"001\" type=\"Etc/UTC\"/>").utf8), fileName: "ok").rows.count == 1)
    }

    @Test(
        "the built generator executable fails on broken XML with file:line on stderr",
        arguments: ["missing-attribute.xml", "no-rows.xml", "duplicate-001.xml", "not-xml.xml"]
    )
    func generatorExecutableFails(file: String) async throws {
        let generator = try #require(Fixtures.generatorExecutable, "WindowsZonesGenerator is not built next to calbridge")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let output = directory.url.appendingPathComponent("out.swift").path
        let input = Fixtures.windowsZones(file)
        let result = try await Fixtures.run(generator, [input, output])
        #expect(result.status != 0)
        #expect(result.stderr.range(of: "\(input):[0-9]+: error: ", options: .regularExpression) != nil, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("the built generator writes the table, and leaves an unchanged output untouched")
    func generatorExecutableWrites() async throws {
        let generator = try #require(Fixtures.generatorExecutable, "WindowsZonesGenerator is not built next to calbridge")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let output = directory.url.appendingPathComponent("out.swift").path
        let first = try await Fixtures.run(generator, [Fixtures.windowsZones("small.xml"), output])
        #expect(first.status == 0 && first.stderr.isEmpty)
        #expect(try Fixtures.text(output) == Fixtures.text(Fixtures.windowsZones("small.swift.expected")))
        let old = Date(timeIntervalSince1970: 1_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: output)
        #expect(try await Fixtures.run(generator, [Fixtures.windowsZones("small.xml"), output]).status == 0)
        let modified = try FileManager.default.attributesOfItem(atPath: output)[.modificationDate] as? Date
        #expect(modified == old)
    }
}
