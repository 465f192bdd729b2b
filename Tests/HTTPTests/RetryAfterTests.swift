import Foundation
import HTTP
import Testing

@Suite("Retry-After parsing")
struct RetryAfterTests {
    /// 1994-11-06 08:49:37 UTC, the example date of RFC 9110.
    static let rfcExample = Date(timeIntervalSince1970: 784_111_777)

    @Test("delta-seconds", arguments: [("120", 120), ("0", 0), (" 7 ", 7), ("00042", 42)])
    func deltaSeconds(text: String, seconds: Int) {
        #expect(RetryAfter.delay(from: text, now: Date()) == .seconds(seconds))
    }

    @Test("a huge delta is clamped instead of overflowing")
    func hugeDelta() {
        #expect(RetryAfter.delay(from: "99999999999999999999999", now: Date()) == .seconds(9_999_999_999))
    }

    @Test("invalid values give nil", arguments: ["", "-5", "1.5", "soon", "12s", "Sun, 06 Nov 1994 08:49:37 UTC",
        "Sun, 31 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Foo 1994 08:49:37 GMT"])
    func invalid(text: String) {
        #expect(RetryAfter.delay(from: text, now: Self.rfcExample) == nil)
    }

    @Test("the three HTTP-date forms all mean the RFC's example instant", arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT",
        "Sunday, 06-Nov-94 08:49:37 GMT",
        "Sun Nov  6 08:49:37 1994",
    ])
    func httpDateForms(text: String) {
        #expect(RetryAfter.httpDate(text) == Self.rfcExample)
    }

    @Test("an HTTP-date gives the time left until it, measured against the injected clock")
    func dateRelativeToNow() {
        let now = Self.rfcExample.addingTimeInterval(-90)
        #expect(RetryAfter.delay(from: "Sun, 06 Nov 1994 08:49:37 GMT", now: now) == .seconds(90))
        #expect(RetryAfter.delay(from: "Thu, 01 Jan 1970 00:00:00 GMT", now: now) == .zero)
    }

    @Test("leap days and the end of a century")
    func leapDays() {
        #expect(RetryAfter.httpDate("Tue, 29 Feb 2028 00:00:00 GMT") == Date(timeIntervalSince1970: 1_835_395_200))
        #expect(RetryAfter.httpDate("Thu, 29 Feb 2100 00:00:00 GMT") == nil)
        #expect(RetryAfter.httpDate("Tue, 29 Feb 2000 12:00:00 GMT") == Date(timeIntervalSince1970: 951_825_600))
    }
}
