import Foundation
import Org
import Sync

#if canImport(Glibc)
import Glibc
#endif

/// `calbridge worker`: works the organisation's due mailboxes until SIGINT or SIGTERM (`OrgWorker`).
package enum WorkerCommand: Command {
    package static let path = ["worker"]

    package enum Options {
        package static let concurrency = Option<Int>.int("concurrency", "N", "Mailboxes worked at once (default 4).", in: 1...256)
        package static let name = Option<String>(
            "name", "ID", "This worker's name in the leases and `org status` (default: host name and process id).")
        package static let interval = Option.duration(
            "interval", "DURATION", "How long after a sync a quiet mailbox is due again, e.g. 30s, 5m (default 5m).",
            in: .seconds(1)...(.seconds(86_400)))
        package static let lease = Option.duration(
            "lease", "DURATION", "How long a claim on a mailbox lasts unless renewed (default 2m; renewed every third of it).",
            in: .seconds(3)...(.seconds(3600)))
    }

    package static let spec = CommandSpec(
        path,
        abstract: "Sync the organisation's mailbox pairs: claim due mailboxes from the database and run their pairs.",
        discussion: """
            Run as many workers as you like, on as many machines: they share the database named by --database or \
            CALBRIDGE_DATABASE_URL and never work one mailbox at once. Each mailbox's pairs run under a lease that \
            is renewed while they run; a worker that loses its lease writes nothing. A 403 outside the app's scope \
            suspends the mailbox with the reason; throttling waits for Retry-After, other failures back off. \
            Requests draw from the quotas set with 'calbridge org quota set', shared by every worker. \
            SIGINT or SIGTERM: the writes in flight finish, the leases are released, exit 0. One log line per \
            mailbox turn on stderr. See docs/organisation.md.
            """,
        options: OrgDatabase.options + [Options.concurrency, Options.name, Options.interval, Options.lease]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        // First, so that a signal during start-up is remembered instead of killing the process.
        let signals = SignalWaiter(signals: [SIGINT, SIGTERM])
        defer { signals.restoreDefaults() }
        let name = arguments[Options.name] ?? defaultName()
        if name.isEmpty || name.count > 200 || name.contains(where: { $0.isNewline }) {
            throw UsageError("--name must be 1 to 200 characters on one line", command: spec.name)
        }
        // Three connections: the queue's single statements and the quotas' never wait behind a state transaction. Each
        // statement, and each state transaction as a whole (`OrgWorker` bounds the store by the queue's deadline), gives
        // up after --database-timeout.
        let timeout = OrgDatabase.timeout(arguments)
        let queueConnection = try await OrgDatabase.open(arguments, context: context, command: spec.name)
        let stateConnection = try await OrgDatabase.connect(arguments, context: context, command: spec.name)
        let quotaConnection = try await OrgDatabase.connect(arguments, context: context, command: spec.name)
        let credentials = try await OrgDirectory(connection: queueConnection).credentials()
        let providers = OrgMailboxProviders(
            credentials: credentials, network: context.makeTransport(connectionsPerHost: 16), environment: context.environment,
            worker: name, quotaConnection: quotaConnection)
        let configuration = OrgWorker.Configuration(
            name: name, concurrency: arguments[Options.concurrency] ?? 4, interval: arguments[Options.interval] ?? .seconds(300),
            lease: arguments[Options.lease] ?? .seconds(120))
        let worker = OrgWorker(
            configuration: configuration, queue: WorkQueue(connection: queueConnection, timeout: timeout),
            state: PostgresSyncStateStore(connection: stateConnection), opener: providers
        ) { event in
            context.printError(describe(event))
        }
        context.printError(
            "worker \(name): \(configuration.concurrency) at once, interval \(DurationText.format(configuration.interval)), "
                + "lease \(DurationText.format(configuration.lease)), \(credentials.count) credential(s)")
        await worker.run(until: signals)
        return .success
    }

    /// One log line for an event.
    static func describe(_ event: OrgWorker.Event) -> String {
        switch event {
        case .claimed(let lease):
            "claimed \(lease.address) (generation \(lease.generation))"
        case .finished(let address, let pairs, let outcome):
            switch outcome {
            case .synced(let next): "synced \(address): \(pairs) pair(s); due again in \(DurationText.format(next))"
            case .retry(let error, let retryIn): "retry \(address) in \(DurationText.format(retryIn)): \(error)"
            case .suspend(let reason): "suspended \(address): \(reason)"
            }
        case .leaseLost(let address):
            "lost the lease on \(address): another worker has it; nothing recorded"
        case .interrupted(let address):
            "stopped working on \(address) (a stop was asked for); it is due as it was"
        case .databaseError(let text):
            "database error: \(text)"
        case .stopped(let reason, let released):
            "worker stopped (\(reason)); released \(released) lease(s)"
        }
    }

    /// `HOST-PID`: unique per process on a machine, and says where it runs.
    static func defaultName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let host =
            gethostname(&buffer, buffer.count) == 0
            ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "worker"
        return "\(host)-\(getpid())"
    }
}
