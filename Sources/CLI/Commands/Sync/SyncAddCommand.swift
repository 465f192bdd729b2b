import CalendarBridge
import Foundation
import Sync

/// `calbridge sync add NAME --a REF --b REF ...`: stores a sync pair after checking that both calendars
/// resolve through signed-in accounts and can be written where the direction writes.
package enum SyncAddCommand: Command {
    package enum Options {
        package static let name = Argument("NAME", "A name for the pair: letters, digits, '.', '_' and '-' (at most 64).")
        package static let a = Option<String>("a", "REF", "Side A: ACCOUNT:CALENDAR (id, name, primary or default). Required.")
        package static let b = Option<String>("b", "REF", "Side B: ACCOUNT:CALENDAR. Required.")
        package static let direction = Option.choice(
            "direction", "a-to-b|b-to-a|both", "Which way changes go (default a-to-b).", among: SyncDirection.allCases.map(\.rawValue))
        package static let fields = Option.choice(
            "fields", "basic|all|busy", "What is copied, as 'calbridge copy --fields' (default basic).",
            among: CopyFields.allCases.map(\.rawValue))
        package static let past = Option.int("past", "DAYS", "Days back from today the pair covers (default 7).", in: 0...3650)
        package static let future = Option.int("future", "DAYS", "Days ahead the pair covers (default 60).", in: 1...3650)
        package static let conflict = Option.choice(
            "conflict", "newer|a|b",
            "Who wins when an event changed on both sides: the newer edit (default), side A or side B.",
            among: SyncConflictRule.allCases.map(\.rawValue))
    }

    package static let path = ["sync", "add"]

    package static let spec = CommandSpec(
        path,
        abstract: "Add a sync pair: two calendars kept in step by 'calbridge sync'.",
        discussion: """
            Both references must name calendars of signed-in accounts; they are looked up now and the pair \
            stores each calendar by id (ACCOUNT:ID, as 'calbridge calendars' shows it), so renaming a calendar \
            does not break the pair. The side that receives changes must be writable. Nothing is copied yet: run \
            'calbridge sync NAME' (or 'calbridge sync --watch'). The window moves with the date: --past days \
            back to --future days ahead of each run. Exit code 2 for a name in use, an unknown account or \
            calendar, or a read-only target; 3 when an account must sign in again.
            """,
        options: [Options.a, Options.b, Options.direction, Options.fields, Options.past, Options.future, Options.conflict],
        positionals: [Options.name]
    )

    /// Subcommand words a pair may not be named (`calbridge sync list` must stay the listing).
    static let reservedNames: Set<String> = ["add", "list", "remove", "status", "edit", "conflicts", "help"]

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let name = arguments[Options.name]
        try validate(name: name)
        guard let refA = arguments[Options.a], let refB = arguments[Options.b] else {
            throw UsageError("sync add needs both sides: --a ACCOUNT:CALENDAR --b ACCOUNT:CALENDAR", command: spec.name)
        }
        let options = try options(arguments)
        let pairs = try SyncPairs(context: context)
        if try await pairs.all().contains(where: { $0.name == name }) {
            throw UsageError("a sync pair named '\(name)' exists already; pick another name or 'calbridge sync remove \(name)' first", command: spec.name)
        }

        let resolver = SyncCalendarResolver(accounts: AccountProviders(context: context, verbose: arguments[CommonOptions.verbose]))
        let (a, b) = try await concurrently({ try await resolver.resolve(refA, side: .a) }, { try await resolver.resolve(refB, side: .b) })
        if a.calendar.provider == b.calendar.provider, a.accountIdentity == b.accountIdentity, a.calendar.id == b.calendar.id {
            throw UsageError("--a and --b name the same calendar (\(a.label)); a pair syncs two different calendars", command: spec.name)
        }
        for (side, target) in [(SyncSide.b, b), (.a, a)] where options.direction.carries(from: side == .a ? .b : .a) {
            guard target.calendar.accessRole.canWrite else {
                throw CalendarError(
                    .readOnly,
                    "side \(side.rawValue.uppercased()) receives changes (--direction \(options.direction.rawValue)) but is read-only for this account (access: \(target.calendar.accessRole.rawValue))",
                    provider: target.calendar.provider, account: target.calendar.account, calendar: target.calendar.name)
            }
        }
        var stored = options
        stored.labelA = a.label
        stored.labelB = b.label
        let record = SyncPairRecord(
            name: name, sideA: a.storedReference, sideB: b.storedReference, options: stored.encoded(), created: context.now())
        try await pairs.add(SyncPair(record: record, options: stored), command: spec.name)
        context.print("Added sync pair '\(name)': A \(a.label) \(options.direction.arrow) B \(b.label); \(describe(options))")
        context.print("Run it with 'calbridge sync \(name)', or every pair unattended with 'calbridge sync --watch'.")
        return .success
    }

    /// Refuses names that are empty, too long, could be mistaken for an option or a subcommand, or would
    /// need quoting in a shell or a log line.
    static func validate(name: String) throws(UsageError) {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        guard !name.isEmpty, name.count <= 64, name.allSatisfy(allowed.contains), !name.hasPrefix("-"), !name.hasPrefix(".") else {
            throw UsageError(
                "a pair name is 1 to 64 letters, digits, '.', '_' or '-' (not starting with '-' or '.'), not '\(TerminalText.sanitize(name))'",
                command: spec.name)
        }
        guard !reservedNames.contains(name.lowercased()) else {
            throw UsageError("'\(name)' is a sync subcommand; pick another pair name", command: spec.name)
        }
    }

    /// The pair's options from the command line, defaults filled in.
    static func options(_ arguments: ParsedArguments) throws(UsageError) -> SyncPairOptions {
        var options = SyncPairOptions.defaults
        if let direction = arguments[Options.direction].flatMap(SyncDirection.init(rawValue:)) { options.direction = direction }
        if let fields = arguments[Options.fields].flatMap(CopyFields.init(rawValue:)) { options.fields = fields }
        if let past = arguments[Options.past] { options.pastDays = past }
        if let future = arguments[Options.future] { options.futureDays = future }
        if let conflict = arguments[Options.conflict].flatMap(SyncConflictRule.init(rawValue:)) { options.conflict = conflict }
        if let problem = options.validationProblem { throw UsageError(problem, command: spec.name) }
        return options
    }

    /// `both ways, fields basic, 7 days back to 60 ahead, conflicts: the newer edit wins`.
    static func describe(_ options: SyncPairOptions) -> String {
        let way = switch options.direction {
        case .aToB: "A to B only"
        case .bToA: "B to A only"
        case .both: "both ways"
        }
        let winner = switch options.conflict {
        case .newer: "the newer edit wins"
        case .a: "side A wins"
        case .b: "side B wins"
        }
        var text = "\(way), fields \(options.fields.rawValue), \(options.pastDays) days back to \(options.futureDays) ahead"
        if options.direction == .both { text += ", conflicts: \(winner)" }
        return text
    }
}

extension SyncDirection {
    /// `->`, `<-` or `<->`.
    var arrow: String {
        switch self {
        case .aToB: "->"
        case .bToA: "<-"
        case .both: "<->"
        }
    }
}
