import CalbridgeSupport
import Foundation

/// HTML ↔ plain text for event bodies: what a text-only target gets from an HTML body, and how text
/// is added to an HTML body.
public enum HTMLText {
    /// A plain-text rendering: head, script and style dropped, tags stripped, entities decoded, line
    /// breaks kept where the HTML breaks lines (`<br>`, paragraphs, divs, list items, rows, headings).
    public static func plainText(fromHTML html: String) -> String {
        // Bytes first (see `ASCIIRenderer`): the same text, far cheaper, on ASCII.
        plainTextOnBytes(fromHTML: html) ?? plainTextByCharacters(fromHTML: html)
    }

    /// The byte-level path alone: nil where it declines (tests check it is taken, and equal where it is).
    static func plainTextOnBytes(fromHTML html: String) -> String? {
        var contiguous = html
        return contiguous.withUTF8 { ASCIIRenderer.plainText(fromHTML: $0) }
    }

    /// The algorithm itself, on `Character`s: what `ASCIIRenderer` must match byte for byte, and what runs
    /// for everything it declines.
    static func plainTextByCharacters(fromHTML html: String) -> String {
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
    public static func html(fromText text: String) -> String { HTML.escape(text, lineBreaks: true) }

    /// Decodes `&amp;`-style named entities (the common ones) and numeric `&#…;` / `&#x…;` references.
    public static func decodeEntities(_ text: String) -> String {
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

    fileprivate static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "ndash": "–",
        "mdash": "—", "hellip": "…", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "bull": "•",
        "euro": "€", "copy": "©", "reg": "®", "trade": "™", "middot": "·", "laquo": "«", "raquo": "»",
        "auml": "ä", "ouml": "ö", "uuml": "ü", "Auml": "Ä", "Ouml": "Ö", "Uuml": "Ü", "szlig": "ß",
        "eacute": "é", "egrave": "è", "agrave": "à", "ccedil": "ç", "deg": "°", "times": "×",
    ]

    fileprivate static func decode(_ entity: Substring) -> String? {
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

/// `HTMLText.plainText(fromHTML:)` on the UTF-8 bytes of an all-ASCII body, writing into a byte buffer.
///
/// Why bytes: every Outlook body copied to Google goes through here, and the `Character` walk, a String per text run
/// and `range(of:)` on the String cost about 20 times as much. The result goes into a content hash, so this must give
/// exactly the String the `Character` algorithm gives; it follows that algorithm step by step and is tested against it
/// (`plainTextByCharacters`) on random input (HTMLTextBytesTests) and by the `html-text` fuzz target. It is exact
/// because on ASCII every `Character` is one byte except "\r\n", which is white space as its two bytes are, and is
/// never written out; ASCII white space is bytes 9-13 and 32, and letters and digits are A-Z, a-z, 0-9. Every named
/// entity decodes to one precomposed scalar that never joins its neighbours into one `Character`, and no UTF-8 byte of
/// it is "\n" or " "; so is every non-ASCII scalar `standsAlone` lets a numeric reference decode to. It declines (nil)
/// on any byte >= 0x80 and on a numeric reference to any other non-ASCII scalar (`e&#769;` is one `Character`), and the
/// caller runs the `Character` algorithm.
struct ASCIIRenderer {
    static func plainText(fromHTML html: UnsafeBufferPointer<UInt8>) -> String? {
        var any: UInt8 = 0
        for byte in html { any |= byte }
        guard any < 0x80 else { return nil }
        var renderer = ASCIIRenderer(html: html)
        guard renderer.render() else { return nil }
        return renderer.joinedLines()
    }

    private static let (lt, gt, slash, amp, semicolon, hash, space, newline) =
        (UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "/"), UInt8(ascii: "&"), UInt8(ascii: ";"),
         UInt8(ascii: "#"), UInt8(ascii: " "), UInt8(ascii: "\n"))

    private static let (commentStart, commentEnd) = (Array("<!--".utf8), Array("-->".utf8))
    /// The named entities as bytes: a name's bytes equal as its String does, on ASCII.
    private static let named: [(name: [UInt8], value: [UInt8])] = HTMLText.named.map { (Array($0.key.utf8), Array($0.value.utf8)) }

    /// What a tag does to the text; the names as `tagName` lower-cases them.
    private enum Tag { case lineBreak, block, blockWithGapAfter, listItem, cell, skipped, other }
    private static let tags: [(name: [UInt8], tag: Tag)] = {
        let kinds: [(String, Tag)] = [
            ("br", .lineBreak), ("p", .blockWithGapAfter), ("div", .block), ("tr", .block), ("ul", .block),
            ("ol", .block), ("table", .block), ("blockquote", .block), ("pre", .block), ("li", .listItem),
            ("td", .cell), ("th", .cell), ("script", .skipped), ("style", .skipped), ("head", .skipped),
            ("title", .skipped), ("h1", .blockWithGapAfter), ("h2", .blockWithGapAfter), ("h3", .blockWithGapAfter),
            ("h4", .blockWithGapAfter), ("h5", .blockWithGapAfter), ("h6", .blockWithGapAfter),
        ]
        return kinds.map { (Array($0.0.utf8), $0.1) }
    }()

    private let html: UnsafeBufferPointer<UInt8>
    private var out: [UInt8] = []
    /// White space seen since the last character written; HTML collapses it to one space.
    private var pendingSpace = false

    private init(html: UnsafeBufferPointer<UInt8>) {
        self.html = html
        out.reserveCapacity(html.count)
    }

    /// The first pass: tags, comments and skipped elements out, text runs decoded into `out`. False where the
    /// input needs the `Character` algorithm.
    private mutating func render() -> Bool {
        let end = html.count
        var index = 0
        while index < end {
            guard html[index] == Self.lt else {
                let next = find(Self.lt, from: index) ?? end
                guard emitText(index..<next) else { return false }
                index = next
                continue
            }
            if has(Self.commentStart, at: index) {
                index = find(Self.commentEnd, from: index).map { $0 + 3 } ?? end
                continue
            }
            guard let close = find(Self.gt, from: index) else {
                return emitText(index..<end)
            }
            let tag = index + 1..<close
            let closing = !tag.isEmpty && html[tag.lowerBound] == Self.slash
            let selfClosing = !tag.isEmpty && html[tag.upperBound - 1] == Self.slash
            let name = tagName(tag)
            index = close + 1
            let kind = Self.tags.first(where: { matches($0.name, name) })?.tag ?? .other
            switch kind {
            case .skipped:
                guard !closing && !selfClosing else { break }
                // Everything up to the end tag, matched case-insensitively, and its ">".
                if let endTag = findEndTag(name, from: index), let gt = find(Self.gt, from: endTag) {
                    index = gt + 1
                } else {
                    index = end
                }
            case .lineBreak:
                newline()
            case .block, .blockWithGapAfter:
                if !out.isEmpty && out.last != Self.newline { newline() }
                if closing && kind == .blockWithGapAfter { newline() }
            case .listItem:
                if !closing {
                    if !out.isEmpty && out.last != Self.newline { newline() }
                    emitVisible(UInt8(ascii: "-"))
                    pendingSpace = true
                }
            case .cell:
                if closing { pendingSpace = true }
            case .other:
                break
            }
        }
        return true
    }

    /// A text run with its entities decoded (as `HTMLText.decodeEntities`), white space collapsed.
    private mutating func emitText(_ run: Range<Int>) -> Bool {
        var index = run.lowerBound
        while index < run.upperBound {
            let byte = html[index]
            // An entity ends at the first ";" among the 11 characters after the "&".
            if byte == Self.amp, let semi = find(Self.semicolon, in: index + 1..<min(index + 12, run.upperBound)),
                let decoded = decodeEntity(index + 1..<semi)
            {
                if html[index + 1] == Self.hash, let byte = decoded.first, decoded.count == 1 {
                    emit(byte)  // an ASCII scalar goes on as if it had been in the text
                } else if html[index + 1] == Self.hash && !Self.standsAlone(decoded) {
                    return false
                } else if decoded == [0xC2, 0xA0] {
                    emitVisible(Self.space)  // &nbsp; is a space that is kept
                } else {
                    emitVisible(decoded)
                }
                index = semi + 1
                continue
            }
            emit(byte)
            index += 1
        }
        return true
    }

    /// Whether a decoded non-ASCII scalar (as UTF-8) is one `Character` beside any ASCII character or any
    /// other such scalar, and not white space but for U+00A0: Latin-1 and Latin Extended letters and signs
    /// (not the soft hyphen), dashes, quotes and other general punctuation, currency and letterlike
    /// symbols. Every named entity's value is one of them. Not: combining marks, joiners, spaces, Hangul,
    /// regional indicators, emoji modifiers (HTMLTextBytesTests checks every scalar of these ranges).
    static func standsAlone(_ utf8: [UInt8]) -> Bool {
        var scalars = String(decoding: utf8, as: UTF8.self).unicodeScalars.makeIterator()
        guard let scalar = scalars.next()?.value, scalars.next() == nil else { return false }
        return standsAlone(scalar)
    }

    static func standsAlone(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0xA0...0x24F: scalar != 0xAD
        case 0x2010...0x2027, 0x2030...0x205E, 0x20A0...0x20C0, 0x2100...0x214F: true
        default: false
        }
    }

    private func decodeEntity(_ entity: Range<Int>) -> [UInt8]? {
        if html[entity.lowerBound] != Self.hash {
            return Self.named.first(where: { $0.name.count == entity.count && $0.name.elementsEqual(html[entity]) })?.value
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: html[entity]), as: UTF8.self)
        return HTMLText.decode(text[...]).map { Array($0.utf8) }
    }

    private mutating func emit(_ byte: UInt8) {
        if byte == Self.space || (9...13).contains(byte) {
            pendingSpace = true
        } else {
            emitVisible(byte)
        }
    }

    private mutating func emitVisible(_ byte: UInt8) {
        spaceIfPending()
        out.append(byte)
    }

    private mutating func emitVisible(_ bytes: [UInt8]) {
        spaceIfPending()
        out.append(contentsOf: bytes)
    }

    private mutating func spaceIfPending() {
        if pendingSpace, let last = out.last, last != Self.newline { out.append(Self.space) }
        pendingSpace = false
    }

    private mutating func newline() {
        while out.last == Self.space { out.removeLast() }
        out.append(Self.newline)
        pendingSpace = false
    }

    /// The second pass: at most one blank line in a row, none at the ends, no spaces at the start of a line.
    fileprivate func joinedLines() -> String {
        String(unsafeUninitializedCapacity: out.count) { result in
            var count = 0
            var started = false
            var blankLine = false
            var lineStart = 0
            while lineStart <= out.count {
                let lineEnd = out[lineStart...].firstIndex(of: Self.newline) ?? out.count
                var textStart = lineStart
                while textStart < lineEnd && out[textStart] == Self.space { textStart += 1 }
                if textStart == lineEnd {
                    if started { blankLine = true }
                } else {
                    if started {
                        result[count] = Self.newline
                        count += 1
                        if blankLine {
                            result[count] = Self.newline
                            count += 1
                        }
                    }
                    for byte in out[textStart..<lineEnd] {
                        result[count] = byte
                        count += 1
                    }
                    started = true
                    blankLine = false
                }
                lineStart = lineEnd + 1
            }
            return count
        }
    }

    // MARK: - Bytes

    /// The tag's name as `HTMLText.tagName` takes it: after an optional "/", letters and digits.
    private func tagName(_ tag: Range<Int>) -> Range<Int> {
        var start = tag.lowerBound
        if start < tag.upperBound && html[start] == Self.slash { start += 1 }
        var end = start
        while end < tag.upperBound && Self.isLetterOrDigit(html[end]) { end += 1 }
        return start..<end
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte | 0x20)
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }

    /// Whether the name at `range` is `lowercaseName`, in any case.
    private func matches(_ lowercaseName: [UInt8], _ range: Range<Int>) -> Bool {
        guard range.count == lowercaseName.count else { return false }
        return zip(lowercaseName, range).allSatisfy { $0 == Self.lowercased(html[$1]) }
    }

    /// The end of the first "</NAME" at or after `from`, NAME in any case.
    private func findEndTag(_ name: Range<Int>, from: Int) -> Int? {
        var index = from
        while let lt = find(Self.lt, from: index) {
            let nameStart = lt + 2
            if nameStart + name.count <= html.count && html[lt + 1] == Self.slash
                && zip(nameStart..., name).allSatisfy({ Self.lowercased(html[$0]) == Self.lowercased(html[$1]) })
            {
                return nameStart + name.count
            }
            index = lt + 1
        }
        return nil
    }

    private func has(_ bytes: [UInt8], at index: Int) -> Bool {
        index + bytes.count <= html.count && zip(index..., bytes).allSatisfy { html[$0] == $1 }
    }

    private func find(_ bytes: [UInt8], from: Int) -> Int? {
        var index = from
        while let first = find(bytes[0], from: index) {
            if has(bytes, at: first) { return first }
            index = first + 1
        }
        return nil
    }

    private func find(_ byte: UInt8, from: Int) -> Int? {
        find(byte, in: from..<html.count)
    }

    private func find(_ byte: UInt8, in range: Range<Int>) -> Int? {
        var index = range.lowerBound
        while index < range.upperBound {
            if html[index] == byte { return index }
            index += 1
        }
        return nil
    }
}
