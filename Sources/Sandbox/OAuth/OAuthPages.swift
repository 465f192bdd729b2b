import CalbridgeSupport
import Foundation
import HTTP
import LoopbackServer

/// The HTML pages and redirects both authorization servers show a browser.
enum OAuthPages {
    /// A page listing the provider's seeded users, each a button that approves the request as that user.
    static func consent(
        title: String, clientId: String, scopes: [String], users: [SandboxUser], action: String,
        hidden: [(String, String)], preselected: String?
    ) -> ServerResponse {
        let hiddenFields = hidden.map { "<input type=\"hidden\" name=\"\(HTML.escape($0.0))\" value=\"\(HTML.escape($0.1))\">" }
            .joined(separator: "\n")
        let userButtons = users.map { user in
            let marker = user.email.caseInsensitiveCompare(preselected ?? "") == .orderedSame ? " (suggested)" : ""
            return "<li><button type=\"submit\" name=\"user\" value=\"\(HTML.escape(user.email))\">\(HTML.escape(user.displayName)) &lt;\(HTML.escape(user.email))&gt;\(marker)</button></li>"
        }.joined(separator: "\n")
        let html = """
        <!DOCTYPE html>
        <html><head><meta charset="utf-8"><title>\(HTML.escape(title))</title></head>
        <body>
        <h1>\(HTML.escape(title))</h1>
        <p>The application <code>\(HTML.escape(clientId))</code> asks for: \(scopes.map { "<code>\(HTML.escape($0))</code>" }.joined(separator: ", "))</p>
        <form method="post" action="\(HTML.escape(action))">
        \(hiddenFields)
        <p>Choose an account to continue:</p>
        <ul>
        \(userButtons)
        </ul>
        <p><button type="submit" name="action" value="deny">Cancel</button></p>
        </form>
        </body></html>
        """
        return .text(200, html, contentType: "text/html; charset=utf-8")
    }

    /// An error shown in the browser instead of a redirect (unknown client, unregistered redirect URI).
    static func error(status: Int, title: String, code: String, detail: String) -> ServerResponse {
        let html = """
        <!DOCTYPE html>
        <html><head><meta charset="utf-8"><title>\(HTML.escape(title))</title></head>
        <body><h1>\(HTML.escape(title))</h1><p>Error \(status): \(HTML.escape(code))</p><p>\(HTML.escape(detail))</p></body></html>
        """
        return .text(status, html, contentType: "text/html; charset=utf-8")
    }

    /// A 302 to `redirectURI` with the parameters appended to its query.
    static func redirect(_ redirectURI: String, _ parameters: [(String, String?)]) -> ServerResponse {
        let pairs = parameters.compactMap { pair in pair.1.map { (pair.0, $0) } }
        let separator = redirectURI.contains("?") ? "&" : "?"
        return .redirect(to: redirectURI + separator + FormEncoding.encode(pairs))
    }


    /// A JSON body with sorted keys (what both token endpoints answer).
    static func json(_ status: Int, _ object: [String: Any], headers: HTTPHeaders = [:]) -> ServerResponse {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        var headers = headers
        headers["Cache-Control"] = "no-cache, no-store, max-age=0, must-revalidate"
        headers["Pragma"] = "no-cache"
        return .json(status, data, headers: headers)
    }
}

/// The parameters of an OAuth request (query or form), with the last value winning.
struct OAuthParameters: Sendable {
    private var values: [String: String] = [:]

    init(_ items: [ServerRequest.QueryItem]) {
        for item in items { values[item.name] = item.value }
    }

    subscript(_ name: String) -> String? {
        guard let value = values[name], !value.isEmpty else { return nil }
        return value
    }

    /// Space-separated scopes, in order, without duplicates.
    var scopes: [String] {
        var seen = Set<String>()
        return (self["scope"] ?? "").split(separator: " ").map(String.init).filter { seen.insert($0).inserted }
    }
}
