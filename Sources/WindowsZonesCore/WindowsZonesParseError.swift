/// Why a `windowsZones.xml` was rejected: the file, the line and what was wrong.
///
/// Its description has the compiler's `file:line: error: message` shape, so a failing build shows it
/// like any other build error.
public struct WindowsZonesParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file as named to the parser.
    public var file: String
    /// 1-based line number (0 when the file could not be read at all).
    public var line: Int
    public var message: String

    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { "\(file):\(line): error: \(message)" }
}
