import Accounts
import Foundation

/// Somewhere text goes: the process's stdout or stderr, or a buffer in tests.
public protocol TextSink: Sendable {
    func write(_ text: String)
}

/// Writes to a file descriptor (1 or 2) without buffering surprises between the two streams.
public struct FileDescriptorSink: TextSink {
    public let descriptor: Int32
    public init(descriptor: Int32) { self.descriptor = descriptor }

    public func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { raw in
                Foundation.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
            }
            if written <= 0 {
                if written < 0, errno == EINTR { continue }
                return
            }
            offset += written
        }
        bytes.removeAll()
    }

    public var isTerminal: Bool { isatty(descriptor) == 1 }
}

/// Collects text in memory (tests, and commands that render before printing).
public final class BufferSink: TextSink, @unchecked Sendable {
    private let lock = NSLock()
    private var storage = ""
    public init() {}
    public func write(_ text: String) { lock.withLock { storage += text } }
    public var text: String { lock.withLock { storage } }
}

/// What a command may touch of the outside world: output streams, environment, the clock.
/// Tests hand in buffers and a fixed clock; `main` hands in the real ones.
public struct CommandContext: Sendable {
    public var stdout: any TextSink
    public var stderr: any TextSink
    public var environment: [String: String]
    public var stdoutIsTerminal: Bool
    public var stderrIsTerminal: Bool
    public var now: @Sendable () -> Date
    /// The providers commands can talk to (tests add their own).
    public var providers: ProviderRegistry

    public init(
        stdout: any TextSink,
        stderr: any TextSink,
        environment: [String: String],
        stdoutIsTerminal: Bool = false,
        stderrIsTerminal: Bool = false,
        now: @escaping @Sendable () -> Date = { Date() },
        providers: ProviderRegistry = .builtIn
    ) {
        self.stdout = stdout
        self.stderr = stderr
        self.environment = environment
        self.stdoutIsTerminal = stdoutIsTerminal
        self.stderrIsTerminal = stderrIsTerminal
        self.now = now
        self.providers = providers
    }

    /// The real process: fds 1 and 2, the process environment, the system clock.
    public static func process() -> CommandContext {
        let out = FileDescriptorSink(descriptor: 1)
        let err = FileDescriptorSink(descriptor: 2)
        return CommandContext(
            stdout: out,
            stderr: err,
            environment: ProcessInfo.processInfo.environment,
            stdoutIsTerminal: out.isTerminal,
            stderrIsTerminal: err.isTerminal
        )
    }

    /// Prints one line (or several, separated by LF) on stdout, with control characters neutralised
    /// (`TerminalText`): what is printed may come from a server.
    public func print(_ line: String = "") { stdout.write(TerminalText.sanitize(line, keepingLayout: true) + "\n") }

    /// Prints one line on stderr, with control characters neutralised as `print` does.
    public func printError(_ line: String) { stderr.write(TerminalText.sanitize(line, keepingLayout: true) + "\n") }
}
