import Accounts
import Foundation
import HTTP
import OAuth
import ProviderSeam

/// `calbridge accounts add`: signs an account in (browser or device flow) and stores its tokens.
package enum AccountsAddCommand: Command {
    /// The options and arguments, declared once: the spec, help and parser read these, and so does `run`.
    package enum Options {
        package static let name = Option<String>("name", "NAME", "Name for the account (default: the user's e-mail address).")
        package static let flow = Option.choice("flow", "browser|device", "How to sign in (default browser; device in SSH sessions).", among: ["browser", "device"])
        package static let noBrowser = Flag("no-browser", "Do not open a browser; print the sign-in URL instead.")
        package static let clientId = Option<String>("client-id", "ID", "OAuth client id (if the descriptor has none).")
        package static let clientSecretFile = Option<String>("client-secret-file", "PATH", "Read the OAuth client secret from the first line of PATH.")
        package static let clientSecret = Option<String>("client-secret", "SECRET", "OAuth client secret; visible to other users in `ps` (prefer $CALBRIDGE_CLIENT_SECRET).")
        package static let tenant = Option<String>("tenant", "TENANT", "Microsoft tenant: common, organizations, consumers or a tenant id (default common).")
        package static let replace = Flag("replace", "Let --name replace an account of another provider or user.")
        package static let timeout = Option.int("timeout", "SECONDS", "How long to wait for the sign-in (default 300).", in: 1...3600)
        package static let server = Option<String>(
            "server", "URL", "Password providers: the service's https:// URL (if not the provider's default).")
        package static let userName = Option<String>(
            "user-name", "NAME", "Password providers: the user name (the password is asked for).")
        package static let user = Option<String>("user", "USER", "Password providers: the same as --user-name.")
        package static let provider = Argument(
            "PROVIDER", "a provider id (google, microsoft, caldav, icloud, fastmail, ics, ...) or a descriptor file")
        package static let url = OptionalArgument(
            "URL",
            "caldav: the server's https:// URL (the same as --server); ics: the feed's https:// address (http:// only on "
                + "127.0.0.1 or ::1), a file, or - to read it from stdin")
    }

    package static let path = ["accounts", "add"]

    package static let spec = CommandSpec(
        path,
        abstract: "Sign in to a Google or Microsoft account (or any provider descriptor), or subscribe to a feed.",
        discussion: """
            PROVIDER is google, microsoft, or the path of a provider descriptor file (the format of
            Providers/*/*.json), for national clouds or any compatible server.
            The browser flow listens on http://127.0.0.1:<port>/ for the sign-in redirect; without a display
            (or with --no-browser) it prints the URL to open. The device flow (Microsoft) prints a code to
            enter on any device; it is the default in an SSH session without a display.
            The account's name defaults to the signed-in user's e-mail address; a name has no ':' (it ends
            the account part of ACCOUNT:CALENDAR) and no control characters. Adding a name that exists signs
            that account in again; if the name belongs to another provider or user, --replace is needed.
            A client secret (Google desktop clients have one) is best given as $CALBRIDGE_CLIENT_SECRET or in a
            file (--client-secret-file): --client-secret puts it in the command line, which `ps` shows to
            every user of the machine.
            A provider that signs in with a user name and (app) password takes --user (or --user-name) and, when it
            has no default, the server's URL (`accounts add caldav https://dav.example.com --user ann`; icloud
            and fastmail know theirs); the password is read from $CALBRIDGE_PASSWORD, else typed at the terminal
            without echo, else one line of stdin, and is kept in a 0600 file like tokens. It is never an option.
            `accounts add ics URL --name NAME` subscribes to an iCalendar feed (https://, webcal://, http:// only on
            127.0.0.1 or ::1, or a file): a read-only account whose calendar is NAME:primary. The URL is kept like a
            password and never shown; give - to read it from stdin and keep it out of `ps`. See docs/icalendar.md.
            """,
        options: [
            Options.name, Options.flow, Options.noBrowser, Options.clientId, Options.clientSecretFile, Options.clientSecret, Options.tenant,
            Options.timeout, Options.replace, Options.server, Options.userName, Options.user,
        ],
        positionals: [Options.provider, Options.url]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let providerArgument = arguments[Options.provider]
        if let registration = context.providers.registration(id: providerArgument), case .secretURL = registration.credential {
            return try await subscribe(registration, arguments, context: context)
        }
        if let registration = context.providers.registration(id: providerArgument), case .password(let signIn) = registration.credential {
            return try await signInWithPassword(registration, signIn, arguments, context: context)
        }
        if let (registration, signIn, server) = try passwordDescriptor(providerArgument, providers: context.providers) {
            return try await signInWithPassword(registration, signIn, arguments, defaultServer: server, context: context)
        }
        if arguments[Options.server] != nil || arguments[Options.userName] != nil || arguments[Options.user] != nil
            || arguments[Options.url] != nil
        {
            throw UsageError(
                "a URL, --server and --user are for providers that sign in with a password; '\(providerArgument)' signs in with OAuth",
                command: spec.name)
        }
        let tenant = arguments[Options.tenant] ?? ProviderDescriptor.defaultTenant
        let timeout = arguments[Options.timeout] ?? 300
        let (descriptor, descriptorFile) = try resolve(providerArgument, tenant: tenant, providers: context.providers)
        // Everything that can be checked before the sign-in is: nobody signs in to learn that the name is
        // unusable or that accounts.json cannot be written.
        let home = CalbridgeHome(environment: context.environment)
        let registry = AccountRegistry(home: home)
        let existingAccounts = try registry.accounts()
        let replace = arguments[Options.replace]
        if let name = arguments[Options.name] {
            try validate(name: name)
            if let existing = existingAccounts.first(where: { $0.name == name }), existing.provider != descriptor.id, !replace {
                throw UsageError(
                    "account '\(name)' is a \(existing.provider) account of \(existing.user); to replace it with a "
                        + "\(descriptor.id) account add --replace, or choose another --name", command: spec.name)
            }
        }

        // resolve(...) accepts only registered APIs, so this finds one.
        guard let registration = context.providers.registration(api: descriptor.api) else {
            throw InputError("descriptor '\(descriptor.id)' names API '\(descriptor.api)', which this calbridge cannot talk to")
        }
        guard let clientId = arguments[Options.clientId] ?? descriptor.clientId else {
            throw UsageError(
                "\(descriptor.displayName) needs an OAuth client id: pass --client-id ID (from your app registration)",
                command: "accounts add"
            )
        }
        // The user's own secret (option, file or environment); a descriptor's secret stays in the descriptor.
        let commandLineSecret = try ClientSecretOption.resolve(
            inline: arguments[Options.clientSecret], path: arguments[Options.clientSecretFile], environment: context.environment, command: "accounts add")
        let credentials = ClientCredentials(clientId: clientId, clientSecret: commandLineSecret ?? descriptor.clientSecret)
        let flow = try chooseFlow(arguments, descriptor: descriptor, context: context)
        let transport = context.makeTransport(verbose: arguments[CommonOptions.verbose])
        let client = OAuthClient(descriptor: descriptor, credentials: credentials, transport: transport, now: context.now)
        let presenter = SignInPresenter(context: context, noBrowser: arguments[Options.noBrowser])
        let tokens: TokenSet
        switch flow {
        case "device":
            tokens = try await DeviceCodeFlow(client: client).run { authorization in
                presenter.presentDeviceCode(authorization, providerName: descriptor.displayName)
            }
        default:
            tokens = try await AuthorizationCodeFlow(client: client, timeout: .seconds(timeout), redirectHost: registration.redirectHost).run { url in
                presenter.presentAuthorization(url, providerName: descriptor.displayName, timeout: timeout)
            }
        }

        // The token was just issued, so a plain bearer request is enough to learn who signed in. A brief
        // server error must not throw a finished sign-in away: the request is tried again a few times.
        let bearer = MiddlewareTransport(base: transport, middlewares: [StaticBearer(token: tokens.accessToken)])
        let profileProvider = try registration.makeProvider(
            account: ProviderAccount(name: arguments[Options.name] ?? descriptor.displayName, apiBaseURL: descriptor.apiBaseURL),
            transport: bearer)
        let profile = try await withRetries { try await profileProvider.userInfo() }
        guard let email = profile.email, !email.isEmpty else {
            throw InputError("\(descriptor.displayName) did not say which user signed in (no e-mail address)", exitCode: .failure)
        }
        let name = arguments[Options.name] ?? email
        if arguments[Options.name] == nil { try validate(name: name) }
        if let existing = existingAccounts.first(where: { $0.name == name }), !replace,
            existing.provider != descriptor.id || existing.user.lowercased() != email.lowercased()
        {
            throw UsageError(
                "account '\(name)' is the \(existing.provider) account of \(existing.user), not \(email); nothing was stored. "
                    + "Add --replace to replace it, or choose another --name", command: spec.name)
        }
        var record = AccountRecord(
            name: name,
            provider: descriptor.id,
            api: descriptor.api,
            descriptor: descriptorFile == nil ? nil : descriptor,
            descriptorFile: descriptorFile,
            user: email,
            clientId: clientId,
            clientSecret: commandLineSecret,
            tenant: tenant,
            scopes: descriptor.scopes,
            createdAt: context.now()
        )
        record.accountIdentity = profile.accountIdentity
        // Tokens first: a crash in between leaves an unused token file, never an account without tokens.
        let store = FileTokenStore(home: home)
        // Under the account's lock: a refresh in another process then sees either the old or the new grant.
        try await store.withExclusiveAccess(account: name) { try store.save(tokens, account: name) }
        try registry.save(record)
        // A replaced password account's password would be stale beside the new tokens: it goes.
        if let replaced = existingAccounts.first(where: { $0.name == name }), replaced.oauth == nil {
            try await FilePasswordStore(home: home).deleteAll(account: name)
        }
        let who = profile.displayName.map { "\($0) <\(email)>" } ?? email
        context.print("Signed in to \(descriptor.displayName) as \(who); account name '\(name)'.")
        return .success
    }

    /// The password sign-in (`PasswordSignIn`), after the checks that need no password: OAuth's options do not
    /// apply, and a `--name` must be usable and not another provider's or user's account without `--replace`.
    private static func signInWithPassword(
        _ registration: ProviderRegistration, _ signIn: ProviderSeam.PasswordSignIn, _ arguments: ParsedArguments,
        defaultServer: String? = nil, context: CommandContext
    ) async throws -> ExitCode {
        let oauthOnly: [(String, Bool)] = [
            ("--flow", arguments[Options.flow] != nil), ("--no-browser", arguments[Options.noBrowser]),
            ("--client-id", arguments[Options.clientId] != nil), ("--client-secret", arguments[Options.clientSecret] != nil),
            ("--client-secret-file", arguments[Options.clientSecretFile] != nil), ("--tenant", arguments[Options.tenant] != nil),
        ]
        if let given = oauthOnly.first(where: \.1) {
            throw UsageError(
                "\(given.0) is for OAuth sign-ins; \(registration.displayName) signs in with a user name and password", command: spec.name)
        }
        let existing = try AccountRegistry(home: CalbridgeHome(environment: context.environment)).accounts()
        let replace = arguments[Options.replace]
        if let name = arguments[Options.name] {
            try validate(name: name)
            if let other = existing.first(where: { $0.name == name }), other.provider != registration.id, !replace {
                throw UsageError(
                    "account '\(name)' is a \(other.provider) account of \(other.user); to replace it with a "
                        + "\(registration.id) account add --replace, or choose another --name", command: spec.name)
            }
        }
        if arguments[Options.url] != nil, arguments[Options.server] != nil {
            throw UsageError("give the server once: as URL or as --server, not both", command: spec.name)
        }
        if let user = arguments[Options.user], let userName = arguments[Options.userName], user != userName {
            throw UsageError("--user and --user-name are the same option: give one", command: spec.name)
        }
        return try await PasswordSignIn(registration: registration, signIn: signIn, context: context).run(
            server: arguments[Options.url] ?? arguments[Options.server] ?? defaultServer,
            userName: arguments[Options.user] ?? arguments[Options.userName],
            name: arguments[Options.name], replace: replace,
            existing: existing, verbose: arguments[CommonOptions.verbose])
    }

    /// The feed subscription (`FeedSubscription`), after the checks that need no fetch: the options of other
    /// sign-ins do not apply, and a `--name` must be usable.
    private static func subscribe(_ registration: ProviderRegistration, _ arguments: ParsedArguments, context: CommandContext)
        async throws -> ExitCode
    {
        let otherOnly: [(String, Bool)] = [
            ("--flow", arguments[Options.flow] != nil), ("--no-browser", arguments[Options.noBrowser]),
            ("--client-id", arguments[Options.clientId] != nil), ("--client-secret", arguments[Options.clientSecret] != nil),
            ("--client-secret-file", arguments[Options.clientSecretFile] != nil), ("--tenant", arguments[Options.tenant] != nil),
            ("--server", arguments[Options.server] != nil), ("--user-name", arguments[Options.userName] != nil),
        ]
        if let given = otherOnly.first(where: \.1) {
            throw UsageError("\(given.0) is not for feeds; a feed takes its URL and --name", command: spec.name)
        }
        if let name = arguments[Options.name] { try validate(name: name) }
        let existing = try AccountRegistry(home: CalbridgeHome(environment: context.environment)).accounts()
        return try await FeedSubscription(registration: registration, context: context).run(
            urlText: arguments[Options.url], name: arguments[Options.name], replace: arguments[Options.replace], existing: existing,
            verbose: arguments[CommonOptions.verbose])
    }

    /// An account name must be usable in `ACCOUNT:CALENDAR` and printable: not empty, no ':', no control
    /// characters (tab and line breaks included), no spaces around it.
    static func validate(name: String) throws(UsageError) {
        let printable = name.unicodeScalars.allSatisfy { !TerminalText.isUnsafe($0) }
        guard !name.isEmpty, printable, !name.contains(":"), name.trimmingCharacters(in: .whitespaces) == name else {
            throw UsageError(
                "account name '\(TerminalText.sanitize(name))' cannot be used: a name is not empty and has no ':', "
                    + "no control characters and no spaces around it (e.g. --name work)", command: spec.name)
        }
    }

    /// `body`, tried up to three times over two seconds while it fails with something other than a sign-in
    /// or input problem (a 5xx, a dropped connection).
    static func withRetries<T>(_ body: () async throws -> T) async throws -> T {
        var attempt = 0
        while true {
            do {
                return try await body()
            } catch {
                attempt += 1
                let code = ErrorReporting.exitCode(for: error)
                guard attempt < 3, code == .failure else { throw error }
                try await Task.sleep(for: .milliseconds(500 * attempt))
            }
        }
    }

    /// A password descriptor file (`"credential": "password"`, as `calbridge sandbox --write-descriptors` writes
    /// for its CalDAV service): the registration of its API and the server it names; nil for anything else.
    private static func passwordDescriptor(_ argument: String, providers: ProviderRegistry) throws
        -> (ProviderRegistration, ProviderSeam.PasswordSignIn, server: String)?
    {
        guard providers.registration(id: argument) == nil, FileManager.default.fileExists(atPath: argument),
            let data = FileManager.default.contents(atPath: argument),
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any], object["credential"] as? String == "password"
        else { return nil }
        guard let api = object["api"] as? String, let server = object["apiBaseURL"] as? String else {
            throw InputError("descriptor file \(argument): a password descriptor names its \"api\" and \"apiBaseURL\"")
        }
        guard let registration = providers.registration(api: ProviderAPI(rawValue: api)),
            case .password(let signIn) = registration.credential
        else {
            throw InputError("descriptor file \(argument) names API '\(api)', which this calbridge cannot sign in to with a password")
        }
        return (registration, signIn, server)
    }

    /// The descriptor named on the command line: a registered provider's id, or a descriptor file.
    /// - Returns: the descriptor and, for a file, its absolute path.
    private static func resolve(
        _ argument: String, tenant: String, providers: ProviderRegistry
    ) throws -> (ProviderDescriptor, file: String?) {
        if let registration = providers.registration(id: argument), let descriptor = try registration.builtInDescriptor(tenant: tenant) {
            return (descriptor, nil)
        }
        let url = URL(fileURLWithPath: argument)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw UsageError(
                "unknown provider '\(argument)': use \(providers.ids.joined(separator: ", ")) or the path of a descriptor file",
                command: "accounts add"
            )
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw InputError("cannot read descriptor file \(url.path): \(error.localizedDescription)")
        }
        return (try providers.parseDescriptor(data, source: url.path, tenant: tenant), url.standardizedFileURL.path)
    }

    private static func chooseFlow(_ arguments: ParsedArguments, descriptor: ProviderDescriptor, context: CommandContext) throws -> String {
        if let flow = arguments[Options.flow] {
            if flow == "device", descriptor.deviceAuthorizationEndpoint == nil {
                throw UsageError(
                    "\(descriptor.displayName) has no device sign-in; use --flow browser (add --no-browser over SSH)",
                    command: "accounts add"
                )
            }
            return flow
        }
        let ssh = ["SSH_CONNECTION", "SSH_TTY"].contains { !(context.environment[$0] ?? "").isEmpty }
        let display = ["DISPLAY", "WAYLAND_DISPLAY"].contains { !(context.environment[$0] ?? "").isEmpty }
        if ssh, !display, descriptor.deviceAuthorizationEndpoint != nil {
            context.printError("SSH session without a display: signing in with a device code (--flow browser to change).")
            return "device"
        }
        return "browser"
    }
}

/// Adds one fixed bearer token (only for the profile request right after sign-in).
struct StaticBearer: HTTPMiddleware {
    let token: String
    func intercept(_ request: HTTPRequest, next: @Sendable (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse {
        var request = request
        request.headers["Authorization"] = "Bearer \(token)"
        return try await next(request)
    }
}
