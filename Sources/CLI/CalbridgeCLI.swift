import Accounts

/// The command-line entry point: finds the command, parses its arguments, runs it, reports errors.
package enum CalbridgeCLI {
    /// Runs one command line (without the program name) and returns the exit code.
    /// - Parameter suite: the executable whose commands are meant (`calbridge` unless told).
    package static func run(_ arguments: [String], context: CommandContext, suite: CommandSuite = .calbridge) async -> ExitCode {
        do {
            return try await dispatch(arguments, context: context, suite: suite)
        } catch {
            let code = ErrorReporting.exitCode(for: error)
            context.printError("\(suite.program): error: \(ErrorReporting.message(for: error, environment: context.environment))")
            return code
        }
    }

    private static func dispatch(_ arguments: [String], context: CommandContext, suite: CommandSuite) async throws -> ExitCode {
        // `calbridge --verbose COMMAND ...`: an option for every command, given before the command's words.
        var arguments = arguments
        if arguments.first == "--verbose", arguments.count > 1 {
            arguments.removeFirst()
            arguments.append("--verbose")
        }
        guard let first = arguments.first else {
            // No command: the overview, on stderr, as a usage error (a script that forgot its command fails).
            context.printError(HelpText.general(suite.commands, in: suite, width: context.helpWidth))
            return .usage
        }
        switch first {
        case "--help", "-h":
            context.print(HelpText.general(suite.commands, in: suite, width: context.helpWidth))
            return .success
        case "--version", "-V":
            return try await VersionCommand.run(ParsedArguments(), context: context)
        case "help":
            return try help(for: arguments.dropFirst().filter { $0 != "--verbose" }, context: context, suite: suite)
        default:
            break
        }
        guard let (command, used) = suite.match(arguments) else {
            // The deepest group the words name (`org quota` in `org quota show`), so that the choices offered are
            // that group's next words, not every leaf under its first word.
            if let prefix = suite.deepestGroup(arguments) {
                let group = suite.group(prefix)
                let named = suite.program + " " + prefix.joined(separator: " ")
                if let next = arguments.dropFirst(prefix.count).first, next == "--help" || next == "-h" {
                    context.print(HelpText.general(group, in: suite, width: context.helpWidth))
                    return .success
                }
                let sub =
                    arguments.dropFirst(prefix.count).first.map { "unknown command '\(named) \($0)'" } ?? "'\(named)' needs a subcommand"
                var names: [String] = []
                for command in group where !names.contains(command.path[prefix.count]) { names.append(command.path[prefix.count]) }
                throw UsageError("\(sub); choose one of: \(names.joined(separator: ", "))")
            }
            if first.hasPrefix("-") {
                throw UsageError("unknown option '\(first)'; see '\(suite.program) --help'")
            }
            let names = suite.commands.compactMap { $0.path.first }
            let hint = ArgumentParser.nearest(first, among: names).map { " (did you mean '\($0)'?)" } ?? ""
            throw UsageError("unknown command '\(first)'\(hint); see '\(suite.program) --help'")
        }
        var context = context
        context.configuration = try CalbridgeConfig.load(home: CalbridgeHome(environment: context.environment))
        if context.environment["TZ"]?.isEmpty ?? true, let zone = context.configuration.zone,
            let iana = CalbridgeConfig.ianaZone(zone.value)
        {
            context.environment["TZ"] = iana
            context.zoneFromConfiguration = true
        }
        let parsed = try ArgumentParser.parse(
            Array(arguments.dropFirst(used)), for: command.spec, defaults: context.configuration.argumentDefaults(for: command.spec))
        if parsed[CommonOptions.help] {
            context.print(HelpText.command(command.spec, width: context.helpWidth))
            return .success
        }
        return try await command.run(parsed, context: context)
    }

    private static func help(for words: [String], context: CommandContext, suite: CommandSuite) throws -> ExitCode {
        if words.isEmpty {
            context.print(HelpText.general(suite.commands, in: suite, width: context.helpWidth))
            return .success
        }
        if words == ["--man"] {
            context.print(String(ManPage.render(suite, version: VersionCommand.calbridgeVersion).dropLast()))
            return .success
        }
        if words == ["help"] {
            let text = """
                Usage: \(suite.program) help [COMMAND...]
                       \(suite.program) help --man

                Shows the help of a command (\(suite.program) help events, \(suite.program) help sync add), of a \
                group of commands (\(suite.program) help accounts), or without COMMAND the overview of every \
                command. '\(suite.program) COMMAND --help' shows the same. With --man, prints the manual page of \
                every command (roff; read it with 'man -l -', install it as calbridge.1 in a man1 directory).
                """
            context.print(TextWrap.block(text, width: context.helpWidth).joined(separator: "\n"))
            return .success
        }
        if let (command, used) = suite.match(words), used == words.count {
            context.print(HelpText.command(command.spec, width: context.helpWidth))
            return .success
        }
        let group = suite.group(words[0])
        if words.count == 1, !group.isEmpty {
            context.print(HelpText.general(group, in: suite, width: context.helpWidth))
            return .success
        }
        throw UsageError("no help for unknown command '\(words.joined(separator: " "))'; see '\(suite.program) --help'")
    }
}
