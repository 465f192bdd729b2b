/// The client registration calbridge signs in with. Desktop clients cannot keep a secret, so the
/// secret (Google has one even for desktop apps) is protected like the tokens, no more.
public struct ClientCredentials: Sendable, Equatable, CustomStringConvertible {
    public var clientId: String
    public var clientSecret: String?

    public init(clientId: String, clientSecret: String? = nil) {
        self.clientId = clientId
        self.clientSecret = clientSecret
    }

    public var description: String {
        "ClientCredentials(\(clientId), secret \(clientSecret == nil ? "none" : Redactor.mask))"
    }
}
