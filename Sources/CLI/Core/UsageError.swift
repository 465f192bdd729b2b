/// A mistake in how calbridge was called: unknown option, missing argument, bad value. Exit code 2.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    /// The command whose help explains the fix, if known.
    public var command: String?
    /// The executable whose `help` explains the command.
    public var program: String

    public init(_ message: String, command: String? = nil, program: String = "calbridge") {
        self.message = message
        self.command = command
        self.program = program
    }

    public var description: String {
        guard let command else { return message }
        return "\(message); see '\(program) help \(command)'"
    }
}
