import Foundation

/// What the `WindowsZonesGenerator` executable does, as a function so that tests can call it.
///
/// `WindowsZonesGenerator INPUT.xml OUTPUT.swift`: parse, check, render, and write the output only when
/// its content changed (so an unchanged table does not recompile the TimeZones module).
public enum WindowsZonesGeneratorCommand {
    /// Runs the generator; returns the process exit status and writes errors (one per line) to `errorLine`.
    public static func run(arguments: [String], errorLine: (String) -> Void) -> Int32 {
        guard arguments.count == 2 else {
            errorLine("usage: WindowsZonesGenerator INPUT.xml OUTPUT.swift")
            return 64
        }
        let (input, output) = (arguments[0], arguments[1])
        let table: WindowsZonesTable
        do {
            table = try WindowsZonesParser.parse(fileAt: input)
        } catch {
            errorLine(error.description)
            return 1
        }
        let source = SwiftTableRenderer.render(table, sourceName: URL(fileURLWithPath: input).lastPathComponent)
        let data = Data(source.utf8)
        if FileManager.default.contents(atPath: output) == data { return 0 }
        do {
            try data.write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            errorLine("\(output): error: cannot write the generated table: \(error.localizedDescription)")
            return 1
        }
        return 0
    }
}
