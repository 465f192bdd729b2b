import Foundation

/// A failure talking to a calendar, or a calendar reference that does not resolve.
///
/// Carries what a user needs to act: which provider, account and calendar, what the server said (HTTP
/// status, the provider's own error string, its request id). `description` is one line for stderr;
/// it never contains a token.
public struct CalendarError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure. Open: unknown provider errors keep their own string in `providerCode`.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The calendar, event or account does not exist (or is not visible to this user).
        public static let notFound = Code(rawValue: "not-found")
        /// The server refused the operation for this user.
        public static let forbidden = Code(rawValue: "forbidden")
        /// The calendar is read-only for this user.
        public static let readOnly = Code(rawValue: "read-only")
        /// Too many requests; `retryAfter` says when to try again, when the server said.
        public static let rateLimited = Code(rawValue: "rate-limited")
        /// The grant is missing, expired or revoked: sign in again.
        public static let unauthorized = Code(rawValue: "unauthorized")
        /// The item already exists or was changed meanwhile.
        public static let conflict = Code(rawValue: "conflict")
        /// The server rejected the request as malformed.
        public static let invalidRequest = Code(rawValue: "invalid-request")
        /// The server failed (5xx).
        public static let server = Code(rawValue: "server")
        /// No response arrived (network, TLS, timeout).
        public static let transport = Code(rawValue: "transport")
        /// The response could not be understood.
        public static let invalidResponse = Code(rawValue: "invalid-response")
        /// The provider cannot do this (for example quick add on Outlook, or a recurrence it cannot express).
        public static let unsupported = Code(rawValue: "unsupported")
        /// A calendar name matches several calendars; `candidates` lists them.
        public static let ambiguous = Code(rawValue: "ambiguous")
        /// A calendar reference is malformed (`account:calendar` expected).
        public static let invalidReference = Code(rawValue: "invalid-reference")
        /// A read that is not whole or not plausible (a subscribed feed that failed, came truncated, came
        /// empty or lost more than half its events): nothing was taken from it, nothing was written.
        public static let incompleteRead = Code(rawValue: "incomplete-read")

        public var description: String { rawValue }
    }

    public var code: Code
    /// What went wrong, in words (for server errors: the server's message).
    public var message: String
    public var provider: ProviderKind?
    public var account: String?
    /// The calendar id or name concerned.
    public var calendar: String?
    public var httpStatus: Int?
    /// The provider's own error string (Google `errors[].reason`, Graph `error.code`).
    public var providerCode: String?
    /// The server's request id, for support requests.
    public var requestID: String?
    /// How long the server asked to wait (`Retry-After`), in seconds.
    public var retryAfterSeconds: Double?
    /// For `.ambiguous` and `.notFound` references: the calendars that could have been meant.
    public var candidates: [String]

    public init(
        _ code: Code, _ message: String, provider: ProviderKind? = nil, account: String? = nil,
        calendar: String? = nil, httpStatus: Int? = nil, providerCode: String? = nil, requestID: String? = nil,
        retryAfterSeconds: Double? = nil, candidates: [String] = []
    ) {
        self.code = code
        self.message = message
        self.provider = provider
        self.account = account
        self.calendar = calendar
        self.httpStatus = httpStatus
        self.providerCode = providerCode
        self.requestID = requestID
        self.retryAfterSeconds = retryAfterSeconds
        self.candidates = candidates
    }

    /// One line: where, what, the server's details, and what to do.
    public var description: String {
        var where_: [String] = []
        if let account { where_.append("account '\(account)'" + (provider.map { " (\($0))" } ?? "")) }
        else if let provider { where_.append(provider.rawValue) }
        if let calendar { where_.append("calendar '\(calendar)'") }
        var text = where_.isEmpty ? "" : where_.joined(separator: ", ") + ": "
        text += Self.oneLine(message)
        var details: [String] = []
        if let httpStatus { details.append("HTTP \(httpStatus)") }
        if let providerCode { details.append(providerCode) }
        if let requestID { details.append("request id \(requestID)") }
        if !details.isEmpty { text += " (" + details.joined(separator: ", ") + ")" }
        if !candidates.isEmpty { text += "; candidates: " + candidates.joined(separator: ", ") }
        if let hint { text += "; " + hint }
        return text
    }

    /// What the user can do about it, when there is something.
    public var hint: String? {
        switch code {
        case .unauthorized:
            return "sign in again" + (account.map { " ('calbridge accounts add \($0)')" } ?? "")
        case .readOnly: return "choose a calendar you can write to ('calbridge calendars' shows access)"
        case .rateLimited:
            // Clamped here too: the value may come from anywhere that builds a CalendarError.
            if let retryAfterSeconds, retryAfterSeconds.isFinite, retryAfterSeconds >= 0 {
                return "try again in \(Int(min(retryAfterSeconds, 86_400).rounded(.up))) s"
            }
            return "try again later"
        case .ambiguous: return "use the calendar id instead of the name"
        case .notFound where calendar != nil: return "'calbridge calendars' lists the calendars"
        case .invalidReference: return "write ACCOUNT:CALENDAR (CALENDAR = id, name, primary or default)"
        default: return nil
        }
    }

    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: { $0.isNewline }).map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
    }
}

extension CalendarError {
    /// This error with provider, account and calendar filled in where still empty.
    public func with(provider: ProviderKind? = nil, account: String? = nil, calendar: String? = nil) -> CalendarError {
        var copy = self
        if copy.provider == nil { copy.provider = provider }
        if copy.account == nil { copy.account = account }
        if copy.calendar == nil { copy.calendar = calendar }
        return copy
    }
}
