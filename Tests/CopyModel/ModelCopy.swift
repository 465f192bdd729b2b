import CalendarBridge
import Foundation

/// How the model test calls the engine: the same `CopyEngine` entry point and options the CLI builds
/// from `--from`, `--to`, `--tz`, `--prune` and `--recurrence`.
package enum ModelCopy {
    package static func options(_ run: ModelCopyRun, recurrence: CopyRecurrence, dryRun: Bool = false) -> CopyOptions {
        CopyOptions(window: run.range, recurrence: recurrence, prune: run.prune, dryRun: dryRun)
    }

    /// `copy --remove-copies`; nil while the engine has no such operation.
    package static func removeCopies(
        source: CopyEngine.Endpoint, target: CopyEngine.Endpoint, recurrence: CopyRecurrence
    ) async throws -> Int? {
        nil
    }
}
