import CLI
import CalbridgeSupport
import Dispatch

#if canImport(Glibc)
import Glibc

// glibc malloc tuning for a short-lived CLI, measured with `calbridge-bench copy --client-process
// --events 10000` (the copy's own peak): at most 2 arenas (not 8 per core for the concurrent reads
// and batches) and a fixed mmap threshold (so freed response bodies and page buffers go back to the
// system instead of fragmenting the heap) together took the peak from 127 MB to 103 MB (measured
// with the same settings as MALLOC_ARENA_MAX / MALLOC_MMAP_THRESHOLD_ environment variables).
// Re-measured 2026-12-01 with `calbridge-bench copy --client-process --events 3000` (mallopt made a
// no-op through LD_PRELOAD for the comparison): 74.1 and 75.9 MB without, 59.1 and 60.8 MB with; it still pays.
// Not for `sandbox`, which hosts the sandbox server: the settings were measured for the client only, and
// the sandbox's memory is no goal (nor for the benchmarks, a separate executable, calbridge-bench).
let hostsSandbox = CommandLine.arguments.dropFirst().first == "sandbox"
if !hostsSandbox {
    GlibcMalloc.set(.arenaMax, 2)
    GlibcMalloc.set(.mmapThreshold, 128 * 1024)
}
#endif

// The command runs in a task that ends the process, while the main thread waits, instead of as top-level
// `await` code: valgrind (3.19) crashes on a Swift async main (dispatch_main retires the main thread), and
// `calbridge-bench copy --instructions` runs this executable under callgrind.
Task.detached {
    let code = await CalbridgeCLI.run(Array(CommandLine.arguments.dropFirst()), context: .process())
    BenchChildUsage.writeIfAsked()
    exit(code.rawValue)
}
DispatchSemaphore(value: 0).wait()
