import CLibical
import Synchronization

/// The one door to libical: its set-up happens once, and every call runs under one lock (libical 3.0 keeps
/// its zone cache and error switches in process-wide state).
enum LibicalSession {
    private static let lock = Mutex(false)

    /// Runs `body` with libical set up and no other thread inside libical.
    static func run<T: Sendable, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        try lock.withLock { (ready: inout Bool) throws(E) -> T in
            if !ready {
                // A malformed input must come back as an error value, never as libical's abort().
                icalerror_set_errors_are_fatal(0)
                set_zone_directory("/usr/share/zoneinfo")
                ready = true
            }
            calbridge_ical_clear_errno()
            return try body()
        }
    }

    /// libical's description of its last error.
    static var lastError: String {
        guard let text = icalerror_strerror(icalerrorenum(rawValue: UInt32(calbridge_ical_errno()))) else { return "unknown error" }
        return String(cString: text)
    }
}
