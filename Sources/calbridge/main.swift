import CLI
import Dispatch

#if canImport(Glibc)
import Glibc
#endif

// The command runs in a task that ends the process, while the main thread waits, instead of as top-level
// `await` code: valgrind crashes on a Swift async main (dispatch_main retires the main thread), and
// `calbridge-bench copy --instructions` runs this executable under callgrind.
// The context lives until `exit`: what its `exitKeeper` holds is never freed value by value.
Task.detached {
    let context = CommandContext.process()
    let code = await CalbridgeCLI.run(Array(CommandLine.arguments.dropFirst()), context: context)
    BenchChildUsage.writeIfAsked()
    withExtendedLifetime(context) { exit(code.rawValue) }
}
DispatchSemaphore(value: 0).wait()
