import CalendarBridge
import Foundation
import HTTP
import Synchronization

/// Counts calls from inside a `@Sendable` transport closure (which batch round is this?).
final class CallCounter: Sendable {
    private let value = Mutex(0)
    /// Returns the number of this call, starting at 0.
    func next() -> Int { value.withLock { v in defer { v += 1 }; return v } }
}

/// Events and keys shared by the batch tests.
enum BatchSamples {
    static let berlin = "Europe/Berlin"

    /// A one-hour timed event on 2 March 2026 at `hour` Berlin time.
    static func event(_ title: String, hour: Int = 9, id: String = "") -> Event {
        let zone = TimeZone(identifier: berlin)!
        let start = LocalDateTime(date: LocalDate(year: 2026, month: 3, day: 2)!, hour: hour).instant(in: zone)
        return Event(
            id: id, title: title, start: .timed(instant: start, zone: berlin),
            end: .timed(instant: start.addingTimeInterval(3600), zone: berlin))
    }

    static func key(_ name: String) -> IdempotencyKey { IdempotencyKey("batch-test/\(name)") }

    /// The parts of a multipart body: each part's text between delimiters (without the closing one).
    static func multipartParts(_ body: Data, boundary: String) -> [String] {
        let text = String(decoding: body, as: UTF8.self)
        let pieces = text.components(separatedBy: "--" + boundary)
        return Array(pieces.dropFirst().filter { !$0.hasPrefix("--") })
    }

    /// The boundary of a `multipart/mixed; boundary=...` content type.
    static func boundary(_ contentType: String?) -> String? {
        contentType?.components(separatedBy: "boundary=").last
    }
}

extension CalendarError.Code {
    /// The code of a failed write result, nil when it succeeded.
    static func of(_ result: EventWriteResult) -> CalendarError.Code? {
        if case .failure(let error) = result { return (error as? CalendarError)?.code }
        return nil
    }
}
