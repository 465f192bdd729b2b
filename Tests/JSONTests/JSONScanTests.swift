import CJSONScan
import CalbridgeSupport
import JSON
import TestSupport
import Testing

/// `cb_json_stop`, the sixteen-bytes-a-step scan under every string and key `JSONReader` reads and every
/// string the JSON writers write, against the byte-by-byte rule it stands for: every start, stop position
/// and length around the step size, every combination of extra stops, with bytes of 0x80 and more (and
/// DEL, and slashes) before the stop and after it.
@Suite("JSONReader's string scan: as the byte-by-byte rule, at every boundary")
struct JSONScanTests {
    /// The rule: the first quote, backslash or control character (or a byte `stops` adds) from `start`,
    /// and whether every byte before it is ASCII.
    static func expected(_ bytes: [UInt8], from start: Int, stops: Int32) -> (Int, Bool) {
        var position = start
        var ascii = true
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            if stops & CB_JSON_STOP_HIGH != 0 && byte >= 0x80 { break }
            if stops & CB_JSON_STOP_DEL != 0 && byte == 0x7F { break }
            if stops & CB_JSON_STOP_SLASH != 0 && byte == UInt8(ascii: "/") { break }
            if byte >= 0x80 { ascii = false }
            position += 1
        }
        return (position, ascii)
    }

    static func scanned(_ bytes: [UInt8], from start: Int, stops: Int32) -> (Int, Bool) {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return (start, true) }
            let found = cb_json_stop(base, start, buffer.count, stops)
            return (found >> 1, found & 1 == 1)
        }
    }

    @Test("random text: plain bytes, high bytes and one stop byte at every position, lengths 0 to 70, every mode", .ownThread)
    func boundaries() {
        var random = SplitMix64(seed: 0x15CA_2026)
        // Plain text with slashes and DEL among it (stops only in some modes).
        let plain = Array(0x20...0x7F).map(UInt8.init).filter { $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        let stopBytes: [UInt8] = [UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x00, 0x09, 0x0A, 0x1F, 0x80, 0xC3, 0xFF, 0x7F, UInt8(ascii: "/")]
        var checked = 0
        for length in 0...70 {
            for _ in 0..<20 {
                var bytes = (0..<length).map { _ in
                    random.next() % 7 == 0 ? UInt8(0x80 + random.next() % 0x80) : plain[Int(random.next() % UInt64(plain.count))]
                }
                if length > 0, random.next() % 4 != 0 {
                    bytes[Int(random.next() % UInt64(length))] = stopBytes[Int(random.next() % UInt64(stopBytes.count))]
                }
                for start in 0...length {
                    for stops in Int32(0)...Int32(7) {
                        let want = Self.expected(bytes, from: start, stops: stops)
                        let got = Self.scanned(bytes, from: start, stops: stops)
                        #expect(got == want, "\(bytes) from \(start), stops \(stops)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 300_000)
    }
}
