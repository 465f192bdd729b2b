import CalendarBridge
import OAuth

/// Why a pair's run failed as a whole (per-item failures are counted in `SyncReport` instead).
public struct SyncError: Error, Sendable, CustomStringConvertible {
    public struct Code: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A side's grant is expired or revoked (`CalendarError.unauthorized`): sign in again (exit 3).
        /// `account` names it.
        public static let grantMustBeRenewed = Code(rawValue: "grant-must-be-renewed")
        /// A side's calendar does not exist (any more) or is read-only where the pair must write (exit 2).
        public static let calendarUnavailable = Code(rawValue: "calendar-unavailable")
        /// The pair is not in the state (exit 2).
        public static let unknownPair = Code(rawValue: "unknown-pair")
        /// The stored or given options are unusable (exit 2).
        public static let invalidOptions = Code(rawValue: "invalid-options")
        /// A side could not be read (exit 1; `calendarError` holds the provider's error).
        public static let provider = Code(rawValue: "provider")
        /// The state file failed (exit 1; `stateError` holds it).
        public static let state = Code(rawValue: "state")
        /// The pair definitions (`sync-pairs.json`) cannot be read or written (exit 1).
        public static let definitions = Code(rawValue: "definitions")
        /// No kept conflict with that id, or its losing version has nothing left to be written onto (exit 2).
        public static let conflictNotRestorable = Code(rawValue: "conflict-not-restorable")
    }

    public var code: Code
    public var message: String
    /// The account concerned (for `.grantMustBeRenewed`, the one to sign in again).
    public var account: String?
    public var side: SyncSide?
    public var calendarError: CalendarError?
    public var stateError: SyncStateError?

    public init(
        _ code: Code, _ message: String, account: String? = nil, side: SyncSide? = nil, calendarError: CalendarError? = nil,
        stateError: SyncStateError? = nil
    ) {
        self.code = code
        self.message = message
        self.account = account
        self.side = side
        self.calendarError = calendarError
        self.stateError = stateError
    }

    /// A provider failure on one side, classified (unauthorized becomes `.grantMustBeRenewed`).
    public init(reading error: any Error, side: SyncSide, account: String) {
        if let error = error as? SyncError {
            self = error
        } else if let error = error as? ReauthenticationRequired {
            // A refresh refused (revoked, expired, consent withdrawn): the same as a 401 from the calendar.
            self.init(.grantMustBeRenewed, error.description, account: error.account, side: side)
        } else if let error = error as? SyncStateError {
            self.init(.state, error.description, stateError: error)
        } else if let error = error as? CalendarError {
            switch error.code {
            case .unauthorized:
                self.init(.grantMustBeRenewed, error.description, account: error.account ?? account, side: side, calendarError: error)
            case .notFound where error.calendar != nil, .readOnly:
                self.init(.calendarUnavailable, error.description, account: account, side: side, calendarError: error)
            default:
                self.init(.provider, error.description, account: account, side: side, calendarError: error)
            }
        } else {
            self.init(.provider, String(describing: error), account: account, side: side)
        }
    }

    public var description: String { message }
}
