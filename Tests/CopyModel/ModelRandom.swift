/// The model test's own seeded generator (SplitMix64, Steele, Lea and Flood): the same seed gives the
/// same scenario on every platform and Swift version, which the standard library's `random(in:)`
/// algorithms do not promise. No Foundation randomness anywhere in the model test.
package struct ModelRandom: Sendable {
    private var state: UInt64

    package init(seed: UInt64) { state = seed ^ 0x6A09_E667_F3BC_C909 }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in `range` (the modulo bias is negligible for the small ranges used here).
    package mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// True with probability `percent` / 100.
    package mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

    package mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }
}
