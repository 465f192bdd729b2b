import CLI
import Foundation

/// The user's `calbridge` executable, which benchmarks run as a child process: the one built next to
/// the running `calbridge-bench` (SwiftPM builds both products into one directory).
enum CalbridgeExecutable {
    static func url() throws -> URL {
        let running = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let sibling = running.deletingLastPathComponent().appendingPathComponent("calbridge")
        guard FileManager.default.isExecutableFile(atPath: sibling.path) else {
            throw InputError(
                "no calbridge executable next to \(running.lastPathComponent) (\(sibling.path)); build both with "
                    + "'swift build -c release'", exitCode: .failure)
        }
        return sibling
    }
}
