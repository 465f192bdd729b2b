/// HTML text escaping, for the sign-in pages (OAuth and the sandbox) and HTML event bodies.
package enum HTML {
    /// `text` with `& < > " '` escaped, safe inside elements and quoted attributes; with `lineBreaks`,
    /// newlines become `<br>`.
    package static func escape(_ text: String, lineBreaks: Bool = false) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\n" where lineBreaks: out += "<br>"
            default: out.append(character)
            }
        }
        return out
    }
}
