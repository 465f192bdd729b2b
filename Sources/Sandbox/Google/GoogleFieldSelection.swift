/// Google's partial response: the standard `fields` parameter ("Improve performance": `items(id,start/dateTime),
/// nextPageToken`), a comma-separated list of paths, `a/b` selecting `b` inside `a`, `a(b,c)` several
/// members inside `a`, `*` every member; an array's elements are each cut the same way. Applied to
/// `events.list` and `events.instances` pages (the listings a client would trim); other methods answer
/// whole. Names are not checked against the schema, where Google answers 400 to an unknown one.
package struct GoogleFieldSelection: Equatable, Sendable {
    /// Selected members by name, each with what is selected inside it (nil: all of it).
    private var members: [String: GoogleFieldSelection?]

    /// Parses a `fields` value; throws Google's 400 for a malformed one (unbalanced parentheses, an empty name,
    /// nesting deeper than `maxDepth`).
    package init(parsing text: String) throws(GoogleAPIError) {
        var parser = Parser(bytes: Array(text.utf8))
        guard let selection = parser.list(), parser.atEnd else {
            throw .invalid("Invalid field selection \(text)", parameter: "fields")
        }
        self = selection
    }

    private init(members: [String: GoogleFieldSelection?]) { self.members = members }

    /// `json` cut to this selection: objects keep the selected members, arrays cut each element.
    package func project(_ json: GoogleJSON) -> GoogleJSON {
        switch json {
        case .object(let object):
            if members["*"] != nil { return json }
            var kept: [String: GoogleJSON] = [:]
            for (name, inner) in members {
                guard let value = object[name] else { continue }
                kept[name] = inner.map { $0.project(value) } ?? value
            }
            return .object(kept)
        case .array(let elements):
            return .array(elements.map(project))
        default:
            return json
        }
    }

    /// Adds member `name` with `inner` selected inside it (`a/b,a/c` selects both inside `a`; a member
    /// selected whole stays whole).
    private mutating func merge(_ name: String, _ inner: GoogleFieldSelection?) {
        guard let existing = members[name] else {
            members[name] = inner
            return
        }
        guard var current = existing, let inner else {
            members[name] = .some(nil)
            return
        }
        for (key, value) in inner.members { current.merge(key, value) }
        members[name] = current
    }

    /// How deep selections may nest: the parser recurses once per level, and a request target of 8 KB could
    /// otherwise nest 4,000 levels deep on a task's small stack.
    static let maxDepth = 32

    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        var depth = 0
        var atEnd: Bool { index == bytes.count }

        /// list := field ("," field)*
        mutating func list() -> GoogleFieldSelection? {
            var selection = GoogleFieldSelection(members: [:])
            repeat {
                guard let (name, inner) = field() else { return nil }
                selection.merge(name, inner)
            } while consume(UInt8(ascii: ","))
            return selection
        }

        /// field := name ("/" field | "(" list ")")?
        mutating func field() -> (String, GoogleFieldSelection?)? {
            skipSpaces()
            let start = index
            while index < bytes.count, !",/()".utf8.contains(bytes[index]) { index += 1 }
            let name = String(decoding: bytes[start..<index], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, depth < GoogleFieldSelection.maxDepth else { return nil }
            depth += 1
            defer { depth -= 1 }
            if consume(UInt8(ascii: "/")) {
                guard let (innerName, inner) = field() else { return nil }
                var selection = GoogleFieldSelection(members: [:])
                selection.merge(innerName, inner)
                return (name, selection)
            }
            if consume(UInt8(ascii: "(")) {
                guard let inner = list(), consume(UInt8(ascii: ")")) else { return nil }
                return (name, inner)
            }
            return (name, nil)
        }

        mutating func consume(_ byte: UInt8) -> Bool {
            skipSpaces()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func skipSpaces() {
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
        }
    }
}
