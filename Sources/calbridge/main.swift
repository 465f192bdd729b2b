import CLI
import CalbridgeSupport
import Dispatch

#if canImport(Glibc)
import Glibc

// glibc malloc tuning for a short-lived CLI, measured with `calbridge-bench copy --client-process`
// (the copy's own peak and page faults): at most 2 arenas (not 8 per core for the concurrent reads and
// batches), and the heap grown 16 MB at a time. Until 2026-12-02 the second setting was a fixed 128 KB
// mmap threshold, which kept the 10,000-event peak low when listings were decoded less frugally; it
// also made every response body and page buffer a fresh mmap and munmap: 7,300 and 7,800 page faults
// for a 1,000-event first copy and rerun, against 3,500-4,600 now, with system time a third of the
// process's CPU then (perf stat; settings compared through MALLOC_* variables with mallopt made a
// no-op). Peak at 10,000 events: 70.6 / 88.6 MB now, 68.9 / 86.6 MB before (glibc's defaults with
// 2 arenas: 101.6 MB, over the 100 MB goal).
let hostsSandbox = CommandLine.arguments.dropFirst().first == "sandbox"
if !hostsSandbox {
    GlibcMalloc.set(.arenaMax, 2)
    GlibcMalloc.set(.topPad, 16 << 20)
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
