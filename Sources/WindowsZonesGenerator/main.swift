import Foundation
import WindowsZonesCore

// Build-time only: run by WindowsZonesPlugin. All logic lives in WindowsZonesCore (unit-tested).
let status = WindowsZonesGeneratorCommand.run(arguments: Array(CommandLine.arguments.dropFirst())) { line in
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
exit(status)
