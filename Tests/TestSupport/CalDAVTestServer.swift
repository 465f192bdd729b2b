import CalbridgeSupport
import Foundation
import Sandbox

#if canImport(Glibc)
import Glibc
#endif

/// A real CalDAV server (Radicale or Xandikos, from PyPI, installed by `.ci/install-deps` into
/// `.build/test-python`) running on 127.0.0.1 on a free port with throwaway storage, for the tests that hold
/// the CalDAV provider to servers nobody here wrote; or the sandbox's CalDAV service (`sandbox`), held to the
/// same tests. `stop()` ends it and removes its storage.
package final class CalDAVTestServer: @unchecked Sendable {
    package enum Kind: String, Sendable, CaseIterable, CustomStringConvertible {
        case radicale, xandikos
        /// The sandbox's CalDAV service (`CalDAVEmulator`), in this process, with Radicale's refusals.
        case sandbox
        package var description: String { rawValue }
        /// The real servers (started from the test venv).
        package static let real: [Kind] = [.radicale, .xandikos]
    }

    package struct Unavailable: Error, CustomStringConvertible {
        package var description: String
    }

    package let kind: Kind
    package let port: UInt16
    /// The server's root (`http://127.0.0.1:PORT/`): what `accounts add caldav URL` is given.
    package let url: URL
    /// The user the tests sign in as (Radicale takes any name without authentication; Xandikos has one user).
    package let user: String
    /// The home of `user`'s calendars.
    package let home: URL
    private let process = SpawnedProcess()
    private let storage: TemporaryDirectory
    /// The sandbox, for `.sandbox`.
    package let sandbox: SandboxServer?

    /// The test venv's directory of programs.
    package static var venvBin: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/test-python/bin")
    }

    /// Why the servers cannot run here, or nil when they can (the venv made by `.ci/install-deps`).
    package static var unavailableReason: String? {
        for kind in Kind.real where !FileManager.default.isExecutableFile(atPath: venvBin.appendingPathComponent(kind.rawValue).path) {
            return "\(kind) is not installed in \(venvBin.path): run .ci/install-deps"
        }
        return nil
    }

    /// Starts a server and waits until it answers.
    /// - Parameters:
    ///   - password: Radicale only: require this password of `user` (htpasswd, plain), so that a wrong one is
    ///     refused with 401; nil: any user name and password are taken.
    ///   - extraArguments: options of the server's own (Radicale's `--storage-max-sync-token-age`).
    ///   - quirks: the sandbox's CalDAV service only: where it behaves like one server or another.
    package init(_ kind: Kind, password: String? = nil, extraArguments: [String] = [], quirks: CalDAVQuirks = CalDAVQuirks()) async throws {
        if kind == .sandbox {
            self.kind = kind
            storage = try TemporaryDirectory(prefix: "calbridge-\(kind)")
            user = "alice"
            let secret = password ?? "test-password"
            let seed = #"{"users": [{"id": "1001", "userName": "alice", "password": "\#(secret)", "displayName": "Alice"}]}"#
            var options = SandboxOptions()
            options.seed = SandboxSeed(parts: ["caldav": Data(seed.utf8)])
            let started = try await SandboxServer.start(options, services: [.caldav(quirks: quirks)])
            sandbox = started
            port = started.port
            url = URL(string: "http://127.0.0.1:\(port)/")!
            home = URL(string: "http://127.0.0.1:\(port)/caldav/1001/calendars/")!
            return
        }
        sandbox = nil
        if let reason = Self.unavailableReason { throw Unavailable(description: reason) }
        self.kind = kind
        storage = try TemporaryDirectory(prefix: "calbridge-\(kind)")
        port = try Self.freePort()
        url = URL(string: "http://127.0.0.1:\(port)/")!
        let executable = Self.venvBin.appendingPathComponent(kind.rawValue)
        var arguments: [String]
        switch kind {
        case .radicale:
            user = "alice"
            home = URL(string: "http://127.0.0.1:\(port)/alice/")!
            arguments = [
                "--config", "", "--server-hosts", "127.0.0.1:\(port)", "--storage-filesystem-folder",
                storage.url.appendingPathComponent("collections").path, "--logging-level", "warning",
            ]
            if let password {
                let file = storage.url.appendingPathComponent("users")
                try Data("alice:\(password)\n".utf8).write(to: file)
                arguments += [
                    "--auth-type", "htpasswd", "--auth-htpasswd-filename", file.path, "--auth-htpasswd-encryption", "plain",
                    "--auth-delay", "0",
                ]
            } else {
                arguments += ["--auth-type", "none"]
            }
        case .sandbox:
            throw Unavailable(description: "the sandbox is started above")
        case .xandikos:
            user = "user"
            home = URL(string: "http://127.0.0.1:\(port)/user/calendars/")!
            arguments = [
                "serve", "-d", storage.url.appendingPathComponent("collections").path, "--state-dir",
                storage.url.appendingPathComponent("state").path, "--defaults", "-l", "127.0.0.1", "-p", String(port),
                "--no-detect-systemd",
            ]
        }
        arguments += extraArguments
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = storage.path
        environment["XDG_CONFIG_HOME"] = storage.url.appendingPathComponent("config").path
        environment["XDG_DATA_HOME"] = storage.url.appendingPathComponent("data").path
        process.environment = environment
        let log = storage.url.appendingPathComponent("server.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try? handle.close()
        let deadline = Date().addingTimeInterval(60)
        while !Self.accepts(port: port) {
            guard process.isRunning else {
                let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                storage.remove()
                throw Unavailable(description: "\(kind) exited at start: \(text.suffix(800))")
            }
            guard Date() < deadline else {
                stop()
                throw Unavailable(description: "\(kind) did not answer on port \(port) within 60 s")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Makes a calendar in the user's home with MKCALENDAR (RFC 4791 §5.3.1), named and coloured as a
    /// calendar app makes one (servers have none at first, or one that is not named).
    package func makeCalendar(_ segment: String, name: String, colour: String = "#3366CCFF", password: String) async throws {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:a="http://apple.com/ns/ical/"><d:set><d:prop>\
            <d:displayname>\(name)</d:displayname><a:calendar-color>\(colour)</a:calendar-color></d:prop></d:set></c:mkcalendar>
            """
        let authorization = Data("\(user):\(password)".utf8).base64EncodedString()
        let request =
            "MKCALENDAR \(home.path)/\(segment)/ HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Basic \(authorization)\r\n"
            + "Content-Type: application/xml\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        let port = port
        let status = try await blocking { () throws -> Int in
            let client = try RawHTTPClient(port: port)
            client.send(request)
            return client.readResponse()?.status ?? 0
        }
        guard status == 201 else { throw Unavailable(description: "MKCALENDAR \(segment) on \(kind): HTTP \(status)") }
    }

    /// Ends the server and removes its storage.
    package func stop() {
        if let sandbox {
            // Nothing to save (no --state): the ports close now, the rest when the task runs.
            Task { try? await sandbox.stop() }
        }
        // SIGKILL: the servers ignore SIGTERM when started this way, and their storage is thrown away anyway.
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        storage.remove()
    }

    deinit { stop() }

    /// What the server printed (for a failing test's message).
    package var log: String {
        (try? String(contentsOf: storage.url.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
    }

    /// A port nothing listens on now (the kernel's choice for port 0).
    static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Unavailable(description: "socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw Unavailable(description: "bind() failed") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw Unavailable(description: "getsockname() failed") }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Whether something accepts connections on the port.
    static func accepts(port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }
}
