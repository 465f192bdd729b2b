/// Who an account belongs to, as the provider reports it.
public struct UserInfo: Sendable, Hashable, Codable {
    public var displayName: String?
    public var email: String?
    /// The mailbox or primary calendar zone as an IANA id, when the provider has one and it converts.
    public var timeZone: String?
    /// The zone exactly as the provider spelt it (Graph: usually a Windows name such as
    /// "Pacific Standard Time").
    public var providerTimeZone: String?
    /// The account's stable identity: Graph the user's object id (`/me` `id`), Google the primary
    /// calendar id. Copy markers carry it, so one mailbox added under two names is one source.
    public var accountIdentity: String?

    public init(displayName: String? = nil, email: String? = nil, timeZone: String? = nil, providerTimeZone: String? = nil,
        accountIdentity: String? = nil
    ) {
        self.displayName = displayName
        self.email = email
        self.timeZone = timeZone
        self.providerTimeZone = providerTimeZone
        self.accountIdentity = accountIdentity
    }
}
