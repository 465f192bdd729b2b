import CalendarBridge
import Foundation
import Sync

/// `calbridge worker`: claims due mailboxes from the work queue, runs each one's pairs through the sync
/// engine with the state in PostgreSQL, and records how each turn ended. Many workers on many machines share
/// one database; none waits for another, and no mailbox is worked by two at once.
///
/// Each of `concurrency` slots loops: claim one due mailbox (`WorkQueue.claim`), keep its lease renewed while
/// working (every third of its length), run the pairs whose first side is the mailbox, then release the
/// lease with the outcome: due again after `interval`, a retry after the service's `Retry-After` or a capped
/// jittered backoff (`FailurePolicy`), or suspended with the reason (a 403 outside the app's scope). State
/// is written only under the lease's generation (`PostgresSyncStateStore`'s fence): a worker that lost its
/// lease writes nothing and records nothing. A stop request (SIGTERM) starts no new pair or write batch; the
/// writes in flight finish, and every lease still held is released so other workers take the mailboxes at once.
package struct OrgWorker: Sendable {
    package struct Configuration: Sendable {
        /// The lease owner's name (unique per process: host and pid by default).
        package var name: String
        /// Mailboxes worked at once.
        package var concurrency: Int
        /// How long after a sync a quiet mailbox is due again.
        package var interval: Duration
        /// Lease length; renewed every third of it while working.
        package var lease: Duration
        /// How often an idle slot looks for due mailboxes.
        package var poll: Duration
        package var failurePolicy: FailurePolicy
        /// The zone the pairs' windows are whole days in.
        package var zone: TimeZone

        package init(
            name: String, concurrency: Int = 4, interval: Duration = .seconds(300), lease: Duration = .seconds(120),
            poll: Duration = .seconds(1), failurePolicy: FailurePolicy = FailurePolicy(), zone: TimeZone = TimeZone(identifier: "UTC")!
        ) {
            self.name = name
            self.concurrency = concurrency
            self.interval = interval
            self.lease = lease
            self.poll = poll
            self.failurePolicy = failurePolicy
            self.zone = zone
        }
    }

    /// What the worker reports as it goes (one log line each).
    package enum Event: Sendable {
        case claimed(MailboxLease)
        /// A mailbox's turn ended and its outcome was recorded.
        case finished(address: String, pairs: Int, outcome: MailboxOutcome)
        /// The lease was lost while working (expired, taken by another worker): nothing was recorded.
        case leaseLost(address: String)
        /// A stop request ended the turn early; the mailbox is due as it was.
        case interrupted(address: String)
        /// The database refused or failed (the worker goes on).
        case databaseError(String)
        case stopped(reason: String, released: Int)
    }

    package let configuration: Configuration
    package let queue: WorkQueue
    package let state: PostgresSyncStateStore
    package let sides: OrgPairSideOpener
    package let log: @Sendable (Event) -> Void

    /// - Parameters:
    ///   - queue: the work queue (its own connection: single statements).
    ///   - state: the sync state (its own connection: a transaction per call).
    package init(
        configuration: Configuration, queue: WorkQueue, state: PostgresSyncStateStore, opener: any MailboxProviderOpener,
        log: @escaping @Sendable (Event) -> Void
    ) {
        self.configuration = configuration
        self.queue = queue
        // The state's transactions wait for the database no longer than the queue's statements do, unless set.
        self.state = state.timeout == nil ? state.bounded(by: queue.timeout) : state
        self.sides = OrgPairSideOpener(opener: opener, connection: queue.connection, timeout: queue.timeout)
        self.log = log
    }

    /// Works until `stop` asks to stop, then releases every lease this worker holds.
    package func run(until stop: any SyncStopRequest) async {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<max(1, configuration.concurrency) {
                group.addTask { await slot(stop) }
            }
        }
        let released: Int
        do {
            released = try await queue.releaseAll(owner: configuration.name)
        } catch {
            // A database that does not answer does not keep the worker from stopping: the leases expire by themselves.
            log(.databaseError("releasing the leases: \(error); they are left to expire"))
            released = 0
        }
        log(.stopped(reason: stop.stopReason ?? "stopped", released: released))
    }

    /// One slot: claim, work, repeat; wait `poll` when nothing is due or the database failed.
    private func slot(_ stop: any SyncStopRequest) async {
        while stop.stopReason == nil {
            let lease: MailboxLease?
            let asked = ContinuousClock.now
            do {
                lease = try await queue.claim(owner: configuration.name, limit: 1, lease: configuration.lease).first
            } catch {
                log(.databaseError("claiming: \(error)"))
                lease = nil
            }
            guard let lease else {
                _ = await stop.waitForStop(timeout: configuration.poll)
                continue
            }
            log(.claimed(lease))
            await work(lease, claimedAt: asked, stop: stop)
        }
    }

    /// One turn on a mailbox under `lease`, claimed by a request sent at `claimedAt` (this process's clock).
    func work(_ lease: MailboxLease, claimedAt: ContinuousClock.Instant = .now, stop: any SyncStopRequest) async {
        let holder = LeaseHolder(lease, length: configuration.lease, askedAt: claimedAt)
        let renewal = Task { await keepRenewed(holder) }
        defer { renewal.cancel() }

        let pairs: [SyncPair]
        do {
            pairs = try await Self.pairs(of: lease.address, connection: queue.connection, timeout: queue.timeout)
        } catch {
            log(.databaseError("reading the pairs of \(lease.address): \(error)"))
            await record(holder, .retry(error: "the database failed: \(error)", retryIn: configuration.failurePolicy.base))
            return
        }
        var engine = SyncEngine(store: state.fenced(by: lease), zone: configuration.zone)
        engine.shouldStop = { stop.stopReason != nil || holder.isLost }
        let runner = SyncPairRunner(engine: engine, opener: sides, dryRun: false) { _ in }
        let results = await runner.run(pairs, keepGoing: { stop.stopReason == nil && !holder.isLost })

        if holder.isLost {
            log(.leaseLost(address: lease.address))
            return
        }
        if stop.stopReason != nil && (results.count < pairs.count || results.contains { $0.outcome == .interrupted }) {
            // Released with the rest when the worker stops, due as it was: another worker carries on.
            log(.interrupted(address: lease.address))
            return
        }
        let outcome = decide(results, lease: lease)
        if await record(holder, outcome) {
            log(.finished(address: lease.address, pairs: pairs.count, outcome: outcome))
        }
    }

    /// How a turn ended, for the queue: the first failure decides (a 403 suspends, Retry-After is honoured);
    /// items that failed retry after a backoff; otherwise due again after the interval.
    func decide(_ results: [SyncPairRunner.Result], lease: MailboxLease) -> MailboxOutcome {
        let policy = configuration.failurePolicy
        if let failed = results.first(where: { $0.failure != nil }), let failure = failed.failure {
            let calendarError = (failure.error as? SyncError)?.calendarError ?? failure.error as? CalendarError
            return policy.outcome(
                status: calendarError?.httpStatus ?? 0, code: calendarError?.providerCode,
                message: "pair \(failed.pair.name): \(failure.message)",
                retryAfter: calendarError?.retryAfterSeconds.map { .milliseconds(Int64(($0 * 1000).rounded(.up))) },
                attempts: lease.attempts)
        }
        if let partial = results.first(where: { $0.outcome == .partial }), let error = partial.report?.errors.first {
            return .retry(
                error: "pair \(partial.pair.name): \(error.message)",
                retryIn: policy.backoff(attempts: lease.attempts, jitter: .random(in: 0.5...1)))
        }
        return .synced(nextIn: configuration.interval)
    }

    /// Releases the lease with `outcome`; whether it was recorded.
    @discardableResult
    private func record(_ holder: LeaseHolder, _ outcome: MailboxOutcome) async -> Bool {
        do {
            try await queue.release(holder.lease, outcome)
            return true
        } catch is LeaseLost {
            log(.leaseLost(address: holder.lease.address))
        } catch let error as PostgresError where error.code == .timedOut {
            log(.databaseError("recording the outcome for \(holder.lease.address): \(error); the lease is left to expire"))
        } catch {
            log(.databaseError("recording the outcome for \(holder.lease.address): \(error)"))
        }
        return false
    }

    /// Renews the lease every third of its length until cancelled; a lease found lost, or a renewal the database
    /// did not answer within the queue's timeout, stops the turn.
    private func keepRenewed(_ holder: LeaseHolder) async {
        let length = configuration.lease
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: length / 3)
            } catch {
                return
            }
            let asked = ContinuousClock.now
            do {
                holder.renewed(try await queue.renew(holder.lease, for: length), askedAt: asked)
            } catch is LeaseLost {
                holder.markLost()
                return
            } catch let error as PostgresError where error.code == .timedOut {
                // The renewal may or may not have been applied: the lease may be lost, so nothing more is written
                // under it (the database's fence refuses a stale generation anyway) and it is left to expire.
                log(.databaseError("renewing the lease on \(holder.lease.address): \(error); work on it stops"))
                holder.markLost()
                return
            } catch {
                // The database failed this once; the lease may still hold until it expires.
                log(.databaseError("renewing the lease on \(holder.lease.address): \(error)"))
            }
        }
    }

    /// The active pairs whose first mailbox is `address` (the pair runs under that mailbox's lease), as the
    /// engine's pairs: named `a|b`, each side a mailbox's primary calendar.
    /// - Parameter timeout: how long to wait for the database's answer; nil: no limit.
    package static func pairs(of address: String, connection: PostgresConnection, timeout: Duration? = nil) async throws -> [SyncPair] {
        let sql =
            """
            SELECT p.a, p.b, p.direction, p.fields, extract(epoch FROM p.created_at) AS created
            FROM org_pairs p JOIN org_mailboxes mb ON mb.address = p.b
            WHERE p.a = $1 AND p.state = 'active' AND mb.state = 'active'
            ORDER BY p.b
            """
        let rows =
            if let timeout {
                try await connection.execute(sql, [address], timeout: timeout)
            } else {
                try await connection.execute(sql, [address])
            }
        return rows.rows.compactMap { row in
            guard let a = row[0], let b = row[1], let direction = row[2].flatMap(SyncDirection.init(rawValue:)),
                let fields = row[3].flatMap(CopyFields.init(rawValue:)), let created = row[4].flatMap(Double.init)
            else { return nil }
            let options = SyncPairOptions(direction: direction, fields: fields, labelA: a, labelB: b)
            return SyncPair(
                record: SyncPairRecord(
                    name: a + "|" + b, sideA: a, sideB: b, options: options.encoded(), created: Date(timeIntervalSince1970: created)),
                options: options)
        }
    }
}

/// The lease of a turn as renewals extend it, and whether it was lost; shared by the turn and its renewals.
///
/// A lease also counts as lost, without asking the database, once it may have expired: its last claim or
/// renewal was asked for at `askedAt`, so the database set its expiry no earlier than `askedAt + length`.
/// A worker cut off from the database (its renewals failing or hanging) thus stops before another worker can
/// claim the mailbox, with a quarter of the lease left for the write batch in flight to end.
final class LeaseHolder: @unchecked Sendable {
    private let lock = NSLock()
    private let length: Duration
    // Guarded by `lock`.
    private var current: MailboxLease
    private var lost = false
    private var heldUntil: ContinuousClock.Instant

    init(_ lease: MailboxLease, length: Duration, askedAt: ContinuousClock.Instant) {
        current = lease
        self.length = length
        heldUntil = askedAt + length * 3 / 4
    }

    var lease: MailboxLease { lock.withLock { current } }

    /// Takes a renewal asked for at `askedAt`.
    func renewed(_ lease: MailboxLease, askedAt: ContinuousClock.Instant) {
        lock.withLock {
            current = lease
            heldUntil = max(heldUntil, askedAt + length * 3 / 4)
        }
    }

    var isLost: Bool { lock.withLock { lost || ContinuousClock.now >= heldUntil } }

    func markLost() { lock.withLock { lost = true } }
}
