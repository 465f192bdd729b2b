/// A sign-in that ended on calbridge's side without a token: no answer in time, a forged or stale
/// redirect, a device code that ran out, the user saying no.
public struct SignInError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Code: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Nobody finished signing in before the timeout.
        public static let timeout = Code(rawValue: "timeout")
        /// The redirect's `state` was not the one calbridge sent (a forged or stale redirect).
        public static let stateMismatch = Code(rawValue: "state-mismatch")
        /// The redirect carried neither a code nor an error.
        public static let missingCode = Code(rawValue: "missing-code")
        /// The user declined, or the server refused, at the authorization step.
        public static let denied = Code(rawValue: "denied")
        /// The device code expired before the user finished.
        public static let deviceCodeExpired = Code(rawValue: "device-code-expired")
        /// The descriptor has no device authorization endpoint.
        public static let deviceFlowUnsupported = Code(rawValue: "device-flow-unsupported")
        /// The redirect listener could not start.
        public static let listener = Code(rawValue: "listener")
    }

    public var code: Code
    /// One sentence for the user, saying what happened and what to do.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
