import CalendarBridge
import Foundation
import HTTP

/// The requests of one CalDAV account: WebDAV methods with their headers, redirects followed only where
/// calbridge may send the password, and statuses mapped to `CalendarError`.
struct CalDAVClient: Sendable {
    let transport: any HTTPTransport
    let provider: ProviderKind
    let account: String
    /// Where a redirect may take the password.
    var hosts: CalDAVHostPolicy = .sameHost

    static let maxRedirects = 5
    static let xmlType = "application/xml; charset=utf-8"

    /// One exchange; redirects followed (same host always, another host only as `hosts` allows).
    /// - Returns: the response and the URL that answered it (hrefs in the body are relative to it).
    func send(
        _ method: HTTPMethod, _ url: URL, headers: HTTPHeaders = [:], body: Data? = nil, calendar: String? = nil
    ) async throws -> (response: HTTPResponse, url: URL) {
        var current = url
        for _ in 0...Self.maxRedirects {
            let response: HTTPResponse
            do {
                response = try await transport.send(
                    HTTPRequest(
                        method: method, url: current, headers: headers, body: body, timeout: .seconds(60), isRetrySafe: method != .post))
            } catch let error as CalendarError {
                throw error
            } catch {
                throw CalendarError(
                    .transport, "the CalDAV server at \(current.host ?? "?") could not be reached: \(error)", provider: provider,
                    account: account,
                    calendar: calendar)
            }
            guard [301, 302, 303, 307, 308].contains(response.status) else { return (response, current) }
            guard let location = response.headers["Location"], let next = URL(string: location, relativeTo: current)?.absoluteURL else {
                throw failure(response, calendar: calendar, message: "a redirect without a usable Location")
            }
            guard hosts.allows(from: current, to: next) else {
                throw CalendarError(
                    .invalidResponse,
                    "the server at \(current.host ?? "?") redirected to \(next.host ?? next.absoluteString), another host, which this service does not use; calbridge does not send your password there (add the account with that URL if it is right)",
                    provider: provider, account: account, calendar: calendar, httpStatus: response.status)
            }
            current = next
        }
        throw CalendarError(
            .invalidResponse, "the server redirected more than \(Self.maxRedirects) times", provider: provider, account: account,
            calendar: calendar)
    }

    /// A PROPFIND or REPORT answered with 207, read.
    func multistatus(
        _ method: HTTPMethod, _ url: URL, depth: String, body: String, calendar: String? = nil
    ) async throws -> (Multistatus, URL) {
        let (response, answered) = try await send(
            method, url, headers: ["Depth": depth, "Content-Type": Self.xmlType], body: Data(body.utf8), calendar: calendar)
        guard response.status == 207 else { throw failure(response, calendar: calendar) }
        do {
            return (try Multistatus.parse(response.body), answered)
        } catch {
            throw CalendarError(
                .invalidResponse, "the CalDAV server sent a multistatus calbridge cannot read: \(error)", provider: provider,
                account: account,
                calendar: calendar, httpStatus: 207)
        }
    }

    /// The error of a response calbridge did not expect, with the server's precondition when it names one
    /// (`<C:no-uid-conflict/>`, `<D:valid-sync-token/>`).
    func failure(_ response: HTTPResponse, calendar: String?, message: String? = nil) -> CalendarError {
        let precondition = (try? DAVElement.parse(response.body)).flatMap { root in
            root.is(DAVNamespace.dav, "error") ? root.children.first.map(\.name) : nil
        }
        let code: CalendarError.Code =
            switch response.status {
            case 401: .unauthorized
            case 403: .forbidden
            case 404, 410: .notFound
            case 409, 412: .conflict
            case 429: .rateLimited
            case 503 where response.headers["Retry-After"] != nil: .rateLimited
            case 400..<500: .invalidRequest
            case 500..<600: .server
            default: .invalidResponse
            }
        let text =
            message
            ?? (response.status == 401
                ? "the server refused the user name and password: sign in again with `calbridge accounts add` (an app-specific password where the service makes them)"
                : "the CalDAV server answered HTTP \(response.status)")
        return CalendarError(
            code, text, provider: provider, account: account, calendar: calendar, httpStatus: response.status, providerCode: precondition,
            retryAfterSeconds: response.headers["Retry-After"].flatMap(Double.init))
    }

    /// An href (a path or an absolute URL) resolved against the URL that answered.
    static func resolve(_ href: String, against base: URL) -> URL? {
        URL(string: href, relativeTo: base)?.absoluteURL
    }
}

extension HTTPMethod {
    static let propfind = HTTPMethod("PROPFIND")
    static let report = HTTPMethod("REPORT")
    static let mkcalendar = HTTPMethod("MKCALENDAR")
}
