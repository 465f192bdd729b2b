import Foundation

/// A fresh directory under the system temp dir, removed by `remove()`.
package struct TemporaryDirectory: Sendable {
    package let url: URL

    package init(prefix: String = "calbridge-test") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    package var path: String { url.path }

    package func remove() { try? FileManager.default.removeItem(at: url) }
}
