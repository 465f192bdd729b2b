/// Whether an event takes place.
public enum EventStatus: String, Sendable, Hashable, Codable {
    case confirmed, tentative, cancelled
}
