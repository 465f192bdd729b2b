import PackagePlugin

/// Build-tool plugin: generates the Windows/IANA table from the target's windowsZones.xml.
/// (The generator command is added by the time-zone issue.)
@main
struct WindowsZonesPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        []
    }
}
