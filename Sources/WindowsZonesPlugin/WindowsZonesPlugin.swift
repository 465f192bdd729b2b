import PackagePlugin

/// Build-tool plugin: generates the Windows/IANA table from the target's windowsZones.xml.
///
/// The XML is declared as the command's input, so editing it regenerates the table on the next build.
@main
struct WindowsZonesPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let input = target.directoryURL.appending(path: "windowsZones.xml")
        let output = context.pluginWorkDirectoryURL.appending(path: "GeneratedWindowsZones.swift")
        return [
            .buildCommand(
                displayName: "Generating the Windows time-zone table from \(target.name)/windowsZones.xml",
                executable: try context.tool(named: "WindowsZonesGenerator").url,
                arguments: [input.path(percentEncoded: false), output.path(percentEncoded: false)],
                inputFiles: [input],
                outputFiles: [output]
            )
        ]
    }
}
