import Accounts
import CalendarBridge
import Foundation
import OAuth
import Sandbox

/// `calbridge demo`: the whole everyday flow against the in-process sandbox, in a temporary home.
package enum DemoCommand: Command {
    /// The options and arguments, declared once: the spec, help and parser read these, and so does `run`.
    package enum Options {
        package static let tz = ZoneOptions.option("Show times in this zone (default: $TZ, else the system zone).")
    }

    package static let path = ["demo"]

    package static let spec = CommandSpec(
        path,
        abstract: "Run the whole flow against a built-in sandbox (no account, no network).",
        discussion: """
            Starts the sandbox (emulated Google Calendar, Microsoft Graph, both sign-in servers and an
            iCloud-like CalDAV service) on 127.0.0.1 in this process, with a temporary calbridge home that is
            removed afterwards. Signs in one Google user (browser flow, a stand-in browser follows the sign-in
            URL), one Outlook user (device flow, approved by the sandbox) and one CalDAV user (app password),
            lists all calendars, quick-adds the same sentence to each (Outlook and CalDAV: calbridge's own
            parser; Google: Google's quickAdd), shows this week's events of each, copies this week's Outlook
            events to Google twice (the second run writes nothing) and to the CalDAV calendar, and shows the results.
            Every step is the real command; its command line is printed before its output.
            """,
        options: [Options.tz]
    )

    static let sentence = "Lunch with Ann tomorrow 1pm at Cafe Luna"

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let zone = try ZoneOptions.displayZone(arguments[Options.tz], environment: context.environment, command: spec.name)
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("calbridge-demo-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }

        var options = SandboxOptions()
        options.autoApprove = true
        // The sandbox approves the device code at the first poll, and asks for no pause between polls.
        options.devicePolicy = .init(approveAfterPolls: 0, interval: 0)
        options.now = context.now
        let sandbox = try await SandboxServer.start(options)
        let result: ExitCode
        do {
            result = try await Demo(context: context, sandbox: sandbox, home: home, zone: zone).run()
        } catch {
            try? await sandbox.stop()
            throw error
        }
        try await sandbox.stop()
        return result
    }
}

/// The demo's steps and how they are shown.
private struct Demo {
    let context: CommandContext
    let sandbox: SandboxServer
    let home: URL
    let zone: TimeZone

    /// The environment every step runs in: the temporary home, times in the chosen zone.
    var environment: [String: String] {
        var environment = context.environment
        environment["CALBRIDGE_HOME"] = home.appendingPathComponent("home").path
        environment["TZ"] = zone.identifier
        return environment
    }

    /// The services of the sandbox's list that have a demo part, in the list's order (sign-ins), and by
    /// their `order` (quick adds, week views).
    var accounts: [(service: String, account: SandboxDemoAccount)] {
        SandboxServices.list.compactMap { service in service.demo.map { (service.name, $0) } }
    }

    func run() async throws -> ExitCode {
        let started = ContinuousClock.now
        let accounts = self.accounts
        let ordered = accounts.enumerated().sorted { ($0.element.account.order, $0.offset) < ($1.element.account.order, $1.offset) }
            .map(\.element)
        section("1. A sandbox instead of real accounts")
        context.print(
            "Emulated Microsoft Graph and its sign-in at \(sandbox.info.url), Google Calendar and its sign-in at "
                + "\(sandbox.info.googleURL),")
        context.print("an iCloud-like CalDAV service at \(sandbox.info.url)/ (this process, 127.0.0.1 only);")
        context.print("calbridge's home is a temporary directory, removed at the end.")

        section("2. Sign in (the real sign-ins)")
        let signIn = try SandboxSignIn(
            sandbox: sandbox, environment: environment, descriptorDirectory: home.appendingPathComponent("descriptors"))
        for (service, account) in accounts {
            context.print(commandLine(signIn.signInArguments(account, service: service)))
            context.print("  " + account.signInNote)
            guard try check(await signIn.signIn(account, service: service)) else { return .failure }
        }

        section("3. Every calendar of every account")
        guard await step(["calendars"]) else { return .failure }

        section("4. Quick add \"\(DemoCommand.sentence)\"")
        for (index, (_, account)) in ordered.enumerated() {
            if index > 0 { context.print("") }
            context.print(account.quickAddNote)
            guard await step(["quick-add", "\(account.name):\(account.calendar)", DemoCommand.sentence]) else { return .failure }
        }

        section("5. This week's events of every account")
        for (index, (_, account)) in ordered.enumerated() {
            if index > 0 { context.print("") }
            guard await step(weekArguments("\(account.name):\(account.calendar)")) else { return .failure }
        }

        let byService = Dictionary(accounts.map { ($0.service, $0.account) }, uniquingKeysWith: { a, _ in a })
        if let outlook = byService["microsoft"], let google = byService["google"] {
            let source = "\(outlook.name):\(outlook.calendar)"
            section("6. Copy this week's Outlook events to Google")
            context.print("Series stay series, zones stay zones, attendees are never invited; every copy carries an origin marker.")
            let copy = ["copy", source, "\(google.name):\(google.calendar)"] + weekWindow()
            guard await step(copy) else { return .failure }
            context.print("")
            context.print("The same copy again: every copy is found by its marker, nothing is written (0 created, 0 updated).")
            guard await step(copy) else { return .failure }
            context.print("")
            guard await step(weekArguments("\(google.name):\(google.calendar)")) else { return .failure }
            if let caldav = byService["caldav"] {
                section("7. And to iCloud (CalDAV)")
                context.print("Each copy is one iCalendar resource, created with If-None-Match: * (a retried create cannot make a second).")
                guard await step(["copy", source, "\(caldav.name):\(caldav.calendar)"] + weekWindow()) else { return .failure }
                context.print("")
                guard await step(weekArguments("\(caldav.name):\(caldav.calendar)")) else { return .failure }
            }
        }

        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        context.print("")
        context.print("Done in \(String(format: "%.1f", seconds)) s; \(sandbox.requestLog.count) requests, all to 127.0.0.1.")
        return .success
    }

    /// This week; on a Sunday "tomorrow" is next week, so the next 7 days instead.
    func weekArguments(_ ref: String) -> [String] {
        let today = LocalDate(instant: context.now(), in: zone)
        var calendar = Foundation.Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        if calendar.component(.weekday, from: context.now()) == 1 {
            return ["events", ref, "--from", today.description]
        }
        return ["events", ref]
    }

    /// The days `weekArguments` shows: Monday to Sunday of this week, or on a Sunday the next 7 days.
    func weekWindow() -> [String] {
        let today = LocalDate(instant: context.now(), in: zone)
        var calendar = Foundation.Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        // Foundation's weekday: 1 = Sunday ... 7 = Saturday.
        let weekday = calendar.component(.weekday, from: context.now())
        let first = weekday == 1 ? today : today.adding(days: -(weekday - 2))
        return ["--from", first.description, "--to", first.adding(days: 6).description]
    }

    func commandLine(_ arguments: [String]) -> String {
        "$ calbridge " + arguments.map(AccountRecord.shellQuoted).joined(separator: " ")
    }

    func section(_ title: String) {
        context.print("")
        context.print("== \(title) ==")
    }

    /// Shows a sign-in's result; on failure what it printed on stderr.
    func check(_ outcome: SandboxSignIn.Outcome) throws -> Bool {
        outcome.stdout.split(separator: "\n").forEach { context.print(String($0)) }
        guard outcome.exitCode == .success else {
            context.printError(outcome.stderr.trimmingCharacters(in: .whitespacesAndNewlines))
            return false
        }
        return true
    }

    /// Runs one calbridge command in-process, printing its command line and output.
    func step(_ arguments: [String]) async -> Bool {
        context.print(commandLine(arguments))
        let err = BufferSink()
        let sub = CommandContext(stdout: context.stdout, stderr: err, environment: environment, now: context.now)
        let code = await CalbridgeCLI.run(arguments, context: sub)
        guard code == .success else {
            context.printError(err.text.trimmingCharacters(in: .whitespacesAndNewlines))
            context.printError("calbridge demo: the step 'calbridge \(arguments.joined(separator: " "))' failed (exit \(code.rawValue))")
            return false
        }
        return true
    }
}
