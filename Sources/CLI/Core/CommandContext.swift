import Accounts
import CalendarBridge
import Foundation
import ProviderSeam

/// Somewhere text goes: the process's stdout or stderr, or a buffer in tests.
package protocol TextSink: Sendable {
    func write(_ text: String)
}

/// Writes to a file descriptor (1 or 2) without buffering surprises between the two streams.
package struct FileDescriptorSink: TextSink {
    package let descriptor: Int32
    package init(descriptor: Int32) { self.descriptor = descriptor }

    package func write(_ text: String) {
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

    package var isTerminal: Bool { isatty(descriptor) == 1 }

    /// The width of the terminal on this descriptor (`TIOCGWINSZ`), or nil when it is none or says 0.
    package var terminalColumns: Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}

/// Collects text in memory (tests, and commands that render before printing).
package final class BufferSink: TextSink, @unchecked Sendable {
    private let lock = NSLock()
    private var storage = ""
    package init() {}
    package func write(_ text: String) { lock.withLock { storage += text } }
    package var text: String { lock.withLock { storage } }
}

/// What a command may touch of the outside world: output streams, environment, the clock.
/// Tests hand in buffers and a fixed clock; `main` hands in the real ones.
package struct CommandContext: Sendable {
    package var stdout: any TextSink
    package var stderr: any TextSink
    package var environment: [String: String]
    package var stdoutIsTerminal: Bool
    package var stderrIsTerminal: Bool
    /// The terminal's width in columns when stdout is one and it answers `TIOCGWINSZ` (nil otherwise;
    /// `COLUMNS` is the fallback, see `terminalWidth`).
    package var stdoutColumns: Int?
    package var now: @Sendable () -> Date
    /// The providers commands can talk to (tests add their own).
    package var providers: ProviderRegistry
    /// The user's `config.toml` (empty when there is none), read once per command line.
    package var configuration = CalbridgeConfig(path: "")
    /// Whether `$TZ` was unset and the configuration's `zone` stands in for it.
    package var zoneFromConfiguration = false
    /// Where a password typed by the user is read from (stdin; tests hand in lines).
    package var secretInput: any SecretInput = StandardInput()
    /// What a command is done with but need not free: the process exits right after the command
    /// (`process()` only; nil in tests, which run many commands in one process).
    package var exitKeeper: ExitKeeper?

    package init(
        stdout: any TextSink,
        stderr: any TextSink,
        environment: [String: String],
        stdoutIsTerminal: Bool = false,
        stderrIsTerminal: Bool = false,
        stdoutColumns: Int? = nil,
        now: @escaping @Sendable () -> Date = { Date() },
        providers: ProviderRegistry = .builtIn
    ) {
        self.stdout = stdout
        self.stderr = stderr
        self.environment = environment
        self.stdoutIsTerminal = stdoutIsTerminal
        self.stderrIsTerminal = stderrIsTerminal
        self.stdoutColumns = stdoutColumns
        self.now = now
        self.providers = providers
    }

    /// The real process: fds 1 and 2, the process environment, the system clock.
    package static func process() -> CommandContext {
        let out = FileDescriptorSink(descriptor: 1)
        let err = FileDescriptorSink(descriptor: 2)
        var context = CommandContext(
            stdout: out,
            stderr: err,
            environment: ProcessInfo.processInfo.environment,
            stdoutIsTerminal: out.isTerminal,
            stderrIsTerminal: err.isTerminal,
            stdoutColumns: out.isTerminal ? out.terminalColumns : nil
        )
        context.exitKeeper = ExitKeeper()
        return context
    }

    /// Prints one line (or several, separated by LF) on stdout, with control characters neutralised
    /// (`TerminalText`): what is printed may come from a server.
    package func print(_ line: String = "") { stdout.write(TerminalText.sanitize(line, keepingLayout: true) + "\n") }

    /// Prints a JSON document whose strings already escape everything a terminal may act on
    /// (`PrettyJSONWriter`'s text, `TerminalText.escapeJSON`'s result), as it is: `print` would replace
    /// such characters in values, where the escapes keep them.
    package func printJSON(_ json: String) {
        assert(!TerminalText.containsUnsafe(json, c0: true, keepingLayout: true), "printJSON of unescaped text")
        stdout.write(json + "\n")
    }

    /// Prints one line on stderr, with control characters neutralised as `print` does.
    package func printError(_ line: String) { stderr.write(TerminalText.sanitize(line, keepingLayout: true) + "\n") }
}
