/// What a zone name Graph hands back resolves to.
public enum WindowsZoneResolution: Sendable, Hashable {
    /// An IANA time zone id, valid for `TimeZone(identifier:)`.
    case iana(String)
    /// `tzone://Microsoft/Custom`: a zone defined inside the event or mailbox, with no Windows or IANA id.
    /// The caller must use the event's own UTC offset (for example `TimeZone(secondsFromGMT:)`); guessing a
    /// named zone would move the event.
    case custom

    /// The IANA id, or nil for a custom zone.
    public var ianaIdentifier: String? {
        if case .iana(let identifier) = self { return identifier }
        return nil
    }
}
