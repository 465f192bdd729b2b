import Foundation
import LoopbackServer

/// A WebDAV `multistatus` answer (RFC 4918 §13), written as the sandbox's CalDAV service sends it: one
/// `response` per resource, each with its found properties (200) and the ones it has not (404), or a
/// status alone; RFC 6578's `sync-token` after the responses.
struct DAVMultistatus {
    /// A property found: its name and its content, already XML.
    struct Property {
        var namespace: String
        var name: String
        var content: String

        init(_ namespace: String, _ name: String, _ content: String = "") {
            self.namespace = namespace
            self.name = name
            self.content = content
        }

        /// A property whose content is text (escaped here).
        static func text(_ namespace: String, _ name: String, _ text: String) -> Property {
            Property(namespace, name, DAVMultistatus.escape(text))
        }

        /// A property whose content is one `href`.
        static func href(_ namespace: String, _ name: String, _ href: String) -> Property {
            Property(namespace, name, "<d:href>\(DAVMultistatus.escape(href))</d:href>")
        }
    }

    private var responses: [String] = []
    var syncToken: String?

    /// A resource's properties: those found with 200, the missing ones with 404 (RFC 4918 §9.1).
    mutating func add(href: String, found: [Property], missing: [(namespace: String, name: String)] = []) {
        var text = "<d:response><d:href>\(Self.escape(href))</d:href>"
        if !found.isEmpty || missing.isEmpty {
            text += "<d:propstat><d:prop>" + found.map(Self.element).joined() + "</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>"
        }
        if !missing.isEmpty {
            text +=
                "<d:propstat><d:prop>" + missing.map { Self.element(Property($0.namespace, $0.name)) }.joined()
                + "</d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat>"
        }
        responses.append(text + "</d:response>")
    }

    /// A resource with a status alone (a removed member in a sync report, a missing one in a multiget, the
    /// collection's 507 when a report was cut).
    mutating func add(href: String, status: Int) {
        responses.append(
            "<d:response><d:href>\(Self.escape(href))</d:href><d:status>HTTP/1.1 \(status) \(Self.reason(status))</d:status></d:response>")
    }

    var response: ServerResponse {
        var body = #"<?xml version="1.0" encoding="utf-8"?>"# + "\n"
        body += #"<d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/" "#
        body += #"xmlns:a="http://apple.com/ns/ical/">"#
        body += responses.joined()
        if let syncToken { body += "<d:sync-token>\(Self.escape(syncToken))</d:sync-token>" }
        body += "</d:multistatus>\n"
        return ServerResponse(status: 207, headers: ["Content-Type": "application/xml; charset=utf-8"], body: Data(body.utf8))
    }

    /// An element, its namespace declared where it is not one of the four the root declares.
    static func element(_ property: Property) -> String {
        let (open, close): (String, String)
        if let prefix = DAVNS.prefix(property.namespace) {
            (open, close) = ("\(prefix):\(property.name)", "\(prefix):\(property.name)")
        } else {
            (open, close) = ("x:\(property.name) xmlns:x=\"\(escape(property.namespace))\"", "x:\(property.name)")
        }
        return property.content.isEmpty ? "<\(open)/>" : "<\(open)>\(property.content)</\(close)>"
    }

    /// A WebDAV error body (RFC 4918 §16): the precondition that failed.
    static func error(
        _ status: Int, _ namespace: String, _ precondition: String, _ description: String? = nil, content: String = ""
    ) -> ServerResponse {
        var body = #"<?xml version="1.0" encoding="utf-8"?>"# + "\n"
        body += #"<d:error xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">"#
        body += element(Property(namespace, precondition, content))
        if let description { body += "<d:responsedescription>\(escape(description))</d:responsedescription>" }
        body += "</d:error>\n"
        return ServerResponse(status: status, headers: ["Content-Type": "application/xml; charset=utf-8"], body: Data(body.utf8))
    }

    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            // A carriage return as a reference: XML parsers turn a literal CR LF into LF (XML 1.0 §2.11), and
            // the iCalendar text is to arrive as it was stored.
            case "\r\n": out += "&#13;\n"
            case "\r": out += "&#13;"
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 507: "Insufficient Storage"
        default: ServerResponse.reason(for: status)
        }
    }
}
