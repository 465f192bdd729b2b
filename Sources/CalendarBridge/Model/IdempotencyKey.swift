import CalbridgeSupport
/// A caller-chosen key that makes a create safe to repeat: sending the same create twice (a retry after
/// a lost response, a rerun after a crash) leaves one event.
///
/// Google turns it into the event id (`googleEventID`), so a repeat gets 409; Graph sends it as
/// `transactionId`, which the server deduplicates.
public struct IdempotencyKey: Sendable, Hashable, Codable, CustomStringConvertible {
    public var rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// A key for the copy of one source event into one target calendar.
    public static func copy(of marker: OriginMarker, toCalendar targetCalendarID: String) -> IdempotencyKey {
        IdempotencyKey("copy\u{1F}\(marker.eventKey)\u{1F}\(targetCalendarID)")
    }

    /// 52 characters of base32hex (`0-9a-v`) from SHA-256 of the key: a valid Google event id
    /// (5-1024 characters of `a-v0-9`), the same for the same key.
    public var googleEventID: String {
        // Bytes from a table: appending a Character per digit costs more than the hash itself.
        var bits = 0
        var buffer = 0
        var out: [UInt8] = []
        out.reserveCapacity(52)
        var key = rawValue
        let digest = key.withUTF8 { SHA256.hash(UnsafeRawBufferPointer($0)) }
        Self.base32hexDigits.withUnsafeBufferPointer { alphabet in
            for byte in digest {
                buffer = (buffer << 8 | Int(byte)) & 0xFFFF
                bits += 8
                while bits >= 5 {
                    out.append(alphabet[(buffer >> (bits - 5)) & 31])
                    bits -= 5
                }
            }
            if bits > 0 { out.append(alphabet[(buffer << (5 - bits)) & 31]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let base32hexDigits: [UInt8] = Array("0123456789abcdefghijklmnopqrstuv".utf8)

    /// The key to create with when this one's event was deleted and the service will not take the key
    /// again (Exchange remembers a `transactionId` after its event is deleted): derived, so a repeat of
    /// that create is deduplicated too.
    public var successor: IdempotencyKey { IdempotencyKey(rawValue + "\u{1F}again") }

    /// 64 hex digits from SHA-256 of the key (Graph `transactionId`).
    public var transactionID: String { SHA256.hex(rawValue) }

    public var description: String { rawValue }
}
