import CLI
import Foundation

/// Two builds' no-change copies, run in pairs back to back (`calbridge-bench copy --compare-with`): the
/// machine's speed drifts by tens of percent over minutes, far more than one change saves, so each pair's
/// difference is the measure, not the two medians apart.
struct BenchCPUComparison {
    /// The other build's `calbridge`.
    let baseline: String
    /// This build's usage and the other's, pair by pair.
    private(set) var own: [BenchChildUsage] = []
    private(set) var other: [BenchChildUsage] = []

    init(baseline: String) {
        self.baseline = baseline
    }

    mutating func append(own: BenchChildUsage, other: BenchChildUsage) {
        self.own.append(own)
        self.other.append(other)
    }

    /// This build's CPU time minus the other's, pair by pair.
    var differences: [Double] { zip(own, other).map { $0.cpuSeconds - $1.cpuSeconds } }

    /// Pairs in which this build used less CPU.
    var lower: Int { zip(own, other).filter { $0.cpuSeconds < $1.cpuSeconds }.count }

    var summary: String {
        let mine = own.map(\.cpuSeconds).median, theirs = other.map(\.cpuSeconds).median
        let difference = differences.median
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
            "medianDifferenceSeconds": (differences.median * 10000).rounded() / 10000,
            "lowerInPairs": lower,
        ]
    }
}
