import Bench
import CLI

#if canImport(Glibc)
import Glibc
#endif

let code = await CalbridgeCLI.run(Array(CommandLine.arguments.dropFirst()), context: .process(), suite: .bench)
exit(code.rawValue)
