import Foundation
import HTTP
import Sandbox
import HTTPCurl

/// Signs sandbox users in the way a person would, by running `calbridge accounts add` in-process with
/// the sandbox's descriptor files: the Google browser flow with `SandboxBrowser` following the printed
/// URL, the Microsoft device flow approved by the sandbox. Used by `calbridge demo` and the CLI tests.
package struct SandboxSignIn: Sendable {
    /// What one `accounts add` printed, and how it ended.
    package struct Outcome: Sendable {
        package var exitCode: ExitCode
        package var stdout: String
        package var stderr: String
    }

    /// The environment the commands run in (its `CALBRIDGE_HOME` receives the accounts).
    package let environment: [String: String]
    /// Where the sandbox's `google.json` and `microsoft.json` descriptors are written.
    package let descriptorDirectory: URL

    /// Writes the sandbox's descriptors into `descriptorDirectory`.
    package init(sandbox: SandboxServer, environment: [String: String], descriptorDirectory: URL) throws {
        try sandbox.info.writeDescriptors(to: descriptorDirectory)
        self.environment = environment
        self.descriptorDirectory = descriptorDirectory
    }

    /// The descriptor file of `google` or `microsoft`.
    package func descriptorFile(_ provider: String) -> String {
        descriptorDirectory.appendingPathComponent("\(provider).json").path
    }

    /// `calbridge accounts add <sandbox google.json> --name NAME --no-browser`, the URL followed by the
    /// stand-in browser.
    package func google(name: String) async -> Outcome {
        await run(googleArguments(name: name))
    }

    package func googleArguments(name: String) -> [String] {
        ["accounts", "add", descriptorFile("google"), "--name", name, "--no-browser", "--timeout", "30"]
    }

    /// `calbridge accounts add <sandbox microsoft.json> --name NAME --flow device|browser`.
    package func microsoft(name: String, flow: String = "device") async -> Outcome {
        await run(microsoftArguments(name: name, flow: flow))
    }

    package func microsoftArguments(name: String, flow: String = "device") -> [String] {
        ["accounts", "add", descriptorFile("microsoft"), "--name", name, "--flow", flow] + (flow == "browser" ? ["--no-browser"] : [])
    }

    private func run(_ arguments: [String]) async -> Outcome {
        let out = BufferSink()
        let browser = SandboxBrowser(transport: CurlTransport())
        let err = BrowserLaunchingSink(browser: browser)
        let context = CommandContext(stdout: out, stderr: err, environment: environment)
        let code = await CalbridgeCLI.run(arguments, context: context)
        return Outcome(exitCode: code, stdout: out.text, stderr: err.text + err.browserFailures)
    }
}

/// Collects stderr and, when `accounts add` prints the sign-in URL on a line of its own, opens it with
/// the stand-in browser (without waiting: the flow answers the browser only after the code exchange).
final class BrowserLaunchingSink: TextSink, @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = ""
    private var all = ""
    private var failures = ""
    private let browser: SandboxBrowser

    init(browser: SandboxBrowser) { self.browser = browser }

    var text: String { lock.withLock { all } }
    var browserFailures: String { lock.withLock { failures } }

    func write(_ text: String) {
        let lines: [String] = lock.withLock {
            all += text
            buffer += text
            var complete: [String] = []
            while let newline = buffer.firstIndex(of: "\n") {
                complete.append(String(buffer[..<newline]))
                buffer.removeSubrange(...newline)
            }
            return complete
        }
        for line in lines where line.hasPrefix("http://127.0.0.1:") {
            guard let url = URL(string: line) else { continue }
            let browser = self.browser
            Task {
                do {
                    try await browser.signIn(at: url)
                } catch {
                    self.lock.withLock { self.failures += "stand-in browser: \(error)\n" }
                }
            }
        }
    }
}
