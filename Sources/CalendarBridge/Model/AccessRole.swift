/// What the signed-in user may do with a calendar, strongest first.
public enum AccessRole: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// Full control, including sharing.
    case owner
    /// May create, change and delete events.
    case writer
    /// May read event details.
    case reader
    /// May only see busy/free times.
    case freeBusy

    /// Whether events may be written (created, changed, deleted).
    public var canWrite: Bool { self == .owner || self == .writer }

    public static func < (a: AccessRole, b: AccessRole) -> Bool {
        // "Less" = weaker.
        allCases.firstIndex(of: a)! > allCases.firstIndex(of: b)!
    }
}
