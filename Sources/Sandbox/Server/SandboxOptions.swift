import Foundation
import LoopbackServer

/// How a sandbox runs: what `calbridge sandbox`'s options set, plus the knobs tests need.
package struct SandboxOptions: Sendable {
    /// Microsoft's port on 127.0.0.1, Google's the next one; 0 picks two free ones.
    package var port: UInt16 = 0
    /// Seed data; nil means the compiled-in seeds (Fixtures/sandbox).
    package var seed: SandboxSeed?
    /// Delay added before every API response (`--latency-ms`).
    package var latencyMs: Int = 0
    /// Fraction of API requests answered with a throttling or unavailable fault (`--fault-rate`, 0...1).
    package var faultRate: Double = 0
    /// Seed of the fault sequence (`--fault-seed`): the same seed gives the same faults in arrival order.
    package var faultSeed: UInt64 = 0
    /// Access-token lifetime in seconds (`--token-lifetime`).
    package var tokenLifetime: TimeInterval = 3600
    /// Refresh-token lifetime in seconds; nil: until revoked.
    package var refreshTokenLifetime: TimeInterval?
    /// Refuse every refresh-token grant this way (`--refuse-refresh`); nil refreshes normally.
    package var refreshRefusal: SandboxRefreshRefusal?
    /// Loaded at start when it exists, written (atomically) at stop (`--state`).
    package var stateFile: URL?
    /// One JSON line per request is appended here (`--log`).
    package var logFile: URL?
    /// Approve sign-ins at once instead of showing consent / verification pages (`--no-auto-approve` turns off).
    package var autoApprove: Bool = true
    /// Device-flow behaviour under auto-approve (approve after N polls, decline, interval, lifetime).
    package var devicePolicy = MicrosoftIdentityServer.DeviceFlowPolicy()
    /// Requests kept in memory for `SandboxServer.requestLog`; older ones are dropped.
    package var requestLogCapacity: Int = 10_000
    /// Sees every API request (method, target, headers, body) before it is answered; benchmarks use it to
    /// keep a transcript of what the client sent. Nil: none.
    package var apiRequestObserver: (@Sendable (ServerRequest) -> Void)?
    /// Awaited before each API request is answered (after the observer): a test knob that holds chosen
    /// requests until the test lets them go, as a slow server would (the crash tests kill a client while
    /// its writes are held). A response it returns is sent instead of the sandbox's own, and the request is
    /// not carried out (a write held past its client's death is dropped). Nil: none.
    package var apiRequestGate: (@Sendable (ServerRequest) async -> ServerResponse?)?
    /// Entra app registrations and Google service accounts allowed app-only grants (none by default).
    package var appOnly = SandboxAppOnlyDirectory()
    /// The clock of the token authority and the OAuth servers; tests pass a controllable one.
    package var now: @Sendable () -> Date = { Date() }

    package init() {}
}
