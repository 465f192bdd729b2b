#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The system tz database's links (`Asia/Calcutta` -> `Asia/Kolkata`), read from `tzdata.zi`.
///
/// CLDR keeps old spellings (`Asia/Calcutta`, `Europe/Kiev`) while Google and current systems use the new
/// ones, and Foundation keeps whatever spelling it is given, so the links are the only reliable way to
/// tell that two ids are one zone. `tzdata.zi` is plain text (`L <target> <alias>` lines), not XML.
package struct TZDatabaseLinks: Sendable {
    /// alias -> the final target (chains followed).
    package let targets: [String: String]
    /// final target -> its aliases, sorted.
    package let aliases: [String: [String]]

    /// No links at all: only exact names resolve.
    package static let empty = TZDatabaseLinks(pairs: [])

    /// The machine's links, read once on first use; empty when `tzdata.zi` is missing or unreadable.
    package static let system: TZDatabaseLinks = {
        let environment = ProcessInfo.processInfo.environment
        let directory = environment["TZDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/zoneinfo"
        return load(contentsOf: directory + "/tzdata.zi")
    }()

    /// Links from the file at `path`, or `empty` when it cannot be read.
    package static func load(contentsOf path: String) -> TZDatabaseLinks {
        guard let data = FileManager.default.contents(atPath: path) else { return .empty }
        return TZDatabaseLinks(tzdataZI: String(decoding: data, as: UTF8.self))
    }

    /// Links from the text of a `tzdata.zi` file (other lines are ignored).
    package init(tzdataZI text: String) {
        var pairs: [(target: String, alias: String)] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) where line.hasPrefix("L ") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 3 else { continue }
            pairs.append((String(fields[1]), String(fields[2])))
        }
        self.init(pairs: pairs)
    }

    /// Links given as (target, alias) pairs.
    package init(pairs: [(target: String, alias: String)]) {
        var direct: [String: String] = [:]
        for pair in pairs where pair.target != pair.alias { direct[pair.alias] = pair.target }
        var targets: [String: String] = [:]
        for alias in direct.keys {
            // Follow chains (an alias of an alias), stopping on a cycle rather than looping.
            var current = alias
            var visited: Set<String> = [alias]
            while let next = direct[current], visited.insert(next).inserted { current = next }
            if current != alias { targets[alias] = current }
        }
        var aliases: [String: [String]] = [:]
        for (alias, target) in targets { aliases[target, default: []].append(alias) }
        self.targets = targets
        self.aliases = aliases.mapValues { $0.sorted() }
    }

    /// The link target of `identifier`, or `identifier` itself when it is not an alias.
    package func canonical(_ identifier: String) -> String { targets[identifier] ?? identifier }

    /// Every spelling of the zone `identifier` names: the canonical id first, then its aliases.
    package func spellings(of identifier: String) -> [String] {
        let target = canonical(identifier)
        return [target] + (aliases[target] ?? [])
    }

    /// Every id the links mention (targets and aliases).
    package var allIdentifiers: Set<String> { Set(targets.keys).union(targets.values) }
}
