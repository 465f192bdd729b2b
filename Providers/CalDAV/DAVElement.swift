import CLibXML2
import CalbridgeSupport
import Foundation

/// One element of a WebDAV XML body (RFC 4918) as a value: its namespace and local name, child elements and
/// text. No libxml2 pointer leaves `DAVElement.parse`.
public struct DAVElement: Sendable, Equatable {
    /// The namespace URI (`DAV:`, `urn:ietf:params:xml:ns:caldav`, ...), "" for none.
    public var namespace: String
    /// The local name (`multistatus`, `href`).
    public var name: String
    /// The attributes by local name (`<c:comp name="VEVENT"/>`).
    public var attributes: [String: String]
    public var children: [DAVElement]
    /// The element's own text (text and CDATA children, concatenated; whitespace-only dropped when it has children).
    public var text: String

    public init(_ namespace: String, _ name: String, attributes: [String: String] = [:], children: [DAVElement] = [], text: String = "") {
        self.namespace = namespace
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
    }

    /// Whether this is the element `name` in `namespace`.
    public func `is`(_ namespace: String, _ name: String) -> Bool { self.namespace == namespace && self.name == name }

    /// The first child `name` in `namespace`.
    public func child(_ namespace: String, _ name: String) -> DAVElement? { children.first { $0.is(namespace, name) } }

    /// Every child `name` in `namespace`.
    public func children(_ namespace: String, _ name: String) -> [DAVElement] { children.filter { $0.is(namespace, name) } }

    /// The largest body read: a calendar home's listing or a month of a busy calendar is far less.
    public static let maxBytes = 64 * 1024 * 1024
    /// The deepest nesting read: a multistatus with calendar data is about 8 levels.
    public static let maxDepth = 40

    /// Parses a document with libxml2: the network off, no DTD loaded, no entity substituted, a document
    /// that declares a DTD (where entities are defined) refused, and limits on size and depth, so that a
    /// hostile server can cause neither an external read (XXE) nor an expansion nor a crash.
    /// - Throws: `DAVXMLError` naming what was wrong.
    public static func parse(_ data: Data) throws(DAVXMLError) -> DAVElement {
        guard !data.isEmpty else { throw DAVXMLError("the body is empty, expected XML") }
        guard data.count <= maxBytes else {
            throw DAVXMLError("the body is \(data.count / 1_048_576) MB; calbridge reads at most \(maxBytes / 1_048_576) MB")
        }
        xmlInitParser()
        // XML_PARSE_NOENT would substitute entities, XML_PARSE_DTDLOAD load a DTD, XML_PARSE_HUGE lift
        // libxml2's own limits: none is given.
        let options = Int32(
            XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue)
        let document = data.withUnsafeBytes { raw in
            raw.baseAddress.flatMap { xmlReadMemory($0.assumingMemoryBound(to: CChar.self), Int32(raw.count), nil, nil, options) }
        }
        guard let document else { throw DAVXMLError("the body is not well-formed XML") }
        defer { xmlFreeDoc(document) }
        guard document.pointee.intSubset == nil, document.pointee.extSubset == nil else {
            throw DAVXMLError("the body declares a DTD, which WebDAV never sends (its entities are not read)")
        }
        guard let root = xmlDocGetRootElement(document) else { throw DAVXMLError("the body has no root element") }
        return try element(root, depth: 0)
    }

    private static func element(_ node: xmlNodePtr, depth: Int) throws(DAVXMLError) -> DAVElement {
        guard depth < maxDepth else { throw DAVXMLError("the body nests deeper than \(maxDepth) elements") }
        let namespace = node.pointee.ns.flatMap { $0.pointee.href }.map { String(cString: $0) } ?? ""
        var result = DAVElement(namespace, node.pointee.name.map { String(cString: $0) } ?? "")
        var attribute = node.pointee.properties
        while let current = attribute {
            let name = current.pointee.name.map { String(cString: $0) } ?? ""
            if let value = xmlNodeListGetString(node.pointee.doc, current.pointee.children, 1) {
                result.attributes[name] = String(cString: value)
                cb_xml_free(value)
            }
            attribute = current.pointee.next
        }
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_ELEMENT_NODE: result.children.append(try element(current, depth: depth + 1))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = current.pointee.content { result.text += String(cString: content) }
            case XML_ENTITY_REF_NODE: throw DAVXMLError("the body refers to an entity, which WebDAV never does")
            default: break
            }
            child = current.pointee.next
        }
        if !result.children.isEmpty, result.text.allSatisfy(\.isWhitespace) { result.text = "" }
        return result
    }

    /// Text escaped for an XML element or attribute value.
    public static func escape(_ text: String) -> String { HTML.escape(text) }
}

/// The namespaces calbridge reads and writes.
public enum DAVNamespace {
    public static let dav = "DAV:"
    public static let caldav = "urn:ietf:params:xml:ns:caldav"
    /// CalendarServer's extensions (`getctag`).
    public static let calendarServer = "http://calendarserver.org/ns/"
    /// Apple's (`calendar-color`).
    public static let apple = "http://apple.com/ns/ical/"
}

/// A body that is not the WebDAV XML calbridge expects.
public struct DAVXMLError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
