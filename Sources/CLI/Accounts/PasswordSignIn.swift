import Accounts
import CalendarBridge
import Foundation
import HTTP
import ProviderSeam

/// `accounts add` for a provider that signs in with a user name and an (app) password: the password comes
/// from `$CALBRIDGE_PASSWORD`, else from the terminal without echo, else from one line of stdin; never from
/// argv. It is checked with one request (the profile) before anything is stored, then kept in the account's
/// 0600 password file (`FilePasswordStore`).
struct PasswordSignIn {
    /// The environment variable that carries the password (for scripts; a terminal prompt is the default).
    static let environmentVariable = "CALBRIDGE_PASSWORD"

    let registration: ProviderRegistration
    let signIn: ProviderSeam.PasswordSignIn
    let context: CommandContext

    /// Signs in and stores the account. `name` is `--name`, already validated; `replace` is `--replace`.
    func run(server serverText: String?, userName: String?, name: String?, replace: Bool, existing: [AccountRecord], verbose: Bool)
        async throws -> ExitCode
    {
        let command = AccountsAddCommand.spec.name
        guard let userName, !userName.isEmpty else {
            throw UsageError(
                "\(registration.displayName) signs in with a \(signIn.userNameLabel) and password: pass --user NAME", command: command)
        }
        let server = try serverURL(serverText, userName: userName)
        let password = try readPassword(userName: userName, server: server)

        // A plain authenticated request is enough to learn who signed in; a brief server error must not throw a
        // good password away, so the request is tried again a few times.
        let transport = context.makeTransport(verbose: verbose)
        let authenticated = MiddlewareTransport(
            base: transport, middlewares: [BasicAuthentication(userName: userName, password: password)] + registration.middlewares)
        let provider = try registration.makeProvider(
            account: ProviderAccount(name: name ?? userName, apiBaseURL: server), transport: authenticated)
        let profile: UserInfo
        do {
            profile = try await AccountsAddCommand.withRetries { try await provider.userInfo() }
        } catch let error as CalendarError where error.code == .unauthorized {
            throw InputError(
                "\(registration.displayName) at \(server.host ?? server.absoluteString) refused the \(signIn.userNameLabel) "
                    + "'\(TerminalText.sanitize(userName))' with that password (HTTP 401); nothing was stored. Check both. "
                    + (signIn.passwordHelp ?? "Use an app password where the service makes them."))
        }
        let user = profile.email.flatMap { $0.isEmpty ? nil : $0 } ?? userName
        let accountName = name ?? user
        if name == nil { try AccountsAddCommand.validate(name: accountName) }
        if let other = existing.first(where: { $0.name == accountName }), !replace,
            other.provider != registration.id || other.user.lowercased() != user.lowercased()
        {
            throw UsageError(
                "account '\(accountName)' is the \(other.provider) account of \(other.user), not \(user); nothing was stored. "
                    + "Add --replace to replace it, or choose another --name", command: command)
        }
        var record = AccountRecord(
            name: accountName, provider: registration.id, api: registration.api, user: user,
            credential: .password(PasswordAccountCredential(server: server, userName: userName)), createdAt: context.now())
        record.accountIdentity = profile.accountIdentity
        let home = CalbridgeHome(environment: context.environment)
        // The password first: a crash in between leaves an unused password file, never an account without one.
        try await FilePasswordStore(home: home).save(password, account: accountName)
        try AccountRegistry(home: home).save(record)
        // What the provider kept for an account of this name before (a CalDAV home found for another user or
        // server) is not this sign-in's.
        try await FileProviderState(home: home, account: accountName).removeAll()
        // A replaced OAuth account's tokens would be stale beside the new password: they go.
        if let other = existing.first(where: { $0.name == accountName }), other.oauth != nil {
            try await FileTokenStore(home: home).deleteAll(account: accountName)
        }
        let who = profile.displayName.map { "\($0) <\(user)>" } ?? user
        context.print("Signed in to \(registration.displayName) as \(who); account name '\(accountName)'.")
        return .success
    }

    /// The URL (or `--server`), else the user's server or the provider's default; http only for a loopback host
    /// (a sandbox, a local server), since the password goes with every request.
    private func serverURL(_ text: String?, userName: String) throws -> URL {
        guard let text else {
            guard let server = signIn.serverForUser?(userName) ?? signIn.defaultServer else {
                throw UsageError(
                    "\(registration.displayName) needs its server: pass its URL (e.g. `calbridge accounts add \(registration.id) "
                        + "https://calendar.example.com --user NAME`)",
                    command: AccountsAddCommand.spec.name)
            }
            return server
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty,
            scheme == "https" || (scheme == "http" && ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host))
        else {
            throw UsageError(
                "the server URL '\(TerminalText.sanitize(text))' is not usable: give an https:// URL (http:// only for 127.0.0.1 "
                    + "and ::1: the password goes with every request)",
                command: AccountsAddCommand.spec.name)
        }
        return url
    }

    /// `$CALBRIDGE_PASSWORD`, else a line typed at the terminal without echo, else one line of stdin.
    private func readPassword(userName: String, server: URL) throws -> String {
        if let value = context.environment[Self.environmentVariable], !value.isEmpty { return value }
        let input = context.secretInput
        if input.isTerminal {
            if let help = signIn.passwordHelp { context.printError(help) }
            context.stderr.write("Password for \(TerminalText.sanitize(userName)) at \(server.host ?? server.absoluteString): ")
        }
        let line = input.readSecretLine()
        if input.isTerminal { context.stderr.write("\n") }
        guard let password = line, !password.isEmpty else {
            throw InputError(
                "no password given: type it when asked, or pass it on stdin (one line) or in $\(Self.environmentVariable); "
                    + "never on the command line")
        }
        return password
    }
}
