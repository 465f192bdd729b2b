import Foundation

/// A device authorization answer (RFC 8628 §3.2): what the user is told to do, and how to poll.
public struct DeviceAuthorization: Sendable, Equatable, CustomStringConvertible {
    /// Secret: sent only back to the token endpoint.
    public var deviceCode: String
    /// What the user types at `verificationURI`.
    public var userCode: String
    public var verificationURI: URL
    /// The URI with the code already filled in, when the server offers it.
    public var verificationURIComplete: URL?
    /// When the codes stop working.
    public var expiresAt: Date
    /// Seconds to wait between polls (5 when the server does not say).
    public var interval: Int
    /// The server's own instructions (Microsoft sends a `message`).
    public var message: String?

    public init(
        deviceCode: String, userCode: String, verificationURI: URL, verificationURIComplete: URL? = nil,
        expiresAt: Date, interval: Int = 5, message: String? = nil
    ) {
        self.deviceCode = deviceCode
        self.userCode = userCode
        self.verificationURI = verificationURI
        self.verificationURIComplete = verificationURIComplete
        self.expiresAt = expiresAt
        self.interval = interval
        self.message = message
    }

    /// Parses the answer; Google spells the URI field `verification_url`.
    static func parse(_ body: Data, receivedAt now: Date) -> DeviceAuthorization? {
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
              let deviceCode = object["device_code"] as? String,
              let userCode = object["user_code"] as? String,
              let uriText = (object["verification_uri"] ?? object["verification_url"]) as? String,
              let uri = URL(string: uriText)
        else { return nil }
        let lifetime = (object["expires_in"] as? NSNumber)?.doubleValue ?? 900
        let interval = (object["interval"] as? NSNumber)?.intValue ?? 5
        return DeviceAuthorization(
            deviceCode: deviceCode,
            userCode: userCode,
            verificationURI: uri,
            verificationURIComplete: (object["verification_uri_complete"] as? String).flatMap(URL.init(string:)),
            expiresAt: now.addingTimeInterval(lifetime),
            interval: max(1, interval),
            message: object["message"] as? String
        )
    }

    public var description: String {
        "DeviceAuthorization(user code \(userCode), at \(verificationURI.absoluteString), device code \(Redactor.mask))"
    }
}
