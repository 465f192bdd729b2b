import CalbridgeSupport
import CalendarBridge

// `calbridge copy --format json`: the report's `Codable` form, written by `PrettyJSON` (the same text
// `JSONEncoder` writes, at a tenth of its cost). A member added to these types must be added here; the
// CLI tests compare both writers on random reports, so a missing one fails there.

extension CopyResult {
    var prettyJSON: PrettyJSON {
        .object([
            ("source", .string(source)), ("target", .string(target)), ("dryRun", .bool(dryRun)),
            ("created", .int(created)), ("updated", .int(updated)), ("unchanged", .int(unchanged)),
            ("deleted", .int(deleted)), ("skipped", .int(skipped)), ("failed", .int(failed)),
            ("duplicates", .int(duplicates)), ("errors", .array(errors.map(\.prettyJSON))),
            ("fallbacks", .array(fallbacks.map(\.prettyJSON))), ("items", .array(items.map(\.prettyJSON))),
        ])
    }
}

extension CopyResult.ItemError {
    var prettyJSON: PrettyJSON {
        .object([
            ("sourceEventID", sourceEventID.map(PrettyJSON.string)), ("targetEventID", targetEventID.map(PrettyJSON.string)),
            ("title", title.map(PrettyJSON.string)), ("message", .string(message)),
        ])
    }
}

extension CopyFallback {
    var prettyJSON: PrettyJSON {
        .object([
            ("sourceEventID", .string(sourceEventID)), ("title", .string(title)), ("reason", .string(reason)),
            ("occurrences", .int(occurrences)),
        ])
    }
}

extension CopyItem {
    var prettyJSON: PrettyJSON {
        .object([
            ("action", .string(action.rawValue)), ("status", .string(status.rawValue)),
            ("sourceEventID", sourceEventID.map(PrettyJSON.string)), ("targetEventID", targetEventID.map(PrettyJSON.string)),
            ("title", .string(title)), ("start", start.map(PrettyJSON.string)), ("reason", reason.map(PrettyJSON.string)),
            ("occurrence", .bool(occurrence)), ("duplicate", .bool(duplicate)), ("error", error.map(PrettyJSON.string)),
        ])
    }
}
