import CalbridgeSupport
import CalendarBridge

// `calbridge copy --format json`: the report's `Codable` form, written by `PrettyJSON` (the same text
// `JSONEncoder` writes, at a tenth of its cost). A member added to these types must be added here; the
// CLI tests compare both writers on random reports, so a missing one fails there.

extension CopyResult {
    var prettyJSON: PrettyJSON {
        // In key order, so the writer need not sort (it would).
        .object([
            ("created", .int(created)), ("deleted", .int(deleted)), ("dryRun", .bool(dryRun)),
            ("duplicates", .int(duplicates)), ("errors", .array(errors.map(\.prettyJSON))), ("failed", .int(failed)),
            ("fallbacks", .array(fallbacks.map(\.prettyJSON))), ("items", .array(items.map(\.prettyJSON))),
            ("skipped", .int(skipped)), ("source", .string(source)), ("target", .string(target)),
            ("unchanged", .int(unchanged)), ("updated", .int(updated)),
        ])
    }
}

extension CopyResult.ItemError {
    var prettyJSON: PrettyJSON {
        .object([
            ("message", .string(message)), ("sourceEventID", sourceEventID.map(PrettyJSON.string)),
            ("targetEventID", targetEventID.map(PrettyJSON.string)), ("title", title.map(PrettyJSON.string)),
        ])
    }
}

extension CopyFallback {
    var prettyJSON: PrettyJSON {
        .object([
            ("occurrences", .int(occurrences)), ("reason", .string(reason)), ("sourceEventID", .string(sourceEventID)),
            ("title", .string(title)),
        ])
    }
}

extension CopyItem {
    var prettyJSON: PrettyJSON {
        .object([
            ("action", .string(action.rawValue)), ("duplicate", .bool(duplicate)), ("error", error.map(PrettyJSON.string)),
            ("occurrence", .bool(occurrence)), ("reason", reason.map(PrettyJSON.string)),
            ("sourceEventID", sourceEventID.map(PrettyJSON.string)), ("start", start.map(PrettyJSON.string)),
            ("status", .string(status.rawValue)), ("targetEventID", targetEventID.map(PrettyJSON.string)),
            ("title", .string(title)),
        ])
    }
}
