/// A server-side search for events carrying an origin marker: one extension property equal to a value.
public struct OriginLookup: Sendable, Hashable {
    /// The property name (one of `OriginMarker`'s).
    public var property: String
    public var value: String

    public init(property: String, value: String) {
        self.property = property
        self.value = value
    }

    /// The copies of one source event.
    public static func event(_ marker: OriginMarker) -> OriginLookup {
        OriginLookup(property: OriginMarker.eventKeyProperty, value: marker.eventKey)
    }

    /// The copies of one source event, by its coordinates.
    public static func event(provider: ProviderKind, account: String, calendarID: String, eventID: String) -> OriginLookup {
        OriginLookup(
            property: OriginMarker.eventKeyProperty,
            value: OriginMarker.eventKey(provider: provider, account: account, calendarID: calendarID, eventID: eventID))
    }

    /// Every copy of any event of one source calendar.
    public static func calendar(provider: ProviderKind, account: String, calendarID: String) -> OriginLookup {
        OriginLookup(
            property: OriginMarker.calendarKeyProperty,
            value: OriginMarker.calendarKey(provider: provider, account: account, calendarID: calendarID))
    }
}
