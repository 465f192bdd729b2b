/// Runs `body` on the elements of `items`, at most `limit` at a time: `limit` start at once, then one more each
/// time one finishes, in the order of `items`. `handle` sees each result as it comes (in the order they
/// finish, on the caller's isolation), before the next element starts.
///
/// - Parameters:
///   - limit: how many run at once (at least one).
///   - shouldStart: asked before each start; once it says no, nothing more starts and the ones running finish
///     (a watcher told to stop).
///   - body: the work for one element, in a child task.
///   - handle: called with the element's index and its result.
package func forEachConcurrently<Element: Sendable, Result: Sendable>(
    _ items: [Element], limit: Int, isolation: isolated (any Actor)? = #isolation,
    shouldStart: () -> Bool = { true },
    _ body: @escaping @Sendable (Element) async -> Result,
    handle: (Int, Result) async -> Void
) async {
    guard !items.isEmpty else { return }
    await withTaskGroup(of: (Int, Result).self) { group in
        var next = 0
        func start() -> Bool {
            guard next < items.count, shouldStart() else { return false }
            let index = next
            let item = items[index]
            next += 1
            group.addTask { (index, await body(item)) }
            return true
        }
        while next < max(1, limit), start() {}
        for await (index, result) in group {
            await handle(index, result)
            _ = start()
        }
    }
}

/// The results of `body` on every element of `items`, in their order, at most `limit` running at once (see
/// `forEachConcurrently`).
package func mapConcurrently<Element: Sendable, Result: Sendable>(
    _ items: [Element], limit: Int, isolation: isolated (any Actor)? = #isolation,
    _ body: @escaping @Sendable (Element) async -> Result
) async -> [Result] {
    var results = [Result?](repeating: nil, count: items.count)
    await forEachConcurrently(items, limit: limit, body) { index, result in results[index] = result }
    return results.map { $0! }
}
