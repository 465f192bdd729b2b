/// What a copy did (or, with `dryRun`, would do): the counts the CLI prints, the errors, and one item
/// per source event, copy or series occurrence concerned.
///
/// Encodes to the JSON of `calbridge copy --format json`: `source`, `target`, `created`, `updated`,
/// `unchanged`, `deleted`, `skipped`, `failed`, `errors`, plus `dryRun`, `duplicates`, `fallbacks`
/// and `items`.
public struct CopyResult: Sendable, Hashable, Codable {
    /// One failed write or read.
    public struct ItemError: Sendable, Hashable, Codable {
        public var sourceEventID: String?
        public var targetEventID: String?
        public var title: String?
        /// The one-line error description.
        public var message: String

        public init(sourceEventID: String? = nil, targetEventID: String? = nil, title: String? = nil, message: String) {
            self.sourceEventID = sourceEventID
            self.targetEventID = targetEventID
            self.title = title
            self.message = message
        }
    }

    /// The source calendar as `account:name`.
    public var source: String
    /// The target calendar as `account:name`.
    public var target: String
    public var dryRun: Bool
    public var created: Int
    /// Copies changed to match their source, including occurrences of copied series that were moved,
    /// changed or cancelled in the source.
    public var updated: Int
    public var unchanged: Int
    /// Copies deleted (`--prune` only).
    public var deleted: Int
    public var skipped: Int
    public var failed: Int
    /// Surplus copies of one source event found on the target (deleted with `--prune`, counted in
    /// `deleted` then).
    public var duplicates: Int
    /// Copies found by start, title and location for source events whose id was unknown (a feed's rotated
    /// UIDs), re-marked instead of duplicated; counted in `updated` too.
    public var matchedByContent: Int
    public var errors: [ItemError]
    /// Series copied as instances because the target cannot store their rule.
    public var fallbacks: [CopyFallback]
    public var items: [CopyItem]

    public init(source: String, target: String, dryRun: Bool, items: [CopyItem], fallbacks: [CopyFallback], extraErrors: [ItemError] = []) {
        self.source = source
        self.target = target
        self.dryRun = dryRun
        self.items = items
        self.fallbacks = fallbacks
        created = 0
        updated = 0
        unchanged = 0
        deleted = 0
        skipped = 0
        failed = extraErrors.count
        duplicates = 0
        matchedByContent = 0
        errors = []
        for item in items {
            if item.status == .failed {
                failed += 1
                errors.append(
                    ItemError(
                        sourceEventID: item.sourceEventID, targetEventID: item.targetEventID, title: item.title,
                        message: item.error ?? "failed"))
                continue
            }
            switch item.action {
            case .create: created += 1
            case .update: updated += 1
            case .unchanged: unchanged += 1
            case .delete: deleted += 1
            case .skip: skipped += 1
            case .duplicate: break
            }
            if item.duplicate { duplicates += 1 }
            if item.matchedByContent { matchedByContent += 1 }
        }
        errors += extraErrors
    }

    /// True when anything failed (the rest was still applied): the CLI exits with "partly done" (4).
    public var isPartial: Bool { failed > 0 }
}
