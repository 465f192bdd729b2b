import CalendarBridge
import Foundation
import Sync

/// A pairs file: a header row `a,b,direction,fields`, then one pair a line
/// (`alice@contoso.com,alice@fabrikam.com,both,busy`). RFC 4180 quoting is accepted; a blank line is skipped.
package struct PairsCSV: Sendable, Equatable {
    package struct Row: Sendable, Equatable {
        /// The line in the file (1 is the header).
        package var line: Int
        package var a: String
        package var b: String
        package var direction: SyncDirection
        package var fields: CopyFields
    }

    /// A row that cannot be used, with its line and the reason.
    package struct Problem: Sendable, Equatable, CustomStringConvertible {
        package var line: Int
        package var message: String
        package var description: String { "line \(line): \(message)" }
    }

    package var rows: [Row] = []
    package var problems: [Problem] = []

    /// Reads the file's text.
    /// - Throws: `OrgError.usage` when the header is not `a,b,direction,fields` (nothing can be read then).
    package init(text: String) throws(OrgError) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        if lines.first?.hasPrefix("\u{FEFF}") == true { lines[0] = lines[0].dropFirst() }
        guard let header = lines.first,
            Self.fields(of: header)?.map({ $0.trimmingCharacters(in: .whitespaces).lowercased() })
                == ["a", "b", "direction", "fields"]
        else {
            throw .usage("the pairs file's first line must be the header a,b,direction,fields")
        }
        var seen: [String: Int] = [:]
        for (index, line) in lines.enumerated().dropFirst() where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            let number = index + 1
            func problem(_ message: String) { problems.append(Problem(line: number, message: message)) }
            guard let values = Self.fields(of: line)?.map({ $0.trimmingCharacters(in: .whitespaces) }) else {
                problem("an unterminated quote")
                continue
            }
            guard values.count == 4 else {
                problem("\(values.count) fields where a,b,direction,fields are 4")
                continue
            }
            let a = values[0].lowercased(), b = values[1].lowercased()
            if let bad = [a, b].first(where: { !Self.isAddress($0) }) {
                problem("'\(bad)' is not a mail address")
                continue
            }
            guard a != b else {
                problem("a and b are the same mailbox (\(a))")
                continue
            }
            guard let direction = SyncDirection(rawValue: values[2].lowercased()) else {
                problem("direction '\(values[2])' is not one of \(SyncDirection.allCases.map(\.rawValue).joined(separator: ", "))")
                continue
            }
            guard let fields = CopyFields(rawValue: values[3].lowercased()) else {
                problem("fields '\(values[3])' is not one of \(CopyFields.allCases.map(\.rawValue).joined(separator: ", "))")
                continue
            }
            if let first = seen[a + "\n" + b] {
                problem("the pair \(a),\(b) is already on line \(first)")
                continue
            }
            seen[a + "\n" + b] = number
            rows.append(Row(line: number, a: a, b: b, direction: direction, fields: fields))
        }
    }

    /// The domain of an address (after the last `@`).
    package static func domain(of address: String) -> String {
        address.split(separator: "@").last.map(String.init) ?? ""
    }

    static func isAddress(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[0].count <= 64
            && !parts[0].contains(where: { $0.isWhitespace || $0 == "," || $0 == "\"" }) && OrgCredential.isDomain(String(parts[1]))
    }

    /// The fields of one line (RFC 4180: `"` quotes, `""` inside quotes); nil for an unterminated quote.
    static func fields(of line: Substring) -> [String]? {
        var fields: [String] = [], current = "", quoted = false
        var characters = line.makeIterator()
        while let character = characters.next() {
            if quoted {
                if character == "\"" {
                    var lookahead = characters
                    if lookahead.next() == "\"" {
                        current.append("\"")
                        characters = lookahead
                    } else {
                        quoted = false
                    }
                } else {
                    current.append(character)
                }
            } else if character == "\"" {
                quoted = true
            } else if character == "," {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        guard !quoted else { return nil }
        fields.append(current)
        return fields
    }
}
