import CalendarBridge
import Foundation
import ProviderSeam

/// Where an account's calendars are (RFC 6764 §6, RFC 4791 §6.2.1): the URL the user gave, else the
/// host's `/.well-known/caldav`, then `current-user-principal`, then its `calendar-home-set`.
struct CalDAVLocation: Sendable, Equatable, Codable {
    /// The principal (the user) the server named, when it named one.
    var principal: URL?
    /// The collection that holds the user's calendars.
    var home: URL
}

/// Finds an account's `CalDAVLocation` and keeps it: in the process, and in the account's provider state, so
/// that a later process (an idle sync) sends no discovery requests at all. A kept location that no longer
/// answers is found again (`rediscover`).
actor CalDAVDiscovery {
    private let client: CalDAVClient
    private let start: URL
    private let state: (any ProviderStateStore)?
    private var found: CalDAVLocation?
    /// Whether `found` came from the state (and may be stale), not from this process's discovery.
    private var fromState = false

    /// The provider state's item: the URL discovery started from and the location it found.
    static let stateItem = "caldav-location.json"
    struct Kept: Codable {
        var start: URL
        var location: CalDAVLocation
    }

    init(client: CalDAVClient, start: URL, state: (any ProviderStateStore)? = nil) {
        self.client = client
        self.start = start
        self.state = state
    }

    static let principalQuery = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">\
        <d:prop><d:current-user-principal/><c:calendar-home-set/><d:resourcetype/><d:displayname/>\
        <c:calendar-user-address-set/></d:prop></d:propfind>
        """

    func location() async throws -> CalDAVLocation {
        if let found { return found }
        if let data = try? state?.load(Self.stateItem), let kept = try? JSONDecoder().decode(Kept.self, from: data), kept.start == start {
            found = kept.location
            fromState = true
            return kept.location
        }
        let location = try await discover()
        found = location
        if let data = try? JSONEncoder().encode(Kept(start: start, location: location)) { try? await state?.save(data, as: Self.stateItem) }
        return location
    }

    /// Discovers again when the location in use came from the state (a home that moved since); returns
    /// whether it did, so the caller tries once more.
    func rediscover() async throws -> Bool {
        guard fromState else { return false }
        fromState = false
        let location = try await discover()
        found = location
        if let data = try? JSONEncoder().encode(Kept(start: start, location: location)) { try? await state?.save(data, as: Self.stateItem) }
        return true
    }

    private func discover() async throws -> CalDAVLocation {
        // The URL given first (a server's root, a principal or a home); the well-known URL when it answers
        // nothing usable (RFC 6764 §5 for a host name alone).
        var candidates = [start]
        if let wellKnown = URL(string: "/.well-known/caldav", relativeTo: start)?.absoluteURL, wellKnown != start {
            candidates.append(wellKnown)
        }
        var lastError: CalendarError?
        for candidate in candidates {
            do {
                if let location = try await fromPrincipalOrHome(candidate) { return location }
            } catch let error as CalendarError where error.code == .notFound || error.code == .invalidRequest || error.code == .forbidden {
                lastError = error
            }
        }
        throw lastError
            ?? CalendarError(
                .notFound,
                "no CalDAV calendars found at \(start.absoluteString): the server named no calendar home (give the URL of your CalDAV service or principal)",
                provider: client.provider, account: client.account)
    }

    /// The location from one URL: its `calendar-home-set`, else its principal's.
    private func fromPrincipalOrHome(_ url: URL) async throws -> CalDAVLocation? {
        let (answer, base) = try await client.multistatus(.propfind, url, depth: "0", body: Self.principalQuery)
        guard let response = answer.responses.first else { return nil }
        let principal = response.property(DAVNamespace.dav, "current-user-principal")
            .flatMap { $0.child(DAVNamespace.dav, "href")?.text }.flatMap { CalDAVClient.resolve($0, against: base) }
        if let home = Self.home(response, base: base) { return CalDAVLocation(principal: principal, home: home) }
        guard let principal, principal != base else { return nil }
        let (principalAnswer, principalBase) = try await client.multistatus(.propfind, principal, depth: "0", body: Self.principalQuery)
        guard let first = principalAnswer.responses.first, let home = Self.home(first, base: principalBase) else {
            throw CalendarError(
                .notFound, "the CalDAV principal \(principal.path) has no calendar-home-set: this server keeps no calendars for the user",
                provider: client.provider, account: client.account)
        }
        return CalDAVLocation(principal: principal, home: home)
    }

    static func home(_ response: Multistatus.Response, base: URL) -> URL? {
        response.property(DAVNamespace.caldav, "calendar-home-set")?.child(DAVNamespace.dav, "href")
            .flatMap { CalDAVClient.resolve($0.text.trimmingCharacters(in: .whitespacesAndNewlines), against: base) }
    }
}
