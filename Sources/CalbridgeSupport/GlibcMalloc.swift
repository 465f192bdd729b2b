import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// glibc's `mallopt`, which Swift's Glibc module does not import (looked up with `dlsym`; a no-op where
/// there is none).
package enum GlibcMalloc {
    /// The options calbridge sets, with malloc.h's values.
    package enum Option: Int32 {
        case trimThreshold = -1  // M_TRIM_THRESHOLD
        case mmapThreshold = -3  // M_MMAP_THRESHOLD
        case arenaMax = -8  // M_ARENA_MAX
    }

    package static func set(_ option: Option, _ value: Int32) {
        #if canImport(Glibc)
        guard let symbol = dlsym(nil, "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
        _ = mallopt(option.rawValue, value)
        #endif
    }
}
