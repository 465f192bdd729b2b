import Foundation

/// Everything that differs between authorization servers, as data: endpoints, scopes, extra
/// authorization parameters and (optionally) the client registration.
///
/// Built from the JSON of `Providers/*/*.json`, a user's own file (national clouds, the sandbox,
/// any compatible server) or a stored account. `{tenant}` in the endpoint URLs is filled when the
/// descriptor is parsed, so a `ProviderDescriptor` always holds usable URLs.
public struct ProviderDescriptor: Sendable, Equatable, Codable {
    /// Short identifier (`google`, `microsoft`, or a user's own).
    public var id: String
    public var api: ProviderAPI
    public var displayName: String
    public var authorizationEndpoint: URL
    public var tokenEndpoint: URL
    /// RFC 8628 device authorization endpoint; nil when the server has no device flow.
    public var deviceAuthorizationEndpoint: URL?
    /// RFC 7009 revocation endpoint; nil when the server cannot revoke (Microsoft).
    public var revocationEndpoint: URL?
    public var apiBaseURL: URL
    public var scopes: [String]
    /// Extra query parameters for the authorization request (Google: `access_type=offline`).
    public var authorizationParameters: [String: String]
    public var clientId: String?
    public var clientSecret: String?

    public init(
        id: String,
        api: ProviderAPI,
        displayName: String,
        authorizationEndpoint: URL,
        tokenEndpoint: URL,
        deviceAuthorizationEndpoint: URL? = nil,
        revocationEndpoint: URL? = nil,
        apiBaseURL: URL,
        scopes: [String],
        authorizationParameters: [String: String] = [:],
        clientId: String? = nil,
        clientSecret: String? = nil
    ) {
        self.id = id
        self.api = api
        self.displayName = displayName
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.deviceAuthorizationEndpoint = deviceAuthorizationEndpoint
        self.revocationEndpoint = revocationEndpoint
        self.apiBaseURL = apiBaseURL
        self.scopes = scopes
        self.authorizationParameters = authorizationParameters
        self.clientId = clientId
        self.clientSecret = clientSecret
    }

    /// The tenant used when none is given (Microsoft's "any organisation or personal account").
    public static let defaultTenant = "common"

    /// Keys that must be present (with a non-null value).
    static let requiredKeys = [
        "id", "api", "displayName", "authorizationEndpoint", "tokenEndpoint", "apiBaseURL", "scopes",
    ]
    /// Keys that must be present but may be null (absent is accepted as null, so older files load).
    static let nullableKeys = [
        "deviceAuthorizationEndpoint", "revocationEndpoint", "authorizationParameters", "clientId", "clientSecret",
    ]

    /// Parses and validates a descriptor document.
    ///
    /// - Parameters:
    ///   - data: the JSON document.
    ///   - source: where it came from, for error messages (a path, or "built-in google").
    ///   - tenant: replaces `{tenant}` in every URL (Microsoft: `common`, `organizations`,
    ///     `consumers` or a tenant id or domain).
    ///   - apis: the calendar APIs the caller can talk to (its registered providers'); nil accepts any.
    ///     OAuth itself knows no calendar API.
    /// - Throws: `DescriptorError` naming the first missing or bad key.
    public static func parse(
        _ data: Data, source: String, tenant: String = defaultTenant, apis: [ProviderAPI]? = nil
    ) throws -> ProviderDescriptor {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw DescriptorError(source: source, key: nil, problem: "is not a JSON object")
        }
        guard !tenant.isEmpty, tenant.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._".contains($0)) })
        else {
            throw DescriptorError(
                source: source, key: nil,
                problem: "tenant '\(tenant)' is not a tenant name or id (letters, digits, '-', '.', '_')"
            )
        }
        for key in requiredKeys where object[key] == nil || object[key] is NSNull {
            throw DescriptorError(source: source, key: key, problem: "is missing")
        }

        func string(_ key: String) throws -> String {
            guard let value = object[key] as? String, !value.isEmpty else {
                throw DescriptorError(source: source, key: key, problem: "must be a non-empty string")
            }
            return value
        }
        func optionalString(_ key: String) throws -> String? {
            guard let value = object[key], !(value is NSNull) else { return nil }
            guard let text = value as? String, !text.isEmpty else {
                throw DescriptorError(source: source, key: key, problem: "must be a non-empty string or null")
            }
            return text
        }
        func endpoint(_ key: String, _ template: String) throws -> URL {
            let text = template.replacingOccurrences(of: "{tenant}", with: tenant)
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty
            else {
                throw DescriptorError(source: source, key: key, problem: "is not an absolute URL: '\(template)'")
            }
            if scheme == "https" { return url }
            if scheme == "http", isLoopback(host) { return url }
            throw DescriptorError(
                source: source, key: key,
                problem: "must be an https URL (plain http is allowed only for 127.0.0.1, ::1 or localhost): '\(template)'"
            )
        }

        let api = ProviderAPI(rawValue: try string("api"))
        if let apis, !apis.contains(api) {
            throw DescriptorError(
                source: source, key: "api",
                problem: "must be one of \(apis.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")), not \"\(api.rawValue)\""
            )
        }
        guard let scopeValues = object["scopes"] as? [Any], !scopeValues.isEmpty,
              let scopes = scopeValues as? [String], scopes.allSatisfy({ !$0.isEmpty && !$0.contains(" ") })
        else {
            throw DescriptorError(source: source, key: "scopes", problem: "must be a non-empty array of scope strings without spaces")
        }
        var parameters: [String: String] = [:]
        if let value = object["authorizationParameters"], !(value is NSNull) {
            guard let dictionary = value as? [String: Any] else {
                throw DescriptorError(source: source, key: "authorizationParameters", problem: "must be an object of strings")
            }
            for (name, item) in dictionary {
                guard let text = item as? String else {
                    throw DescriptorError(
                        source: source, key: "authorizationParameters", problem: "value of \"\(name)\" must be a string"
                    )
                }
                parameters[name] = text
            }
            let reserved = ["client_id", "redirect_uri", "response_type", "state", "code_challenge", "code_challenge_method", "scope"]
            if let clash = parameters.keys.sorted().first(where: reserved.contains) {
                throw DescriptorError(
                    source: source, key: "authorizationParameters",
                    problem: "must not set \"\(clash)\" (calbridge sets it itself)"
                )
            }
        }

        return ProviderDescriptor(
            id: try string("id"),
            api: api,
            displayName: try string("displayName"),
            authorizationEndpoint: try endpoint("authorizationEndpoint", string("authorizationEndpoint")),
            tokenEndpoint: try endpoint("tokenEndpoint", string("tokenEndpoint")),
            deviceAuthorizationEndpoint: try optionalString("deviceAuthorizationEndpoint").map {
                try endpoint("deviceAuthorizationEndpoint", $0)
            },
            revocationEndpoint: try optionalString("revocationEndpoint").map { try endpoint("revocationEndpoint", $0) },
            apiBaseURL: try endpoint("apiBaseURL", string("apiBaseURL")),
            scopes: scopes,
            authorizationParameters: parameters,
            clientId: try optionalString("clientId"),
            clientSecret: try optionalString("clientSecret")
        )
    }

    /// Whether `host` names this machine's loopback interface.
    static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        return bare == "127.0.0.1" || bare == "::1" || bare == "localhost"
    }

    /// The scopes as the space-separated `scope` parameter.
    public var scopeParameter: String { scopes.joined(separator: " ") }
}
