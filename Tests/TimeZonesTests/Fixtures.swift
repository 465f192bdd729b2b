import Foundation
import TestSupport

/// Paths of the files the time-zone tests read: the package's Fixtures/windowszones and the vendored XML.
enum Fixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func windowsZones(_ name: String) -> String {
        packageRoot.appendingPathComponent("Fixtures/windowszones/\(name)").path
    }

    static let vendoredXML = packageRoot.appendingPathComponent("Sources/TimeZones/windowsZones.xml").path

    static func text(_ path: String) throws -> String {
        try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
    }

    /// The generator executable SwiftPM built next to calbridge (the plain product, or the plugin's tool copy).
    static var generatorExecutable: URL? {
        let directory = CalbridgeBinary.url.deletingLastPathComponent()
        return ["WindowsZonesGenerator", "WindowsZonesGenerator-tool"]
            .map { directory.appendingPathComponent($0) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs a program and returns its status and stderr.
    static func run(_ executable: URL, _ arguments: [String]) async throws -> (status: Int32, stderr: String) {
        let result = try await ChildProcess.run(executable, arguments)
        return (result.status, result.stderr)
    }
}
