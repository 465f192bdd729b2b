/// A time zone name that is neither a known Windows name (nor a Graph or legacy spelling) nor an IANA id.
public struct TimeZoneLookupError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name as given.
    public var name: String
    /// The nearest known names, best first (possibly empty).
    public var suggestions: [String]

    public init(name: String, suggestions: [String]) {
        self.name = name
        self.suggestions = suggestions
    }

    /// One line: the unknown name and what was probably meant.
    public var description: String {
        let shown = Self.oneLine(name)
        var text = "unknown time zone '\(shown)'"
        if !suggestions.isEmpty {
            let quoted = suggestions.map { "'\($0)'" }
            let list = quoted.count == 1
                ? quoted[0] : quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
            text += "; did you mean \(list)?"
        }
        return text + " (see 'calbridge timezones' for every known name)"
    }

    private static func oneLine(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
    }
}
