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

/// Runs `first` and `second` at once in a task group and returns both results; `first`'s error is thrown if it
/// failed (`second` is then cancelled), else `second`'s: what awaiting two `async let`s in order does.
///
/// The two-reads-at-once places use this instead of `async let`: on Swift 6.3.1 a run of 2,000 sync model
/// sequences (seed 50000) crashed once in the runtime's `completeTask`, releasing the closure context of an
/// `async let` that had already been freed (Swift's async let teardown bugs #81771, #87481, #88750).
package func concurrently<First: Sendable, Second: Sendable>(
    _ first: @escaping @Sendable () async throws -> First,
    _ second: @escaping @Sendable () async throws -> Second
) async throws -> (First, Second) {
    let (a, b) = await withTaskGroup(of: EitherOutcome<First, Second>.self) { group in
        group.addTask { .first(await result(of: first)) }
        group.addTask { .second(await result(of: second)) }
        var a: Result<First, any Error>?
        var b: Result<Second, any Error>?
        for await outcome in group {
            switch outcome {
            case .first(let result): a = result
            case .second(let result): b = result
            }
            if case .first(.failure) = outcome { group.cancelAll() }
        }
        return (a, b)
    }
    guard let a, let b else { throw CancellationError() }
    return (try a.get(), try b.get())
}

/// One child's result in `concurrently`.
private enum EitherOutcome<First: Sendable, Second: Sendable>: Sendable {
    case first(Result<First, any Error>)
    case second(Result<Second, any Error>)
}

/// What `body` returned or threw.
private func result<Success>(of body: () async throws -> Success) async -> Result<Success, any Error> {
    do {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}
