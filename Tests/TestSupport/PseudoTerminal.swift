import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A pseudo-terminal: a child process gets the slave side as a standard stream (so `isatty` is true
/// there) and the test reads what the child wrote from the master side, byte for byte.
///
/// ```swift
/// let terminal = try PseudoTerminal()
/// process.standardError = FileHandle(fileDescriptor: terminal.slave, closeOnDealloc: false)
/// try process.run()
/// terminal.closeSlave()              // the child holds its own copy now
/// let written = terminal.readToEnd() // returns once the child (every slave holder) is gone
/// ```
package final class PseudoTerminal: @unchecked Sendable {
    package struct Failed: Error, CustomStringConvertible {
        package var description: String
    }

    /// The side this process reads.
    package let master: Int32
    /// The side the child writes to; -1 once closed here.
    package private(set) var slave: Int32
    /// The slave's device path (`/dev/pts/N`), for a child that opens it as its controlling terminal
    /// (`SpawnedProcess.controllingTerminal`).
    package let slavePath: String
    private let lock = NSLock()

    /// Opens a pair in raw mode, so the bytes arrive as written (no `\n` -> `\r\n`, no echo). Both
    /// descriptors are close-on-exec: no other child inherits them (which would keep the terminal open);
    /// the child it is given to gets its own copy through `dup2`, which clears the flag.
    ///
    /// `posix_openpt`, `grantpt`, `unlockpt` and `ptsname_r` are glibc's, but Swift's Glibc module is built
    /// without `_XOPEN_SOURCE`/`_GNU_SOURCE`, which their declarations need; so they are looked up by name.
    package init() throws {
        typealias Descriptor = @convention(c) (Int32) -> Int32
        typealias Name = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32
        let posix_openpt = try Self.function("posix_openpt", as: Descriptor.self)
        let grantpt = try Self.function("grantpt", as: Descriptor.self)
        let unlockpt = try Self.function("unlockpt", as: Descriptor.self)
        let ptsname_r = try Self.function("ptsname_r", as: Name.self)
        let master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0 else { throw Failed(description: "posix_openpt: " + Self.lastError()) }
        var name = [CChar](repeating: 0, count: 128)
        guard grantpt(master) == 0, unlockpt(master) == 0, ptsname_r(master, &name, name.count) == 0 else {
            let error = Self.lastError()
            close(master)
            throw Failed(description: "grantpt/unlockpt/ptsname_r: " + error)
        }
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let slave = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else {
            let error = Self.lastError()
            close(master)
            throw Failed(description: "open slave: " + error)
        }
        var settings = termios()
        if tcgetattr(slave, &settings) == 0 {
            cfmakeraw(&settings)
            _ = tcsetattr(slave, TCSANOW, &settings)
        }
        self.master = master
        self.slave = slave
        slavePath = path
    }

    /// Turns the terminal's signal characters on (raw mode has them off): a Ctrl-C (`\u{3}`) typed with
    /// `type` then sends SIGINT to the terminal's foreground process group, as at a real terminal.
    package func enableSignals() throws {
        var settings = termios()
        guard tcgetattr(master, &settings) == 0 else { throw Failed(description: "tcgetattr: " + Self.lastError()) }
        settings.c_lflag |= tcflag_t(ISIG)
        guard tcsetattr(master, TCSANOW, &settings) == 0 else { throw Failed(description: "tcsetattr: " + Self.lastError()) }
    }

    /// Types `text` at the terminal, as a user at its keyboard would.
    package func type(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { write(master, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    deinit {
        close(master)
        if slave >= 0 { close(slave) }
    }

    /// Sets the terminal's size, as a terminal emulator does (the child reads it with `TIOCGWINSZ`).
    package func setSize(columns: Int, rows: Int = 50) throws {
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        guard ioctl(master, UInt(TIOCSWINSZ), &size) == 0 else { throw Failed(description: "TIOCSWINSZ: " + Self.lastError()) }
    }

    /// Closes this process's slave descriptor (call it once the child runs), so that `readToEnd` ends
    /// when the child exits.
    package func closeSlave() {
        lock.withLock {
            if slave >= 0 { close(slave) }
            slave = -1
        }
    }

    /// Everything written to the terminal, read until no slave descriptor is left open (Linux then
    /// answers EIO). Blocks: call it off the cooperative pool.
    package func readToEnd() -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(master, &buffer, buffer.count)
            if count > 0 {
                data.append(contentsOf: buffer[0..<count])
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return data
            }
        }
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }

    /// A C library function of this process, by name.
    private static func function<F>(_ name: String, as type: F.Type) throws -> F {
        guard let process = dlopen(nil, RTLD_NOW), let address = dlsym(process, name) else {
            throw Failed(description: "no \(name) in the C library")
        }
        return unsafeBitCast(address, to: type)
    }
}
