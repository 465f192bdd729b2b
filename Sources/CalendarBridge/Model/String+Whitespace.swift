import Foundation

extension String {
    /// Whether every character is whitespace (`allSatisfy(\.isWhitespace)`; true for ""), settled by the
    /// first byte when that is printable ASCII other than a space (nearly always), so that a listed event's
    /// location and body are not walked character by character.
    var isBlank: Bool {
        if let first = utf8.first, first > 0x20, first < 0x7F { return false }
        return allSatisfy(\.isWhitespace)
    }

    /// `trimmingCharacters(in: .whitespaces)` (tab and Unicode's space separators at either end), without
    /// Foundation's bridge when neither end is one (nearly always): the bridge would be most of the cost
    /// of projecting an event with attendees or reading a recurrence rule.
    var trimmingWhitespaces: String {
        func isWhitespace(_ scalar: Unicode.Scalar?) -> Bool {
            guard let scalar else { return false }
            return scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
        }
        guard isWhitespace(unicodeScalars.first) || isWhitespace(unicodeScalars.last) else { return self }
        return trimmingCharacters(in: .whitespaces)
    }
}
