import Foundation

/// The subset of OData `$filter` Graph's calendar endpoints are used with, parsed into a tree:
/// `singleValueExtendedProperties/any(ep: ep/id eq '…' and ep/value eq '…')`, `categories/any(c: c eq '…')`,
/// comparisons of `subject`, `iCalUId`, `type`, `sensitivity`, `showAs`, `importance`, `isAllDay`,
/// `isOnlineMeeting`, `seriesMasterId`, and `start/dateTime` / `end/dateTime` (`eq ne gt ge lt le`), joined with
/// `and`, `or`, `not` and parentheses. Keywords are case-insensitive; strings use `'…'` with `''` for a quote.
/// Anything else is Graph's 400 "Invalid filter clause".
indirect enum GraphFilter: Sendable {
    enum Literal: Sendable, Equatable {
        case string(String)
        case bool(Bool)
        case number(Double)
        case null
    }

    case and(GraphFilter, GraphFilter)
    case or(GraphFilter, GraphFilter)
    case not(GraphFilter)
    case compare(path: String, op: String, value: Literal)
    case any(collection: String, variable: String, body: GraphFilter)

    static let collections = ["singlevalueextendedproperties", "categories"]
    static let properties = ["subject", "icaluid", "type", "sensitivity", "showas", "importance", "isallday",
                             "isonlinemeeting", "seriesmasterid", "start/datetime", "end/datetime"]

    // MARK: Parsing

    private enum Token: Equatable {
        case word(String)
        case string(String)
        case punct(Character)
    }

    /// - Parameter names: extra bare names allowed as paths (`id` inside `$expand=...($filter=id eq '…')`).
    static func parse(_ text: String, names: [String] = []) throws(GraphError) -> GraphFilter {
        var tokens = try tokenize(text)[...]
        let result = try parseOr(&tokens, variables: names)
        guard tokens.isEmpty else { throw GraphError.invalidFilter }
        return result
    }

    private static func tokenize(_ text: String) throws(GraphError) -> [Token] {
        var tokens: [Token] = []
        let characters = Array(text)
        var i = 0
        while i < characters.count {
            let c = characters[i]
            if c.isWhitespace {
                i += 1
            } else if "():,".contains(c) {
                tokens.append(.punct(c))
                i += 1
            } else if c == "'" {
                var value = ""
                i += 1
                var closed = false
                while i < characters.count {
                    if characters[i] == "'" {
                        if i + 1 < characters.count, characters[i + 1] == "'" {
                            value.append("'")
                            i += 2
                            continue
                        }
                        closed = true
                        i += 1
                        break
                    }
                    value.append(characters[i])
                    i += 1
                }
                guard closed else { throw GraphError.invalidFilter }
                tokens.append(.string(value))
            } else {
                var word = ""
                while i < characters.count, !characters[i].isWhitespace, !"():,'".contains(characters[i]) {
                    word.append(characters[i])
                    i += 1
                }
                tokens.append(.word(word))
            }
        }
        return tokens
    }

    private static func keyword(_ tokens: ArraySlice<Token>, _ word: String) -> Bool {
        if case .word(let value)? = tokens.first { return value.lowercased() == word }
        return false
    }

    private static func parseOr(_ tokens: inout ArraySlice<Token>, variables: [String]) throws(GraphError) -> GraphFilter {
        var left = try parseAnd(&tokens, variables: variables)
        while keyword(tokens, "or") {
            tokens.removeFirst()
            left = .or(left, try parseAnd(&tokens, variables: variables))
        }
        return left
    }

    private static func parseAnd(_ tokens: inout ArraySlice<Token>, variables: [String]) throws(GraphError) -> GraphFilter {
        var left = try parsePrimary(&tokens, variables: variables)
        while keyword(tokens, "and") {
            tokens.removeFirst()
            left = .and(left, try parsePrimary(&tokens, variables: variables))
        }
        return left
    }

    private static func parsePrimary(_ tokens: inout ArraySlice<Token>, variables: [String]) throws(GraphError) -> GraphFilter {
        guard let token = tokens.popFirst() else { throw GraphError.invalidFilter }
        switch token {
        case .punct("("):
            let inner = try parseOr(&tokens, variables: variables)
            guard tokens.popFirst() == .punct(")") else { throw GraphError.invalidFilter }
            return inner
        case .word(let word) where word.lowercased() == "not":
            return .not(try parsePrimary(&tokens, variables: variables))
        case .word(let word) where word.lowercased().hasSuffix("/any") && tokens.first == .punct("("):
            tokens.removeFirst()
            let collection = String(word.dropLast(4)).lowercased()
            guard collections.contains(collection), case .word(let variable)? = tokens.popFirst(),
                  !variable.contains("/"), tokens.popFirst() == .punct(":") else { throw GraphError.invalidFilter }
            let body = try parseOr(&tokens, variables: variables + [variable.lowercased()])
            guard tokens.popFirst() == .punct(")") else { throw GraphError.invalidFilter }
            return .any(collection: collection, variable: variable.lowercased(), body: body)
        case .word(let word):
            let path = word.lowercased()
            let head = path.split(separator: "/").first.map(String.init) ?? path
            let valid = properties.contains(path) || variables.contains(path)
                || (variables.contains(head) && ["id", "value"].contains(path.dropFirst(head.count + 1)))
            guard valid, case .word(let op)? = tokens.popFirst(),
                  ["eq", "ne", "gt", "ge", "lt", "le"].contains(op.lowercased()),
                  let literalToken = tokens.popFirst() else { throw GraphError.invalidFilter }
            let literal: Literal
            switch literalToken {
            case .string(let value): literal = .string(value)
            case .word(let value) where value.lowercased() == "true": literal = .bool(true)
            case .word(let value) where value.lowercased() == "false": literal = .bool(false)
            case .word(let value) where value.lowercased() == "null": literal = .null
            case .word(let value):
                guard let number = Double(value) else { throw GraphError.invalidFilter }
                literal = .number(number)
            default:
                throw GraphError.invalidFilter
            }
            return .compare(path: path, op: op.lowercased(), value: literal)
        default:
            throw GraphError.invalidFilter
        }
    }

    /// For `$expand=singleValueExtendedProperties($filter=id eq 'a' or id eq 'b')`: the ids; nil for other shapes.
    var propertyIDs: [String]? {
        switch self {
        case .compare(let path, "eq", .string(let id)) where path == "id": return [id]
        case .or(let left, let right):
            guard let a = left.propertyIDs, let b = right.propertyIDs else { return nil }
            return a + b
        default: return nil
        }
    }

    // MARK: Evaluation

    private enum Binding {
        case property(id: String, value: String)
        case string(String)
    }

    /// Whether `event` (as rendered: stored fields, occurrence times already applied) passes.
    func matches(_ event: GraphStoredEvent) -> Bool { evaluate(event, [:]) }

    private func evaluate(_ event: GraphStoredEvent, _ bindings: [String: Binding]) -> Bool {
        switch self {
        case .and(let a, let b): return a.evaluate(event, bindings) && b.evaluate(event, bindings)
        case .or(let a, let b): return a.evaluate(event, bindings) || b.evaluate(event, bindings)
        case .not(let a): return !a.evaluate(event, bindings)
        case .any(let collection, let variable, let body):
            if collection == "categories" {
                return event.categories.contains { body.evaluate(event, bindings.merging([variable: .string($0)]) { $1 }) }
            }
            return event.extendedProperties.contains {
                body.evaluate(event, bindings.merging([variable: .property(id: $0.key, value: $0.value)]) { $1 })
            }
        case .compare(let path, let op, let literal):
            return GraphFilter.compare(value(of: path, event, bindings), op, literal)
        }
    }

    private func value(of path: String, _ event: GraphStoredEvent, _ bindings: [String: Binding]) -> Literal {
        let parts = path.split(separator: "/", maxSplits: 1).map(String.init)
        if let binding = bindings[parts[0]] {
            switch binding {
            case .string(let text): return parts.count == 1 ? .string(text) : .null
            case .property(let id, let value):
                guard parts.count == 2 else { return .null }
                return parts[1] == "id" ? .string(id) : .string(value)
            }
        }
        switch path {
        case "subject": return .string(event.subject)
        case "icaluid": return .string(event.iCalUId)
        case "type": return .string(event.type)
        case "sensitivity": return .string(event.sensitivity)
        case "showas": return .string(event.showAs)
        case "importance": return .string(event.importance)
        case "isallday": return .bool(event.isAllDay)
        case "isonlinemeeting": return .bool(event.isOnlineMeeting)
        case "seriesmasterid": return event.seriesMasterId.map(Literal.string) ?? .null
        case "start/datetime": return .number(event.start.timeIntervalSince1970)
        case "end/datetime": return .number(event.end.timeIntervalSince1970)
        default: return .null
        }
    }

    private static func compare(_ actual: Literal, _ op: String, _ expected: Literal) -> Bool {
        var expected = expected
        // Times compare as instants; the literal is a UTC wall clock (Graph compares event times in UTC).
        if case .number = actual, case .string(let text) = expected {
            guard let date = GraphInstant.parse(text) else { return false }
            expected = .number(date.timeIntervalSince1970)
        }
        let order: Int?
        switch (actual, expected) {
        case (.string(let a), .string(let b)):
            let result = a.caseInsensitiveCompare(b)
            order = result == .orderedAscending ? -1 : result == .orderedSame ? 0 : 1
        case (.number(let a), .number(let b)): order = a < b ? -1 : a == b ? 0 : 1
        case (.bool(let a), .bool(let b)): order = a == b ? 0 : nil
        case (.null, .null): order = 0
        default: order = nil
        }
        switch op {
        case "eq": return order == 0
        case "ne": return order != 0
        case "gt": return order == 1
        case "ge": return order == 1 || order == 0
        case "lt": return order == -1
        case "le": return order == -1 || order == 0
        default: return false
        }
    }
}
