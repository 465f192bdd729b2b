import Foundation
import TestSupport
import Testing
import TimeZones

@Suite("TimeZones: Windows zone rules (custom zones) and their IANA equivalents")
struct WindowsZoneRuleTests {
    typealias AnnualDate = WindowsZoneRule.AnnualDate

    /// US rule since 2007: second Sunday of March 02:00 to first Sunday of November 02:00.
    static let usPacific = WindowsZoneRule(
        bias: 480, daylightBias: -60,
        daylightTime: .init(start: AnnualDate(month: 3, weekday: 0, week: 2, secondOfDay: 7200),
                            end: AnnualDate(month: 11, weekday: 0, week: 1, secondOfDay: 7200)))
    /// New South Wales: first Sunday of October 02:00 to first Sunday of April 03:00 (daylight time spans the new year).
    static let sydney = WindowsZoneRule(
        bias: -600, daylightBias: -60,
        daylightTime: .init(start: AnnualDate(month: 10, weekday: 0, week: 1, secondOfDay: 7200),
                            end: AnnualDate(month: 4, weekday: 0, week: 1, secondOfDay: 10800)))
    /// EU rule: last Sunday of March 02:00 (01:00 UTC) to last Sunday of October 03:00.
    static let berlin = WindowsZoneRule(
        bias: -60, daylightBias: -60,
        daylightTime: .init(start: AnnualDate(month: 3, weekday: 0, week: 5, secondOfDay: 7200),
                            end: AnnualDate(month: 10, weekday: 0, week: 5, secondOfDay: 10800)))

    static func definition(_ rule: WindowsZoneRule, key: String = "Customized Time Zone") -> WindowsZoneDefinition {
        WindowsZoneDefinition(keyName: key, rules: [.init(fromYear: 1601, rule: rule)])!
    }

    static func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }
    static let years2026to2028 = DateInterval(start: utc("2026-01-01T00:00:00Z"), end: utc("2029-01-01T00:00:00Z"))

    @Test("the n-th and the last weekday of a month")
    func annualDates() {
        #expect(AnnualDate(month: 3, weekday: 0, week: 2, secondOfDay: 0).day(in: 2027) == 14)
        #expect(AnnualDate(month: 11, weekday: 0, week: 1, secondOfDay: 0).day(in: 2027) == 7)
        #expect(AnnualDate(month: 3, weekday: 0, week: 5, secondOfDay: 0).day(in: 2027) == 28)
        #expect(AnnualDate(month: 2, weekday: 0, week: 5, secondOfDay: 0).day(in: 2026) == 22)
        // A fifth Sunday that exists is the last one: 29 February 2032 is a Sunday.
        #expect(AnnualDate(month: 2, weekday: 0, week: 5, secondOfDay: 0).day(in: 2032) == 29)
    }

    @Test("rule offsets equal the tz database's at every hour of 2026-2028", .ownThread, arguments: [
        ("US Pacific", usPacific, "America/Los_Angeles"),
        ("Sydney", sydney, "Australia/Sydney"),
        ("Berlin", berlin, "Europe/Berlin"),
    ])
    func hourlyOffsets(_ name: String, _ rule: WindowsZoneRule, _ identifier: String) throws {
        let zone = try #require(TimeZone(identifier: identifier))
        var t = Self.utc("2026-01-01T00:30:00Z")
        var mismatches: [Date] = []
        while t < Self.utc("2029-01-01T00:00:00Z") {
            if rule.secondsFromGMT(for: t) != zone.secondsFromGMT(for: t) { mismatches.append(t) }
            t += 3600
        }
        #expect(mismatches.isEmpty, "\(name): first mismatch \(mismatches.first.map(String.init(describing:)) ?? "")")
    }

    @Test("transitions are the exact instants the clocks change")
    func transitions() throws {
        let us = try #require(Self.usPacific.transitions(in: 2027))
        #expect(us.daylightStarts == Self.utc("2027-03-14T10:00:00Z"))
        #expect(us.daylightEnds == Self.utc("2027-11-07T09:00:00Z"))
        let au = try #require(Self.sydney.transitions(in: 2027))
        #expect(au.daylightEnds == Self.utc("2027-04-03T16:00:00Z"))
        #expect(au.daylightStarts == Self.utc("2027-10-02T16:00:00Z"))
        #expect(WindowsZoneRule(bias: -330).transitions(in: 2027) == nil)
    }

    @Test("a rule set per period of years applies each rule from 1 January of its year")
    func rulesByYear() throws {
        // Until 2026 the US rule, from 2027 on permanent standard time at UTC-8.
        let definition = try #require(WindowsZoneDefinition(keyName: "Customized Time Zone", rules: [
            .init(fromYear: 2027, rule: WindowsZoneRule(bias: 480)), .init(fromYear: 2000, rule: Self.usPacific),
        ]))
        #expect(definition.rules.map(\.fromYear) == [2000, 2027])
        #expect(definition.secondsFromGMT(for: Self.utc("2026-07-01T12:00:00Z")) == -7 * 3600)
        #expect(definition.secondsFromGMT(for: Self.utc("2027-07-01T12:00:00Z")) == -8 * 3600)
        #expect(definition.secondsFromGMT(for: Self.utc("1990-07-01T12:00:00Z")) == -7 * 3600, "the first rule also applies before")
        #expect(WindowsZoneDefinition(keyName: "x", rules: []) == nil)
    }

    @Test("a custom zone's IANA equivalent is the zone with the same offsets at every instant", arguments: [
        ("US rule", definition(usPacific), "America/Los_Angeles"),
        ("US rule named for Mexico's Pacific zone", definition(usPacific, key: "Pacific Standard Time (Mexico)"), "America/Tijuana"),
        ("New South Wales rule", definition(sydney), "Australia/Sydney"),
        // Every zone on the EU rule at +01:00 is equivalent; the first Windows name in order is Central Europe.
        ("EU rule, +01:00", definition(berlin), "Europe/Budapest"),
        ("EU rule, +01:00 named W. Europe", definition(berlin, key: "W. Europe Standard Time"), "Europe/Berlin"),
        ("fixed +05:30", definition(WindowsZoneRule(bias: -330)), "Asia/Calcutta"),
        ("fixed +05:45", definition(WindowsZoneRule(bias: -345)), "Asia/Katmandu"),
        ("fixed +05:00", definition(WindowsZoneRule(bias: -300)), "Etc/GMT-5"),
        ("fixed -03:00", definition(WindowsZoneRule(bias: 180)), "Etc/GMT+3"),
        ("fixed UTC", definition(WindowsZoneRule(bias: 0)), "UTC"),
        ("fixed +05:30 named India", definition(WindowsZoneRule(bias: -330), key: "India Standard Time"), "Asia/Calcutta"),
    ])
    func equivalents(_ name: String, _ definition: WindowsZoneDefinition, _ expected: String) {
        #expect(WindowsZones.ianaZone(equivalentTo: definition, over: Self.years2026to2028) == expected, "\(name)")
    }

    @Test("a key name whose zone has other rules is not taken on trust")
    func keyNameChecked() {
        // Named "Pacific Standard Time" but without daylight time: Los Angeles would move it by an hour in summer.
        let definition = Self.definition(WindowsZoneRule(bias: 480), key: "Pacific Standard Time")
        #expect(WindowsZones.ianaZone(equivalentTo: definition, over: Self.years2026to2028) == "Etc/GMT+8")
    }

    @Test("rules no zone follows have no equivalent", arguments: [
        // US offsets with the changes a week off.
        WindowsZoneRule(bias: 480, daylightBias: -60, daylightTime: .init(
            start: AnnualDate(month: 3, weekday: 0, week: 3, secondOfDay: 7200),
            end: AnnualDate(month: 11, weekday: 0, week: 1, secondOfDay: 7200))),
        // A fixed offset no zone has.
        WindowsZoneRule(bias: -317),
        // A 30-minute daylight shift at +01:00.
        WindowsZoneRule(bias: -60, daylightBias: -30, daylightTime: berlin.daylightTime),
    ])
    func noEquivalent(_ rule: WindowsZoneRule) {
        #expect(WindowsZones.ianaZone(equivalentTo: Self.definition(rule), over: Self.years2026to2028) == nil)
    }
}
