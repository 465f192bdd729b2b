import Foundation
import HTTP
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import LoopbackServer

/// A running sandbox: two loopback ports, each serving both OAuth servers and every API emulator, with
/// latency, fault injection, a request log and state persistence wrapped around the API traffic.
///
/// Microsoft's descriptor points at the first port, Google's at the second: the real services are two
/// hosts, and a client's connections per host (8 in `CurlTransport`) are counted per host and port, so one
/// port for both would make every Google request wait behind Graph's, which the real services never do.
///
/// ```swift
/// let sandbox = try await SandboxServer.start(options)
/// print(sandbox.info.url)          // http://127.0.0.1:<port>; Google's: sandbox.info.googleURL
/// // ... drive it ...
/// try await sandbox.stop()         // writes --state
/// ```
///
/// Routing: a path under a service's API paths (`SandboxService.apiPaths`: `/calendar/v3`,
/// `/batch/calendar/v3`, `/v1.0`, ...) is an API request and goes to the API components only (after latency
/// and fault injection), its answer gzip-encoded where the real service would encode it
/// (`SandboxCompression`); any other path is offered to the Google OAuth server, the Microsoft identity
/// server, then the API components; the first answer wins, else 404.
package final class SandboxServer: Sendable {
    /// The first-line JSON: base URL, seeded accounts with ready tokens, descriptors.
    package let info: SandboxInfo
    /// Issues and checks every token; tests use it to revoke or inspect grants.
    package let tokens: SandboxTokenAuthority
    package let googleOAuth: GoogleOAuthServer
    package let microsoftIdentity: MicrosoftIdentityServer
    /// The API emulators, as mounted.
    package let apiComponents: [SandboxNamedComponent]
    /// Every request answered (the last `requestLogCapacity` in memory; all of them in `--log`).
    package let log: SandboxRequestLog
    package let faults: SandboxFaultInjector
    package let options: SandboxOptions
    private let http: LoopbackHTTPServer
    /// The second port, Google's (`SandboxOptions.port` + 1 when a port is given).
    private let googleHTTP: LoopbackHTTPServer
    private let stopped = Mutex(false)

    /// The base URL, `http://127.0.0.1:<port>` (Microsoft's; every path is served on both ports).
    package var baseURL: URL { http.baseURL }
    package var port: UInt16 { http.port }
    /// The base URL Google's descriptor points at.
    package var googleBaseURL: URL { googleHTTP.baseURL }
    /// Connections accepted since start on both ports (keep-alive makes this smaller than the request count).
    package var connectionsAccepted: Int { http.connectionsAccepted + googleHTTP.connectionsAccepted }
    /// The requests in memory, oldest first.
    package var requestLog: [SandboxRequestLogEntry] { log.entries }

    private init(
        info: SandboxInfo, tokens: SandboxTokenAuthority, googleOAuth: GoogleOAuthServer,
        microsoftIdentity: MicrosoftIdentityServer, apiComponents: [SandboxNamedComponent], log: SandboxRequestLog,
        faults: SandboxFaultInjector, options: SandboxOptions, http: LoopbackHTTPServer, googleHTTP: LoopbackHTTPServer
    ) {
        self.info = info
        self.tokens = tokens
        self.googleOAuth = googleOAuth
        self.microsoftIdentity = microsoftIdentity
        self.apiComponents = apiComponents
        self.log = log
        self.faults = faults
        self.options = options
        self.http = http
        self.googleHTTP = googleHTTP
    }

    /// Builds the components, restores `--state`, mints tokens for every seeded user, and starts serving.
    /// - Parameters:
    ///   - services: the services to run (`SandboxServices.list`, plus a test's own provider's emulator); their
    ///     API paths decide what is API traffic.
    ///   - components: builds the emulators instead of `services` (tests with fault knobs or doubles); the
    ///     API paths are still those of `services`.
    package static func start(
        _ options: SandboxOptions = SandboxOptions(),
        services: [SandboxService] = SandboxServices.list,
        components: SandboxComponentFactory? = nil
    ) async throws(SandboxError) -> SandboxServer {
        let components = components ?? SandboxServices.components(of: services)
        let now = options.now
        let tokens = SandboxTokenAuthority(
            accessTokenLifetime: options.tokenLifetime, refreshTokenLifetime: options.refreshTokenLifetime,
            refreshRefusal: options.refreshRefusal, appOnly: options.appOnly, now: now
        )
        let api: SandboxAPIComponents
        do {
            api = try components(options.seed ?? .builtIn, tokens, now)
        } catch let error as SandboxError {
            throw error
        } catch {
            throw .badSeed(String(describing: error))
        }
        if let stateFile = options.stateFile, FileManager.default.fileExists(atPath: stateFile.path) {
            try await SandboxStateFile.load(stateFile, tokens: tokens, components: api.components)
        }
        let google = GoogleOAuthServer(tokens: tokens, users: api.users, autoApprove: options.autoApprove, now: now)
        let microsoft = MicrosoftIdentityServer(
            tokens: tokens, users: api.users, autoApprove: options.autoApprove, devicePolicy: options.devicePolicy, now: now
        )
        let log = try SandboxRequestLog(capacity: options.requestLogCapacity, file: options.logFile)
        let faults = SandboxFaultInjector(rate: options.faultRate, seed: options.faultSeed)
        let router = Router(
            google: google, microsoft: microsoft, services: services, api: api.components.map(\.component), log: log, faults: faults,
            latency: options.latencyMs > 0 ? .milliseconds(options.latencyMs) : nil,
            observer: options.apiRequestObserver, gate: options.apiRequestGate, now: now
        )
        let http = LoopbackHTTPServer(port: options.port) { request in await router.route(request) }
        let googleHTTP = LoopbackHTTPServer(port: options.port == 0 ? 0 : options.port &+ 1) { request in await router.route(request) }
        do {
            try http.start()
        } catch {
            log.close()
            throw .cannotStart(String(describing: error))
        }
        do {
            try googleHTTP.start()
        } catch {
            http.stop()
            log.close()
            throw .cannotStart("Google's port: \(error)")
        }
        let bases = SandboxBaseURLs(main: http.baseURL.absoluteString, google: googleHTTP.baseURL.absoluteString)
        var descriptors: [String: SandboxDescriptor] = [:]
        for service in services { if let descriptor = service.descriptor?(bases) { descriptors[service.name] = descriptor } }
        var accounts: [SandboxInfo.Account] = []
        for user in api.users {
            // The descriptor of the service that imitates the user's provider: its client and scopes.
            guard let service = services.first(where: { $0.imitates == user.provider && $0.descriptor != nil }),
                let descriptor = descriptors[service.name]
            else { continue }
            let issued = await tokens.seededTokens(
                provider: user.provider, user: user.email, clientId: descriptor.clientId ?? "", scopes: descriptor.scopes
            )
            accounts.append(
                SandboxInfo.Account(
                    provider: user.provider, user: user.email, accessToken: issued.accessToken, refreshToken: issued.refreshToken ?? ""
                ))
        }
        var passwordAccounts: [SandboxPasswordAccount] = []
        for component in api.components { passwordAccounts += await component.component.passwordAccounts() }
        let info = SandboxInfo(
            url: bases.main, googleURL: bases.google, accounts: accounts, passwordAccounts: passwordAccounts, descriptors: descriptors
        )
        return SandboxServer(
            info: info, tokens: tokens, googleOAuth: google, microsoftIdentity: microsoft, apiComponents: api.components,
            log: log, faults: faults, options: options, http: http, googleHTTP: googleHTTP
        )
    }

    /// Stops serving, writes `--state` (atomically) and closes `--log`. Later calls do nothing.
    package func stop() async throws(SandboxError) {
        let first = stopped.withLock { wasStopped in
            defer { wasStopped = true }
            return !wasStopped
        }
        guard first else { return }
        http.stop()
        googleHTTP.stop()
        defer { log.close() }
        try await saveState()
    }

    /// Writes `--state` now (no-op without one).
    package func saveState() async throws(SandboxError) {
        guard let stateFile = options.stateFile else { return }
        try await SandboxStateFile.save(stateFile, tokens: tokens, components: apiComponents)
    }
}

/// Sends each request where it belongs and wraps API traffic in latency, faults and logging.
private struct Router: Sendable {
    let google: GoogleOAuthServer
    let microsoft: MicrosoftIdentityServer
    let services: [SandboxService]
    let api: [any SandboxComponent]
    let log: SandboxRequestLog
    let faults: SandboxFaultInjector
    let latency: Duration?
    let observer: (@Sendable (ServerRequest) -> Void)?
    let gate: (@Sendable (ServerRequest) async -> ServerResponse?)?
    let now: @Sendable () -> Date

    func route(_ request: ServerRequest) async -> ServerResponse {
        let started = ContinuousClock.now
        var response: ServerResponse?
        var faulted = false
        let service = services.first { $0.serves(request.rawPath) }
        let provider = service?.imitates
        if service != nil {
            observer?(request)
            if let gate, let answer = await gate(request) {
                response = answer
            } else {
                if let latency { try? await Task.sleep(for: latency) }
                if let provider, let fault = faults.next(for: provider) {
                    response = fault.response(to: request, now: now())
                    faulted = true
                } else {
                    response = await firstAnswer(api, request)
                }
            }
        } else {
            if let answer = await google.handle(request) {
                response = answer
            } else if let answer = await microsoft.handle(request) {
                response = answer
            } else {
                response = await firstAnswer(api, request)
            }
        }
        var final = response ?? .text(404, "Not Found: \(request.method) \(request.rawPath)\n")
        if let provider {
            final = SandboxCompression.apply(to: final, request: request, provider: provider)
        }
        if provider != nil, request.method != "GET" {
            // The mails the write made the service send, each logged as "mail sent".
            for (index, component) in api.enumerated() { log.recordMails(await component.sentMails(), source: index) }
        }
        let elapsed = ContinuousClock.now - started
        log.record(SandboxRequestLogEntry(
            time: Date(), method: request.method, path: request.rawPath, status: final.status,
            durationMs: Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15,
            fault: faulted, batchMethods: SandboxRequestLogEntry.batchMethods(of: request)
        ))
        return final
    }

    private func firstAnswer(_ components: [any SandboxComponent], _ request: ServerRequest) async -> ServerResponse? {
        for component in components {
            if let answer = await component.handle(request) { return answer }
        }
        return nil
    }
}
