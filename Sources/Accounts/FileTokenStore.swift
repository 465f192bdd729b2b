import Foundation
import OAuth

/// One JSON file per account in calbridge's home, 0600, written atomically.
public struct FileTokenStore: TokenStore {
    public let home: CalbridgeHome
    public let files: SecureFile

    public init(home: CalbridgeHome, files: SecureFile = SecureFile()) {
        self.home = home
        self.files = files
    }

    public func load(account: String) throws -> TokenSet? {
        let url = home.tokenFile(account: account)
        guard let data = try files.read(url) else { return nil }
        do {
            return try AccountRegistry.decoder.decode(TokenSet.self, from: data)
        } catch {
            throw StorageError(
                .corrupt, path: url.path,
                message: "\(url.path) is not a calbridge token file; sign in again with 'calbridge accounts add'"
            )
        }
    }

    public func save(_ tokens: TokenSet, account: String) throws {
        try files.write(try AccountRegistry.encoder.encode(tokens), to: home.tokenFile(account: account))
    }

    public func delete(account: String) throws {
        try files.delete(home.tokenFile(account: account))
    }
}
