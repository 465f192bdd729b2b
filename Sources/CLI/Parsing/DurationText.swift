/// Durations as typed on the command line: a whole number with a unit, `s`, `m` or `h`, or several in
/// decreasing order (`30s`, `5m`, `1h`, `1h30m`, `2m30s`). A pure function, unit-tested.
package enum DurationText {
    /// The duration `text` spells, or nil when it is not one (no unit, an unknown unit, a unit twice,
    /// units out of order, zero, or more than `Int32.max` seconds).
    package static func parse(_ text: String) -> Duration? {
        let units: [(Character, Int64)] = [("h", 3600), ("m", 60), ("s", 1)]
        var total: Int64 = 0
        var digits = ""
        var nextUnit = 0
        for character in text {
            if character.isASCII, character.isNumber {
                digits.append(character)
                guard digits.count <= 9 else { return nil }
                continue
            }
            guard let index = units.firstIndex(where: { $0.0 == character }), index >= nextUnit,
                let value = Int64(digits)
            else { return nil }
            total += value * units[index].1
            digits = ""
            nextUnit = index + 1
        }
        guard digits.isEmpty, total > 0, total <= Int64(Int32.max) else { return nil }
        return .seconds(total)
    }

    /// `1h30m`, `5m`, `45s`: the shortest spelling `parse` reads back as the same duration.
    package static func format(_ duration: Duration) -> String {
        var seconds = duration.components.seconds
        guard seconds > 0 else { return "0s" }
        var text = ""
        for (unit, size) in [("h", Int64(3600)), ("m", 60), ("s", 1)] where seconds >= size {
            text += "\(seconds / size)\(unit)"
            seconds %= size
        }
        return text
    }
}

extension Option where Value == Duration {
    /// A duration such as `30s`, `5m` or `1h` (see `DurationText`) within `range`.
    package static func duration(_ name: String, _ valueName: String, _ help: String, in range: ClosedRange<Duration>)
        -> Option<Duration>
    {
        let expected = "a duration such as 30s, 5m or 1h (from \(DurationText.format(range.lowerBound)) to \(DurationText.format(range.upperBound)))"
        return Option(name, valueName, help, expected: expected) { text in
            DurationText.parse(text).flatMap { range.contains($0) ? $0 : nil }
        }
    }
}
