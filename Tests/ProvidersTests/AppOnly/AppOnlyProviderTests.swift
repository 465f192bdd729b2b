import CalendarBridge
import Foundation
import GoogleCalendar
import HTTP
import HTTPCurl
import MicrosoftGraph
import OAuth
import Sandbox
import TestSupport
import Testing

/// Both providers opened for one mailbox of an organisation with app-only tokens, against the sandbox's
/// token endpoints: Graph addressed as `/users/{id}` (Graph refuses `/me` to an application), Google
/// writing as the calendar's owner (a token per `sub`).
@Suite("Providers with app-only credentials")
struct AppOnlyProviderTests {
    static let tenant = "contoso.sandbox"
    static let clientId = "6f1c2f1e-0000-4000-8000-00000000a992"
    static let serviceAccount = "calbridge-sync@contoso-project.iam.gserviceaccount.com"
    static let carol = "carol.diaz@contoso.sandbox"
    static let dan = "dan.wu@contoso.sandbox"
    static let ann = "ann.lee@gmail.sandbox"
    static let bob = "bob.kim@gmail.sandbox"

    struct Setup {
        let sandbox: SandboxServer
        let keys: ThrowawayKeys
        let network = CurlTransport()

        /// A Graph provider for `mailbox`, authorized by the app's certificate.
        func graph(_ mailbox: GraphMailbox, subject: String) -> GraphCalendarProvider {
            let grant = MicrosoftClientCredentialsGrant(
                tenant: AppOnlyProviderTests.tenant, clientId: AppOnlyProviderTests.clientId,
                tokenEndpoint: URL(string: sandbox.info.url + "/\(AppOnlyProviderTests.tenant)/oauth2/v2.0/token")!,
                apiBaseURL: URL(string: sandbox.info.url)!, proof: .certificate(.file(keys.combinedPEM.path)))
            let tokens = AppTokenCache(grant: grant, transport: network)
            let transport = MiddlewareTransport(base: network, middlewares: [AppOnlyAuthentication(tokens: tokens, subject: subject)])
            return GraphCalendarProvider(account: subject, transport: transport, baseURL: URL(string: sandbox.info.url)!, mailbox: mailbox)
        }

        /// A Google provider acting as `owner` through the service account's delegation.
        func google(as owner: String, tokens: AppTokenCache) -> GoogleCalendarProvider {
            let transport = MiddlewareTransport(base: network, middlewares: [AppOnlyAuthentication(tokens: tokens, subject: owner)])
            return GoogleCalendarProvider(account: owner, transport: transport, baseURL: URL(string: sandbox.info.googleURL)!)
        }

        func googleTokens() -> AppTokenCache {
            let grant = GoogleServiceAccountGrant(
                keyFile: .file(keys.serviceAccountFile.path), tokenEndpoint: URL(string: sandbox.info.googleURL + "/token")!)
            return AppTokenCache(grant: grant, transport: network)
        }

        func stop() {
            keys.directory.remove()
            let sandbox = self.sandbox
            Task { try? await sandbox.stop() }
        }
    }

    /// A sandbox with one app registration whose RBAC scope is Carol's mailbox alone, and one service account.
    static func start() async throws -> Setup {
        let keys = try await ThrowawayKeys(clientEmail: serviceAccount, tokenURI: "https://oauth2.googleapis.com/token")
        var options = SandboxOptions()
        options.appOnly = SandboxAppOnlyDirectory(
            applications: [.init(tenant: tenant, clientId: clientId, certificatePEM: keys.certificatePEM, mailboxScope: [carol])],
            serviceAccounts: [
                .init(
                    clientEmail: serviceAccount, publicKeyPEM: keys.serviceAccountPublicPEM, domain: "gmail.sandbox",
                    delegatedScopes: [GoogleServiceAccountGrant.calendarScope])
            ])
        return Setup(sandbox: try await SandboxServer.start(options), keys: keys)
    }

    static func event(_ title: String) -> Event {
        let start = Date().addingTimeInterval(2 * 86_400).rounded(toMinutes: 60)
        return Event(
            title: title, start: .timed(instant: start, zone: "Europe/Berlin"),
            end: .timed(instant: start.addingTimeInterval(3600), zone: "Europe/Berlin"))
    }

    @Test("Graph for a mailbox by address: every path is /users/{address}, writes land in that mailbox; outside the RBAC scope 403")
    func graphUsersPaths() async throws {
        let setup = try await Self.start()
        defer { setup.stop() }
        let carol = setup.graph(.user(Self.carol), subject: Self.carol)
        let user = try await carol.userInfo()
        #expect(user.email == Self.carol)
        let calendars = try await carol.listCalendars()
        let primary = try #require(calendars.first { $0.isPrimary })
        let created = try await carol.createEvent(Self.event("App-only write"), in: primary.id)
        let range = TimeRange(start: Date(), end: Date().addingTimeInterval(7 * 86_400))
        let listed = try await carol.listEvents(calendarID: primary.id, range: range, expand: false)
        #expect(listed.contains { $0.id == created.id && $0.title == "App-only write" })
        // A batch (the sync writer's path) goes to the same mailbox.
        var moved = created
        moved.title = "App-only write, renamed"
        let results = await carol.applyWrites([.update(moved, fields: [.title])], in: primary.id, maxConcurrent: 4)
        #expect(results.count == 1)
        #expect(try await carol.getEvent(id: created.id, calendarID: primary.id).title == "App-only write, renamed")

        let log = setup.sandbox.requestLog.filter { $0.path.hasPrefix("/v1.0/") && $0.path != "/v1.0/$batch" }
        #expect(!log.isEmpty)
        let root = "/v1.0/users/\(Self.carol)"
        let paths = log.map { ($0.path.removingPercentEncoding ?? $0.path).lowercased() }
        #expect(paths.allSatisfy { $0 == root || $0.hasPrefix(root + "/") }, "\(paths)")

        // Dan is outside the app's scope: Graph answers 403, which the provider reports as forbidden.
        let dan = setup.graph(.user(Self.dan), subject: Self.dan)
        await #expect {
            _ = try await dan.listCalendars()
        } throws: { error in
            (error as? CalendarError)?.code == .forbidden
        }
    }

    @Test("Google through a service account: each owner's token is its own (sub), and each write is made as the owner")
    func googleImpersonation() async throws {
        let setup = try await Self.start()
        defer { setup.stop() }
        let tokens = setup.googleTokens()
        let ann = setup.google(as: Self.ann, tokens: tokens)
        let bob = setup.google(as: Self.bob, tokens: tokens)
        #expect(try await ann.userInfo().email == Self.ann)
        #expect(try await bob.userInfo().email == Self.bob)
        #expect(await tokens.requestCount == 2)

        let annsEvent = try await ann.createEvent(Self.event("Written as Ann"), in: "primary")
        let bobsEvent = try await bob.createEvent(Self.event("Written as Bob"), in: "primary")
        #expect(annsEvent.organizer?.email == Self.ann)
        #expect(bobsEvent.organizer?.email == Self.bob)
        // Each lands in its owner's calendar only.
        let range = TimeRange(start: Date(), end: Date().addingTimeInterval(7 * 86_400))
        let annsList = try await ann.listEvents(calendarID: "primary", range: range, expand: false).map(\.title)
        #expect(annsList.contains("Written as Ann"))
        #expect(!annsList.contains("Written as Bob"))
        // Tokens are cached per owner: further calls ask for none.
        _ = try await ann.listCalendars()
        _ = try await bob.listCalendars()
        #expect(await tokens.requestCount == 2)
    }
}
