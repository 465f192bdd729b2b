import Foundation

/// How a sandbox runs: what `calbridge sandbox`'s options set, plus the knobs tests need.
public struct SandboxOptions: Sendable {
    /// Port on 127.0.0.1; 0 picks a free one.
    public var port: UInt16 = 0
    /// Seed data; nil means the compiled-in seeds (Fixtures/sandbox).
    public var seed: SandboxSeed?
    /// Delay added before every API response (`--latency-ms`).
    public var latencyMs: Int = 0
    /// Fraction of API requests answered with a throttling or unavailable fault (`--fault-rate`, 0...1).
    public var faultRate: Double = 0
    /// Seed of the fault sequence (`--fault-seed`): the same seed gives the same faults in arrival order.
    public var faultSeed: UInt64 = 0
    /// Access-token lifetime in seconds (`--token-lifetime`).
    public var tokenLifetime: TimeInterval = 3600
    /// Refresh-token lifetime in seconds; nil: until revoked.
    public var refreshTokenLifetime: TimeInterval?
    /// Refuse every refresh-token grant this way (`--refuse-refresh`); nil refreshes normally.
    public var refreshRefusal: SandboxRefreshRefusal?
    /// Loaded at start when it exists, written (atomically) at stop (`--state`).
    public var stateFile: URL?
    /// One JSON line per request is appended here (`--log`).
    public var logFile: URL?
    /// Approve sign-ins at once instead of showing consent / verification pages (`--no-auto-approve` turns off).
    public var autoApprove: Bool = true
    /// Device-flow behaviour under auto-approve (approve after N polls, decline, interval, lifetime).
    public var devicePolicy = MicrosoftIdentityServer.DeviceFlowPolicy()
    /// Requests kept in memory for `SandboxServer.requestLog`; older ones are dropped.
    public var requestLogCapacity: Int = 10_000
    /// The clock of the token authority and the OAuth servers; tests pass a controllable one.
    public var now: @Sendable () -> Date = { Date() }

    public init() {}
}
