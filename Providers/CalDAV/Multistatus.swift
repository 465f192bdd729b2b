import Foundation

/// A `207 Multi-Status` answer (RFC 4918 §13): one response per resource, each with its properties
/// grouped by status, and (RFC 6578) the collection's new sync token.
public struct Multistatus: Sendable, Equatable {
    /// One resource's answer.
    public struct Response: Sendable, Equatable {
        /// The resource's href as the server wrote it (a path, or an absolute URL).
        public var href: String
        /// The status of the whole response (`sync-collection` reports a removed member as 404), nil when the
        /// response carries property statuses instead.
        public var status: Int?
        /// The properties answered with a 2xx status, by `namespace + " " + name`.
        public var properties: [String: DAVElement]
        /// The properties the server answered with another status (404: it has none).
        public var missing: [String: Int]

        /// A property found with a 2xx status.
        public func property(_ namespace: String, _ name: String) -> DAVElement? { properties[namespace + " " + name] }
    }

    public var responses: [Response]
    /// RFC 6578's `DAV:sync-token` of a `sync-collection` answer.
    public var syncToken: String?

    /// Reads a multistatus body.
    /// - Throws: `DAVXMLError` for a body that is not XML or not a `DAV:multistatus`.
    public static func parse(_ data: Data) throws(DAVXMLError) -> Multistatus {
        let root = try DAVElement.parse(data)
        guard root.is(DAVNamespace.dav, "multistatus") else {
            throw DAVXMLError("expected a DAV:multistatus, got <\(root.name.prefix(40))>")
        }
        var responses: [Response] = []
        for element in root.children(DAVNamespace.dav, "response") {
            guard let href = element.child(DAVNamespace.dav, "href")?.text.trimmingCharacters(in: .whitespacesAndNewlines), !href.isEmpty
            else { throw DAVXMLError("a response of the multistatus has no href") }
            var response = Response(
                href: href, status: element.child(DAVNamespace.dav, "status").flatMap { statusCode($0.text) }, properties: [:], missing: [:]
            )
            for propstat in element.children(DAVNamespace.dav, "propstat") {
                let status = propstat.child(DAVNamespace.dav, "status").flatMap { statusCode($0.text) } ?? 200
                for property in propstat.child(DAVNamespace.dav, "prop")?.children ?? [] {
                    let key = property.namespace + " " + property.name
                    if (200..<300).contains(status) { response.properties[key] = property } else { response.missing[key] = status }
                }
            }
            responses.append(response)
        }
        let token = root.child(DAVNamespace.dav, "sync-token")?.text.trimmingCharacters(in: .whitespacesAndNewlines)
        return Multistatus(responses: responses, syncToken: token.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// The code of a status line (`HTTP/1.1 404 Not Found` -> 404).
    static func statusCode(_ line: String) -> Int? {
        let parts = line.split(separator: " ")
        guard parts.count >= 2, let code = Int(parts[1]), (100...599).contains(code) else { return nil }
        return code
    }
}
