import Foundation
import HTTP
import LoopbackServer

/// Browser sign-in: authorization code with PKCE (RFC 7636, S256) and a loopback redirect on an
/// ephemeral port (RFC 8252 §7.3), with a random `state` checked on return.
///
/// The redirect host is the one each authorization server matches: `http://127.0.0.1:PORT/` (Google's
/// recommendation, and RFC 8252's), or `http://localhost:PORT/` for Microsoft Entra, which matches the
/// host exactly and whose app registrations say `http://localhost` (as docs/accounts-and-sign-in.md and MSAL do); for
/// `localhost` the listener is on both 127.0.0.1 and ::1, since a browser may resolve it to either.
///
/// The flow starts a listener, hands the authorization URL to `present` (which opens a browser or prints
/// it), waits for the redirect up to `timeout`, exchanges the code, and only then answers the browser
/// with a success or error page. A request without this sign-in's `state` (another local process, a web
/// page probing ports, a stale tab) is answered 400 and ignored: only the real redirect or the timeout
/// ends the wait.
public struct AuthorizationCodeFlow: Sendable {
    /// The loopback host of the redirect URI, as the authorization server matches it.
    public enum RedirectHost: String, Sendable {
        /// `127.0.0.1`: RFC 8252 §8.3's and Google's recommendation (and the default).
        case ipLiteral = "127.0.0.1"
        /// `localhost`: Microsoft Entra, whose registrations say `http://localhost` and match the host
        /// exactly; the listener is then on 127.0.0.1 and ::1.
        case localhost
    }

    public let client: OAuthClient
    public let redirectHost: RedirectHost
    public let timeout: Duration
    /// Extra authorization parameters for this sign-in (e.g. `login_hint`), on top of the descriptor's.
    public let extraParameters: [String: String]

    public init(
        client: OAuthClient, timeout: Duration = .seconds(300), extraParameters: [String: String] = [:],
        redirectHost: RedirectHost = .ipLiteral
    ) {
        self.client = client
        self.redirectHost = redirectHost
        self.timeout = timeout
        self.extraParameters = extraParameters
    }

    /// Runs the sign-in.
    /// - Parameter present: shows the authorization URL to the user (opens a browser, prints it).
    /// - Returns: the tokens.
    /// - Throws: `SignInError` (timeout, state mismatch, denied), `OAuthError` from the token
    ///   endpoint, `HTTPError` when the server cannot be reached.
    public func run(present: @Sendable (URL) async throws -> Void) async throws -> TokenSet {
        let pkce = PKCE()
        let state = Base64URL.random(bytes: 24)
        let inbox = RedirectInbox()
        let displayName = client.descriptor.displayName
        let host = redirectHost.rawValue
        let server = LoopbackHTTPServer(interfaces: redirectHost == .localhost ? [.ipv4, .ipv6] : [.ipv4]) { request in
            await Self.handleRedirect(request, inbox: inbox, providerName: displayName, expectedState: state)
        }
        let port: UInt16
        do {
            port = try server.start()
        } catch {
            throw SignInError(.listener, "could not listen for the sign-in redirect on \(host) (\(error))")
        }
        defer { server.stop() }
        let redirectURI = "http://\(host):\(port)/"
        let url = authorizationURL(redirectURI: redirectURI, state: state, challenge: pkce.challenge)

        let timeoutTask = Task { [timeout] in
            try await Task.sleep(for: timeout)
            await inbox.deliver(.failure(SignInError(
                .timeout,
                "nobody finished signing in within \(Self.describe(timeout)); run the command again (or use --timeout)"
            )))
        }
        defer { timeoutTask.cancel() }

        let result: Result<TokenSet, any Error>
        do {
            try await present(url)
            let parameters = try await withTaskCancellationHandler {
                try await inbox.waitForParameters()
            } onCancel: {
                Task { await inbox.deliver(.failure(CancellationError())) }
            }
            result = .success(try await complete(parameters, state: state, verifier: pkce.verifier, redirectURI: redirectURI))
        } catch {
            result = .failure(error)
        }
        await inbox.finish(result.map { _ in () })
        await Self.letPageGoOut(server)
        return try result.get()
    }

    /// The URL the user opens: the descriptor's parameters, then calbridge's own (which win).
    public func authorizationURL(redirectURI: String, state: String, challenge: String) -> URL {
        var parameters = client.descriptor.authorizationParameters.merging(extraParameters) { $1 }
            .sorted { $0.key < $1.key }
            .map { ($0.key, $0.value) }
        parameters += [
            ("response_type", "code"),
            ("client_id", client.credentials.clientId),
            ("redirect_uri", redirectURI),
            ("scope", client.descriptor.scopeParameter),
            ("state", state),
            ("code_challenge", challenge),
            ("code_challenge_method", "S256"),
        ]
        let base = client.descriptor.authorizationEndpoint.absoluteString
        let separator = base.contains("?") ? "&" : "?"
        // Every parameter is percent-encoded and the base parsed as a URL already; the fallback is unreachable.
        return URL(string: base + separator + FormEncoding.encode(parameters)) ?? client.descriptor.authorizationEndpoint
    }

    private func complete(
        _ parameters: RedirectParameters, state: String, verifier: String, redirectURI: String
    ) async throws -> TokenSet {
        guard parameters.state == state else {
            throw SignInError(
                .stateMismatch,
                "the sign-in redirect carried the wrong state (a stale or forged redirect); run the command again"
            )
        }
        if let error = parameters.error {
            let code = OAuthError.Code(error)
            let detail = parameters.errorDescription.map { ": \($0)" } ?? ""
            if code == .accessDenied {
                throw SignInError(.denied, "sign-in was declined at \(client.descriptor.displayName) (access_denied\(detail))")
            }
            throw OAuthError(code: code, errorDescription: parameters.errorDescription, endpoint: "authorization endpoint")
        }
        guard let code = parameters.code, !code.isEmpty else {
            throw SignInError(.missingCode, "the sign-in redirect carried no authorization code; run the command again")
        }
        return try await client.exchange(code: code, verifier: verifier, redirectURI: redirectURI)
    }

    /// Answers the browser: waits for the flow's outcome so the page tells the truth.
    private static func handleRedirect(
        _ request: ServerRequest, inbox: RedirectInbox, providerName: String, expectedState: String
    ) async -> ServerResponse {
        guard request.method == "GET", request.path == "/" else {
            var response = ServerResponse.text(404, "Not found\n")
            response.closeConnection = true
            return response
        }
        let parameters = RedirectParameters(
            code: request.queryValue("code"),
            state: request.queryValue("state"),
            error: request.queryValue("error"),
            errorDescription: request.queryValue("error_description")
        )
        guard parameters.code != nil || parameters.error != nil || parameters.state != nil else {
            var response = ServerResponse.text(400, SignInPage.html(
                title: "Nothing to do here",
                message: "This address is where \(providerName) sends you back after signing in to calbridge. Start with 'calbridge accounts add'."
            ), contentType: "text/html; charset=utf-8")
            response.closeConnection = true
            return response
        }
        // Not this sign-in's redirect: say so and keep waiting. Anything on this machine can reach the port.
        guard let state = parameters.state, Self.constantTimeEquals(state, expectedState) else {
            var response = ServerResponse.text(400, SignInPage.html(
                title: "Not this sign-in",
                message: "This request does not belong to the sign-in calbridge is waiting for, so it was ignored. Finish signing in in the tab calbridge opened."
            ), contentType: "text/html; charset=utf-8")
            response.closeConnection = true
            return response
        }
        guard await inbox.deliver(.success(parameters)) else {
            var response = ServerResponse.text(409, SignInPage.html(
                title: "Already handled",
                message: "calbridge already received a sign-in answer. You can close this tab."
            ), contentType: "text/html; charset=utf-8")
            response.closeConnection = true
            return response
        }
        let page: ServerResponse
        switch await inbox.waitForOutcome() {
        case .success:
            page = .text(200, SignInPage.html(
                title: "Signed in",
                message: "calbridge is now signed in to \(providerName). You can close this tab and return to the terminal."
            ), contentType: "text/html; charset=utf-8")
        case .failure(let error):
            page = .text(400, SignInPage.html(
                title: "Sign-in failed",
                message: "\(error) The terminal shows what to do next."
            ), contentType: "text/html; charset=utf-8")
        }
        var response = page
        response.closeConnection = true
        return response
    }

    /// Gives the listener a moment to write the final page before it is stopped (at most a second).
    private static func letPageGoOut(_ server: LoopbackHTTPServer) async {
        for _ in 0..<100 where server.openConnections > 0 {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Compares without an early exit, so response timing does not reveal how much of a guess was right.
    static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }

    static func describe(_ duration: Duration) -> String {
        let seconds = duration.components.seconds
        return seconds >= 60 && seconds % 60 == 0 ? "\(seconds / 60) minute\(seconds == 60 ? "" : "s")" : "\(seconds) seconds"
    }
}
