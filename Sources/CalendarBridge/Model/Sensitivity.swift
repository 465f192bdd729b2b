/// Who may see an event's details (Graph `sensitivity`; Google `visibility`).
public enum Sensitivity: String, Sendable, Hashable, Codable, CaseIterable {
    /// The calendar's default (Google `default` and `public`).
    case normal
    /// Graph only; Google writes it as `private`.
    case personal
    case `private`
    case confidential
}
