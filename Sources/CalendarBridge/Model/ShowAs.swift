/// How an event shows in free/busy views (Graph `showAs`; Google `transparency` plus `eventType`).
public enum ShowAs: String, Sendable, Hashable, Codable, CaseIterable {
    case busy, free, tentative
    /// Out of office.
    case oof
    case workingElsewhere
}
