import CLI
import CStartup
import CalbridgeSupport
import Dispatch

// First, while this is the only thread: the executable's .data and .bss mapped in writable in one call.
// Written for the first time later (once tokens, metadata caches), each page cost a copy-on-write fault
// and a TLB flush on the CPUs running the runtime's other threads (perf: 2.5% of a no-change copy's
// time); with the call, rerun CPU 2.1% and 4.3% lower per pair (`calbridge-bench copy --compare-with`,
// 100 pairs twice; 2026-12-03).
_ = cb_populate_writable_data()

#if canImport(Glibc)
import Glibc

// glibc malloc tuning for a short-lived CLI, measured with `calbridge-bench copy --client-process`
// (the copy's own peak and page faults): one arena (not 8 per core for the concurrent reads and
// batches), and a fixed mmap threshold of 4 MB. A second arena grows by `mprotect` a few pages at a
// time, each call flushing the TLBs of the process's other threads: 432 calls in a 1,000-event no-change
// copy, 42 with the main arena alone (which grows by `brk`); rerun CPU about 5% lower, page faults
// 2,850 -> 2,640, the 10,000-event copy's peak 71 MB (2026-12-03). Until 2026-12-02 the threshold was
// 128 KB, which made every response body and page buffer a fresh mmap and munmap: 7,300 and 7,800 page
// faults for a 1,000-event first copy and rerun (4,400 and 5,800 then), with system time up to a third
// of the copy's CPU (perf stat; settings compared through MALLOC_* variables with mallopt made a no-op). Fixed, the
// threshold also keeps glibc from raising its trim threshold: with glibc's moving threshold (and a 16 MB
// top pad) the 10,000-event rerun's peak was 88-101 MB from run to run, 89-92 MB now (86-87 MB with
// 128 KB; glibc's defaults with 2 arenas: 101.6 MB; the goal is under 100 MB). Since events share their
// fields (2026-12-03) that rerun peaks at 77 MB, which leaves room to keep up to 32 MB of freed heap
// instead of handing it back at 128 KB and faulting it in again: the 10,000-event rerun's page faults
// 33,900 -> 15,900 and its system time halved, peak 83 MB (`calbridge-bench copy --client-process`).
let hostsSandbox = CommandLine.arguments.dropFirst().first == "sandbox"
if !hostsSandbox {
    GlibcMalloc.set(.arenaMax, 1)
    GlibcMalloc.set(.mmapThreshold, 4 << 20)
    GlibcMalloc.set(.trimThreshold, 32 << 20)
    // The heap's next 24 MB (what a copy of 1,000 events uses) in 2 MB pages: each 4 KB page first
    // touched was a fault; page faults were 15.7% of a no-change copy's CPU under `perf`. Page faults of
    // a first copy and a rerun 2,900 / 2,500 -> 1,600-1,900 / 1,500-1,900; CPU per pair -3.4% for reruns
    // (100 pairs, lower in 63; 80 more: -3.7%, lower in 49) and -3.7% for first copies (30, lower in 20);
    // peaks 36 / 34 -> 37-39 / 35 MB; at 10,000 events 12,500 / 12,000 -> 7,000 / 6,500 faults, peaks
    // 72 / 70 -> 71 / 68 MB (`calbridge-bench copy --client-process --compare-with`, 2026-12-04).
    _ = cb_heap_huge_pages(24 << 20)
}
#endif

// The command runs in a task that ends the process, while the main thread waits, instead of as top-level
// `await` code: valgrind (3.19) crashes on a Swift async main (dispatch_main retires the main thread), and
// `calbridge-bench copy --instructions` runs this executable under callgrind.
// The context lives until `exit`: what its `exitKeeper` holds is never freed value by value.
Task.detached {
    let context = CommandContext.process()
    let code = await CalbridgeCLI.run(Array(CommandLine.arguments.dropFirst()), context: context)
    BenchChildUsage.writeIfAsked()
    withExtendedLifetime(context) { exit(code.rawValue) }
}
DispatchSemaphore(value: 0).wait()
