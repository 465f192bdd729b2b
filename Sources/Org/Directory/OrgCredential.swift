import Foundation
import OAuth

/// An app-only credential as the organisation database stores it: which provider and app, where each worker
/// finds its key material (a file or an environment variable; never the material), the endpoints it talks
/// to, and the mail domains it serves (a mailbox's domain picks its credential).
package struct OrgCredential: Sendable, Equatable {
    package enum Provider: String, Sendable, CaseIterable {
        case microsoft, google
    }

    package enum Proof: String, Sendable {
        /// Microsoft: a PEM with the app's private key and certificate.
        case certificate
        /// Microsoft: a client secret (in an environment variable).
        case secret
        /// Google: a service account key file.
        case serviceAccount = "service-account"
    }

    /// `microsoft:<tenant>` or `google:<service account address>`.
    package var name: String
    package var provider: Provider
    package var tenant: String?
    /// The Entra app's client id, or the service account's address.
    package var clientId: String?
    package var secretLocation: SecretLocation
    package var proof: Proof
    package var tokenEndpoint: URL
    package var apiBaseURL: URL
    /// Lowercase mail domains.
    package var domains: [String]

    package init(
        name: String, provider: Provider, tenant: String?, clientId: String?, secretLocation: SecretLocation, proof: Proof,
        tokenEndpoint: URL, apiBaseURL: URL, domains: [String]
    ) {
        self.name = name
        self.provider = provider
        self.tenant = tenant
        self.clientId = clientId
        self.secretLocation = secretLocation
        self.proof = proof
        self.tokenEndpoint = tokenEndpoint
        self.apiBaseURL = apiBaseURL
        self.domains = domains.map { $0.lowercased() }
    }

    /// The grant that gets this credential's tokens.
    package func grant(environment: [String: String] = ProcessInfo.processInfo.environment) -> any AppTokenGrant {
        switch proof {
        case .certificate, .secret:
            MicrosoftClientCredentialsGrant(
                tenant: tenant ?? "", clientId: clientId ?? "", tokenEndpoint: tokenEndpoint, apiBaseURL: apiBaseURL,
                proof: proof == .certificate ? .certificate(secretLocation) : .secret(secretLocation), environment: environment
            )
        case .serviceAccount:
            GoogleServiceAccountGrant(keyFile: secretLocation, tokenEndpoint: tokenEndpoint, environment: environment)
        }
    }

    /// Whether `domain` is a mail domain: letters, digits, hyphens and dots, with a dot.
    package static func isDomain(_ domain: String) -> Bool {
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && domain.count <= 253
            && labels.allSatisfy { label in
                !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                    && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            }
    }
}
