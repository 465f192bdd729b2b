import CalDAV
import CalendarBridge
import Foundation
import HTTP
import HTTPCurl
import LoopbackServer
import Sandbox
import TestSupport
import Testing

/// Where an account's password may go: iCloud sends each account from `caldav.icloud.com` to a host of its own
/// (the principal's `calendar-home-set` is `https://pNN-caldav.icloud.com:443/...`); the sandbox's iCloud-like
/// service does the same from `caldav.icloud.localhost` to `pNN-caldav.icloud.localhost` (loopback names).
/// Only the `icloud` registration follows a service's other hosts; anywhere else a redirect or a home on another
/// host is refused before the password is sent there.
@Suite("CalDAV: the service's own hosts are followed, other hosts refused")
struct CalDAVAccountHostTests {
    static let password = "host-password"

    /// A provider over curl with Basic authentication, recording every request it sends.
    static func provider(_ server: URL, hosts: CalDAVHostPolicy, user: String) -> (CalDAVProvider, RecordingTransport) {
        let authenticated = MiddlewareTransport(
            base: CurlTransport(), middlewares: [BasicAuthentication(userName: user, password: Self.password)])
        let recording = RecordingTransport { try await authenticated.send($0) }
        return (CalDAVProvider(provider: .caldav, account: "dav", transport: recording, server: server, hosts: hosts), recording)
    }

    @Test("iCloud-like: the calendar home on the account's own host is followed, and everything after goes there")
    func followsTheAccountHost() async throws {
        let server = try await CalDAVTestServer(.sandbox, password: Self.password)
        defer { server.stop() }
        try await server.makeCalendar("work", name: "Work", password: Self.password)
        let entry = try #require(URL(string: "http://caldav.icloud.localhost:\(server.port)/"))
        let (provider, recording) = Self.provider(entry, hosts: .serviceHosts, user: server.user)

        let calendars = try await provider.listCalendars()
        #expect(calendars.map(\.name).contains("Work"))
        _ = try await provider.createEvent(
            Event(
                title: "On the account's host", start: .timed(instant: Date(timeIntervalSince1970: 1_800_000_000), zone: "UTC"),
                end: .timed(instant: Date(timeIntervalSince1970: 1_800_003_600), zone: "UTC")), in: "work", idempotencyKey: nil)
        let hosts = recording.requests.compactMap { $0.url.host }
        #expect(hosts.first == "caldav.icloud.localhost")
        let accountHosts = Set(hosts.drop { $0 == "caldav.icloud.localhost" })
        #expect(accountHosts.count == 1, "\(hosts)")
        let accountHost = try #require(accountHosts.first)
        #expect(accountHost.hasPrefix("p") && accountHost.hasSuffix("-caldav.icloud.localhost"), "\(accountHost)")
        // Once there, nothing goes back to the entry host.
        #expect(hosts.last == accountHost)
    }

    @Test("a service that does not send accounts elsewhere: a calendar home on another host is refused, nothing sent there")
    func refusesAHomeElsewhere() async throws {
        let server = try await CalDAVTestServer(.sandbox, password: Self.password)
        defer { server.stop() }
        let entry = try #require(URL(string: "http://caldav.icloud.localhost:\(server.port)/"))
        let (provider, recording) = Self.provider(entry, hosts: .sameHost, user: server.user)
        let error = try await #require(throws: CalendarError.self) { _ = try await provider.listCalendars() }
        #expect(error.code == .invalidResponse)
        #expect(error.description.contains("named a calendar home on another host"), "\(error.description)")
        #expect(error.description.contains("-caldav.icloud.localhost"))
        #expect(recording.requests.allSatisfy { $0.url.host == "caldav.icloud.localhost" })
    }

    @Test("a redirect to another host is refused with a clear error (and one to the service's own host followed, for iCloud only)")
    func redirects() async throws {
        // Under /away/ every request is sent to another host; under /own/ to the service's own host pattern
        // (which answers 301 again, until the client's limit).
        let redirector = LoopbackHTTPServer(port: 0) { request in
            let port = request.headers["Host"]?.split(separator: ":").last.map(String.init) ?? ""
            let host = request.rawPath.hasPrefix("/away/") ? "elsewhere.localhost" : "p07-caldav.example.localhost"
            return ServerResponse(status: 301, headers: ["Location": "http://\(host):\(port)\(request.rawPath)"])
        }
        let port = try redirector.start()
        defer { redirector.stop() }

        let away = try #require(URL(string: "http://caldav.example.localhost:\(port)/away/"))
        for hosts in [CalDAVHostPolicy.sameHost, .serviceHosts] {
            let (provider, recording) = Self.provider(away, hosts: hosts, user: "ann")
            let error = try await #require(throws: CalendarError.self) { _ = try await provider.listCalendars() }
            #expect(error.description.contains("redirected to elsewhere.localhost, another host"), "\(error.description)")
            #expect(!recording.requests.isEmpty)
            #expect(recording.requests.allSatisfy { $0.url.host == "caldav.example.localhost" })
        }

        let own = try #require(URL(string: "http://caldav.example.localhost:\(port)/own/"))
        let (generic, genericRequests) = Self.provider(own, hosts: .sameHost, user: "ann")
        let refused = try await #require(throws: CalendarError.self) { _ = try await generic.listCalendars() }
        #expect(refused.description.contains("redirected to p07-caldav.example.localhost, another host"), "\(refused.description)")
        #expect(genericRequests.requests.allSatisfy { $0.url.host == "caldav.example.localhost" })
        let (iCloud, iCloudRequests) = Self.provider(own, hosts: .serviceHosts, user: "ann")
        await #expect(throws: CalendarError.self) { _ = try await iCloud.listCalendars() }
        #expect(iCloudRequests.requests.contains { $0.url.host == "p07-caldav.example.localhost" })
    }

    @Test("the rule: same host always; the service's other hosts only for iCloud, over HTTPS or between loopback names")
    func rule() throws {
        func allows(_ policy: CalDAVHostPolicy, _ from: String, _ to: String) -> Bool {
            policy.allows(from: URL(string: from)!, to: URL(string: to)!)
        }
        #expect(allows(.sameHost, "https://dav.example.com/", "https://dav.example.com:8443/dav/"))
        #expect(!allows(.sameHost, "https://dav.example.com/", "http://dav.example.com/"))
        #expect(!allows(.sameHost, "https://caldav.icloud.com/", "https://p37-caldav.icloud.com:443/1/calendars/"))
        #expect(allows(.serviceHosts, "https://caldav.icloud.com/", "https://p37-caldav.icloud.com:443/1/calendars/"))
        #expect(!allows(.serviceHosts, "https://caldav.icloud.com/", "http://p37-caldav.icloud.com/1/calendars/"))
        #expect(!allows(.serviceHosts, "https://caldav.icloud.com/", "https://icloud.com.evil.example/"))
        #expect(!allows(.serviceHosts, "https://caldav.icloud.com/", "https://127.0.0.1/"))
        #expect(allows(.serviceHosts, "http://caldav.icloud.localhost:8080/", "http://p01-caldav.icloud.localhost:8080/"))
        #expect(!allows(.serviceHosts, "http://caldav.icloud.localhost:8080/", "http://p01-caldav.icloud.example/"))
        #expect(!allows(.serviceHosts, "http://caldav.icloud.localhost:8080/", "http://evil.localhost:8080/"))
    }
}
