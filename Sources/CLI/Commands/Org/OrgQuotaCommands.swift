import Foundation
import Org

/// `calbridge org quota set NAME --requests N --per DURATION [--burst N]`: a request quota per Microsoft tenant
/// or Google Cloud project, shared by every worker (`OrgQuota`).
package enum OrgQuotaSetCommand: Command {
    package enum Options {
        package static let name = Argument("NAME", "tenant:ID (a Microsoft tenant) or project:ID (a Google Cloud project).")
        package static let requests = Option<Int>.int(
            "requests", "N", "At most N requests in any window of --per (required).", in: 2...100_000_000)
        package static let per = Option.duration(
            "per", "DURATION", "The window, e.g. 1m or 10m (required).", in: .seconds(1)...(.seconds(86_400)))
        package static let burst = Option<Int>.int(
            "burst", "N", "Requests that may go at once after a quiet spell (default a twentieth of --requests).", in: 1...100_000_000)
    }

    package static let path = ["org", "quota", "set"]

    package static let spec = CommandSpec(
        path,
        abstract: "Set a request quota per tenant or Google project, held across all workers.",
        discussion: """
            Every worker's requests for the tenant's mailboxes (Microsoft, tenant:ID as in 'org credential add \
            --tenant') or through the project's service accounts (Google, project:ID: the PROJECT of \
            NAME@PROJECT.iam.gserviceaccount.com) draw from one bucket in the database; a worker that finds it empty \
            waits. No window of --per grants more than --requests; a batch counts its parts. Setting it again \
            changes it in place; 'calbridge org status' shows each quota's waits. See docs/organisation.md.
            """,
        options: [Options.requests, Options.per, Options.burst] + OrgDatabase.options,
        positionals: [Options.name]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        guard let requests = arguments[Options.requests], let per = arguments[Options.per] else {
            throw UsageError("give the quota as --requests N --per DURATION, e.g. --requests 10000 --per 1m", command: spec.name)
        }
        let quota = OrgQuota(name: arguments[Options.name].lowercased(), requests: requests, per: per, burst: arguments[Options.burst])
        if let problem = quota.problem { throw UsageError(problem, command: spec.name) }
        let connection = try await OrgDatabase.open(arguments, context: context, command: spec.name)
        try await quota.save(connection)
        context.print(
            "Quota \(quota.name): at most \(quota.requests) requests per \(DurationText.format(quota.per)), \(quota.burst) at once, "
                + "shared by every worker.")
        return .success
    }
}

/// `calbridge org quota remove NAME`: the tenant's or project's requests are no longer held back.
package enum OrgQuotaRemoveCommand: Command {
    package static let path = ["org", "quota", "remove"]

    package static let spec = CommandSpec(
        path,
        abstract: "Remove a request quota (workers stop waiting for it within 30 seconds).",
        options: OrgDatabase.options,
        positionals: [OrgQuotaSetCommand.Options.name]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let name = arguments[OrgQuotaSetCommand.Options.name].lowercased()
        let connection = try await OrgDatabase.open(arguments, context: context, command: spec.name)
        guard try await OrgQuota.remove(name, connection) else {
            throw UsageError("there is no quota named '\(name)' ('calbridge org status' lists them)", command: spec.name)
        }
        context.print("Removed the quota \(name).")
        return .success
    }
}
