import Foundation
import HTTP
import LoopbackServer

/// OData query options as Graph applies them to calendar resources: `$select`, `$top`/`$skip` paging with
/// `@odata.nextLink`, `Prefer` preferences, `$orderby` and `$expand` of extended properties.
enum GraphQuery {
    /// Graph's default page size for Outlook collections, and the largest `$top` it honours.
    static let defaultPageSize = 10
    static let maximumPageSize = 1000

    /// The property names of a `$select` list, in Graph's canonical casing.
    static func selectList(_ text: String, known: [String], type: String) throws(GraphError) -> [String] {
        var names: [String] = []
        for raw in text.split(separator: ",") {
            let name = raw.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { continue }
            guard let match = known.first(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) else {
                throw GraphError(status: 400, code: "RequestBroker--ParseUri",
                                 message: "Could not find a property named '\(name)' on type '\(type)'.")
            }
            if !names.contains(match) { names.append(match) }
        }
        return names
    }

    /// Keeps the selected properties (and the annotations and `id` Graph always returns).
    static func project(_ object: [String: SandboxJSON], _ names: [String]) -> [String: SandboxJSON] {
        var result: [String: SandboxJSON] = [:]
        for (key, value) in object where key.hasPrefix("@odata.") || key == "id" || names.contains(key) {
            result[key] = value
        }
        return result
    }

    struct Page {
        var range: Range<Int>
        var nextLink: String?
        var pageSizeApplied: Int?
    }

    /// The slice `$skip`/`$top` (or `Prefer: odata.maxpagesize`) select, and the link to the next slice.
    static func page(count: Int, context: GraphRequestContext, preferPageSize: Int?) throws(GraphError) -> Page {
        func integer(_ name: String) throws(GraphError) -> Int? {
            guard let text = context.option(name) else { return nil }
            guard let value = Int(text.trimmingCharacters(in: .whitespaces)), value >= 0 else {
                throw GraphError.badRequest("Invalid value '\(text)' for query option '\(name)'.")
            }
            return value
        }
        let top = try integer("$top")
        let skip = try integer("$skip") ?? 0
        let size = min(top ?? preferPageSize ?? defaultPageSize, maximumPageSize)
        let start = min(skip, count)
        let end = min(start + size, count)
        var next: String?
        if end < count, size > 0 {
            var items = context.query.filter {
                let name = $0.name.lowercased()
                return !["$skip", "skip", "$top", "top"].contains(name)
            }.map { ($0.name, $0.value) }
            if let top { items.append(("$top", String(top))) }
            items.append(("$skip", String(end)))
            let query = items.map { encodeName($0.0) + "=" + FormEncoding.percentEncode($0.1) }.joined(separator: "&")
            next = context.baseURL + "/" + context.segments.map(FormEncoding.percentEncode).joined(separator: "/") + "?" + query
        }
        return Page(range: start..<end, nextLink: next, pageSizeApplied: top == nil ? preferPageSize : nil)
    }

    /// Keeps the `$` of OData option names readable, as Graph's own links do.
    private static func encodeName(_ name: String) -> String {
        name.hasPrefix("$") ? "$" + FormEncoding.percentEncode(String(name.dropFirst())) : FormEncoding.percentEncode(name)
    }

    /// `Prefer` preferences (several headers, comma-separated, values optionally quoted), names lowercased.
    static func preferences(_ headers: HTTPHeaders) -> [String: String] {
        var result: [String: String] = [:]
        for header in headers.values(for: "Prefer") {
            var current = ""
            var inQuotes = false
            var pieces: [String] = []
            for character in header {
                if character == "\"" { inQuotes.toggle() }
                if character == ",", !inQuotes {
                    pieces.append(current)
                    current = ""
                } else {
                    current.append(character)
                }
            }
            pieces.append(current)
            for piece in pieces {
                let pair = piece.split(separator: "=", maxSplits: 1)
                guard let name = pair.first?.trimmingCharacters(in: .whitespaces).lowercased(), !name.isEmpty else { continue }
                var value = pair.count > 1 ? pair[1].trimmingCharacters(in: .whitespaces) : ""
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
                result[name] = value
            }
        }
        return result
    }

    /// `$orderby`: the sort key and direction Graph supports on events.
    static func orderBy(_ text: String) throws(GraphError) -> (key: String, descending: Bool)? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        guard let first = parts.first, parts.count <= 2 else { throw GraphError.badRequest("Invalid $orderby clause '\(text)'.") }
        var descending = false
        if parts.count == 2 {
            switch parts[1].lowercased() {
            case "asc": descending = false
            case "desc": descending = true
            default: throw GraphError.badRequest("Invalid $orderby clause '\(text)'.")
            }
        }
        let keys = ["start/datetime", "end/datetime", "subject", "createddatetime", "lastmodifieddatetime"]
        guard keys.contains(first.lowercased()) else {
            throw GraphError(status: 400, code: "RequestBroker--ParseUri",
                             message: "Could not find a property named '\(first)' on type 'microsoft.graph.event'.")
        }
        return (first.lowercased(), descending)
    }

    /// `$expand=singleValueExtendedProperties($filter=id eq '...' [or id eq '...'])`: the requested ids, or
    /// an empty list for all of them. Nil when there is no `$expand`.
    static func expandedPropertyIDs(_ text: String?) throws(GraphError) -> [String]? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        let name = "singleValueExtendedProperties"
        guard text.lowercased().hasPrefix(name.lowercased()) else {
            let property = text.split(separator: "(").first.map(String.init) ?? text
            throw GraphError(status: 400, code: "RequestBroker--ParseUri",
                             message: "Could not find a property named '\(property)' on type 'microsoft.graph.event'.")
        }
        var rest = text.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
        if rest.isEmpty { return [] }
        guard rest.hasPrefix("("), rest.hasSuffix(")") else { throw GraphError.invalidFilter }
        rest = String(rest.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
        guard rest.lowercased().hasPrefix("$filter=") else { throw GraphError.invalidFilter }
        let filter = try GraphFilter.parse(String(rest.dropFirst("$filter=".count)), names: ["id"])
        guard let ids = filter.propertyIDs else { throw GraphError.invalidFilter }
        return ids
    }
}
