import Foundation

/// The organisations' app-only identities the sandbox knows: Entra app registrations allowed the
/// client-credentials grant, and Google service accounts with domain-wide delegation.
package struct SandboxAppOnlyDirectory: Sendable {
    /// An Entra app registration with the application permission `Calendars.ReadWrite` (admin consent given).
    package struct Application: Sendable {
        package var tenant: String
        package var clientId: String
        /// The certificate uploaded to the app (PEM); nil: no certificate.
        package var certificatePEM: Data?
        /// A client secret; nil: none.
        package var secret: String?
        /// Signature algorithms the token endpoint accepts for this app's assertions (a test can refuse PS256).
        package var acceptedAlgorithms: Set<String>
        /// Exchange RBAC for Applications (or an ApplicationAccessPolicy): the mailboxes the app may reach, by
        /// address, lowercase; nil: every mailbox of the tenant.
        package var mailboxScope: Set<String>?

        package init(
            tenant: String, clientId: String, certificatePEM: Data? = nil, secret: String? = nil,
            acceptedAlgorithms: Set<String> = ["PS256", "RS256"], mailboxScope: Set<String>? = nil
        ) {
            self.tenant = tenant
            self.clientId = clientId
            self.certificatePEM = certificatePEM
            self.secret = secret
            self.acceptedAlgorithms = acceptedAlgorithms
            self.mailboxScope = mailboxScope.map { Set($0.map { $0.lowercased() }) }
        }
    }

    /// A service account whose client id the Workspace admin console delegated scopes to.
    package struct ServiceAccount: Sendable {
        package var clientEmail: String
        /// The public key (or certificate) of its key, PEM.
        package var publicKeyPEM: Data
        /// The Workspace domain whose users it may act as.
        package var domain: String
        /// The scopes the admin console delegated (domain-wide delegation's "OAuth scopes").
        package var delegatedScopes: [String]

        package init(clientEmail: String, publicKeyPEM: Data, domain: String, delegatedScopes: [String]) {
            self.clientEmail = clientEmail
            self.publicKeyPEM = publicKeyPEM
            self.domain = domain.lowercased()
            self.delegatedScopes = delegatedScopes
        }
    }

    package var applications: [Application]
    package var serviceAccounts: [ServiceAccount]

    package init(applications: [Application] = [], serviceAccounts: [ServiceAccount] = []) {
        self.applications = applications
        self.serviceAccounts = serviceAccounts
    }
}
