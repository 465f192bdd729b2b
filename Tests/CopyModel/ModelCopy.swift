import CalendarBridge
import Foundation

/// How the model test calls the engine: the same `CopyEngine` entry point and options the CLI builds
/// from `--from`, `--to`, `--tz`, `--prune`, `--recurrence` and `--remove-copies`.
package enum ModelCopy {
    package static func options(_ run: ModelCopyRun, recurrence: CopyRecurrence, dryRun: Bool = false) -> CopyOptions {
        CopyOptions(
            window: run.range, zone: ModelZones.zone(run.zone), recurrence: recurrence, prune: run.prune, dryRun: dryRun)
    }

    /// `copy --remove-copies`: the number of copies it deleted.
    package static func removeCopies(source: CopyEngine.Endpoint, target: CopyEngine.Endpoint) async throws -> Int {
        let anyWindow = TimeRange(start: ModelScenario.horizon.start, end: ModelScenario.horizon.start)
        let result = try await CopyEngine(
            source: source, target: target, options: CopyOptions(window: anyWindow, removeCopies: true)
        ).run()
        return result.deleted
    }
}
