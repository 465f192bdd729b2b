import Foundation

/// The `--query TEXT` of `events`, `agenda`, `show`, `edit` and `delete`: which events a few typed words
/// name.
///
/// An event matches when every word of the query occurs in its title, location or description (as plain
/// text), ignoring case and accents, as gcalcli's and khal's searches do. Words match as typed, inside
/// longer words too ("stand" finds "Stand-up", "standup" does not): a rule simple enough to predict.
public struct EventQuery: Sendable, Hashable {
    /// The query's words, folded.
    public let words: [String]

    /// `nil` when `text` has no words (an empty query would name every event).
    public init?(_ text: String) {
        let words = text.split(whereSeparator: { $0.isWhitespace }).map { Self.fold(String($0)) }
        guard !words.isEmpty else { return nil }
        self.words = words
    }

    /// Whether every word occurs in `event`'s title, location or description.
    public func matches(_ event: Event) -> Bool {
        var haystack = Self.fold(event.title)
        if let location = event.location { haystack += "\n" + Self.fold(location) }
        if let body = event.body {
            let text = body.isHTML ? HTMLText.plainText(fromHTML: body.content) : body.content
            haystack += "\n" + Self.fold(text)
        }
        return words.allSatisfy { haystack.contains($0) }
    }

    private static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }
}
