import Foundation

/// Why a sandbox could not start or save its state. Each says what to fix; none carries a token.
package enum SandboxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `--seed FILE` is unreadable or not a seed document.
    case badSeed(String)
    /// `--state FILE` exists but is not a sandbox state file.
    case badState(path: String, reason: String)
    /// The port is taken or no socket could be made.
    case cannotStart(String)
    /// `--state` or `--log` or `--write-descriptors` could not be written.
    case cannotWrite(path: String, reason: String)

    package var description: String {
        switch self {
        case .badSeed(let reason): "the seed data is not usable: \(reason)"
        case .badState(let path, let reason):
            "the state file \(path) is not a sandbox state (\(reason)); delete it or pass another --state path"
        case .cannotStart(let reason): "the sandbox could not start: \(reason)"
        case .cannotWrite(let path, let reason): "could not write \(path): \(reason)"
        }
    }

    /// True for mistakes in what the user passed (exit code 2), false for runtime failures.
    package var isInputError: Bool {
        switch self {
        case .badSeed, .badState: true
        case .cannotStart, .cannotWrite: false
        }
    }
}
