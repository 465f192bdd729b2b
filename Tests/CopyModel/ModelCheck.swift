import CalendarBridge
import Foundation

/// Runs many seeded scenarios, shrinks each failing one to a minimal replay, and says how to replay it.
///
/// Environment (read by the suites):
/// - `CALBRIDGE_MODEL_SEED=S`: run only seed S (with `CALBRIDGE_MODEL_KEEP_OPS=0,3` and
///   `CALBRIDGE_MODEL_KEEP_EVENTS=1,2` only those operations and events: a shrunk replay).
/// - `CALBRIDGE_MODEL_SEQUENCES=N`: run N seeds instead of the suite's fixed set, from
///   `CALBRIDGE_MODEL_FIRST_SEED` (default 1).
/// - `CALBRIDGE_MODEL_TRACE=1`: print the target's copies after every step (with a replay).
package enum ModelCheck {
    package struct Failure: Sendable, CustomStringConvertible {
        package var problem: ModelProblem
        package var scenario: ModelScenario
        package var replay: String
        package var isShrunk: Bool

        package var description: String { "\(problem)\n\(scenario.text)\nreplay: \(replay)" }
    }

    package struct Summary: Sendable {
        package var sequences = 0
        package var operations = 0
        package var failures: [Failure] = []
        package var seconds = 0.0

        /// The failures shrunk to a minimal replay (one per kind of problem).
        package var shrunk: [Failure] { failures.filter(\.isShrunk) }

        /// Counts per kind of problem, and the first seeds of each.
        package var report: String {
            let kinds = Dictionary(grouping: failures, by: \.problem.code)
            return kinds.keys.sorted().map { code in
                let seeds = kinds[code]!.map(\.scenario.seed).sorted()
                return "  \(code): \(seeds.count) (seeds \(seeds.prefix(8).map(String.init).joined(separator: ", ")))"
            }.joined(separator: "\n")
        }
    }

    /// The seeds to run: the replay seed, else `CALBRIDGE_MODEL_SEQUENCES` from `CALBRIDGE_MODEL_FIRST_SEED`,
    /// else `defaultCount` from `defaultFirst`.
    package static func seeds(defaultCount: Int, defaultFirst: UInt64 = 1) -> [UInt64] {
        let env = ProcessInfo.processInfo.environment
        if let seed = env["CALBRIDGE_MODEL_SEED"].flatMap({ UInt64($0) }) { return [seed] }
        let count = env["CALBRIDGE_MODEL_SEQUENCES"].flatMap { Int($0) } ?? defaultCount
        let first = env["CALBRIDGE_MODEL_FIRST_SEED"].flatMap { UInt64($0) } ?? defaultFirst
        return (0..<UInt64(max(0, count))).map { first + $0 }
    }

    /// A scenario with the replay's operation and event selection applied, if one is set.
    package static func scenario(seed: UInt64, direction: (ProviderKind, ProviderKind)?) -> ModelScenario {
        var scenario = ModelScenario.generate(seed: seed, direction: direction)
        let env = ProcessInfo.processInfo.environment
        guard env["CALBRIDGE_MODEL_SEED"].flatMap({ UInt64($0) }) == seed else { return scenario }
        if let ops = env["CALBRIDGE_MODEL_KEEP_OPS"] {
            let keep = Set(ops.split(separator: ",").compactMap { Int($0) })
            scenario.operationIndexes = scenario.operations.indices.filter { keep.contains($0) }
            scenario.operations = scenario.operations.enumerated().filter { keep.contains($0.offset) }.map(\.element)
        }
        if let kept = env["CALBRIDGE_MODEL_KEEP_EVENTS"] {
            let keep = Set(kept.split(separator: ",").compactMap { Int($0) })
            scenario.droppedEvents = Set(scenario.events.indices.filter { !keep.contains($0) })
        }
        return scenario
    }

    /// Runs the seeds (`parallel` at a time), shrinking at most `shrinkLimit` failures of distinct kinds.
    package static func run(
        seeds: [UInt64], backend: any ModelBackend, direction: (ProviderKind, ProviderKind)? = nil, parallel: Int = 2,
        shrinkLimit: Int = 8, filter: String
    ) async -> Summary {
        let started = Date()
        var summary = Summary()
        var found: [(ModelProblem, ModelScenario)] = []
        await withTaskGroup(of: (ModelScenario, ModelProblem?).self) { group in
            var next = 0
            func start() {
                let scenario = Self.scenario(seed: seeds[next], direction: direction)
                next += 1
                // Yield first: these CPU-bound sequences would otherwise hold both of a 2-core machine's
                // cooperative threads for minutes, and starve the suites that wait on a clock.
                group.addTask { await Task.yield(); return (scenario, await ModelRunner.run(scenario, on: backend)) }
            }
            while next < min(parallel, seeds.count) { start() }
            for await (scenario, problem) in group {
                summary.sequences += 1
                summary.operations += scenario.operations.count
                if let problem { found.append((problem, scenario)) }
                if next < seeds.count { start() }
            }
        }
        var kinds = Set<String>()
        for (problem, scenario) in found.sorted(by: { $0.1.seed < $1.1.seed }) {
            guard !kinds.contains(problem.code), kinds.count < shrinkLimit else {
                summary.failures.append(Failure(problem: problem, scenario: scenario, replay: replay(scenario, filter: filter, shrunk: false), isShrunk: false))
                continue
            }
            kinds.insert(problem.code)
            let (small, smallProblem) = await shrink(scenario, problem, backend: backend)
            summary.failures.append(Failure(problem: smallProblem, scenario: small, replay: replay(small, filter: filter, shrunk: true), isShrunk: true))
        }
        summary.seconds = Date().timeIntervalSince(started)
        return summary
    }

    /// Drops operations, then events, one at a time while the same kind of problem still shows.
    static func shrink(_ scenario: ModelScenario, _ problem: ModelProblem, backend: any ModelBackend) async -> (ModelScenario, ModelProblem) {
        var best = scenario
        var bestProblem = problem
        var kept = Array(scenario.operations.indices)
        var changed = true
        var budget = 120
        while changed && budget > 0 {
            changed = false
            for position in stride(from: kept.count - 1, through: 0, by: -1) where budget > 0 {
                var candidate = best
                var trial = kept
                trial.remove(at: position)
                candidate.operations = trial.map { scenario.operations[$0] }
                budget -= 1
                if let p = await ModelRunner.run(candidate, on: backend), p.code == problem.code {
                    best = candidate
                    bestProblem = p
                    kept = trial
                    changed = true
                }
            }
            for index in scenario.events.indices where !best.droppedEvents.contains(index) && budget > 0 {
                var candidate = best
                candidate.droppedEvents.insert(index)
                budget -= 1
                if let p = await ModelRunner.run(candidate, on: backend), p.code == problem.code {
                    best = candidate
                    bestProblem = p
                    changed = true
                }
            }
        }
        // Indexes into the generated list, also when `scenario` was itself a replay.
        let generated = scenario.operationIndexes.isEmpty ? Array(scenario.operations.indices) : scenario.operationIndexes
        best.operationIndexes = kept.map { generated[$0] }
        return (best, bestProblem)
    }

    static func replay(_ scenario: ModelScenario, filter: String, shrunk: Bool) -> String {
        var env = "CALBRIDGE_MODEL_SEED=\(scenario.seed)"
        if shrunk {
            env += " CALBRIDGE_MODEL_KEEP_OPS=" + scenario.operationIndexes.map(String.init).joined(separator: ",")
            let events = scenario.events.indices.filter { !scenario.droppedEvents.contains($0) }
            env += " CALBRIDGE_MODEL_KEEP_EVENTS=" + events.map(String.init).joined(separator: ",")
        }
        return "\(env) swift test --filter \(filter)"
    }
}
