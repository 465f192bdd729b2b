import Foundation

/// The seed data of the API emulators, one part per service (`SandboxService.name`): the compiled-in parts
/// (`SandboxService.builtInSeed`), or the parts of a `--seed FILE` (`{"google": {...}, "microsoft": {...}}`).
package struct SandboxSeed: Sendable, Equatable {
    /// Each service's seed document, by service name.
    package var parts: [String: Data]

    package init(parts: [String: Data]) {
        self.parts = parts
    }

    /// The Google and Graph parts, with the other services' compiled-in parts.
    package init(google: Data, microsoft: Data) {
        var parts = Self.builtIn.parts
        parts["google"] = google
        parts["microsoft"] = microsoft
        self.parts = parts
    }

    /// The Google Calendar emulator's seed document.
    package var google: Data {
        get { parts["google"] ?? Data("{}".utf8) }
        set { parts["google"] = newValue }
    }

    /// The Graph emulator's seed document.
    package var microsoft: Data {
        get { parts["microsoft"] ?? Data("{}".utf8) }
        set { parts["microsoft"] = newValue }
    }

    /// The compiled-in parts of `SandboxServices.list` (Fixtures/sandbox/*.json).
    package static var builtIn: SandboxSeed { builtIn(of: SandboxServices.list) }

    /// The compiled-in parts of `services`.
    package static func builtIn(of services: [SandboxService]) -> SandboxSeed {
        var parts: [String: Data] = [:]
        for service in services { if let seed = service.builtInSeed { parts[service.name] = seed } }
        return SandboxSeed(parts: parts)
    }

    /// Splits a combined seed file into the parts of `services`. A missing part falls back to the compiled-in one.
    package static func parse(_ data: Data, services: [SandboxService] = SandboxServices.list) throws(SandboxError) -> SandboxSeed {
        let names = services.filter { $0.builtInSeed != nil }.map(\.name)
        let example = "{" + names.map { "\"\($0)\": {...}" }.joined(separator: ", ") + "}"
        guard let object = try? JSONSerialization.jsonObject(with: data), let top = object as? [String: Any] else {
            throw .badSeed("it is not a JSON object like \(example)")
        }
        let unknown = top.keys.filter { !names.contains($0) }.sorted()
        guard unknown.isEmpty else {
            throw .badSeed("unknown key '\(unknown[0])' (expected \(names.map { "\"\($0)\"" }.joined(separator: ", ")))")
        }
        var seed = builtIn(of: services)
        for (key, value) in top {
            guard value is [String: Any], let part = try? JSONSerialization.data(withJSONObject: value) else {
                throw .badSeed("\"\(key)\" must be a JSON object")
            }
            seed.parts[key] = part
        }
        return seed
    }
}
