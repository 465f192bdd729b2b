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
    /// Where the sandbox's descriptors (`google.json`, `microsoft.json`, `caldav.json`) are written.
    package let descriptorDirectory: URL

    /// Writes the sandbox's descriptors into `descriptorDirectory`.
    package init(sandbox: SandboxServer, environment: [String: String], descriptorDirectory: URL) throws {
        try sandbox.info.writeDescriptors(to: descriptorDirectory)
        self.environment = environment
        self.descriptorDirectory = descriptorDirectory
    }

    /// The descriptor file of a service of the list (`google`, `microsoft`, `caldav`).
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

    /// `calbridge accounts add <sandbox DESCRIPTOR.json> --user USER --name NAME`, the app password in
    /// `$CALBRIDGE_PASSWORD` (never in argv).
    package func password(service: String, name: String, userName: String, password: String) async -> Outcome {
        await run(passwordArguments(service: service, name: name, userName: userName), extraEnvironment: ["CALBRIDGE_PASSWORD": password])
    }

    package func passwordArguments(service: String, name: String, userName: String) -> [String] {
        ["accounts", "add", descriptorFile(service), "--user", userName, "--name", name]
    }

    /// The sign-in of a service's demo account, as `SandboxDemoAccount.signIn` says.
    package func signIn(_ account: SandboxDemoAccount, service: String) async -> Outcome {
        switch account.signIn {
        case .browser: await run(browserArguments(service: service, name: account.name))
        case .device: await microsoft(name: account.name)
        case .password(let userName, let password):
            await self.password(service: service, name: account.name, userName: userName, password: password)
        }
    }

    /// The command line of `signIn(_:service:)`.
    package func signInArguments(_ account: SandboxDemoAccount, service: String) -> [String] {
        switch account.signIn {
        case .browser: browserArguments(service: service, name: account.name)
        case .device: microsoftArguments(name: account.name)
        case .password(let userName, _): passwordArguments(service: service, name: account.name, userName: userName)
        }
    }

    private func browserArguments(service: String, name: String) -> [String] {
        ["accounts", "add", descriptorFile(service), "--name", name, "--no-browser", "--timeout", "30"]
    }

    private func run(_ arguments: [String], extraEnvironment: [String: String] = [:]) async -> Outcome {
        let out = BufferSink()
        let browser = SandboxBrowser(transport: CurlTransport())
        let err = BrowserLaunchingSink(browser: browser)
        let context = CommandContext(stdout: out, stderr: err, environment: environment.merging(extraEnvironment) { $1 })
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
