import Accounts
import CalDAV
import CalendarBridge
import Foundation
import ProviderSeam
import Sandbox
import TestSupport
import Testing
import XMLCalendar
import XMLCalendarEmulator

@testable import CLI

/// A provider calbridge was not built with (`Tests/XMLCalendar/`: a user name and app password, XML bodies
/// read with libxml2), added through the seam alone: one registration in the list handed to the CLI and
/// its emulator as one more service in the sandbox's list. Nothing else knows it.
@Suite("A third provider (password, XML), registered once, signs in and works with calendars, events, add and copy")
struct ThirdProviderEndToEndTests {
    static let users = [
        XMLCalendarEmulator.User(userName: "alpha", password: "pw-Alpha-7c1e", email: "alpha@xmlcal.example", displayName: "Alpha"),
        XMLCalendarEmulator.User(userName: "beta", password: "pw-Beta-93ad", email: "beta@xmlcal.example", displayName: "Beta"),
    ]

    struct Run {
        var code: ExitCode
        var stdout: String
        var stderr: String
    }

    static func run(
        _ arguments: [String], home: URL, providers: ProviderRegistry, environment: [String: String] = [:], input: [String] = [],
        terminal: Bool = false
    ) async -> Run {
        let out = BufferSink(), err = BufferSink()
        var context = CommandContext(
            stdout: out, stderr: err, environment: ["CALBRIDGE_HOME": home.path, "TZ": "Europe/Berlin"].merging(environment) { $1 },
            now: { Date(timeIntervalSince1970: 1_796_112_000) },  // 2026-12-01 08:00 UTC
            providers: providers)
        context.secretInput = ScriptedInput(input, isTerminal: terminal)
        let code = await CalbridgeCLI.run(arguments, context: context)
        return Run(code: code, stdout: out.text, stderr: err.text)
    }

    @Test("accounts add reads the password from $CALBRIDGE_PASSWORD, the terminal or stdin; then calendars, events, add, copy")
    func endToEnd() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let home = CalbridgeHome(directory: temp.url.appendingPathComponent("home"))
        let emulator = XMLCalendarEmulator(users: Self.users)
        var options = SandboxOptions()
        // Only API traffic is observed: the service's paths are routed as its API.
        let apiRequests = Counter()
        options.apiRequestObserver = { request in if request.rawPath.hasPrefix("/xmlcal/") { apiRequests.increment() } }
        let sandbox = try await SandboxServer.start(options, services: SandboxServices.list + [emulator.service])
        let providers = ProviderRegistry(ProviderRegistry.builtIn.registrations + [XMLCalendarRegistration.registration])
        let server = sandbox.baseURL.absoluteString
        func run(_ arguments: [String], environment: [String: String] = [:], input: [String] = [], terminal: Bool = false) async -> Run {
            await Self.run(
                arguments, home: home.directory, providers: providers, environment: environment, input: input, terminal: terminal)
        }
        let secrets = Self.users.map(\.password)
        func expectNoSecret(_ run: Run, _ step: String) {
            for secret in secrets { #expect(!run.stdout.contains(secret) && !run.stderr.contains(secret), "\(step) printed a password") }
        }

        // A wrong password stores nothing and says what to check.
        let refused = await run(
            ["accounts", "add", "xmlcal", "--server", server, "--user-name", "alpha"], environment: ["CALBRIDGE_PASSWORD": "wrong"])
        #expect(refused.code == .usage, "\(refused.stderr)")
        #expect(refused.stderr.contains("refused the user name 'alpha'"))
        #expect(try AccountRegistry(home: home).accounts().isEmpty)

        // $CALBRIDGE_PASSWORD; the account is named after the e-mail address the service reports.
        let alpha = await run(
            ["accounts", "add", "xmlcal", "--server", server, "--user-name", "alpha"], environment: ["CALBRIDGE_PASSWORD": secrets[0]])
        #expect(alpha.code == .success, "\(alpha.stderr)")
        #expect(alpha.stdout.contains("Signed in to XML Calendar as Alpha <alpha@xmlcal.example>; account name 'alpha@xmlcal.example'"))
        expectNoSecret(alpha, "accounts add")
        // One line of stdin (a pipe: no prompt).
        let beta = await run(
            ["accounts", "add", "xmlcal", "--server", server, "--user-name", "beta", "--name", "beta"], input: [secrets[1]])
        #expect(beta.code == .success, "\(beta.stderr)")
        #expect(beta.stderr.isEmpty)
        // A terminal: the prompt on stderr, the typed password not echoed.
        let again = await run(
            ["accounts", "add", "xmlcal", "--server", server, "--user-name", "beta", "--name", "beta"], input: [secrets[1]], terminal: true)
        #expect(again.code == .success, "\(again.stderr)")
        #expect(again.stderr.contains("Password for beta at 127.0.0.1: "))
        expectNoSecret(again, "accounts add at a terminal")
        // The password is never an option.
        let inArgv = await run(["accounts", "add", "xmlcal", "--server", server, "--user-name", "beta", "--password", secrets[1]])
        #expect(inArgv.code == .usage)
        let oauthOption = await run(["accounts", "add", "xmlcal", "--server", server, "--user-name", "beta", "--client-id", "x"])
        #expect(oauthOption.code == .usage)
        #expect(oauthOption.stderr.contains("--client-id is for OAuth sign-ins"))

        // Kept like tokens: 0600 files in the 0700 home; accounts.json holds the user name, not the password.
        let passwordFile = home.passwordFile(account: "beta")
        let mode = try FileManager.default.attributesOfItem(atPath: passwordFile.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try FilePasswordStore(home: home).load(account: "beta") == secrets[1])
        let accountsText = try String(contentsOf: home.accountsFile, encoding: .utf8)
        #expect(accountsText.contains("\"authentication\" : \"password\""))
        #expect(!secrets.contains { accountsText.contains($0) })
        let record = try AccountRegistry(home: home).require("beta")
        #expect(record.credential == .password(PasswordAccountCredential(server: sandbox.baseURL, userName: "beta")))

        let listedAccounts = await run(["accounts", "list", "--format", "tsv"])
        #expect(listedAccounts.code == .success, "\(listedAccounts.stderr)")
        #expect(listedAccounts.stdout.contains("beta\tXML Calendar\tbeta@xmlcal.example\t\tok (password)"))
        let whoami = await run(["whoami", "--account", "beta"])
        #expect(whoami.code == .success, "\(whoami.stderr)")
        #expect(whoami.stdout.contains("Account:   beta (XML Calendar)"))

        let listed = await run(["calendars", "--format", "tsv"])
        #expect(listed.code == .success, "\(listed.stderr)")
        #expect(listed.stdout.contains("alpha@xmlcal.example:Diary"))
        #expect(listed.stdout.contains("beta:Diary"))

        let added = await run(
            [
                "add", "alpha@xmlcal.example:Diary", "--title", "Planning & <review>", "--start", "2026-12-02T10:00", "--end",
                "2026-12-02T11:00",
            ])
        #expect(added.code == .success, "\(added.stderr)")
        let stored = try #require(await emulator.calendars(of: "alpha")?.storedEvents(in: "diary-alpha"))
        #expect(stored.map(\.title) == ["Planning & <review>"])

        let events = await run(["events", "alpha@xmlcal.example:Diary", "--from", "2026-12-01", "--to", "2026-12-08", "--format", "json"])
        #expect(events.code == .success, "\(events.stderr)")
        #expect(events.stdout.contains("Planning & <review>"))

        let copy = ["copy", "alpha@xmlcal.example:Diary", "beta:Diary", "--from", "2026-12-01", "--to", "2026-12-08"]
        let copied = await run(copy)
        #expect(copied.code == .success, "\(copied.stderr)")
        let copies = try #require(await emulator.calendars(of: "beta")?.storedEvents(in: "diary-beta"))
        #expect(copies.map(\.title) == ["Planning & <review>"])
        #expect(copies.first?.start == stored.first?.start)
        #expect(copies.first?.origin != nil, "the copy carries its origin marker through the XML body")

        // The marker came back through XML, so a second run creates nothing.
        let rerun = await run(copy)
        #expect(rerun.code == .success, "\(rerun.stderr)")
        #expect(await emulator.calendars(of: "beta")?.storedEvents(in: "diary-beta").count == 1)

        // Requests went through the sandbox's service list as API traffic.
        #expect(sandbox.requestLog.contains { $0.path.hasPrefix("/xmlcal/calendars/diary-beta/events") && $0.method == "POST" })
        #expect(apiRequests.value == sandbox.requestLog.filter { $0.path.hasPrefix("/xmlcal/") }.count)
        #expect(apiRequests.value > 5)

        // Signing out deletes the password file.
        let removed = await run(["accounts", "remove", "beta"])
        #expect(removed.code == .success, "\(removed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: passwordFile.path))

        // Without the registration, the same accounts are an API this calbridge cannot talk to.
        let unregistered = await Self.run(["events", "alpha@xmlcal.example:Diary"], home: home.directory, providers: .builtIn)
        #expect(unregistered.code == .failure)
        #expect(unregistered.stderr.contains("uses API 'xmlcal-v1', which this calbridge cannot talk to"))
        try await sandbox.stop()
    }

    @Test("the XML reader loads no DTD, expands no entity and reaches no network")
    func hostileXML() throws {
        let expanding = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
            <user name="&lol2;"/>
            """
        let external = """
            <?xml version="1.0"?>
            <!DOCTYPE user SYSTEM "http://127.0.0.1:9/user.dtd">
            <user name="x"/>
            """
        let fileEntity = """
            <?xml version="1.0"?>
            <!DOCTYPE user [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
            <user>&secret;</user>
            """
        for document in [expanding, external, fileEntity] {
            #expect(throws: DAVXMLError.self) { try DAVElement.parse(Data(document.utf8)) }
        }
        #expect(throws: DAVXMLError.self) { try DAVElement.parse(Data("<user><name>".utf8)) }
        let user = try DAVElement.parse(Data(#"<user name="A &amp; B"><x>1 &lt; 2</x></user>"#.utf8))
        #expect(user.attributes["name"] == "A & B")
        #expect(user.child("", "x")?.text == "1 < 2")
    }
}

/// Counts from any thread.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
