import CalbridgeSupport
import Testing

/// `PaddedDecimal.append` writes what `String(n)` padded with zeros to the width writes, on both of its
/// paths (up to eight digits gathered in one word, longer numbers digit by digit).
@Suite("PaddedDecimal: integers as padded decimal bytes")
struct PaddedDecimalTests {
    static func expected(_ n: Int, width: Int) -> String {
        let text = String(n)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    @Test("boundaries of the digit counts and of the one-word path, every width up to 12")
    func boundaries() {
        var values = [0, 1, 9, 10, 99, 100, 999, 1000, 2026, 9_999_999, 10_000_000, 99_999_999, 100_000_000,
            123_456_789, Int.max, -1, -42, Int.min]
        for power in 0..<19 {
            var p = 1
            for _ in 0..<power { p *= 10 }
            values += [p - 1, p, p + 1]
        }
        for n in values {
            for width in 0...12 {
                var out: [UInt8] = Array("x".utf8)
                PaddedDecimal.append(n, width: width, to: &out)
                #expect(String(decoding: out, as: UTF8.self) == "x" + Self.expected(n, width: width), "\(n) width \(width)")
            }
        }
    }

    @Test("100,000 seeded values and widths")
    func seeded() {
        var generator = SplitMix64(seed: 2026_12_03)
        for _ in 0..<100_000 {
            let magnitude = Int(generator.next() % 19)
            var limit = 1
            for _ in 0..<magnitude { limit *= 10 }
            let n = Int(generator.next() % UInt64(limit))
            let width = Int(generator.next() % 12)
            var out: [UInt8] = []
            PaddedDecimal.append(n, width: width, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == Self.expected(n, width: width))
        }
    }

    @Test("write: String(n)'s characters, sign included, for the boundaries and 100,000 seeded values")
    func write() {
        var generator = SplitMix64(seed: 2026_12_034)
        var values = [0, 1, -1, 9, 10, -10, 99, 100, Int.max, Int.min, Int.min + 1, 1_764_000_000_000, -62_135_596_800_000]
        for _ in 0..<100_000 { values.append(Int(bitPattern: UInt(generator.next() >> (generator.next() % 64)))) }
        var out = [UInt8](repeating: 0, count: 20)
        for n in values {
            let count = out.withUnsafeMutableBufferPointer { PaddedDecimal.write(n, to: $0.baseAddress!) }
            #expect(String(decoding: out[..<count], as: UTF8.self) == String(n))
        }
    }
}
