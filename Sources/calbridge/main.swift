import CLI

#if canImport(Glibc)
import Glibc

// glibc malloc tuning for a short-lived CLI, measured with `calbridge bench copy --client-process
// --events 10000` (the copy's own peak): at most 2 arenas (not 8 per core for the concurrent reads
// and batches) and a fixed mmap threshold (so freed response bodies and page buffers go back to the
// system instead of fragmenting the heap) together took the peak from 127 MB to 103 MB (measured
// with the same settings as MALLOC_ARENA_MAX / MALLOC_MMAP_THRESHOLD_ environment variables).
// `mallopt` is not in Swift's Glibc module, hence dlsym; the constants are malloc.h's.
// Not for `sandbox`, which hosts the sandbox server: the settings were measured for the client only, and
// the sandbox's memory is no goal (nor for the benchmarks, a separate executable, calbridge-bench).
let hostsSandbox = CommandLine.arguments.dropFirst().first == "sandbox"
if !hostsSandbox, let symbol = dlsym(nil, "mallopt") {
    let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
    let arenaMax: Int32 = -8, mmapThreshold: Int32 = -3  // M_ARENA_MAX, M_MMAP_THRESHOLD
    _ = mallopt(arenaMax, 2)
    _ = mallopt(mmapThreshold, 128 * 1024)
}
#endif

let code = await CalbridgeCLI.run(Array(CommandLine.arguments.dropFirst()), context: .process())
BenchCopyCommand.writePeakMemoryIfAsked()
exit(code.rawValue)
