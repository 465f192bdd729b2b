import Foundation
import Testing

/// The README and the pages under docs/ and Benchmarks/ as a reader meets them: the README opens with the
/// two commands `.ci/run` depends on, stays a user's page, and every relative link, anchor and source path
/// the pages name exists in this checkout (so a moved file or a renamed heading fails here, not in a
/// reader's browser).
@Suite("Documentation: the README's commands, links and paths resolve")
struct DocumentationTests {
    /// The repository's root: this file is Tests/CalendarBridgeTests/Documentation/DocumentationTests.swift.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// README.md, every page under docs/, and Benchmarks/README.md, as paths relative to the root.
    static func pages() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        return ["README.md", "Benchmarks/README.md"] + docs
    }

    static func text(_ page: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
    }

    @Test("the README's first two code blocks are the two commands .ci/run depends on")
    func firstCommands() throws {
        let readme = try Self.text("README.md")
        let blocks = Self.codeBlocks(readme)
        #expect(blocks.count >= 2)
        let commands = [
            ".ci/install-deps && swift run calbridge demo",
            "swift test --experimental-maximum-parallelization-width 16",
        ]
        #expect(Array(blocks.prefix(2)) == commands)
    }

    @Test("the README is a user's page of at most about 400 lines")
    func readmeLength() throws {
        let lines = try Self.text("README.md").split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 420, "README.md has \(lines) lines; the manual belongs in docs/")
    }

    @Test("every relative link points at an existing file, and every anchor at a heading of it")
    func links() throws {
        var broken: [String] = []
        for page in try Self.pages() {
            let base = URL(fileURLWithPath: page).deletingLastPathComponent().relativePath
            let targets = Self.links(in: try Self.text(page))
                .filter { !$0.contains("://") && !$0.hasPrefix("mailto:") }
            for target in targets {
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                    .map(String.init)
                let file = parts[0].isEmpty ? page : Self.normalised(base == "." ? parts[0] : base + "/" + parts[0])
                let url = Self.root.appendingPathComponent(file)
                guard FileManager.default.fileExists(atPath: url.path) else {
                    broken.append("\(page): \(target) (no file \(file))")
                    continue
                }
                if parts.count == 2, file.hasSuffix(".md") {
                    let anchors = Set(Self.headings(in: try Self.text(file)).map(Self.slug))
                    if !anchors.contains(parts[1]) {
                        broken.append("\(page): \(target) (no heading #\(parts[1]) in \(file))")
                    }
                }
            }
        }
        #expect(broken.isEmpty, "broken links:\n\(broken.joined(separator: "\n"))")
    }

    /// Placeholders (`Providers/<Name>/`) and patterns (`Providers/*/…`) are not paths.
    @Test("every repository path named in backticks exists")
    func paths() throws {
        let roots = [
            "Sources/", "Providers/", "Tests/", "Examples/", "Fixtures/", "contrib/", "Benchmarks/", "docs/", ".ci/",
        ]
        var missing: [String] = []
        for page in try Self.pages() {
            for span in Self.codeSpans(in: try Self.text(page)) {
                let isPattern = ["*", "…", " ", "<"].contains(where: span.contains)
                guard roots.contains(where: span.hasPrefix), !isPattern else { continue }
                if !FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(span).path) {
                    missing.append("\(page): `\(span)`")
                }
            }
        }
        #expect(missing.isEmpty, "paths that do not exist:\n\(missing.joined(separator: "\n"))")
    }

    @Test("the helpers read links, headings and code spans as GitHub does", arguments: [
        ("## Several calbridge processes at once", "several-calbridge-processes-at-once"),
        ("## Copy (`calbridge-bench copy`)", "copy-calbridge-bench-copy"),
        ("### Sync model-based test", "sync-model-based-test"),
    ])
    func slugs(heading: String, slug: String) {
        #expect(Self.headings(in: heading).map(Self.slug) == [slug])
    }

    @Test("links and code spans are found outside code blocks only")
    func extraction() {
        let text = "See [a](a.md) and `Sources/X/`.\n```sh\n[b](b.md) `Sources/Y/`\n```\n[c](c.md#d)"
        #expect(Self.links(in: text) == ["a.md", "c.md#d"])
        #expect(Self.codeSpans(in: text) == ["Sources/X/"])
        #expect(Self.codeBlocks(text) == ["[b](b.md) `Sources/Y/`"])
    }

    // MARK: reading Markdown (enough of it for these pages)

    /// The contents of fenced code blocks, in order.
    static func codeBlocks(_ text: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                if let lines = current {
                    blocks.append(lines.joined(separator: "\n"))
                    current = nil
                } else {
                    current = []
                }
            } else if current != nil {
                current!.append(line)
            }
        }
        return blocks
    }

    /// The lines outside fenced code blocks.
    static func prose(_ text: String) -> [Substring] {
        var inBlock = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            if line.hasPrefix("```") { inBlock.toggle(); return false }
            return !inBlock
        }
    }

    /// Link targets of `[text](target)` outside code blocks and code spans.
    static func links(in text: String) -> [String] {
        var targets: [String] = []
        for line in prose(text) {
            let plain = withoutCodeSpans(String(line))
            var rest = plain[...]
            while let close = rest.range(of: "](") {
                let after = rest[close.upperBound...]
                guard let end = after.firstIndex(of: ")") else { break }
                targets.append(String(after[..<end]))
                rest = after[end...]
            }
        }
        return targets
    }

    /// The text of each `` `span` `` outside code blocks.
    static func codeSpans(in text: String) -> [String] {
        prose(text).flatMap { line in
            line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 1 }.map { String($0.element) }
        }
    }

    static func withoutCodeSpans(_ line: String) -> String {
        line.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 0 }
            .map(\.element).joined(separator: " ")
    }

    /// ATX headings outside code blocks, without their `#`s.
    static func headings(in text: String) -> [String] {
        prose(text).compactMap { line in
            guard line.hasPrefix("#") else { return nil }
            let title = line.drop(while: { $0 == "#" })
            guard title.first == " " else { return nil }
            return String(title.dropFirst())
        }
    }

    /// GitHub's anchor for a heading: lower case, punctuation other than `-` and `_` dropped, spaces as `-`.
    static func slug(_ heading: String) -> String {
        String(heading.lowercased().compactMap { c -> Character? in
            if c == " " { return "-" }
            if c.isLetter || c.isNumber || c == "-" || c == "_" { return c }
            return nil
        })
    }

    /// `a/./b/../c` as `a/c`.
    static func normalised(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." { parts.removeLast() } else { parts.append(part) }
        }
        return parts.joined(separator: "/") + (path.hasSuffix("/") ? "/" : "")
    }
}
