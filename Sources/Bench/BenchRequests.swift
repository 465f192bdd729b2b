import CLI
import Sandbox

/// The API requests (not the sign-in traffic) a benchmarked command sent to the sandbox, counted from its
/// request log: in all, by kind ("GET /v1.0/me/events/{id}"), and the sandbox's time answering each kind.
struct BenchRequests {
    var total: Int
    var byKind: [String: Int] = [:]
    /// By the same key, in ms (latency included).
    var serverMs: [String: Double] = [:]

    /// The requests since log entry `mark`. The in-memory log keeps only the latest ones: when it has
    /// dropped some, `total` counts every logged request (API or not) and the breakdown what is left.
    init(since mark: Int, in sandbox: SandboxServer) {
        let total = sandbox.log.count - mark
        let recent = sandbox.requestLog.suffix(total)
        let api = recent.filter { Self.isAPI($0.path) }
        self.total = recent.count == total ? api.count : total
        for entry in api {
            byKind[entry.method + " " + Self.shape(entry.path), default: 0] += 1
            serverMs[entry.method + " " + Self.shape(entry.path), default: 0] += entry.durationMs
        }
    }

    /// A path with its ids replaced by `{id}`, to group requests.
    static func shape(_ path: String) -> String {
        var out: [Substring] = []
        var previous: Substring = ""
        for segment in path.split(separator: "/") {
            out.append(["calendars", "events", "calendarList"].contains(previous) && segment != "events" ? "{id}" : segment)
            previous = segment
        }
        return "/" + out.joined(separator: "/")
    }

    static func isAPI(_ path: String) -> Bool {
        path.hasPrefix("/calendar/v3/") || path.hasPrefix("/batch/calendar/v3") || path.hasPrefix("/v1.0/")
    }

    /// A duration in milliseconds.
    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
}
