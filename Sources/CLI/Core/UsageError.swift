/// A mistake in how calbridge was called: unknown option, missing argument, bad value. Exit code 2.
package struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String
    /// The command whose help explains the fix, if known.
    package var command: String?
    /// The executable whose `help` explains the command.
    package var program: String

    package init(_ message: String, command: String? = nil, program: String = "calbridge") {
        self.message = message
        self.command = command
        self.program = program
    }

    package var description: String {
        guard let command else { return message }
        return "\(message); see '\(program) help \(command)'"
    }
}
