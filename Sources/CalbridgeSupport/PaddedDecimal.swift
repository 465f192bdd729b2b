/// Integers as decimal text straight into a byte buffer: `String(n)`, left-padded with zeros to a width
/// (0: none), for dates and times, JSON numbers and length prefixes. Formatting a request body's two
/// times through `String` interpolation and padding strings cost 11,000 instructions an event (callgrind,
/// `calbridge-bench copy`).
package enum PaddedDecimal {
    /// Appends `n` in decimal with zeros in front up to `width` characters (a negative number as
    /// `String(n)` padded: the zeros before its minus sign, as the string padding always did).
    package static func append(_ n: Int, width: Int = 0, to out: inout [UInt8]) {
        guard n >= 0 else {
            let text = String(n)
            out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(0, width - text.utf8.count)))
            out.append(contentsOf: text.utf8)
            return
        }
        // The digits written backwards into a small buffer on the stack, then the padding and the digits
        // appended: generic padding and digit appends were 270 instructions a call, 26,000 calls in a
        // no-change copy's content hashes and report.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var value = n
            var first = digits.count
            repeat {
                first -= 1
                digits[first] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            } while value > 0
            var padding = width - (digits.count - first)
            while padding > 0 {
                out.append(UInt8(ascii: "0"))
                padding -= 1
            }
            for index in first..<digits.count { out.append(digits[index]) }
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
