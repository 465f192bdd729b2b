import Accounts
import Foundation
import TimeZones

/// The defaults a user sets once in `$CALBRIDGE_HOME/config.toml`; the command line always wins.
///
/// ```toml
/// zone = "Europe/Berlin"          # where $TZ is not set: the zone times are shown and read in
/// format = "json"                 # --format of every command that offers it
/// week-start = "sunday"           # --week-start of every command that offers it
/// calendar = "work:Calendar"      # add and quick-add without a calendar
///
/// [aliases]                       # short names for accounts, anywhere an account is named
/// w = "carol.diaz@contoso.com"
/// ```
package struct CalbridgeConfig: Sendable, Equatable {
    /// One value and the line it came from.
    package struct Setting: Sendable, Equatable {
        package var value: String
        package var line: Int
    }

    /// The file's path (whether or not it exists).
    package var path: String
    package var zone: Setting?
    package var format: Setting?
    package var weekStart: Setting?
    package var calendar: Setting?
    /// Alias → account name.
    package var aliases: [String: Setting] = [:]

    /// The keys of the top level, as `config show` lists them.
    package static let keys = ["zone", "format", "week-start", "calendar"]
    /// The commands `calendar` is the default calendar of.
    package static let calendarCommands: Set<[String]> = [["add"], ["quick-add"]]

    package init(path: String) { self.path = path }

    /// `config.toml` in the home, or an empty configuration when there is none. A file that cannot be read
    /// or that says something calbridge does not understand is a usage error naming the file and line.
    package static func load(home: CalbridgeHome) throws -> CalbridgeConfig {
        let url = home.directory.appendingPathComponent("config.toml")
        var config = CalbridgeConfig(path: url.path)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return config
        } catch {
            throw UsageError("cannot read \(url.path): \(error.localizedDescription); fix its permissions or move it away")
        }
        guard data.count <= 1 << 20 else { throw UsageError("\(url.path) is over 1 MB; a configuration is a few lines") }
        guard let text = String(data: data, encoding: .utf8) else {
            throw UsageError("\(url.path) is not UTF-8 text; save it as UTF-8")
        }
        let file: ConfigFile
        do {
            file = try ConfigFile(parsing: text)
        } catch {
            throw UsageError("\(url.path) line \(error.line): \(error.message)")
        }
        for entry in file.entries {
            try config.take(entry)
        }
        return config
    }

    private mutating func take(_ entry: ConfigFile.Entry) throws {
        func fail(_ message: String) -> UsageError { UsageError("\(path) line \(entry.line): \(message)") }
        let setting = Setting(value: entry.value, line: entry.line)
        switch (entry.section, entry.key) {
        case ("", "zone"):
            guard Self.ianaZone(entry.value) != nil else {
                throw fail("zone takes an IANA zone (Europe/Berlin) or a Windows zone name (W. Europe Standard Time), not '\(entry.value)'")
            }
            zone = setting
        case ("", "format"):
            guard OutputFormat(rawValue: entry.value) != nil else { throw fail("format takes table, json or tsv, not '\(entry.value)'") }
            format = setting
        case ("", "week-start"):
            guard ["monday", "sunday"].contains(entry.value) else {
                throw fail("week-start takes monday or sunday, not '\(entry.value)'")
            }
            weekStart = setting
        case ("", "calendar"):
            guard let colon = entry.value.firstIndex(of: ":"), colon != entry.value.startIndex,
                entry.value.index(after: colon) != entry.value.endIndex
            else {
                throw fail("calendar takes ACCOUNT:CALENDAR (work:Calendar), not '\(entry.value)'")
            }
            calendar = setting
        case ("aliases", let alias):
            guard !alias.contains(":"), !alias.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw fail("an alias has no ':' and no control characters: '\(alias)'")
            }
            guard !entry.value.isEmpty else { throw fail("alias '\(alias)' names no account") }
            aliases[alias] = setting
        case ("", let key):
            let hint = ArgumentParser.nearest(key, among: Self.keys).map { " (did you mean '\($0)'?)" } ?? ""
            throw fail("unknown setting '\(key)'\(hint); the settings are \(Self.keys.joined(separator: ", ")) and [aliases]")
        case (let section, _):
            throw fail("unknown section [\(section)]; the only section is [aliases]")
        }
    }

    /// An IANA id or a Windows name, as an IANA id.
    static func ianaZone(_ name: String) -> String? {
        if TimeZone(identifier: name) != nil, name.contains("/") || !name.contains(" ") { return name }
        return WindowsZones.ianaIdentifier(forWindowsName: name).flatMap { TimeZone(identifier: $0) == nil ? nil : $0 }
    }

    /// What the parser fills in for `spec` where the command line is silent.
    package func argumentDefaults(for spec: CommandSpec) -> ArgumentDefaults {
        var defaults = ArgumentDefaults()
        if let format { defaults.options["format"] = format.value }
        if let weekStart { defaults.options["week-start"] = weekStart.value }
        if let calendar, Self.calendarCommands.contains(spec.path) { defaults.positional = ("CALENDAR_REF", calendar.value) }
        if !aliases.isEmpty {
            let config = self
            defaults.rewrite = { completion, value in
                completion == .accounts ? config.account(value) : config.calendarReference(value)
            }
        }
        return defaults
    }

    /// The account an alias stands for, or the name itself.
    package func account(_ name: String) -> String { aliases[name]?.value ?? name }

    /// `ALIAS:CALENDAR` with the alias replaced by its account; anything else unchanged.
    package func calendarReference(_ reference: String) -> String {
        guard let colon = reference.firstIndex(of: ":"), let account = aliases[String(reference[..<colon])] else { return reference }
        return account.value + reference[colon...]
    }
}
