import Foundation
import Org

/// `calbridge org status`: each mailbox's state, reason, last sync and lag; each pair's state; each shared
/// quota's throttling (per tenant or Google project).
package enum OrgStatusCommand: Command {
    package enum Options {
        package static let format = OutputFormat.option("table|json", "Output format (default table).", allowed: [.table, .json])
    }

    package static let path = ["org", "status"]

    package static let spec = CommandSpec(
        path,
        abstract: "Show the organisation's mailboxes (state, reason, last sync, lag, lease), pairs and quotas' throttling.",
        options: [Options.format] + OrgDatabase.options
    )

    struct Output: Encodable {
        struct Mailbox: Encodable {
            var address: String
            var state: String
            var reason: String?
            var lastSync: String?
            var lagSeconds: Int
            var leaseOwner: String?
            var attempts: Int
            var lastError: String?
        }

        struct Pair: Encodable {
            var a: String
            var b: String
            var direction: String
            var fields: String
            var state: String
            var lastOutcome: String?
            var lastRun: String?
            var lastError: String?
        }

        struct Quota: Encodable {
            var name: String
            var requests: Int
            var perSeconds: Double
            var burst: Int
            var available: Int
            var granted: Int
            var waits: Int
            var lastWait: String?
        }

        var mailboxes: [Mailbox]
        var pairs: [Pair]
        var quotas: [Quota]
    }

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let connection = try await OrgDatabase.open(arguments, context: context, command: spec.name)
        let status = try await OrgStatus.read(connection)
        if arguments[Options.format] == .json {
            let output = Output(
                mailboxes: status.mailboxes.map {
                    .init(
                        address: $0.address, state: $0.state, reason: $0.reason, lastSync: $0.lastSync.map(SyncOutput.timestamp),
                        lagSeconds: $0.lagSeconds, leaseOwner: $0.leaseOwner, attempts: $0.attempts, lastError: $0.lastError)
                },
                pairs: status.pairs.map {
                    .init(
                        a: $0.a, b: $0.b, direction: $0.direction, fields: $0.fields, state: $0.state, lastOutcome: $0.lastOutcome,
                        lastRun: $0.lastRun.map(SyncOutput.timestamp), lastError: $0.lastError)
                },
                quotas: status.quotas.map {
                    .init(
                        name: $0.name, requests: $0.requests, perSeconds: $0.perSeconds, burst: $0.burst, available: Int($0.available),
                        granted: $0.granted, waits: $0.waits, lastWait: $0.lastWait.map(SyncOutput.timestamp))
                }
            )
            context.print(try SyncOutput.json(output))
            return .success
        }
        if status.mailboxes.isEmpty {
            context.print("No mailboxes enrolled yet; add pairs with 'calbridge org pairs import FILE.csv'.")
        } else {
            printMailboxes(status, context: context)
        }
        if !status.quotas.isEmpty {
            context.print("")
            printQuotas(status, context: context)
        }
        return .success
    }

    /// Each mailbox, then the pairs' count by their last runs' outcomes.
    private static func printMailboxes(_ status: OrgStatus, context: CommandContext) {
        context.printTable(
            Table(
                columns: [
                    .init("mailbox", "MAILBOX"), .init("state", "STATE"), .init("last_sync", "LAST SYNC"), .init("lag", "LAG"),
                    .init("worker", "WORKER", droppable: true), .init("reason", "REASON"),
                ],
                rows: status.mailboxes.map {
                    [
                        $0.address, $0.state, $0.lastSync.map(SyncOutput.timestamp) ?? "never", SyncOutput.age($0.lagSeconds),
                        $0.leaseOwner ?? "",
                        $0.reason ?? $0.lastError ?? "",
                    ]
                }
            ),
            format: .table
        )
        let suspended = status.pairs.filter { $0.state != "active" }.count
        // The worker's last runs, by outcome: "12 ok, 1 failed, 3 not run yet".
        var outcomes: [String: Int] = [:]
        for pair in status.pairs { outcomes[pair.lastOutcome ?? "not run yet", default: 0] += 1 }
        let runs = outcomes.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        context.print("\(status.pairs.count) pairs, \(suspended) suspended" + (runs.isEmpty ? "" : "; last runs: " + runs))
    }

    /// Each shared quota: its limit, what it could grant now, and how often workers waited for it.
    private static func printQuotas(_ status: OrgStatus, context: CommandContext) {
        context.printTable(
            Table(
                columns: [
                    .init("quota", "QUOTA"), .init("limit", "LIMIT"), .init("available", "AVAILABLE"), .init("granted", "GRANTED"),
                    .init("waits", "WAITS"), .init("last_wait", "LAST WAIT", droppable: true),
                ],
                rows: status.quotas.map {
                    [
                        $0.name, "\($0.requests)/\(DurationText.format(.milliseconds(Int64($0.perSeconds * 1000))))",
                        String(Int($0.available)), String($0.granted), String($0.waits),
                        $0.lastWait.map(SyncOutput.timestamp) ?? "never",
                    ]
                }
            ),
            format: .table
        )
    }
}
