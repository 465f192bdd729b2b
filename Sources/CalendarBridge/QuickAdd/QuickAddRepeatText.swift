/// A repeat rule in words, for people checking what will be written: "every weekday at 09:30",
/// "every 2 weeks on Tuesday and Thursday at 18:00 until 2026-12-31", "every month on the 15th, 5 times".
///
/// Reads only the RRULE parts the quick-add parser writes (and Google's quickAdd returns); a rule with
/// other parts is described by its frequency and interval, followed by the rule itself.
public enum QuickAddRepeatText {
    static let days = [
        "MO": "Monday", "TU": "Tuesday", "WE": "Wednesday", "TH": "Thursday", "FR": "Friday", "SA": "Saturday", "SU": "Sunday",
    ]
    static let order = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
    static let nth = [1: "first", 2: "second", 3: "third", 4: "fourth", -1: "last"]

    /// The first `RRULE:` line in words, nil when there is none.
    public static func describe(_ lines: [String], start: QuickAddResult.Time, zone: String) -> String? {
        guard let line = lines.first(where: { $0.hasPrefix("RRULE:") }) else { return nil }
        var parts: [String: String] = [:]
        for pair in line.dropFirst("RRULE:".count).split(separator: ";") {
            let kv = pair.split(separator: "=", maxSplits: 1)
            if kv.count == 2 { parts[String(kv[0]).uppercased()] = String(kv[1]) }
        }
        let interval = Int(parts["INTERVAL"] ?? "1") ?? 1
        let units = ["DAILY": "day", "WEEKLY": "week", "MONTHLY": "month", "YEARLY": "year"]
        guard let frequency = parts["FREQ"], let unit = units[frequency] else { return line }
        var text = interval == 1 ? "every \(unit)" : "every \(interval) \(unit)s"
        let known: Set<String> = ["FREQ", "INTERVAL", "BYDAY", "BYMONTHDAY", "COUNT", "UNTIL", "WKST"]
        if let byDay = parts["BYDAY"] {
            let codes = byDay.split(separator: ",").map(String.init)
            if codes.allSatisfy({ days[$0] != nil }) {
                let sorted = order.filter(codes.contains)
                if frequency == "WEEKLY", interval == 1, sorted == ["MO", "TU", "WE", "TH", "FR"] {
                    text = "every weekday"
                } else if frequency == "WEEKLY", interval == 1, sorted.count == 1 {
                    text = "every \(days[sorted[0]]!)"
                } else if frequency == "WEEKLY", interval == 1, sorted.count >= 5 {
                    // "every day except Sunday": shorter than six names, and what the user typed.
                    let missing = order.filter { !sorted.contains($0) }.map { days[$0]! }
                    text = missing.isEmpty ? "every day" : "every day except " + list(missing)
                } else {
                    text += " on " + list(sorted.map { days[$0]! })
                }
            } else if codes.count == 1, frequency == "MONTHLY", let day = days[String(codes[0].suffix(2))],
                let n = Int(codes[0].dropLast(2)), let word = nth[n]
            {
                // BYDAY=1TH, BYDAY=-1FR: "every month on the first Thursday", "... on the last Friday".
                text += " on the \(word) \(day)"
            } else {
                text += " on \(byDay)"
            }
        }
        if let day = parts["BYMONTHDAY"] { text += " on the \(ordinal(day))" }
        if case .dateTime(_, let rfc3339) = start, rfc3339.count >= 16 {
            let clock = rfc3339.dropFirst(11).prefix(5)
            text += " at \(clock)"
        }
        if let until = parts["UNTIL"], let day = untilDay(until, zone: zone) { text += " until \(day)" }
        if let count = parts["COUNT"] { text += ", \(count) times" }
        if !Set(parts.keys).isSubset(of: known) { text += " (\(line))" }
        return text
    }

    /// The last day of an UNTIL in the event's zone (`20261231T225959Z` is 2026-12-31 in Berlin).
    static func untilDay(_ until: String, zone: String) -> QuickAddDate? {
        let digits = until.unicodeScalars.filter { $0.properties.numericType != nil }.compactMap { Int(String($0)) }
        guard digits.count >= 8 else { return nil }
        func number(_ range: Range<Int>) -> Int { range.reduce(0) { $0 * 10 + digits[$1] } }
        let date = QuickAddDate(year: number(0..<4), month: number(4..<6), day: number(6..<8))
        guard QuickAddDate.isValid(year: date.year, month: date.month, day: date.day) else { return nil }
        guard digits.count >= 14, until.hasSuffix("Z"), let eventZone = QuickAddZone(identifier: zone) else { return date }
        let seconds = date.dayNumber * 86_400 + number(8..<10) * 3600 + number(10..<12) * 60 + number(12..<14)
        return eventZone.date(at: seconds)
    }

    static func list(_ names: [String]) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + names.last!
    }

    static func ordinal(_ text: String) -> String {
        guard let n = Int(text) else { return text }
        if (11...13).contains(n % 100) { return "\(n)th" }
        switch n % 10 {
        case 1: return "\(n)st"
        case 2: return "\(n)nd"
        case 3: return "\(n)rd"
        default: return "\(n)th"
        }
    }
}
