import CalbridgeSupport

/// The model test's own seeded generator (SplitMix64, Steele, Lea and Flood): the same seed gives the
/// same scenario on every platform and Swift version, which the standard library's `random(in:)`
/// algorithms do not promise. No Foundation randomness anywhere in the model test.
package struct ModelRandom: Sendable {
    private var generator: SplitMix64

    package init(seed: UInt64) { generator = SplitMix64(seed: seed ^ 0x6A09_E667_F3BC_C909) }

    package mutating func next() -> UInt64 { generator.next() }

    /// A uniform integer in `range` (the modulo bias is negligible for the small ranges used here).
    package mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// True with probability `percent` / 100.
    package mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

    package mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }
}
