import CLI

#if canImport(Glibc)
import Glibc
#endif

// No allocator tuning here: every benchmark hosts a loopback server in this process, and the tuning in
// calbridge's main.swift was measured for the client alone (`copy --client-process` runs that client).
let code = await CalbridgeCLI.run(Array(CommandLine.arguments.dropFirst()), context: .process(), suite: .bench)
exit(code.rawValue)
