/// A tiny seeded generator (Steele, Lea and Flood's SplitMix64): the same seed gives the same sequence on
/// every platform and Swift version, which `SystemRandomNumberGenerator` and the standard library's
/// `random(in:using:)` algorithms do not promise.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform value in [0, 1) from the top 53 bits.
    package mutating func nextUnit() -> Double { Double(next() >> 11) / 9_007_199_254_740_992 }
}
