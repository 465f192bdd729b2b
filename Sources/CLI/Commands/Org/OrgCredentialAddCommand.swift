import CalbridgeSupport
import Foundation
import OAuth
import Org

/// `calbridge org credential add microsoft|google ...`: records an app-only credential (where each worker finds
/// its key, never the key) and the mail domains it serves.
package enum OrgCredentialAddCommand: Command {
    package enum Options {
        package static let provider = Argument("PROVIDER", "microsoft (an Entra app registration) or google (a service account).")
        package static let tenant = Option<String>("tenant", "TENANT", "Microsoft: the Entra tenant id or domain.")
        package static let clientId = Option<String>("client-id", "ID", "Microsoft: the app registration's application (client) id.")
        package static let certificate = Option<String>(
            "certificate", "FILE", "Microsoft: one PEM with the app's private key and its certificate (each worker reads this path).")
        package static let secretEnv = Option<String>(
            "secret-env", "VAR", "Microsoft: the environment variable holding a client secret (each worker's environment).")
        package static let serviceAccount = Option<String>(
            "service-account", "FILE", "Google: the service account's JSON key file (each worker reads this path).")
        package static let domains = RepeatedOption("domain", "DOMAIN", "A mail domain this credential serves (repeat for more).")
        package static let descriptor = Option<String>(
            "descriptor", "FILE", "A provider descriptor naming other endpoints (the sandbox, a national cloud), as accounts add takes.")
    }

    package static let path = ["org", "credential", "add"]

    package static let spec = CommandSpec(
        path,
        abstract: "Record an app-only credential for the organisation and the mail domains it serves.",
        discussion: """
            microsoft: --tenant T --client-id ID and either --certificate FILE (preferred) or --secret-env VAR. \
            google: --service-account FILE (a key with domain-wide delegation of the calendar scope). The database \
            stores where each worker finds the key or secret (the path, or the variable's name), never the key \
            itself. A mailbox's domain picks its credential. See docs/organisation.md for the least-privilege setup.
            """,
        options: [
            Options.tenant, Options.clientId, Options.certificate, Options.secretEnv, Options.serviceAccount, Options.domains,
            Options.descriptor,
        ] + OrgDatabase.options,
        positionals: [Options.provider]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let domains = arguments[Options.domains].map { $0.lowercased() }
        guard !domains.isEmpty else { throw UsageError("name the mail domains it serves with --domain DOMAIN", command: spec.name) }
        if let bad = domains.first(where: { !OrgCredential.isDomain($0) }) {
            throw UsageError("--domain '\(bad)' is not a mail domain (like contoso.com)", command: spec.name)
        }
        let credential: OrgCredential
        switch arguments[Options.provider].lowercased() {
        case "microsoft": credential = try microsoft(arguments, domains: domains, context: context)
        case "google": credential = try google(arguments, domains: domains, context: context)
        default:
            throw UsageError("PROVIDER must be microsoft or google, not '\(arguments[Options.provider])'", command: spec.name)
        }
        let connection = try await OrgDatabase.open(arguments, context: context, command: spec.name)
        try await OrgDirectory(connection: connection).addCredential(credential)
        context.print(
            "Credential \(credential.name) serves \(credential.domains.joined(separator: ", ")); workers read its "
                + (credential.proof == .secret ? "secret" : "key") + " from \(credential.secretLocation)."
        )
        return .success
    }

    static func microsoft(_ arguments: ParsedArguments, domains: [String], context: CommandContext) throws -> OrgCredential {
        if arguments[Options.serviceAccount] != nil {
            throw UsageError("--service-account is for google credentials", command: spec.name)
        }
        guard let tenant = arguments[Options.tenant], !tenant.isEmpty else {
            throw UsageError("microsoft needs --tenant T", command: spec.name)
        }
        guard let clientId = arguments[Options.clientId], !clientId.isEmpty else {
            throw UsageError("microsoft needs --client-id ID (the app registration's application id)", command: spec.name)
        }
        let location: SecretLocation, proof: OrgCredential.Proof
        switch (arguments[Options.certificate], arguments[Options.secretEnv]) {
        case (let file?, nil):
            let path = absolute(file, context: context)
            location = .file(path)
            proof = .certificate
            try checkCertificate(path)
        case (nil, let variable?):
            guard variable.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }), !variable.isEmpty else {
                throw UsageError("--secret-env takes the name of an environment variable, not the secret itself", command: spec.name)
            }
            location = .environment(variable)
            proof = .secret
            if context.environment[variable] == nil {
                context.printError("note: \(variable) is not set here; each worker needs it in its environment")
            }
        default:
            throw UsageError("microsoft needs exactly one of --certificate FILE and --secret-env VAR", command: spec.name)
        }
        let descriptor = try descriptor(arguments, provider: "microsoft", tenant: tenant, context: context)
        return OrgCredential(
            name: "microsoft:" + tenant.lowercased(), provider: .microsoft, tenant: tenant, clientId: clientId, secretLocation: location,
            proof: proof,
            tokenEndpoint: tenantTokenEndpoint(descriptor.tokenEndpoint, tenant: tenant), apiBaseURL: descriptor.apiBaseURL,
            domains: domains
        )
    }

    /// `url` with a multi-tenant segment (`common`, `organizations`, `consumers`) replaced by `tenant`: Entra
    /// grants app-only tokens only at the tenant's own endpoint, and a descriptor written for people's sign-in
    /// (the sandbox's, a copied one) names `common`.
    static func tenantTokenEndpoint(_ url: URL, tenant: String) -> URL {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        var segments = parts.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard segments.count > 1, ["common", "organizations", "consumers"].contains(segments[1].lowercased()) else { return url }
        segments[1] = tenant
        parts.path = segments.joined(separator: "/")
        return parts.url ?? url
    }

    static func google(_ arguments: ParsedArguments, domains: [String], context: CommandContext) throws -> OrgCredential {
        if arguments[Options.certificate] != nil || arguments[Options.secretEnv] != nil || arguments[Options.clientId] != nil
            || arguments[Options.tenant] != nil
        {
            throw UsageError(
                "google takes --service-account FILE (--tenant, --client-id, --certificate and --secret-env are for microsoft)",
                command: spec.name)
        }
        guard let file = arguments[Options.serviceAccount] else {
            throw UsageError("google needs --service-account FILE", command: spec.name)
        }
        let path = absolute(file, context: context)
        let location = SecretLocation.file(path)
        let key: ServiceAccountKey
        do {
            key = try ServiceAccountKey.parse(try location.read(environment: context.environment), source: path)
        } catch {
            throw InputError(error.description)
        }
        let descriptor = try descriptor(arguments, provider: "google", tenant: ProviderDescriptor.defaultTenant, context: context)
        let tokenEndpoint = arguments[Options.descriptor] == nil ? key.tokenURI : descriptor.tokenEndpoint
        return OrgCredential(
            name: "google:" + key.clientEmail.lowercased(), provider: .google, tenant: nil, clientId: key.clientEmail,
            secretLocation: location,
            proof: .serviceAccount, tokenEndpoint: tokenEndpoint, apiBaseURL: descriptor.apiBaseURL, domains: domains
        )
    }

    /// The built-in descriptor of `provider`, or `--descriptor FILE`'s (which must speak the same API); only its
    /// endpoints are used.
    static func descriptor(_ arguments: ParsedArguments, provider: String, tenant: String, context: CommandContext) throws
        -> ProviderDescriptor
    {
        guard let registration = context.providers.registration(id: provider),
            let builtIn = try registration.builtInDescriptor(tenant: tenant)
        else {
            throw InputError("this calbridge has no \(provider) provider")
        }
        guard let file = arguments[Options.descriptor] else { return builtIn }
        guard let data = FileManager.default.contents(atPath: absolute(file, context: context)) else {
            throw InputError("cannot read the descriptor file \(file)")
        }
        // Only its endpoints are taken: its client id and secret (the sign-in app of a person's account, as
        // Google's installed-app descriptors always carry one) are neither used nor stored.
        return try ProviderDescriptor.parse(data, source: file, tenant: tenant, apis: [registration.api])
    }

    /// A certificate file readable here must hold an RSA key and a certificate; one that is not readable here
    /// may be on the workers only (a mounted Secret), so that is a note, not an error.
    static func checkCertificate(_ path: String) throws {
        guard let pem = FileManager.default.contents(atPath: path) else { return }
        do {
            _ = try RSAPrivateKey(pem: pem, source: path)
            _ = try X509Certificate(pem: pem, source: path)
        } catch {
            throw InputError(error.description + "; --certificate FILE is one PEM with the private key and its certificate")
        }
    }

    static func absolute(_ path: String, context: CommandContext) -> String {
        URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
            .standardizedFileURL.path
    }
}
