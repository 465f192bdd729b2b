import Foundation

/// The seed data of both API emulators: the compiled-in files, or the two halves of a `--seed FILE`
/// (`{"google": <google seed>, "microsoft": <microsoft seed>}`).
package struct SandboxSeed: Sendable, Equatable {
    /// The Google Calendar emulator's seed document.
    package var google: Data
    /// The Graph emulator's seed document.
    package var microsoft: Data

    package init(google: Data, microsoft: Data) {
        self.google = google
        self.microsoft = microsoft
    }

    /// Fixtures/sandbox/google.json and microsoft.json, compiled into the module.
    package static var builtIn: SandboxSeed {
        SandboxSeed(google: Data(PackageResources.google_json), microsoft: Data(PackageResources.microsoft_json))
    }

    /// Splits a combined seed file. A missing half falls back to the compiled-in one.
    package static func parse(_ data: Data) throws(SandboxError) -> SandboxSeed {
        guard let object = try? JSONSerialization.jsonObject(with: data), let top = object as? [String: Any] else {
            throw .badSeed("it is not a JSON object like {\"google\": {...}, \"microsoft\": {...}}")
        }
        let unknown = top.keys.filter { $0 != "google" && $0 != "microsoft" }.sorted()
        guard unknown.isEmpty else { throw .badSeed("unknown key '\(unknown[0])' (expected \"google\" and \"microsoft\")") }
        var seed = builtIn
        for (key, value) in top {
            guard value is [String: Any], let part = try? JSONSerialization.data(withJSONObject: value) else {
                throw .badSeed("\"\(key)\" must be a JSON object")
            }
            if key == "google" { seed.google = part } else { seed.microsoft = part }
        }
        return seed
    }
}
