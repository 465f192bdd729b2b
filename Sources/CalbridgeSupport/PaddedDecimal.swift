/// Integers as decimal text straight into a byte buffer: `String(n)`, left-padded with zeros to a width
/// (0: none), for dates and times, JSON numbers and length prefixes. Formatting a request body's two
/// times through `String` interpolation and padding strings cost 11,000 instructions an event (callgrind,
/// `calbridge-bench copy`).
package enum PaddedDecimal {
    /// Appends `n` in decimal with zeros in front up to `width` characters (a negative number as
    /// `String(n)` padded: the zeros before its minus sign, as the string padding always did).
    package static func append(_ n: Int, width: Int = 0, to out: inout [UInt8]) {
        // `write` into a small buffer on the stack, then the padding and the digits appended: generic
        // padding and digit appends were 270 instructions a call, 26,000 calls in a no-change copy's
        // content hashes and report.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            guard let base = digits.baseAddress else { return }
            let count = write(n, to: base)
            var padding = width - count
            while padding > 0 {
                out.append(UInt8(ascii: "0"))
                padding -= 1
            }
            for index in 0..<count { out.append(base[index]) }
        }
    }

    /// Writes `String(n)` at `out`, which has room for 20 bytes; returns how many it wrote.
    package static func write(_ n: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let digits = count(n)
        var value = n.magnitude
        var index = digits
        repeat {
            index -= 1
            out[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)
            value /= 10
        } while value > 0
        if n < 0 { out[0] = UInt8(ascii: "-") }
        return digits
    }

    /// Characters of `String(n)`.
    package static func count(_ n: Int) -> Int {
        var count = n < 0 ? 2 : 1
        var rest = n.magnitude / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        return count
    }
}
