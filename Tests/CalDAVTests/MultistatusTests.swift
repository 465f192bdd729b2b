import CalDAV
import Foundation
import Testing

/// The multistatus reader on what servers send and on what a hostile one could: a clear error, never an
/// external read, an expansion or a crash.
struct MultistatusTests {
    @Test("a 207 with properties by status, a removed member's 404 and the sync token")
    func reads() throws {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
              <d:response><d:href>/cal/work/a.ics</d:href>
                <d:propstat><d:prop><d:getetag>"1"</d:getetag><c:calendar-data>BEGIN:VCALENDAR&#13;
            END:VCALENDAR</c:calendar-data></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>
                <d:propstat><d:prop><d:displayname/></d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat>
              </d:response>
              <d:response><d:href>/cal/work/gone.ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>
              <d:sync-token>http://example.com/sync/2</d:sync-token>
            </d:multistatus>
            """
        let answer = try Multistatus.parse(Data(body.utf8))
        #expect(answer.responses.count == 2)
        #expect(answer.responses[0].href == "/cal/work/a.ics")
        #expect(answer.responses[0].property("DAV:", "getetag")?.text == "\"1\"")
        #expect(answer.responses[0].property("urn:ietf:params:xml:ns:caldav", "calendar-data")?.text == "BEGIN:VCALENDAR\r\nEND:VCALENDAR")
        #expect(answer.responses[0].missing["DAV: displayname"] == 404)
        #expect(answer.responses[1].status == 404)
        #expect(answer.syncToken == "http://example.com/sync/2")
    }

    @Test("an external entity (XXE) is refused, never read")
    func externalEntity() {
        let body = """
            <?xml version="1.0"?>
            <!DOCTYPE d [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
            <d:multistatus xmlns:d="DAV:"><d:response><d:href>&xxe;</d:href></d:response></d:multistatus>
            """
        let error = #expect(throws: DAVXMLError.self) { try Multistatus.parse(Data(body.utf8)) }
        #expect(error?.message.contains("DTD") == true)
    }

    @Test("an expanding entity (billion laughs) is refused")
    func billionLaughs() {
        var body = "<?xml version=\"1.0\"?>\n<!DOCTYPE d [<!ENTITY a0 \"lol\">"
        for n in 1...9 { body += "<!ENTITY a\(n) \"" + String(repeating: "&a\(n - 1);", count: 10) + "\">" }
        body += "]>\n<d:multistatus xmlns:d=\"DAV:\"><d:response><d:href>&a9;</d:href></d:response></d:multistatus>"
        #expect(throws: DAVXMLError.self) { try Multistatus.parse(Data(body.utf8)) }
    }

    @Test("nesting deeper than the limit, a body over the size limit, malformed XML, another root: clear errors")
    func limits() {
        let deep =
            "<d:multistatus xmlns:d=\"DAV:\">" + String(repeating: "<d:x>", count: 100) + String(repeating: "</d:x>", count: 100)
            + "</d:multistatus>"
        let deepError = #expect(throws: DAVXMLError.self) { try Multistatus.parse(Data(deep.utf8)) }
        #expect(deepError?.message.contains("deeper") == true)

        var huge = Data("<d:multistatus xmlns:d=\"DAV:\"><d:response><d:href>".utf8)
        huge.append(Data(repeating: UInt8(ascii: "a"), count: DAVElement.maxBytes))
        let hugeError = #expect(throws: DAVXMLError.self) { try Multistatus.parse(huge) }
        #expect(hugeError?.message.contains("MB") == true)

        #expect(throws: DAVXMLError.self) { try Multistatus.parse(Data("<d:multistatus xmlns:d=\"DAV:\"><d:response>".utf8)) }
        #expect(throws: DAVXMLError.self) { try Multistatus.parse(Data()) }
        let other = #expect(throws: DAVXMLError.self) { try Multistatus.parse(Data("<html><body>Login</body></html>".utf8)) }
        #expect(other?.message.contains("multistatus") == true)
        #expect(throws: DAVXMLError.self) {
            try Multistatus.parse(Data("<d:multistatus xmlns:d=\"DAV:\"><d:response></d:response></d:multistatus>".utf8))
        }
    }

    @Test("every truncation and every one-byte change of a document: read or refused, never a crash")
    func mutations() {
        let seed = Data(
            "<d:multistatus xmlns:d=\"DAV:\"><d:response><d:href>/a</d:href><d:propstat><d:prop><d:getetag>1</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>"
                .utf8)
        var read = 0
        for length in 0..<seed.count where (try? Multistatus.parse(seed.prefix(length))) != nil { read += 1 }
        // No prefix is a whole document.
        #expect(read == 0)
        for index in seed.indices {
            for byte: UInt8 in [0, 0x26, 0x3C, 0xFF] {
                var bytes = seed
                bytes[index] = byte
                _ = try? Multistatus.parse(bytes)
            }
        }
    }
}
