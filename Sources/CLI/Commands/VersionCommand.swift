import HTTP
import TimeZones
import HTTPCurl

/// `calbridge --version`: calbridge's version and what it was built with.
package enum VersionCommand: Command {
    package static let calbridgeVersion = "0.1.0"

    package static let path = ["version"]

    package static let spec = CommandSpec(
        path,
        abstract: "Print the calbridge, libcurl and CLDR time-zone table versions."
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        context.print("calbridge \(calbridgeVersion)")
        context.print("libcurl \(CurlInfo.version)")
        context.print("time-zone table: CLDR \(WindowsZones.cldrVersion) (\(WindowsZones.cldrOtherVersion))")
        return .success
    }
}
