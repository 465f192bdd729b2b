import CLibXML2
import Foundation

/// One XML element as a value: name, attributes, child elements and its own text. The XML calendar's wire
/// format is small enough to read whole into these; no libxml2 pointer leaves `XMLElement.parse`.
public struct XMLElement: Sendable, Equatable {
    public var name: String
    public var attributes: [String: String]
    public var children: [XMLElement]
    /// The element's text (its text and CDATA children, concatenated).
    public var text: String

    public init(_ name: String, attributes: [String: String] = [:], children: [XMLElement] = [], text: String = "") {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
    }

    /// The first child named `name`.
    public func child(_ name: String) -> XMLElement? { children.first { $0.name == name } }

    /// Every child named `name`.
    public func children(_ name: String) -> [XMLElement] { children.filter { $0.name == name } }

    // MARK: - Writing

    /// The document: an XML declaration and this element.
    public func document() -> Data {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        write(to: &out)
        return Data(out.utf8)
    }

    private func write(to out: inout String) {
        out += "<" + name
        for (key, value) in attributes.sorted(by: { $0.key < $1.key }) { out += " \(key)=\"\(Self.escape(value))\"" }
        if children.isEmpty, text.isEmpty {
            out += "/>"
            return
        }
        out += ">" + Self.escape(text)
        for child in children { child.write(to: &out) }
        out += "</\(name)>"
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }

    // MARK: - Reading

    /// Parses a document with libxml2: the network off, no DTD loaded, no entity substituted, and a
    /// document that declares a DTD at all (the place entities are defined) refused, so that neither an
    /// external entity nor an expanding one is ever read.
    /// - Throws: `XMLWireError` for anything that is not a well-formed document without a DTD.
    public static func parse(_ data: Data) throws(XMLWireError) -> XMLElement {
        guard !data.isEmpty else { throw XMLWireError("the body is empty, expected XML") }
        guard data.count < Int(Int32.max) else { throw XMLWireError("the body is too large") }
        xmlInitParser()
        // XML_PARSE_NOENT is what would substitute entities and XML_PARSE_DTDLOAD what would load a DTD:
        // neither is given.
        let options = Int32(
            XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue)
        let document = data.withUnsafeBytes { raw in
            raw.baseAddress.flatMap { xmlReadMemory($0.assumingMemoryBound(to: CChar.self), Int32(raw.count), nil, "UTF-8", options) }
        }
        guard let document else { throw XMLWireError("the body is not well-formed XML") }
        defer { xmlFreeDoc(document) }
        guard document.pointee.intSubset == nil, document.pointee.extSubset == nil else {
            throw XMLWireError("the body declares a DTD, which this format never has (entities are not read)")
        }
        guard let root = xmlDocGetRootElement(document) else { throw XMLWireError("the body has no root element") }
        return try element(root, depth: 0)
    }

    private static func element(_ node: xmlNodePtr, depth: Int) throws(XMLWireError) -> XMLElement {
        guard depth < 32 else { throw XMLWireError("the body nests deeper than 32 elements") }
        var result = XMLElement(node.pointee.name.map { String(cString: $0) } ?? "")
        var attribute = node.pointee.properties
        while let current = attribute {
            let name = current.pointee.name.map { String(cString: $0) } ?? ""
            if let value = xmlNodeListGetString(node.pointee.doc, current.pointee.children, 1) {
                result.attributes[name] = String(cString: value)
                cb_xml_free(value)
            } else {
                result.attributes[name] = ""
            }
            attribute = current.pointee.next
        }
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_ELEMENT_NODE: result.children.append(try element(current, depth: depth + 1))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = current.pointee.content { result.text += String(cString: content) }
            case XML_ENTITY_REF_NODE: throw XMLWireError("the body refers to an entity, which this format never has")
            default: break
            }
            child = current.pointee.next
        }
        if !result.children.isEmpty, result.text.allSatisfy(\.isWhitespace) { result.text = "" }
        return result
    }
}

/// A body that is not the XML calendar's format.
public struct XMLWireError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
