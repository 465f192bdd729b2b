import HTTP
import TimeZones
import HTTPCurl

/// `calbridge --version`: calbridge's version and what it was built with.
public enum VersionCommand: Command {
    public static let calbridgeVersion = "0.1.0"

    public static let spec = CommandSpec(
        ["version"],
        abstract: "Print the calbridge, libcurl and CLDR time-zone table versions."
    )

    public static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        context.print("calbridge \(calbridgeVersion)")
        context.print("libcurl \(CurlInfo.version)")
        context.print("time-zone table: CLDR \(WindowsZones.cldrVersion) (\(WindowsZones.cldrOtherVersion))")
        return .success
    }
}
