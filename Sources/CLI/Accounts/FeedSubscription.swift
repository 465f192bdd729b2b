import Accounts
import CalendarBridge
import Foundation
import ICalendarFeed
import ProviderSeam

/// `accounts add ics URL --name NAME`: subscribes to an iCalendar feed. The URL is a secret (private feeds
/// carry a token in it): checked with one fetch, then kept like a password (`FileSecretURLStore`), never
/// printed; `-` reads it from stdin (one line, no echo on a terminal) so that it stays out of `ps`.
struct FeedSubscription {
    let registration: ProviderRegistration
    let context: CommandContext

    /// Subscribes and stores the account. `name` is `--name`, already validated; `replace` is `--replace`.
    func run(urlText: String?, name: String?, replace: Bool, existing: [AccountRecord], verbose: Bool) async throws -> ExitCode {
        let command = AccountsAddCommand.spec.name
        guard let name else {
            throw UsageError("a feed needs a name: calbridge accounts add \(registration.id) URL --name NAME", command: command)
        }
        guard let urlText else {
            throw UsageError(
                "give the feed's address: calbridge accounts add \(registration.id) URL --name \(name) (https://, or a file; - reads it from stdin)",
                command: command)
        }
        let url = try Self.feedURL(urlText == "-" ? readURL() : urlText)
        let home = CalbridgeHome(environment: context.environment)
        let previous = existing.first { $0.name == name }
        if let previous, previous.provider != registration.id, !replace {
            throw UsageError(
                "account '\(name)' is a \(previous.provider) account of \(previous.user); to replace it with a feed add --replace, "
                    + "or choose another --name", command: command)
        }
        let urls = FileSecretURLStore(home: home)
        let sameFeed = previous?.provider == registration.id && (try? urls.load(account: name)) == url
        let state = FileProviderState(home: home, account: name)
        // Another feed's last good body is no measure of this one's shrinking.
        if !sameFeed { try await state.removeAll() }

        let transport = context.makeTransport(verbose: verbose)
        let provider = try registration.makeProvider(
            account: ProviderAccount(name: name, apiBaseURL: url, state: state), transport: transport)
        guard let feed = provider as? ICalendarFeedProvider else {
            throw InputError("\(registration.displayName) did not make a feed provider", exitCode: .failure)
        }
        let summary: (events: Int, unchanged: Bool, requests: Int)
        do {
            summary = try await feed.summary()
        } catch let error as CalendarError where error.code == .incompleteRead {
            // Nothing was stored: a failure of the sign-in (1), not a partly done run (4).
            throw InputError(error.description + "; nothing was stored", exitCode: .failure)
        }

        let identity = sameFeed ? previous?.accountIdentity : nil
        var record = AccountRecord(
            name: name, provider: registration.id, api: registration.api, user: url.isFileURL ? "file" : "feed",
            credential: .secretURL, createdAt: context.now())
        // Copies' markers carry this, not the name or the URL (a secret): a random id of the subscription.
        record.accountIdentity = identity ?? "feed-" + UUID().uuidString.lowercased()
        // The URL first: a crash in between leaves an unused URL file, never an account without one.
        try await urls.save(url, account: name)
        try AccountRegistry(home: home).save(record)
        if let previous, previous.provider != registration.id {
            switch previous.credential {
            case .oauth: try await FileTokenStore(home: home).deleteAll(account: name)
            case .password: try await FilePasswordStore(home: home).deleteAll(account: name)
            case .secretURL: break
            }
        }
        context.print(
            "Subscribed to \(url.isFileURL ? "the file" : "the feed") as '\(name)' (\(summary.events) event\(summary.events == 1 ? "" : "s")); "
                + "its calendar is \(name):primary.")
        return .success
    }

    /// The address: `https://`; `http://` only on 127.0.0.1 or ::1; `webcal://` read as `https://`; a path of
    /// an existing file (or `file://`). Messages never repeat the text (it may carry a token).
    static func feedURL(_ text: String) throws -> URL {
        let command = AccountsAddCommand.spec.name
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(), scheme.count > 1 {
            switch scheme {
            case "https", "webcal", "webcals":
                guard url.host?.isEmpty == false, var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { break }
                parts.scheme = "https"
                if let https = parts.url { return https }
            case "http":
                guard let host = url.host else { break }
                guard ["127.0.0.1", "::1", "[::1]"].contains(host) else {
                    throw UsageError(
                        "a feed over plain http is accepted only on 127.0.0.1 or ::1 (its address is a secret): use its https:// address",
                        command: command)
                }
                return url
            case "file":
                return try file(url.path)
            default:
                throw UsageError(
                    "a feed's address is https:// (or webcal://), or the path of a file; '\(scheme):' is neither", command: command)
            }
            throw UsageError("the feed's address is not a usable URL (https://host/...)", command: command)
        }
        return try file(trimmed)
    }

    private static func file(_ path: String) throws -> URL {
        var isDirectory: ObjCBool = false
        guard !path.isEmpty, FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw UsageError(
                "no such file: give the path of an .ics file, or the feed's https:// address", command: AccountsAddCommand.spec.name)
        }
        return URL(fileURLWithPath: path).standardizedFileURL
    }

    /// One line from stdin, without echo on a terminal.
    private func readURL() throws -> String {
        let input = context.secretInput
        if input.isTerminal { context.stderr.write("Feed address: ") }
        let line = input.readSecretLine()
        if input.isTerminal { context.stderr.write("\n") }
        guard let line, !line.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw InputError("no feed address given on stdin")
        }
        return line
    }
}
