import CalbridgeSupport
import Foundation
import TestSupport
import Testing

/// The user units in contrib/systemd as systemd itself reads them (`systemd-analyze verify --user`, which
/// reports unknown keys, bad values and a missing ExecStart binary), and what they must say for
/// `sync --watch` to be stopped and restarted the way the README documents. A container has no user manager
/// to run them under; this is as close as the tests get.
@Suite("contrib/systemd user units")
struct SystemdUnitTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let units = packageRoot.appendingPathComponent("contrib/systemd")
    static let analyzer = "/usr/bin/systemd-analyze"

    static func text(_ name: String) throws -> String {
        try String(contentsOf: units.appendingPathComponent(name), encoding: .utf8)
    }

    @Test("the service runs 'sync --watch', stops by SIGTERM, and is not restarted after a usage error (exit 2)")
    func serviceSettings() throws {
        let service = try Self.text("calbridge-sync.service")
        let lines = Set(service.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(lines.contains { $0.hasPrefix("ExecStart=") && $0.hasSuffix("calbridge sync --watch --interval 5m") })
        for setting in ["Type=simple", "KillSignal=SIGTERM", "Restart=on-failure", "RestartPreventExitStatus=2", "WantedBy=default.target"] {
            #expect(lines.contains(setting), "\(setting) missing")
        }
        let timer = try Self.text("calbridge-sync.timer")
        #expect(timer.contains("Unit=calbridge-sync.service"))
    }

    @Test("systemd-analyze verify --user accepts both units, with ExecStart pointing at the built calbridge",
          .enabled(if: FileManager.default.isExecutableFile(atPath: analyzer)))
    func verify() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("calbridge-units-\(UUID().uuidString)")
        let runtime = directory.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        for name in ["calbridge-sync.service", "calbridge-sync.timer"] {
            let text = try Self.text(name).replacingOccurrences(of: "%h/.local/bin/calbridge", with: CalbridgeBinary.url.path)
            let url = directory.appendingPathComponent(name)
            try text.write(to: url, atomically: true, encoding: .utf8)
            paths.append(url.path)
        }
        let process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: Self.analyzer)
        process.arguments = ["verify", "--user"] + paths
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtime.path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(said.isEmpty, "systemd-analyze found problems:\n\(said)")
    }
}
