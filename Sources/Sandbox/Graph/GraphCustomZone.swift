import Foundation

/// A time zone Exchange knows by its rules only: what Outlook desktop stores for a zone that has no Windows
/// name Exchange recognises. Graph names such a zone `tzone://Microsoft/Custom` in `originalStartTimeZone` /
/// `originalEndTimeZone` / `recurrenceTimeZone` and exposes the rules only as MAPI named properties (a
/// TZDEFINITION blob, MS-OXOCAL 2.2.1.41) through `singleValueExtendedProperties`.
///
/// The rule → offset conversion is the emulator's own (Foundation's `TimeZone` cannot hold arbitrary rules).
struct GraphCustomZone: Codable, Sendable, Equatable {
    /// The zone name Graph shows for an event in a custom zone.
    static let name = "tzone://Microsoft/Custom"

    /// `PidLidAppointmentTimeZoneDefinitionStartDisplay`, as Graph returns the id (GUID and hex in lower case).
    static let startDisplayPropertyID = "Binary {00062002-0000-0000-c000-000000000046} Id 0x825e"
    /// `PidLidAppointmentTimeZoneDefinitionEndDisplay`.
    static let endDisplayPropertyID = "Binary {00062002-0000-0000-c000-000000000046} Id 0x825f"
    /// `PidLidAppointmentTimeZoneDefinitionRecur` (series masters: the zone the recurrence expands in).
    static let recurPropertyID = "Binary {00062002-0000-0000-c000-000000000046} Id 0x8260"
    static let propertyIDs = [startDisplayPropertyID, endDisplayPropertyID, recurPropertyID]

    static func isCustomName(_ name: String) -> Bool {
        name.trimmingCharacters(in: .whitespaces).caseInsensitiveCompare(GraphCustomZone.name) == .orderedSame
    }

    /// An annual transition as a TZRule's SYSTEMTIME gives it (wYear = 0): the `day`-th (1...4, 5 = last)
    /// `dayOfWeek` (0 = Sunday) of `month` (1...12; 0 = none) at `hour`:`minute` local clock time.
    struct Transition: Codable, Sendable, Equatable {
        var month: Int
        var dayOfWeek: Int
        var day: Int
        var hour: Int
        var minute: Int

        static let none = Transition(month: 0, dayOfWeek: 0, day: 0, hour: 0, minute: 0)

        /// The transition's local clock time in `year`, as seconds since 1970-01-01T00:00 of that clock.
        func localSeconds(year: Int) -> Int {
            let first = GraphLocalDate(year: year, month: month, day: 1)
            let length = GraphLocalDate.daysIn(year: year, month: month)
            var day = 1 + (dayOfWeek - first.weekday + 7) % 7 + (self.day - 1) * 7
            while day > length { day -= 7 }
            return (first.dayNumber + day - 1) * 86_400 + hour * 3600 + minute * 60
        }
    }

    /// A TZRule: the zone from Jan 1 of `year` on. Biases in minutes, UTC = local + bias.
    struct Rule: Codable, Sendable, Equatable {
        var year: Int
        var bias: Int
        var standardBias: Int
        var daylightBias: Int
        /// When daylight time ends (a daylight clock time); month 0: the zone has no daylight time.
        var standardDate: Transition
        /// When daylight time begins (a standard clock time).
        var daylightDate: Transition

        var hasDaylightTime: Bool { standardDate.month != 0 }
        /// Seconds east of UTC in standard and in daylight time.
        var standardOffset: Int { -(bias + standardBias) * 60 }
        var daylightOffset: Int { -(bias + daylightBias) * 60 }

        /// The offset (seconds east of UTC) at `utc` (seconds since 1970), reading the transitions of `year`.
        func offset(at utc: Int, year: Int) -> Int {
            guard hasDaylightTime else { return standardOffset }
            let begins = daylightDate.localSeconds(year: year) - standardOffset
            let ends = standardDate.localSeconds(year: year) - daylightOffset
            if begins == ends { return standardOffset }
            // Northern hemisphere: daylight time inside the year; southern: it spans the new year.
            let daylight = begins < ends ? (utc >= begins && utc < ends) : (utc >= begins || utc < ends)
            return daylight ? daylightOffset : standardOffset
        }
    }

    /// Outlook's default for a zone it wrote itself.
    var keyName: String
    /// At least one, years strictly ascending.
    var rules: [Rule]

    /// The rule in force in `year`: the last one starting on or before it (the first covers earlier years).
    /// Seeds have at least one rule; a hand-edited state file without any reads as UTC.
    func rule(forYear year: Int) -> Rule {
        guard var selected = rules.first else {
            return Rule(year: 1601, bias: 0, standardBias: 0, daylightBias: 0, standardDate: .none, daylightDate: .none)
        }
        for rule in rules.dropFirst() where rule.year <= year { selected = rule }
        return selected
    }

    /// Seconds east of UTC at `utc` (seconds since 1970).
    func offset(at utc: Int) -> Int {
        // The year is the one of the local standard clock (first with the rule of the UTC year).
        let guess = rule(forYear: GraphCustomZone.year(ofSeconds: utc))
        let year = GraphCustomZone.year(ofSeconds: utc + guess.standardOffset)
        return rule(forYear: year).offset(at: utc, year: year)
    }

    /// The wall clock `instant` shows in this zone.
    func local(of instant: Date) -> GraphLocalDateTime {
        let utc = Int(floor(instant.timeIntervalSince1970))
        return GraphLocalDateTime(localSeconds: utc + offset(at: utc))
    }

    /// The instant a wall clock denotes: in a spring-forward gap it moves forward by the gap (the offset before
    /// the change applies); a repeated clock time takes its first reading (daylight time), as for tz zones.
    func instant(of local: GraphLocalDateTime) -> Date {
        local.instant { offset(at: $0) }
    }

    static func year(ofSeconds seconds: Int) -> Int {
        GraphLocalDate(dayNumber: Int((Double(seconds) / 86_400).rounded(.down))).year
    }

    // MARK: TZDEFINITION

    /// The base64 TZDEFINITION Graph shows in the extended properties, as written at `now` (its zone's year
    /// picks the effective rule).
    func definitionProperty(now: Date, recur: Bool) -> String {
        Data(definition(effectiveYear: local(of: now).date.year, recur: recur)).base64EncodedString()
    }

    /// The TZDEFINITION blob (MS-OXOCAL 2.2.1.41, little-endian) Outlook writes for this zone: version 2.1,
    /// TZDEFINITION_FLAG_VALID_KEYNAME, no GUID; the rule in force in `effectiveYear` carries
    /// TZRULE_FLAG_EFFECTIVE_TZREG, and also TZRULE_FLAG_RECUR_CURRENT_TZREG when `recur` (the Recur property).
    func definition(effectiveYear: Int, recur: Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        func u16(_ value: Int) {
            let word = UInt16(truncatingIfNeeded: value)
            bytes.append(UInt8(word & 0xFF))
            bytes.append(UInt8(word >> 8))
        }
        func i32(_ value: Int) {
            let word = UInt32(bitPattern: Int32(truncatingIfNeeded: value))
            for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt32(shift))) }
        }
        func systemTime(year: Int, _ transition: Transition) {
            for field in [year, transition.month, transition.dayOfWeek, transition.day, transition.hour, transition.minute, 0, 0] {
                u16(field)
            }
        }
        let key = Array(keyName.utf16)
        bytes += [0x02, 0x01]
        u16(2 + 2 + key.count * 2 + 2) // cbHeader: wFlags, cchKeyName, KeyName, cRules
        u16(0x0002) // TZDEFINITION_FLAG_VALID_KEYNAME
        u16(key.count)
        for unit in key { u16(Int(unit)) }
        u16(rules.count)
        let effective = rules.lastIndex { $0.year <= effectiveYear } ?? 0
        for (index, rule) in rules.enumerated() {
            bytes += [0x02, 0x01]
            u16(0x003E)
            u16(index == effective ? (recur ? 0x0003 : 0x0002) : 0x0000)
            systemTime(year: rule.year, Transition(month: 1, dayOfWeek: 0, day: 1, hour: 0, minute: 0))
            i32(rule.bias)
            i32(rule.standardBias)
            i32(rule.daylightBias)
            systemTime(year: 0, rule.standardDate)
            systemTime(year: 0, rule.daylightDate)
        }
        return bytes
    }
}

extension GraphLocalDateTime {
    /// The wall clock `seconds` (since 1970-01-01T00:00 of that clock) denote.
    init(localSeconds seconds: Int) {
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        self.init(date: GraphLocalDate(dayNumber: days), secondOfDay: seconds - days * 86_400)
    }
}

/// The zone a wall clock is read in: a tz database zone (named zones), or a custom rule set. Series expand,
/// and all-day events are anchored, through this, so both kinds behave alike.
enum GraphZone: Sendable {
    case tz(TimeZone)
    case custom(GraphCustomZone)

    static let utc = GraphZone.tz(TimeZone(secondsFromGMT: 0)!)

    func instant(of local: GraphLocalDateTime) -> Date {
        switch self {
        case .tz(let zone): local.instant(in: zone)
        case .custom(let zone): zone.instant(of: local)
        }
    }

    func local(of instant: Date) -> GraphLocalDateTime {
        switch self {
        case .tz(let zone): GraphLocalDateTime(instant, in: zone)
        case .custom(let zone): zone.local(of: instant)
        }
    }
}

// MARK: Seed format

extension GraphCustomZone {
    /// A seed's custom zone spec that does not describe a zone; `field` is its path (`custom.rules[0].bias`).
    struct SeedError: Error {
        var field: String
        var problem: String
    }

    static let defaultKeyName = "Customized Time Zone"

    /// Reads `{"keyName"?, "rules": [{"year"?, "bias", "standardBias"?, "daylightBias"?, "standardDate"?,
    /// "daylightDate"?}, ...]}` (the value of a seed's `"timeZone": {"custom": ...}`), checked as the
    /// TZDEFINITION layout requires.
    init(seed value: Any) throws(SeedError) {
        func fail(_ field: String, _ problem: String) -> SeedError { SeedError(field: field, problem: problem) }
        func object(_ value: Any?, _ field: String, keys: Set<String>) throws(SeedError) -> [String: Any] {
            guard let object = value as? [String: Any] else { throw fail(field, "expected an object") }
            if let unknown = object.keys.sorted().first(where: { !keys.contains($0) }) { throw fail(field, "unknown key '\(unknown)'") }
            return object
        }
        func integer(_ object: [String: Any], _ key: String, _ field: String, _ range: ClosedRange<Int>,
                     default fallback: Int?) throws(SeedError) -> Int {
            guard let raw = object[key] else {
                if let fallback { return fallback }
                throw fail("\(field).\(key)", "required")
            }
            guard let number = GraphJSON.int(raw) else { throw fail("\(field).\(key)", "expected an integer, not \(raw)") }
            guard range.contains(number) else {
                throw fail("\(field).\(key)", "\(number) is outside \(range.lowerBound)...\(range.upperBound)")
            }
            return number
        }
        func transition(_ rule: [String: Any], _ key: String, _ field: String) throws(SeedError) -> Transition {
            guard let raw = rule[key] else { return .none }
            let path = "\(field).\(key)"
            let date = try object(raw, path, keys: ["month", "dayOfWeek", "day", "hour", "minute"])
            let month = try integer(date, "month", path, 0...12, default: 0)
            let result = Transition(
                month: month, dayOfWeek: try integer(date, "dayOfWeek", path, 0...6, default: 0),
                day: try integer(date, "day", path, month == 0 ? 0...0 : 1...5, default: month == 0 ? 0 : nil),
                hour: try integer(date, "hour", path, 0...23, default: 0), minute: try integer(date, "minute", path, 0...59, default: 0))
            if month == 0, result != .none { throw fail(path, "month 0 (no transition) needs all other fields 0") }
            return result
        }
        let spec = try object(value, "custom", keys: ["keyName", "rules"])
        let keyName = spec["keyName"] == nil ? GraphCustomZone.defaultKeyName : spec["keyName"] as? String
        guard let keyName, (1...260).contains(keyName.utf16.count) else {
            throw fail("custom.keyName", "expected a name of 1 to 260 UTF-16 code units")
        }
        guard let list = spec["rules"] as? [Any], (1...1024).contains(list.count) else {
            throw fail("custom.rules", "expected a list of 1 to 1024 rules")
        }
        var rules: [Rule] = []
        for (index, item) in list.enumerated() {
            let field = "custom.rules[\(index)]"
            let rule = try object(item, field, keys: ["year", "bias", "standardBias", "daylightBias", "standardDate", "daylightDate"])
            let year = try integer(rule, "year", field, 1601...9999, default: 1601)
            if let previous = rules.last, year <= previous.year {
                throw fail("\(field).year", "\(year) does not come after the previous rule's \(previous.year)")
            }
            let bias = try integer(rule, "bias", field, -840...840, default: nil)
            let standardDate = try transition(rule, "standardDate", field)
            let daylightDate = try transition(rule, "daylightDate", field)
            if (standardDate.month == 0) != (daylightDate.month == 0) {
                throw fail(field, "standardDate and daylightDate must both have a month (daylight time) or both month 0 (none)")
            }
            let hasDaylight = standardDate.month != 0
            let standardBias = try integer(rule, "standardBias", field, -840...840, default: 0)
            let daylightBias = try integer(rule, "daylightBias", field, -840...840, default: hasDaylight ? -60 : 0)
            for (key, total) in [("standardBias", bias + standardBias), ("daylightBias", bias + daylightBias)]
            where !(-840...840).contains(total) {
                throw fail("\(field).\(key)", "bias + \(key) = \(total) is outside -840...840")
            }
            rules.append(Rule(year: year, bias: bias, standardBias: standardBias, daylightBias: daylightBias,
                              standardDate: standardDate, daylightDate: daylightDate))
        }
        self.init(keyName: keyName, rules: rules)
    }
}
