/// calbridge's exit codes, the same for every command (also listed in `--help` and the README).
package enum ExitCode: Int32, Sendable, CaseIterable {
    /// Everything asked for was done.
    case success = 0
    /// A runtime or provider failure (network, server error, unexpected answer).
    case failure = 1
    /// A usage or input error: unknown option, bad date, unknown account or calendar.
    case usage = 2
    /// Sign-in needed again: the grant was revoked or expired (`calbridge accounts add ...` fixes it).
    case reauthenticate = 3
    /// Partly done: some items failed, the rest were applied.
    case partial = 4

    package var meaning: String {
        switch self {
        case .success: "success"
        case .failure: "a runtime or provider failure"
        case .usage: "a usage or input error"
        case .reauthenticate: "sign-in needed again"
        case .partial: "partly done (some items failed, the rest applied)"
        }
    }

    /// The help text block listing every exit code.
    package static var helpText: String {
        "Exit codes:\n" + allCases.map { "  \($0.rawValue)  \($0.meaning)" }.joined(separator: "\n")
    }
}
