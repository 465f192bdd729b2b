import Accounts
import CalendarBridge
import HTTP
import ICalendar
import OAuth
import Org
import TimeZones
import Sandbox
import Sync

/// The one place where errors become exit codes and one-line messages.
///
/// Every module's typed errors are mapped here; anything unknown is a runtime failure (exit 1).
package enum ErrorReporting {
    package static func exitCode(for error: any Error) -> ExitCode {
        switch error {
        case is UsageError: return .usage
        case let error as InputError: return error.exitCode
        case is QuickAddError: return .usage
        case is HTTPError: return .failure
        case is TimeZoneLookupError: return .usage
        case is ICalendarError: return .usage
        case is ReauthenticationRequired: return .reauthenticate
        case is DescriptorError: return .usage
        case let error as StorageError:
            return error.code == .unknownAccount || error.code == .loosePermissions ? .usage : .failure
        case is OAuthError, is SignInError: return .failure
        case let error as SandboxError: return error.isInputError ? .usage : .failure
        case let error as SyncError:
            switch error.code {
            case .grantMustBeRenewed: return .reauthenticate
            case .calendarUnavailable, .unknownPair, .invalidOptions, .conflictNotRestorable: return .usage
            case .provider where error.calendarError?.code == .incompleteRead: return .partial
            default: return .failure
            }
        case is SyncStateError, is SyncWatcherRunning: return .failure
        case let error as OrgError:
            if case .usage = error { return .usage }
            return .failure
        case is PostgresError, is AppCredentialError, is LeaseLost: return .failure
        case let error as CalendarError:
            switch error.code {
            case .invalidReference, .ambiguous, .notFound, .readOnly: return .usage
            case .unauthorized: return .reauthenticate
            case .incompleteRead: return .partial
            default: return .failure
            }
        default: return .failure
        }
    }

    /// The account that must sign in again, when `error` says a grant must be renewed (exit 3).
    package static func accountToSignIn(for error: any Error) -> String? {
        switch error {
        case let error as ReauthenticationRequired: return error.account
        case let error as CalendarError where error.code == .unauthorized: return error.account
        case let error as SyncError where error.code == .grantMustBeRenewed:
            return error.calendarError.flatMap { accountToSignIn(for: $0) } ?? error.account
        default: return nil
        }
    }

    /// One line for stderr: what was wrong and how to fix it. Never contains a token.
    /// - Parameter environment: where to find calbridge's home, so that a rejected sign-in names the
    ///   exact `calbridge accounts add ...` command of the stored account.
    package static func message(for error: any Error, environment: [String: String]? = nil) -> String {
        switch error {
        case let error as CalendarError where error.code == .unauthorized:
            guard let environment, let account = error.account, let hint = error.hint,
                let record = try? AccountRegistry(home: CalbridgeHome(environment: environment)).account(named: account)
            else { return error.description }
            var text = error.description
            if text.hasSuffix("; " + hint) { text.removeLast(hint.count + 2) }
            return text + "; sign in again with: " + record.signInCommand
        case let error as SyncError where error.code == .grantMustBeRenewed:
            // The calendar error names the account; its message names the exact sign-in command.
            guard let underlying = error.calendarError else { return error.description }
            return message(for: underlying, environment: environment)
        case let error as UsageError: return error.description
        case let error as any CustomStringConvertible: return error.description
        default: return String(describing: error)
        }
    }
}

/// A bad input that is not a command-line mistake as such (an unreadable file, an unknown account).
package struct InputError: Error, Sendable, CustomStringConvertible {
    package var message: String
    package var exitCode: ExitCode
    package init(_ message: String, exitCode: ExitCode = .usage) {
        self.message = message
        self.exitCode = exitCode
    }
    package var description: String { message }
}
