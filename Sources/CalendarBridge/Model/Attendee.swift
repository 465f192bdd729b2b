/// A person (or room) invited to an event.
public struct Attendee: Sendable, Hashable, Codable {
    /// Whether the attendee must come, may come, or is a resource such as a room.
    public enum Role: String, Sendable, Hashable, Codable {
        case required, optional, resource
    }

    /// The attendee's answer to the invitation.
    public enum Response: String, Sendable, Hashable, Codable {
        case needsAction, accepted, declined, tentative
        /// The attendee organises the event (Graph reports this as a response).
        case organizer
    }

    public var name: String?
    public var email: String
    public var role: Role
    public var response: Response

    public init(name: String? = nil, email: String, role: Role = .required, response: Response = .needsAction) {
        self.name = name
        self.email = email
        self.role = role
        self.response = response
    }
}
