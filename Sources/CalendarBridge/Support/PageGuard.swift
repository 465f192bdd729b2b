import Foundation

/// Follows a server's pages safely: a page token (or next link) the server already gave, or more than
/// `maxPages` pages, ends the listing with an error naming the server, instead of looping for ever.
package struct PageGuard: Sendable {
    /// 10,000 pages is 25 million Google events or (at Graph's largest page) 10 million Outlook ones.
    package static let defaultMaxPages = 10_000

    private let server: String
    private let provider: ProviderKind
    private let account: String?
    private let calendar: String?
    private let maxPages: Int
    private var seen: Set<String> = []
    private var pages = 0

    /// - Parameter server: the server's host (`www.googleapis.com`), named in the error.
    package init(
        server: URL, provider: ProviderKind, account: String?, calendar: String?, maxPages: Int = defaultMaxPages
    ) {
        var name = server.host ?? server.absoluteString
        if let port = server.port { name += ":\(port)" }
        self.server = name
        self.provider = provider
        self.account = account
        self.calendar = calendar
        self.maxPages = max(1, maxPages)
    }

    /// Takes the token (or link) of the next page from the page just read.
    /// - Returns: the token to ask for next, or nil at the end.
    /// - Throws: `CalendarError(.invalidResponse)` on a repeated token or too many pages.
    package mutating func next(_ token: String?) throws(CalendarError) -> String? {
        pages += 1
        guard let token else { return nil }
        guard seen.insert(token).inserted else {
            throw CalendarError(
                .invalidResponse, "\(server) sent the same next-page token twice; its listing would never end",
                provider: provider, account: account, calendar: calendar)
        }
        guard pages < maxPages else {
            throw CalendarError(
                .invalidResponse, "\(server) sent more than \(maxPages) pages; stopped reading",
                provider: provider, account: account, calendar: calendar)
        }
        return token
    }
}
