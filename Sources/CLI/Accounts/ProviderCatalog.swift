import Accounts
import Foundation
import GoogleCalendar
import MicrosoftGraph
import OAuth

/// Finds provider descriptors: the built-in ones by id, or a user's descriptor file.
enum ProviderCatalog {
    static let builtInIds = ["google", "microsoft"]

    /// The built-in descriptor document for an id, or nil.
    static func builtInJSON(_ id: String) -> Data? {
        switch id {
        case "google": GoogleCalendarDescriptor.builtInJSON
        case "microsoft": MicrosoftGraphDescriptor.builtInJSON
        default: nil
        }
    }

    /// The descriptor named on the command line (`google`, `microsoft`, or a file path).
    /// - Returns: the descriptor and, for a file, its absolute path.
    static func resolve(_ argument: String, tenant: String) throws -> (ProviderDescriptor, file: String?) {
        if let data = builtInJSON(argument) {
            return (try ProviderDescriptor.parse(data, source: "built-in \(argument)", tenant: tenant), nil)
        }
        let url = URL(fileURLWithPath: argument)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw UsageError(
                "unknown provider '\(argument)': use \(builtInIds.joined(separator: ", ")) or the path of a descriptor file",
                command: "accounts add"
            )
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw InputError("cannot read descriptor file \(url.path): \(error.localizedDescription)")
        }
        return (try ProviderDescriptor.parse(data, source: url.path, tenant: tenant), url.standardizedFileURL.path)
    }

    /// The descriptor of a stored account.
    static func descriptor(for record: AccountRecord) throws -> ProviderDescriptor {
        guard case .oauth(let oauth) = record.credential else {
            throw InputError("account '\(record.name)' does not sign in with OAuth", exitCode: .failure)
        }
        if let descriptor = oauth.descriptor { return descriptor }
        guard let data = builtInJSON(record.provider) else {
            throw InputError("account '\(record.name)' names provider '\(record.provider)', which this calbridge does not know", exitCode: .failure)
        }
        return try ProviderDescriptor.parse(data, source: "built-in \(record.provider)", tenant: oauth.tenant)
    }
}
