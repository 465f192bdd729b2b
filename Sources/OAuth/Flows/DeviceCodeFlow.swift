import Foundation

/// Device sign-in (RFC 8628), for SSH sessions and machines without a browser: the user opens a
/// URL anywhere and types a short code while calbridge polls the token endpoint.
public struct DeviceCodeFlow: Sendable {
    public let client: OAuthClient
    /// Waits between polls; tests hand in a shorter or recording one.
    public let sleep: @Sendable (Duration) async throws -> Void

    public init(
        client: OAuthClient,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.client = client
        self.sleep = sleep
    }

    /// Runs the sign-in.
    /// - Parameter show: tells the user where to go and which code to type.
    /// - Throws: `SignInError` (`.deviceCodeExpired`, `.denied`, `.deviceFlowUnsupported`),
    ///   `OAuthError` for any other server answer, `HTTPError` when the server cannot be reached.
    public func run(show: @Sendable (DeviceAuthorization) async throws -> Void) async throws -> TokenSet {
        let authorization = try await client.startDeviceAuthorization()
        try await show(authorization)
        var interval = DeviceAuthorization.clampedInterval(authorization.interval)
        while true {
            try await sleep(.seconds(interval))
            do {
                return try await client.pollDeviceToken(authorization.deviceCode)
            } catch let error as OAuthError {
                switch error.code {
                case .authorizationPending:
                    break
                case .slowDown:
                    // RFC 8628 §3.5: add 5 seconds to the interval for this and all later polls (up to the cap).
                    interval = DeviceAuthorization.clampedInterval(interval + 5)
                case .expiredToken:
                    throw SignInError(
                        .deviceCodeExpired,
                        "the code \(authorization.userCode) expired before sign-in was finished; run the command again"
                    )
                case .accessDenied, .authorizationDeclined:
                    throw SignInError(.denied, "sign-in was declined at \(client.descriptor.displayName) (\(error.code))")
                default:
                    throw error
                }
            }
            if client.now() >= authorization.expiresAt {
                throw SignInError(
                    .deviceCodeExpired,
                    "the code \(authorization.userCode) expired before sign-in was finished; run the command again"
                )
            }
        }
    }
}
