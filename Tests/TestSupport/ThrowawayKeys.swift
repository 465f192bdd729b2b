import Foundation

/// RSA keys made for one test by the openssl command (OpenSSL's own tool, from libssl-dev's sibling package
/// openssl), never committed: a self-signed certificate with its key in one PEM, as an Entra app's
/// certificate file is, and a Google service account key file around a second key.
package struct ThrowawayKeys: Sendable {
    /// The private key and certificate, one PEM (what `--certificate FILE` names).
    package let combinedPEM: URL
    /// The certificate alone (what an admin uploads to the app registration).
    package let certificatePEM: Data
    /// The service account's public key (what Google keeps).
    package let serviceAccountPublicPEM: Data
    /// A service account key file (`type`, `client_email`, `private_key_id`, `private_key`, `token_uri`).
    package let serviceAccountFile: URL
    package let directory: TemporaryDirectory

    /// - Parameters:
    ///   - clientEmail: the service account's address.
    ///   - tokenURI: the key file's `token_uri` (the sandbox's Google token endpoint).
    package init(clientEmail: String = "calbridge-sync@contoso-project.iam.gserviceaccount.com", tokenURI: String) async throws {
        let directory = try TemporaryDirectory(prefix: "calbridge-keys")
        self.directory = directory
        let openssl = URL(fileURLWithPath: "/usr/bin/openssl")
        let key = directory.url.appendingPathComponent("app.key"), cert = directory.url.appendingPathComponent("app.crt")
        let made = try await ChildProcess.run(
            openssl,
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key.path, "-out", cert.path, "-days", "2",
                "-subj", "/CN=calbridge test app",
            ])
        guard made.status == 0 else { throw ThrowawayKeyError(made.stderr) }
        certificatePEM = try Data(contentsOf: cert)
        combinedPEM = directory.url.appendingPathComponent("app.pem")
        try (try Data(contentsOf: key) + certificatePEM).write(to: combinedPEM)
        let serviceKey = directory.url.appendingPathComponent("sa.key"), servicePublic = directory.url.appendingPathComponent("sa.pub")
        let generated = try await ChildProcess.run(
            openssl, ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", serviceKey.path])
        guard generated.status == 0 else { throw ThrowawayKeyError(generated.stderr) }
        let exported = try await ChildProcess.run(openssl, ["pkey", "-in", serviceKey.path, "-pubout", "-out", servicePublic.path])
        guard exported.status == 0 else { throw ThrowawayKeyError(exported.stderr) }
        serviceAccountPublicPEM = try Data(contentsOf: servicePublic)
        let file: [String: String] = [
            "type": "service_account", "project_id": "contoso-project", "private_key_id": "0123456789abcdef",
            "private_key": String(decoding: try Data(contentsOf: serviceKey), as: UTF8.self), "client_email": clientEmail,
            "client_id": "104857600000000000001", "token_uri": tokenURI,
        ]
        serviceAccountFile = directory.url.appendingPathComponent("service-account.json")
        try JSONSerialization.data(withJSONObject: file, options: [.sortedKeys]).write(to: serviceAccountFile)
    }
}

package struct ThrowawayKeyError: Error, CustomStringConvertible {
    package var description: String
    init(_ text: String) { description = "openssl failed: " + text }
}
