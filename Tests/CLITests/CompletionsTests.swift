import CLI
import Foundation
import TestSupport
import Testing

/// `calbridge completions bash|zsh|fish` loaded into the real shells (plain bash without the
/// bash-completion package, zsh without compinit's helpers, fish), and `calbridge help --man` read by groff.
@Suite(.serialized) struct CompletionsTests {
    /// Runs `script` in `shell` with the built calbridge first on PATH and `home`'s environment.
    private func shell(_ shell: [String], _ script: String, home: SandboxHome) async throws -> String {
        let binDirectory = CalbridgeBinary.url.deletingLastPathComponent().path
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in home.environment { environment[key] = value }
        environment["PATH"] = binDirectory + ":/usr/bin:/bin"
        let processEnvironment = environment
        let result = try await blocking {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: shell[0])
            process.arguments = Array(shell.dropFirst()) + [script]
            process.environment = processEnvironment
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let output = out.fileHandleForReading.readDataToEndOfFile()
            let errors = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self), process.terminationStatus)
        }
        #expect(result.2 == 0, "\(shell[0]) failed: \(result.1)")
        #expect(result.1.isEmpty, "\(shell[0]) printed errors: \(result.1)")
        return result.0
    }

    /// The lines of the form `LINE -> a b c`, as a dictionary.
    private func answers(_ output: String) -> [String: [String]] {
        var answers: [String: [String]] = [:]
        for line in output.split(separator: "\n") {
            guard let arrow = line.range(of: " -> ") else { continue }
            let words = line[arrow.upperBound...].split(separator: " ").map(String.init)
            answers[String(line[..<arrow.lowerBound])] = words
        }
        return answers
    }

    /// Command lines (the cursor at the end) and what each must offer.
    private static let expected: [(line: String, offers: [String])] = [
        ("calbridge ev", ["events"]),
        ("calbridge accounts ", ["add", "list", "remove", "rename"]),
        ("calbridge events --f", ["--from", "--format"]),
        ("calbridge events --format ", ["table", "json", "tsv"]),
        ("calbridge sync add x --direction b", ["b-to-a", "both"]),
        ("calbridge accounts remove ", ["ann", "carol"]),
        ("calbridge calendars --account c", ["carol"]),
        ("calbridge events a", ["ann:", "ann:default"]),
        ("calbridge copy ann:Family c", ["carol:", "carol:default"]),
        ("calbridge sync remove ", ["work-home"]),
        ("calbridge help sy", ["sync"]),
        ("calbridge events --tz Europe/Berl", ["Europe/Berlin"]),
        ("calbridge completions ", ["bash", "zsh", "fish"]),
    ]

    @Test func bashCompletesCommandsOptionsValuesAccountsAndPairsInPlainBash() async throws {
        try await SandboxHome.with { home in
            let add = try await home.run(["sync", "add", "work-home", "--a", "carol:Calendar", "--b", "ann:Family"])
            #expect(add.status == 0, "\(add.stderr)")
            var script = "source <(calbridge completions bash)\n"
            script += #"t() { COMP_LINE=$1; COMP_POINT=${#1}; __calbridge_complete; echo "$1 -> ${COMPREPLY[*]}"; }"# + "\n"
            for (line, _) in Self.expected { script += "t '\(line)'\n" }
            // After a ':' bash replaces only what follows it: the offers lose the account part.
            script += "t 'calbridge events carol:d'\n"
            let output = try await shell(["/bin/bash", "--norc", "--noprofile", "-c"], script, home: home)
            let offered = answers(output)
            for (line, offers) in Self.expected {
                #expect(offered[line].map(Set.init) == Set(offers), "bash: \(line)")
            }
            #expect(offered["calbridge events carol:d"] == ["default"])
        }
    }

    @Test func zshCompletesTheSameLines() async throws {
        try await SandboxHome.with { home in
            _ = try await home.run(["sync", "add", "work-home", "--a", "carol:Calendar", "--b", "ann:Family"])
            // compadd is the completion system's; here it prints what it was given, filtered by the
            // current word's prefix as the system would.
            var script = "source <(calbridge completions zsh)\n"
            script += """
                compadd() {
                    while [[ $1 == -* ]]; do [[ $1 == -- ]] && { shift; break }; [[ $1 == -S ]] && shift; shift; done
                    local w; for w in "$@"; do [[ $w == $PREFIX* ]] && reply+=($w); done
                }
                t() { words=(${(z)1}); [[ $1 == *' ' ]] && words+=(''); CURRENT=${#words}; PREFIX=${words[-1]}; reply=(); __calbridge_complete; print -r -- "$1 -> ${reply[*]}"; }

                """
            for (line, _) in Self.expected { script += "t '\(line)'\n" }
            let output = try await shell(["/usr/bin/zsh", "-f", "-c"], "compdef() { :; }\n" + script, home: home)
            let offered = answers(output)
            for (line, offers) in Self.expected {
                #expect(offered[line].map(Set.init) == Set(offers), "zsh: \(line)")
            }
        }
    }

    @Test func fishCompletesTheSameLines() async throws {
        try await SandboxHome.with { home in
            _ = try await home.run(["sync", "add", "work-home", "--a", "carol:Calendar", "--b", "ann:Family"])
            var script = "calbridge completions fish | source\n"
            for (line, _) in Self.expected {
                script += "echo '\(line) ->' (complete -C '\(line)' | string replace -r '\\t.*' '')\n"
            }
            let output = try await shell(["/usr/bin/fish", "--no-config", "-c"], script, home: home)
            let offered = answers(output)
            for (line, offers) in Self.expected {
                #expect(offered[line].map(Set.init) == Set(offers), "fish: \(line)")
            }
        }
    }

    @Test func theManualListsEveryCommandAndOptionAndGroffReadsItWithoutWarnings() async throws {
        let result = try await CalbridgeBinary.run(["help", "--man"])
        #expect(result.status == 0)
        let page = result.stdout
        #expect(page.hasPrefix(".TH CALBRIDGE 1"))
        for command in CommandRegistry.all {
            let spec = command.spec
            #expect(page.contains(".SS \"calbridge \(spec.name.replacingOccurrences(of: "-", with: "\\-"))\""), "\(spec.name)")
            for option in spec.options {
                #expect(page.contains("\\-\\-\(option.name.replacingOccurrences(of: "-", with: "\\-"))"), "\(spec.name) --\(option.name)")
            }
        }
        for line in page.split(separator: "\n") where line.hasPrefix(".") {
            let macro = line.split(separator: " ").first.map(String.init) ?? ""
            #expect([".TH", ".SH", ".SS", ".PP", ".TP", ".B", ".BI", ".I", ".br", ".nf", ".fi"].contains(macro), "\(line)")
        }
        let groff = try await blocking {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/groff")
            process.arguments = ["-man", "-Tutf8", "-ww", "-z"]
            let input = Pipe(), err = Pipe()
            process.standardInput = input
            process.standardError = err
            try process.run()
            input.fileHandleForWriting.write(Data(page.utf8))
            try input.fileHandleForWriting.close()
            let errors = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: errors, as: UTF8.self)
        }
        #expect(groff.isEmpty, "groff: \(groff)")
    }

    @Test func anUnknownShellIsAUsageError() async throws {
        let result = try await CalbridgeBinary.run(["completions", "tcsh"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("bash, zsh or fish"))
    }
}
