import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a `calbridge` child process of a benchmark cost: its own peak memory and CPU time, written by the
/// child itself when it exits (to the file named by `fileVariable`), since the parent cannot measure
/// either apart from its own: Linux charges a child spawned with vfork semantics (posix_spawn) the
/// parent's high-water mark at exec, here the whole sandbox's, and RUSAGE_CHILDREN sums every child.
package struct BenchChildUsage: Sendable, Equatable {
    /// Peak resident memory (`VmHWM` in /proc/self/status), in KiB.
    package var peakKB: Int
    /// `getrusage(RUSAGE_SELF)` user and system CPU time, in seconds.
    package var userSeconds: Double
    package var systemSeconds: Double
    /// Page faults (`ru_minflt + ru_majflt`): most of a copy's system time is the kernel mapping fresh pages
    /// of heap, so this says how much of it a smaller peak would save.
    package var pageFaults: Int

    package var cpuSeconds: Double { userSeconds + systemSeconds }

    /// The environment variable naming the file where `calbridge` writes its usage when it exits (set by
    /// the benchmark for its child processes only).
    package static let fileVariable = "CALBRIDGE_BENCH_USAGE_FILE"

    /// This process's usage so far; nil where /proc or getrusage cannot tell.
    package static func current() -> BenchChildUsage? {
        // The CPU time first: reading /proc/self/status for the peak is the measurement's own work.
        var usage = rusage()
        guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0, let peak = peakResidentKB() else { return nil }
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return BenchChildUsage(peakKB: peak, userSeconds: seconds(usage.ru_utime), systemSeconds: seconds(usage.ru_stime),
            pageFaults: Int(usage.ru_minflt + usage.ru_majflt))
    }

    /// Writes this process's usage to the file named by `fileVariable`, if set (`calbridge`'s main calls it
    /// last). One line: `peak_kb user_s system_s page_faults`.
    package static func writeIfAsked() {
        // getenv, not ProcessInfo's dictionary of every variable, ahead of the measurement.
        guard let variable = getenv(fileVariable), let usage = current() else { return }
        let path = String(cString: variable)
        try? Data("\(usage.peakKB) \(usage.userSeconds) \(usage.systemSeconds) \(usage.pageFaults)\n".utf8).write(to: URL(fileURLWithPath: path))
    }

    /// Reads what `writeIfAsked` wrote; nil when the file is missing or not four numbers.
    package static func read(_ url: URL) -> BenchChildUsage? {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count == 4, let peak = Int(fields[0]), let user = Double(fields[1]), let system = Double(fields[2]),
            let faults = Int(fields[3])
        else { return nil }
        return BenchChildUsage(peakKB: peak, userSeconds: user, systemSeconds: system, pageFaults: faults)
    }

    /// The process's peak resident set size in KiB (`VmHWM` in /proc/self/status), nil where unreadable.
    package static func peakResidentKB() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.dropFirst("VmHWM:".count).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
        }
        return nil
    }
}
