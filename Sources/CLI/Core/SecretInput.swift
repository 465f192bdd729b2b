import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Where a command reads a secret typed by the user (a password): the process's stdin, or lines a test
/// hands in (`ScriptedInput` in the CLI tests). Nothing read here is echoed, printed or logged.
package protocol SecretInput: Sendable {
    /// Whether a person types at it (a terminal): then a prompt is shown and nothing is echoed.
    var isTerminal: Bool { get }
    /// One line without its line break; nil at end of input (or Ctrl-C / Ctrl-D at a terminal).
    func readSecretLine() -> String?
    /// One line typed visibly (an answer to a question), read as `readSecretLine` reads; nil at end of input
    /// or Ctrl-C. Default: `readSecretLine()`.
    func readAnswerLine() -> String?
}

extension SecretInput {
    package func readAnswerLine() -> String? { readSecretLine() }
}

/// File descriptor 0. At a terminal the line is read with echo, canonical mode and signals off, byte by
/// byte, and the terminal's settings are put back before returning: Ctrl-C then cancels the read instead of
/// killing the process with echo left off.
package struct StandardInput: SecretInput {
    package init() {}

    package var isTerminal: Bool { isatty(0) == 1 }

    package func readSecretLine() -> String? { readLine(echo: false) }

    /// At a terminal, each byte typed is echoed on stderr (and a deleted one rubbed out) as it comes.
    package func readAnswerLine() -> String? { readLine(echo: true) }

    private func readLine(echo: Bool) -> String? {
        var saved = termios()
        guard isTerminal, tcgetattr(0, &saved) == 0 else { return Self.readLine() }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG)
        withUnsafeMutableBytes(of: &quiet.c_cc) {
            $0[Int(VMIN)] = 1; $0[Int(VTIME)] = 0
        }
        // A secret drops what was typed before the prompt; an answer keeps it (typed ahead of the question).
        guard tcsetattr(0, echo ? TCSANOW : TCSAFLUSH, &quiet) == 0 else { return Self.readLine() }
        defer { tcsetattr(0, echo ? TCSANOW : TCSAFLUSH, &saved) }
        var bytes: [UInt8] = []
        let terminal = FileDescriptorSink(descriptor: 2)
        func show(_ text: String) { if echo { terminal.write(text) } }
        func showByte(_ byte: UInt8) {
            var byte = byte
            if echo { _ = write(2, &byte, 1) }
        }
        while true {
            var byte: UInt8 = 0
            let count = read(0, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return nil }
            switch byte {
            case 0x0A, 0x0D:
                show("\n")
                return String(decoding: bytes, as: UTF8.self)
            case 0x03:  // Ctrl-C
                show("\n")
                return nil
            case 0x04:  // Ctrl-D on an empty line
                if bytes.isEmpty {
                    show("\n")
                    return nil
                }
            case 0x7F, 0x08:  // a UTF-8 tail byte at a time: close enough
                if !bytes.isEmpty {
                    bytes.removeLast()
                    show("\u{8} \u{8}")
                }
            case 0x15:  // Ctrl-U
                show(String(repeating: "\u{8} \u{8}", count: bytes.count))
                bytes.removeAll()
            default:
                bytes.append(byte)
                // Only printable bytes are echoed: a typed escape sequence must not act on the terminal.
                if byte >= 0x20 && byte != 0x7F { showByte(byte) }
            }
        }
    }

    /// One line of a pipe or file, at most 64 KiB (a password is short).
    private static func readLine() -> String? {
        var bytes: [UInt8] = []
        while bytes.count < 65_536 {
            var byte: UInt8 = 0
            let count = read(0, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == 0x0A { break }
            bytes.append(byte)
        }
        if bytes.last == 0x0D { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
