import Foundation

/// Two builds' no-change copies, run in pairs back to back (`calbridge-bench copy --compare-with`): the
/// machine's speed drifts by tens of percent over minutes, far more than one change saves, so each pair's
/// difference is the measure, not the two medians apart.
struct BenchCPUComparison {
    /// The other build's `calbridge`.
    var baseline: String
    /// This build's usage and the other's, pair by pair.
    var own: [BenchChildUsage] = []
    var other: [BenchChildUsage] = []

    /// This build's CPU time minus the other's, pair by pair, sorted.
    var differences: [Double] { zip(own, other).map { $0.cpuSeconds - $1.cpuSeconds }.sorted() }

    /// Pairs in which this build used less CPU.
    var lower: Int { zip(own, other).filter { $0.cpuSeconds < $1.cpuSeconds }.count }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    var summary: String {
        let mine = Self.median(own.map(\.cpuSeconds)), theirs = Self.median(other.map(\.cpuSeconds))
        let difference = Self.median(differences)
        let percent = theirs > 0 ? difference / theirs * 100 : 0
        return "\(own.count) pairs with \(baseline): CPU median \(String(format: "%.4f", mine)) s here, "
            + "\(String(format: "%.4f", theirs)) s there; difference per pair median \(String(format: "%+.4f", difference)) s "
            + "(\(String(format: "%+.1f", percent))%), lower here in \(lower) of \(own.count)"
    }

    var json: [String: Any] {
        [
            "baseline": baseline,
            "cpuSeconds": own.map { ($0.cpuSeconds * 10000).rounded() / 10000 },
            "baselineCPUSeconds": other.map { ($0.cpuSeconds * 10000).rounded() / 10000 },
            "medianDifferenceSeconds": (Self.median(differences) * 10000).rounded() / 10000,
            "lowerInPairs": lower,
        ]
    }
}
