import Foundation
import TimeZones

/// Time zones from the command line and the environment.
enum ZoneOptions {
    /// The zone times are shown in: `--tz` (IANA), else `$TZ`, else the system zone.
    static func displayZone(_ tz: String?, environment: [String: String], command: String) throws -> TimeZone {
        try userZone(tz, environment: environment, command: command).zone
    }

    /// The user's zone and its name as written: `--tz` (IANA), else `$TZ`, else the system zone. The one
    /// reading of both, for every command (quick add keeps the name: `UTC` stays `UTC`).
    static func userZone(
        _ tz: String?, environment: [String: String], command: String
    ) throws -> (name: String, zone: TimeZone) {
        if let name = tz {
            guard let zone = TimeZone(identifier: name) else {
                throw UsageError("--tz takes an IANA time zone such as Europe/Berlin, not '\(name)'", command: command)
            }
            return (name, zone)
        }
        if let local = environmentZone(environment) { return local }
        return (TimeZone.current.identifier, TimeZone.current)
    }

    /// `$TZ` (a leading `:` allowed) when it names a zone, else the system zone.
    static func localZone(_ environment: [String: String]) -> TimeZone {
        environmentZone(environment)?.zone ?? TimeZone.current
    }

    /// `$TZ` when it names a zone: POSIX lets it start with `:` (`TZ=:Europe/Berlin`).
    private static func environmentZone(_ environment: [String: String]) -> (name: String, zone: TimeZone)? {
        guard var name = environment["TZ"], !name.isEmpty else { return nil }
        if name.hasPrefix(":") { name.removeFirst() }
        return TimeZone(identifier: name).map { (name, $0) }
    }

    /// An IANA id or a Windows zone name ("Pacific Standard Time"), as an IANA id and its zone.
    /// Windows names are converted through the CLDR table, never handed to an IANA API.
    static func eventZone(_ name: String, option: String, command: String) throws -> (id: String, zone: TimeZone) {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        if trimmed.contains("/") || !trimmed.contains(" "), let zone = TimeZone(identifier: trimmed) {
            return (trimmed, zone)
        }
        if let iana = WindowsZones.ianaIdentifier(forWindowsName: trimmed), let zone = TimeZone(identifier: iana) {
            return (iana, zone)
        }
        throw UsageError(
            "--\(option) takes an IANA zone (America/Los_Angeles) or a Windows zone name (Pacific Standard Time), not '\(name)'",
            command: command)
    }

    /// The zone's id as a user would write it (`UTC` rather than Foundation's `GMT`).
    static func name(of zone: TimeZone) -> String {
        zone.identifier == "GMT" ? "UTC" : zone.identifier
    }
}
