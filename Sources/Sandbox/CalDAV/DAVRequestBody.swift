import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// An element of a WebDAV request body (RFC 4918 §14): its namespace and local name, attributes,
/// children and text. The sandbox reads bodies with Foundation's XML parser, so that it shares no XML
/// code with the CalDAV provider it is there to check.
package struct DAVNode: Sendable, Equatable {
    package var namespace: String
    package var name: String
    package var attributes: [String: String] = [:]
    package var children: [DAVNode] = []
    package var text = ""

    /// The first child named so.
    package func child(_ namespace: String, _ name: String) -> DAVNode? {
        children.first { $0.namespace == namespace && $0.name == name }
    }

    /// Every child named so.
    package func all(_ namespace: String, _ name: String) -> [DAVNode] {
        children.filter { $0.namespace == namespace && $0.name == name }
    }

    package func isNamed(_ namespace: String, _ name: String) -> Bool { self.namespace == namespace && self.name == name }

    /// The root element of `data`, or nil when it is not well-formed XML (external entities are never
    /// resolved: a request body is the client's, not a document to fetch more of).
    package static func parse(_ data: Data) -> DAVNode? {
        guard !data.isEmpty, data.count <= 4 * 1024 * 1024 else { return nil }
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        let builder = Builder()
        parser.delegate = builder
        guard parser.parse(), builder.stack.isEmpty else { return nil }
        return builder.root
    }

    /// Collects the tree while the parser walks the document.
    private final class Builder: NSObject, XMLParserDelegate {
        var stack: [DAVNode] = []
        var root: DAVNode?

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            guard stack.count < 64 else {
                parser.abortParsing()
                return
            }
            stack.append(DAVNode(namespace: namespaceURI ?? "", name: elementName, attributes: attributes))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            // The index first: reading `stack` inside its own modification is an exclusivity violation.
            let last = stack.count - 1
            guard last >= 0 else { return }
            stack[last].text += string
        }

        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            let last = stack.count - 1
            guard last >= 0 else { return }
            stack[last].text += String(decoding: block, as: UTF8.self)
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            guard let node = stack.popLast() else { return }
            let last = stack.count - 1
            if last < 0 {
                root = node
            } else {
                stack[last].children.append(node)
            }
        }
    }
}

/// The namespaces of the properties the sandbox's CalDAV service knows.
enum DAVNS {
    static let dav = "DAV:"
    static let caldav = "urn:ietf:params:xml:ns:caldav"
    /// `getctag` (Apple's CalendarServer extension, which iCloud, Radicale and Nextcloud answer).
    static let calendarServer = "http://calendarserver.org/ns/"
    /// `calendar-color`, `calendar-order` (Apple's iCal extension).
    static let apple = "http://apple.com/ns/ical/"

    /// The prefixes the sandbox writes each namespace with.
    static func prefix(_ namespace: String) -> String? {
        switch namespace {
        case dav: "d"
        case caldav: "c"
        case calendarServer: "cs"
        case apple: "a"
        default: nil
        }
    }
}
