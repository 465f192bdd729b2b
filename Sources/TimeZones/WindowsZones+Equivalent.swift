import Foundation

extension WindowsZones {
    /// The IANA zone that keeps exactly the same UTC offset as a Windows zone definition throughout an
    /// interval, or nil when no zone does.
    ///
    /// This is how a `tzone://Microsoft/Custom` event gets a real zone without guessing: a candidate is
    /// accepted only when its offset equals the definition's at every instant of `interval` (both are
    /// constant between their transitions, so comparing at every transition of either side decides it).
    /// Candidates, first match wins: the zone the definition's key name names, when it is a Windows name;
    /// for a whole-hour offset without daylight time, `Etc/GMT±N` (or `UTC`), which says just that; then
    /// the default (`001`) zone of every Windows name in the table, in name order; then the other rows.
    /// - Parameters:
    ///   - definition: the zone's rules, as stored in the event.
    ///   - interval: the span that must agree, such as the years an event or series covers.
    public static func ianaZone(equivalentTo definition: WindowsZoneDefinition, over interval: DateInterval) -> String? {
        ianaZone(
            equivalentTo: definition.secondsFromGMT(for:), changes: definition.possibleChanges(in: interval), over: interval,
            named: ianaIdentifier(forWindowsName: definition.keyName), observesDaylightTime: definition.observesDaylightTime)
    }

    /// The IANA zone that keeps exactly the offsets `offset` gives throughout `interval`, or nil: the solver
    /// behind every zone known only by its rules (a Windows definition above, an iCalendar `VTIMEZONE`).
    /// - Parameters:
    ///   - offset: seconds east of UTC at an instant.
    ///   - changes: every instant in `interval` at which `offset` may change (more is harmless).
    ///   - named: the zone the definition's name names, tried first.
    ///   - observesDaylightTime: false when the offset never changes (then `Etc/GMT±N` is a candidate).
    public static func ianaZone(
        equivalentTo offset: (Date) -> Int, changes: [Date], over interval: DateInterval, named: String?, observesDaylightTime: Bool
    ) -> String? {
        let probes = [interval.start] + changes.filter { interval.contains($0) }
        let target = offset(interval.start)
        for identifier in candidates(named: named, observesDaylightTime: observesDaylightTime, offset: target) {
            // The first probe is the interval's start: a zone with another offset there fails at once.
            guard let zone = TimeZone(identifier: identifier),
                probes.allSatisfy({ zone.secondsFromGMT(for: $0) == offset($0) }),
                zoneChanges(zone, in: interval, agreeWith: offset)
            else { continue }
            return identifier
        }
        return nil
    }

    /// Whether the offset `offset` gives after each of the zone's own transitions in `interval` is the zone's.
    private static func zoneChanges(_ zone: TimeZone, in interval: DateInterval, agreeWith offset: (Date) -> Int) -> Bool {
        var cursor = interval.start
        // A zone changes its clocks at most a few times a year; the bound only guards against a loop.
        for _ in 0..<1000 {
            guard let next = zone.nextDaylightSavingTimeTransition(after: cursor), next <= interval.end else { return true }
            guard zone.secondsFromGMT(for: next) == offset(next) else { return false }
            cursor = next
        }
        return false
    }

    private static func candidates(named: String?, observesDaylightTime: Bool, offset: Int) -> [String] {
        var list: [String] = []
        if let named { list.append(named) }
        if !observesDaylightTime, offset % 3600 == 0, (-12...14).contains(offset / 3600) {
            // Etc/GMT signs are POSIX-style: Etc/GMT-5 is five hours east of UTC.
            let hours = offset / 3600
            list.append(hours == 0 ? "UTC" : "Etc/GMT" + (hours > 0 ? "-" : "+") + String(abs(hours)))
        }
        list += mappings.filter { $0.territory == "001" }.compactMap(\.iana.first)
        list += mappings.filter { $0.territory != "001" }.flatMap(\.iana)
        var seen = Set<String>()
        return list.filter { seen.insert($0).inserted }
    }
}
