import Synchronization

/// Holds values a short-lived process is done with until it exits, instead of freeing them one by one.
///
/// Freeing the listings of a copy releases every string and array of every event, a visible part of a
/// no-change copy's CPU time, and work that the process's exit makes unnecessary. A command that exits
/// right after its work hands one to `CopyEngine.run(progress:keeping:)`; a caller that lives on passes
/// none, and the values are freed as usual.
public final class ExitKeeper: Sendable {
    private let values = Mutex<[any Sendable]>([])

    public init() {}

    /// Keeps `value` for as long as this keeper lives.
    public func keep(_ value: any Sendable) {
        values.withLock { $0.append(value) }
    }

    /// How many values it holds.
    public var count: Int { values.withLock { $0.count } }
}
