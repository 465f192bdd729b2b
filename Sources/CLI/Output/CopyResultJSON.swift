import CalendarBridge
import JSON

// `calbridge copy --format json`: the report's `Codable` form, written by `PrettyJSONWriter` (the same text
// `JSONEncoder` writes, at a fraction of its cost). A member added to these types must be added here, in
// key order; the CLI tests compare both writers on random reports, so a missing one fails there.

extension CopyResult {
    /// The report as `JSONEncoder` (pretty, sorted keys, slashes unescaped) writes it.
    var jsonText: String {
        var writer = PrettyJSONWriter(capacity: 512 + 320 * items.count)
        write(into: &writer)
        return writer.text
    }

    func write(into w: inout PrettyJSONWriter) {
        w.beginObject()
        w.member("created", created)
        w.member("deleted", deleted)
        w.member("dryRun", dryRun)
        w.member("duplicates", duplicates)
        w.key("errors")
        w.beginArray()
        for error in errors { error.write(into: &w) }
        w.endArray()
        w.member("failed", failed)
        w.key("fallbacks")
        w.beginArray()
        for fallback in fallbacks { fallback.write(into: &w) }
        w.endArray()
        w.key("items")
        w.beginArray()
        for item in items { item.write(into: &w) }
        w.endArray()
        w.member("matchedByContent", matchedByContent)
        w.member("skipped", skipped)
        w.member("source", source)
        w.member("target", target)
        w.member("unchanged", unchanged)
        w.member("updated", updated)
        w.endObject()
    }
}

extension CopyResult.ItemError {
    func write(into w: inout PrettyJSONWriter) {
        w.beginObject()
        w.member("message", message)
        w.member("sourceEventID", sourceEventID)
        w.member("targetEventID", targetEventID)
        w.member("title", title)
        w.endObject()
    }
}

extension CopyFallback {
    func write(into w: inout PrettyJSONWriter) {
        w.beginObject()
        w.member("occurrences", occurrences)
        w.member("reason", reason)
        w.member("sourceEventID", sourceEventID)
        w.member("title", title)
        w.endObject()
    }
}

extension CopyItem {
    func write(into w: inout PrettyJSONWriter) {
        w.beginObject()
        w.member("action", action.rawValue)
        w.member("duplicate", duplicate)
        w.member("error", error)
        w.member("matchedByContent", matchedByContent)
        w.member("occurrence", occurrence)
        w.member("reason", reason)
        w.member("sourceEventID", sourceEventID)
        w.member("start", start)
        w.member("status", status.rawValue)
        w.member("targetEventID", targetEventID)
        w.member("title", title)
        w.endObject()
    }
}
