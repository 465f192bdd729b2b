import Foundation
import TimeZones

/// Time zones from the command line and the environment.
enum ZoneOptions {
    /// `--tz ZONE` for a command that shows or reads times in the user's zone: the one declaration, so
    /// every command takes the same names (IANA or Windows) and says so the same way.
    static func option(_ help: String) -> Option<String> {
        Option<String>("tz", "ZONE", help + " IANA (Europe/Berlin) or Windows (W. Europe Standard Time) name.")
    }

    /// The zone times are shown in: `--tz` (IANA or Windows name), else `$TZ`, else the system zone.
    static func displayZone(_ tz: String?, environment: [String: String], command: String) throws -> TimeZone {
        try userZone(tz, environment: environment, command: command).zone
    }

    /// The user's zone and its name as written: `--tz` (an IANA id as written, or a Windows name as its
    /// IANA id), else `$TZ`, else the system zone. The one
    /// reading of both, for every command (quick add keeps the name: `UTC` stays `UTC`).
    static func userZone(
        _ tz: String?, environment: [String: String], command: String
    ) throws -> (name: String, zone: TimeZone) {
        if let name = tz {
            let (id, zone) = try eventZone(name, option: "tz", command: command)
            return (id, zone)
        }
        if let local = environmentZone(environment) { return local }
        let system = systemZone(environment)
        return (system.identifier, system)
    }

    /// `$TZ` (a leading `:` allowed) when it names a zone, else the system zone.
    static func localZone(_ environment: [String: String]) -> TimeZone {
        environmentZone(environment)?.zone ?? systemZone(environment)
    }

    /// The system zone as `TimeZone.current` finds it. Where neither `$TZFILE` nor `$TZ` is set, Foundation
    /// takes the zone `/etc/localtime` links to under `/usr/share/zoneinfo/`: read here the same way, without
    /// first building the process's whole environment as Foundation does to look for those two (0.9 million
    /// instructions of each run; callgrind, a no-change copy). Anything else is Foundation's to decide.
    static func systemZone(_ environment: [String: String]) -> TimeZone {
        guard environment["TZFILE"] == nil, environment["TZ"] == nil, let name = linkedZoneName(),
            let zone = TimeZone(identifier: name)
        else { return TimeZone.current }
        return zone
    }

    /// The zone name `/etc/localtime` links to (what follows `/usr/share/zoneinfo/` in its target), or nil.
    private static func linkedZoneName() -> String? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 4096) { buffer -> String? in
            guard let base = buffer.baseAddress else { return nil }
            let length = readlink("/etc/localtime", base, buffer.count)
            guard length > 0, length < buffer.count else { return nil }
            let target = String(decoding: UnsafeRawBufferPointer(start: base, count: length), as: UTF8.self)
            guard let directory = target.range(of: "/usr/share/zoneinfo/") else { return nil }
            let name = String(target[directory.upperBound...])
            return name.isEmpty ? nil : name
        }
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
