/// An event's description, in the format the provider stores it.
public enum EventBody: Sendable, Hashable, Codable {
    case text(String)
    case html(String)

    /// The stored text, whatever its format.
    public var content: String {
        switch self {
        case .text(let s), .html(let s): s
        }
    }

    public var isHTML: Bool {
        if case .html = self { return true }
        return false
    }

    /// Whether the content is empty or whitespace only.
    public var isEmpty: Bool { content.isBlank }
}
