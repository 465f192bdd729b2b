import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`, for the few places calbridge and its tests start programs
/// (a browser, benchmark children, the binary under test). Foundation's `Process` is not used: on Linux
/// (swift-corelibs-foundation in Swift 6.3.1, its issue #5472) `Process.run()` scans `/proc/self/fd` and
/// copies 256 bytes out of each 24-32-byte `readdir` entry, and dies with SIGSEGV when the last one sits
/// before an unmapped page. CI hit it twice on 2026-12-02, once with every launch serialised.
///
/// The part of `Process`'s interface calbridge uses: set the properties, `run()`, then `isRunning`,
/// `waitUntilExit()`, `terminationStatus`, `terminationReason`, `terminationHandler`. A standard stream is
/// a `Pipe` (the child gets its far end; the near end stays with the caller), a `FileHandle`, or nil
/// (inherited). The child gets no other descriptor of this process (`closefrom(3)` in the child).
package final class SpawnedProcess: @unchecked Sendable {
    package enum TerminationReason: Sendable { case exit, uncaughtSignal }

    package struct SpawnError: Error, CustomStringConvertible {
        package var description: String
    }

    package var executableURL: URL?
    package var arguments: [String] = []
    /// The child's environment; nil: this process's.
    package var environment: [String: String]?
    package var standardInput: Any?
    package var standardOutput: Any?
    package var standardError: Any?
    /// A terminal device (a pseudo-terminal's slave path) to start the child at, as a terminal emulator starts
    /// a shell: in a session of its own, with the terminal as its controlling terminal and as each standard
    /// stream not set otherwise, SIGINT and SIGTERM at their default action. A Ctrl-C typed there (with the
    /// terminal's ISIG on) then sends SIGINT to the child's process group. Nil: none (the default).
    package var controllingTerminal: String?
    /// Called once, on a thread of its own, when the child has exited.
    package var terminationHandler: (@Sendable (SpawnedProcess) -> Void)?

    private let condition = NSCondition()
    private var pid: pid_t = 0
    /// The raw `waitpid` status, once the child has exited.
    private var waitStatus: Int32?

    package init() {}

    package var processIdentifier: Int32 { condition.withLock { pid } }
    package var isRunning: Bool { condition.withLock { pid != 0 && waitStatus == nil } }

    /// The exit code, or the signal that ended the child (as `Process` reports them).
    package var terminationStatus: Int32 {
        guard let status = condition.withLock({ waitStatus }) else { return 0 }
        return status & 0x7f == 0 ? (status >> 8) & 0xff : status & 0x7f
    }

    package var terminationReason: TerminationReason {
        guard let status = condition.withLock({ waitStatus }) else { return .exit }
        return status & 0x7f == 0 ? .exit : .uncaughtSignal
    }

    /// Sends SIGTERM.
    package func terminate() {
        let pid = processIdentifier
        if pid > 0 { kill(pid, SIGTERM) }
    }

    package func waitUntilExit() {
        condition.lock()
        while pid != 0 && waitStatus == nil { condition.wait() }
        condition.unlock()
    }

    package func run() throws {
        #if canImport(Glibc)
        guard let executable = executableURL?.path else { throw SpawnError(description: "no executable set") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let streams: [(Any?, Int32, Bool)] = [(standardInput, 0, true), (standardOutput, 1, false), (standardError, 2, false)]
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        if let controllingTerminal {
            // POSIX_SPAWN_SETSID (0x80) is glibc's (2.26), not in Swift's Glibc module (it needs _GNU_SOURCE). The
            // session leader's first open of a terminal without O_NOCTTY makes it the controlling terminal.
            let setsid = 0x80
            posix_spawnattr_setflags(&attributes, Int16(setsid) | Int16(POSIX_SPAWN_SETSIGDEF) | Int16(POSIX_SPAWN_SETSIGMASK))
            var defaults = sigset_t()
            sigemptyset(&defaults)
            sigaddset(&defaults, SIGINT)
            sigaddset(&defaults, SIGTERM)
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            var none = sigset_t()
            sigemptyset(&none)
            posix_spawnattr_setsigmask(&attributes, &none)
            posix_spawn_file_actions_addopen(&actions, 0, controllingTerminal, O_RDWR, 0)
            for (stream, target, _) in streams where target > 0 && stream == nil { posix_spawn_file_actions_adddup2(&actions, 0, target) }
        }
        for (stream, target, isInput) in streams {
            guard let fd = Self.descriptor(stream, childReads: isInput) else { continue }
            if fd < 0 {
                // `FileHandle.nullDevice` has no descriptor on Linux (-1): the child opens /dev/null.
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_RDWR, 0)
            } else {
                posix_spawn_file_actions_adddup2(&actions, fd, target)
            }
        }
        Self.closeFrom(3, in: &actions)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let environmentLines = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        let envp = environmentLines.map { strdup($0) } + [nil]
        defer { for pointer in envp { free(pointer) } }

        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw SpawnError(description: "cannot start \(executable): \(String(cString: strerror(result)))")
        }
        condition.withLock { pid = child }
        // The child holds its ends of the pipes now; the caller keeps only its own.
        for (stream, _, isInput) in streams {
            guard let pipe = stream as? Pipe else { continue }
            try? (isInput ? pipe.fileHandleForReading : pipe.fileHandleForWriting).close()
        }
        let spawned = child
        let waiter = Thread { [self] in
            var status: Int32 = 0
            while waitpid(spawned, &status, 0) == -1 && errno == EINTR {}
            condition.withLock {
                waitStatus = status
                condition.broadcast()
            }
            terminationHandler?(self)
        }
        waiter.start()
        #else
        throw SpawnError(description: "starting programs is implemented for Linux only")
        #endif
    }

    #if canImport(Glibc)
    /// The descriptor the child gets for a stream: a pipe's far end, a file handle's own.
    private static func descriptor(_ stream: Any?, childReads: Bool) -> Int32? {
        if let pipe = stream as? Pipe {
            return childReads ? pipe.fileHandleForReading.fileDescriptor : pipe.fileHandleForWriting.fileDescriptor
        }
        return (stream as? FileHandle)?.fileDescriptor
    }

    /// Closes every descriptor from `lowest` on in the child: glibc's `posix_spawn_file_actions_addclosefrom_np`
    /// (2.34 and later; not in Swift's Glibc module, hence dlsym), else each one below the descriptor limit.
    private static func closeFrom(_ lowest: Int32, in actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
            let closeFrom = unsafeBitCast(symbol, to: CloseFrom.self)
            if closeFrom(&actions, lowest) == 0 { return }
        }
        let limit = min(Int32(clamping: sysconf(Int32(_SC_OPEN_MAX))), 65_536)
        for fd in lowest..<max(lowest, limit) { posix_spawn_file_actions_addclose(&actions, fd) }
    }
    #endif
}
