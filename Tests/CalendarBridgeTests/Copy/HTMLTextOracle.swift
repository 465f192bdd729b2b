// The implementation of `HTMLText.plainText(fromHTML:)` before it went to bytes (commit ed980b6), kept
// unchanged but for its name and access, as the oracle the byte-level path is tested against: its result
// goes into a content hash, so the new code must give exactly the same String for every input.
import CalbridgeSupport
import Foundation

/// HTML ↔ plain text for event bodies: what a text-only target gets from an HTML body, and how text
/// is added to an HTML body.
enum HTMLTextOracle {
    /// A plain-text rendering: head, script and style dropped, tags stripped, entities decoded, line
    /// breaks kept where the HTML breaks lines (`<br>`, paragraphs, divs, list items, rows, headings).
    static func plainText(fromHTML html: String) -> String {
        var out = ""
        var index = html.startIndex
        // Characters of one text run; HTML collapses runs of white space (including newlines) to one space.
        var pendingSpace = false
        func newline() {
            trimTrailingSpaces(&out)
            out.append("\n")
            pendingSpace = false
        }
        func emit(_ text: String) {
            for ch in text {
                if ch.isWhitespace && ch != "\u{A0}" {
                    pendingSpace = true
                } else {
                    if pendingSpace, let last = out.last, last != "\n" { out.append(" ") }
                    pendingSpace = false
                    out.append(ch == "\u{A0}" ? " " : ch)
                }
            }
        }
        while index < html.endIndex {
            let ch = html[index]
            if ch == "<" {
                // Comments.
                if html[index...].hasPrefix("<!--") {
                    if let end = html.range(of: "-->", range: index..<html.endIndex) {
                        index = end.upperBound
                    } else {
                        index = html.endIndex
                    }
                    continue
                }
                guard let close = html[index...].firstIndex(of: ">") else {
                    emit(decodeEntities(String(html[index...])))
                    break
                }
                let tag = html[html.index(after: index)..<close]
                let name = tagName(tag)
                index = html.index(after: close)
                if ["script", "style", "head", "title"].contains(name) && !tag.hasPrefix("/") && !tag.hasSuffix("/") {
                    // Skip everything up to the matching end tag.
                    if let end = html.range(of: "</\(name)", options: .caseInsensitive, range: index..<html.endIndex),
                        let gt = html[end.upperBound...].firstIndex(of: ">")
                    {
                        index = html.index(after: gt)
                    } else {
                        index = html.endIndex
                    }
                    continue
                }
                let closing = tag.hasPrefix("/")
                switch name {
                case "br": newline()
                case "p", "div", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "table", "blockquote", "pre":
                    if !out.isEmpty && out.last != "\n" { newline() }
                    if closing && (name == "p" || name.hasPrefix("h")) { newline() }
                case "li":
                    if !closing {
                        if !out.isEmpty && out.last != "\n" { newline() }
                        emit("- ")
                    }
                case "td", "th":
                    if closing { pendingSpace = true }
                default: break
                }
            } else {
                let next = html[index...].firstIndex(of: "<") ?? html.endIndex
                emit(decodeEntities(String(html[index..<next])))
                index = next
            }
        }
        // At most one blank line in a row; no blank lines at the ends.
        var lines: [Substring] = []
        for line in out.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop(while: { $0 == " " })
            if trimmed.isEmpty, lines.last?.isEmpty ?? true { continue }
            lines.append(trimmed)
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    /// Text escaped for HTML, line breaks as `<br>`.
    static func html(fromText text: String) -> String { HTML.escape(text, lineBreaks: true) }

    /// Decodes `&amp;`-style named entities (the common ones) and numeric `&#…;` / `&#x…;` references.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var index = text.startIndex
        while index < text.endIndex {
            let ch = text[index]
            guard ch == "&", let semi = text[index...].prefix(12).firstIndex(of: ";") else {
                out.append(ch)
                index = text.index(after: index)
                continue
            }
            let entity = text[text.index(after: index)..<semi]
            if let decoded = decode(entity) {
                out += decoded
                index = text.index(after: semi)
            } else {
                out.append(ch)
                index = text.index(after: index)
            }
        }
        return out
    }

    private static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "ndash": "–",
        "mdash": "—", "hellip": "…", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "bull": "•",
        "euro": "€", "copy": "©", "reg": "®", "trade": "™", "middot": "·", "laquo": "«", "raquo": "»",
        "auml": "ä", "ouml": "ö", "uuml": "ü", "Auml": "Ä", "Ouml": "Ö", "Uuml": "Ü", "szlig": "ß",
        "eacute": "é", "egrave": "è", "agrave": "à", "ccedil": "ç", "deg": "°", "times": "×",
    ]

    private static func decode(_ entity: Substring) -> String? {
        if entity.hasPrefix("#") {
            let digits = entity.dropFirst()
            let value: UInt32?
            if digits.hasPrefix("x") || digits.hasPrefix("X") {
                value = UInt32(digits.dropFirst(), radix: 16)
            } else {
                value = UInt32(digits)
            }
            return value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
        return named[String(entity)]
    }

    private static func tagName(_ tag: Substring) -> String {
        var body = tag
        if body.hasPrefix("/") { body = body.dropFirst() }
        return String(body.prefix(while: { $0.isLetter || $0.isNumber })).lowercased()
    }

    private static func trimTrailingSpaces(_ text: inout String) {
        while text.last == " " { text.removeLast() }
    }
}
