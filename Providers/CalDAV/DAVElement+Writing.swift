import Foundation

extension DAVElement {
    /// The element as an XML document: a declaration, then the element with a default-namespace
    /// declaration wherever its namespace differs from its parent's (elements without one stay plain).
    public func document() -> Data {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        write(to: &out, parentNamespace: "")
        return Data(out.utf8)
    }

    private func write(to out: inout String, parentNamespace: String) {
        out += "<" + name
        if namespace != parentNamespace { out += " xmlns=\"\(Self.escape(namespace))\"" }
        for (key, value) in attributes.sorted(by: { $0.key < $1.key }) { out += " \(key)=\"\(Self.escape(value))\"" }
        if children.isEmpty, text.isEmpty {
            out += "/>"
            return
        }
        out += ">" + Self.escape(text)
        for child in children { child.write(to: &out, parentNamespace: namespace) }
        out += "</\(name)>"
    }
}
