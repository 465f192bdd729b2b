/// What a copy will do: one entry per source event, existing copy or series occurrence, each with the
/// write that carries it out (nil for unchanged, skipped and kept duplicates).
public struct CopyPlan: Sendable, Hashable {
    /// One planned item and its write.
    public struct Entry: Sendable, Hashable {
        public var item: CopyItem
        public var write: EventWrite?

        public init(item: CopyItem, write: EventWrite?) {
            self.item = item
            self.write = write
        }
    }

    /// A source series master copied as a series: its occurrences are compared after the master is written.
    public struct Series: Sendable, Hashable {
        public var sourceMaster: Event
        /// The copy's id when it already exists; nil when the entry at `entryIndex` creates it.
        public var targetMasterID: String?
        /// The entry that creates, updates or keeps the master's copy.
        public var entryIndex: Int

        public init(sourceMaster: Event, targetMasterID: String?, entryIndex: Int) {
            self.sourceMaster = sourceMaster
            self.targetMasterID = targetMasterID
            self.entryIndex = entryIndex
        }
    }

    public var entries: [Entry]
    public var fallbacks: [CopyFallback]
    public var series: [Series]
    /// With `--prune`: copies in the window whose source event was not listed. Not proof that the source
    /// is gone: `CopyPlanner.prunes(_:probes:)` deletes those whose source reads back gone.
    public var orphans: [Event]
    /// With `--recurrence series`: series copies in the window whose source master was not listed (with
    /// or without `--prune`). Its source is read by id; `CopyPlanner.refreshes(probes:plan:)` updates
    /// each copy from the master that reads back.
    public var unlistedSeries: [Event] = []
    /// Source series this run copies as series, and those whose occurrences it copies singly: a copy of
    /// the same series in the other form is a second copy of the same occurrences (`--prune` deletes it).
    public var seriesCopiedWhole: Set<String> = []
    public var seriesCopiedSingly: Set<String> = []

    public init(entries: [Entry] = [], fallbacks: [CopyFallback] = [], series: [Series] = [], orphans: [Event] = []) {
        self.entries = entries
        self.fallbacks = fallbacks
        self.series = series
        self.orphans = orphans
    }

    /// The writes in entry order.
    public var writes: [EventWrite] { entries.compactMap(\.write) }
}
