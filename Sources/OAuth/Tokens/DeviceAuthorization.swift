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

    /// Polling intervals calbridge keeps to, in seconds: a server's `interval` (and each `slow_down`
    /// increase) is clamped into this range, so polling is never a busy loop nor a wait of hours.
    public static let intervalRange = 1...60
    /// Device-code lifetimes (`expires_in`) calbridge accepts, in seconds (Google 1800, Microsoft 900; 0 is a
    /// code that is already expired, which the flow reports as such).
    public static let lifetimeRange: ClosedRange<Double> = 0...86_400

    /// `value` clamped into `intervalRange`.
    public static func clampedInterval(_ value: Int) -> Int {
        min(max(value, intervalRange.lowerBound), intervalRange.upperBound)
    }

    /// Parses the answer; Google spells the URI field `verification_url`. Nil when a required field is missing.
    /// - Throws: `OAuthError` (`.unexpectedResponse`) for an `expires_in` outside `lifetimeRange`.
    static func parse(_ body: Data, receivedAt now: Date) throws(OAuthError) -> DeviceAuthorization? {
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
              let deviceCode = object["device_code"] as? String,
              let userCode = object["user_code"] as? String,
              let uriText = (object["verification_uri"] ?? object["verification_url"]) as? String,
              let uri = URL(string: uriText)
        else { return nil }
        let lifetime = try TokenSet.seconds(
            object["expires_in"], field: "expires_in", range: lifetimeRange, endpoint: "device authorization endpoint"
        ) ?? 900
        // Any number is clamped (an interval of 0 or 1e300 is no reason to fail the sign-in); no number is 5.
        var interval = 5
        if let number = (object["interval"] as? NSNumber)?.doubleValue ?? (object["interval"] as? String).flatMap(Double.init),
           !number.isNaN {
            // Compared as a Double first: Int(1e300) would trap.
            interval = number >= Double(intervalRange.upperBound) ? intervalRange.upperBound
                : number <= Double(intervalRange.lowerBound) ? intervalRange.lowerBound : Int(number.rounded(.up))
        }
        return DeviceAuthorization(
            deviceCode: deviceCode,
            userCode: userCode,
            verificationURI: uri,
            verificationURIComplete: (object["verification_uri_complete"] as? String).flatMap(URL.init(string:)),
            expiresAt: now.addingTimeInterval(lifetime),
            interval: interval,
            message: object["message"] as? String
        )
    }

    public var description: String {
        "DeviceAuthorization(user code \(userCode), at \(verificationURI.absoluteString), device code \(Redactor.mask))"
    }
}
