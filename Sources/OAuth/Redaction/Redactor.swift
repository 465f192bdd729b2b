import Foundation
import HTTP

/// The one place that hides secrets before anything is printed: `Authorization` and cookie headers,
/// and every `*_token`, `code`, `device_code`, `client_secret` and `token` value in JSON, form bodies
/// and query strings. Every `--verbose` log line and every error excerpt goes through it.
public enum Redactor {
    /// What a hidden value is replaced with.
    public static let mask = "<redacted>"

    /// Headers whose whole value is secret.
    static let secretHeaders = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// Names of fields whose value is secret (besides every name ending in `_token` or `token`).
    static let secretFields = ["code", "client_secret", "device_code", "password", "assertion", "code_verifier"]

    /// Whether a JSON, form or query field name holds a secret.
    public static func isSecretField(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower.hasSuffix("token") || secretFields.contains(lower)
    }

    /// The headers with secret values masked.
    public static func headers(_ headers: HTTPHeaders) -> HTTPHeaders {
        HTTPHeaders(headers.fields.map { field in
            guard secretHeaders.contains(field.name.lowercased()) else { return field }
            // Keep the scheme ("Bearer") so a log still shows what kind of credential went out.
            let scheme = field.value.split(separator: " ", maxSplits: 1).first.map(String.init)
            let value = field.value.contains(" ") && scheme != nil ? "\(scheme!) \(mask)" : mask
            return HTTPHeaders.Field(name: field.name, value: value)
        })
    }

    /// A URL with secret query values masked.
    public static func url(_ url: URL) -> String {
        // Text, not URLComponents: the mask's "<" and ">" are not valid in a percent-encoded query.
        let text = url.absoluteString
        guard let question = text.firstIndex(of: "?") else { return text }
        return String(text[...question]) + formText(String(text[text.index(after: question)...]))
    }

    /// A URL that is a secret as a whole (a private feed's address): its scheme and host only.
    public static func secretURL(_ url: URL) -> String {
        guard let scheme = url.scheme, let host = url.host, !host.isEmpty else { return mask }
        return "\(scheme)://\(host)/\(mask)"
    }

    /// Text that may be JSON, a form body or free text, with secret values masked.
    public static func text(_ text: String) -> String {
        var result = text
        // JSON: "access_token": "value" (the value may contain escaped quotes).
        result = jsonPattern.stringByReplacingMatches(
            in: result, range: NSRange(result.startIndex..., in: result), withTemplate: "$1\"\(mask)\""
        )
        result = formPattern.stringByReplacingMatches(
            in: result, range: NSRange(result.startIndex..., in: result), withTemplate: "$1\(mask)"
        )
        // A bare bearer credential in free text.
        result = bearerPattern.stringByReplacingMatches(
            in: result, range: NSRange(result.startIndex..., in: result), withTemplate: "$1\(mask)"
        )
        return result
    }

    /// A form body or query string (`a=1&code=xyz`) with secret values masked.
    public static func formText(_ text: String) -> String {
        formPattern.stringByReplacingMatches(
            in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "$1\(mask)"
        )
    }

    /// One request as a log block: method, redacted URL, redacted headers, redacted body excerpt.
    public static func describe(_ request: HTTPRequest, bodyLimit: Int = 2048) -> String {
        let shown = request.urlIsSecret ? secretURL(request.url) : url(request.url)
        var lines = ["> \(request.method) \(shown)"]
        lines += headers(request.headers).fields.map { "> \($0.name): \($0.value)" }
        if let body = request.body, !body.isEmpty { lines.append(excerpt(body, limit: bodyLimit)) }
        return lines.joined(separator: "\n")
    }

    /// One response as a log block: status, redacted headers, redacted body excerpt.
    public static func describe(_ response: HTTPResponse, bodyLimit: Int = 2048) -> String {
        var lines = ["< \(response.status)"]
        lines += headers(response.headers).fields.map { "< \($0.name): \($0.value)" }
        if !response.body.isEmpty { lines.append(excerpt(response.body, limit: bodyLimit)) }
        return lines.joined(separator: "\n")
    }

    private static func excerpt(_ body: Data, limit: Int) -> String {
        let whole = String(decoding: body, as: UTF8.self)
        // Redact the whole body first: cutting first could split a secret from its field name.
        let redacted = text(whole)
        return redacted.count > limit ? String(redacted.prefix(limit)) + "… (\(body.count) bytes)" : redacted
    }

    private static let fieldName = #"[A-Za-z_]*(?:token|Token|TOKEN)|code|client_secret|device_code|password|assertion|code_verifier"#
    // swiftlint:disable force_try
    private static let jsonPattern = try! NSRegularExpression(
        pattern: #"("(?:"# + fieldName + #")"\s*:\s*)"(?:[^"\\]|\\.)*""#
    )
    private static let formPattern = try! NSRegularExpression(
        pattern: #"((?:^|[?&\s])(?:"# + fieldName + #")=)[^&\s"]*"#
    )
    private static let bearerPattern = try! NSRegularExpression(
        pattern: #"((?:Bearer|bearer)\s+)(?!<redacted>)[A-Za-z0-9\-._~+/]+=*"#
    )
    // swiftlint:enable force_try
}
