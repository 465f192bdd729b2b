#ifndef CALBRIDGE_CSTARTUP_H
#define CALBRIDGE_CSTARTUP_H

/// Maps the executable's own writable data (`.data` through `.bss`, `__data_start` to `_end`) in,
/// writable, with one `madvise(MADV_POPULATE_WRITE)`; the contents do not change. Call it first in
/// `main`, while the process has one thread: a page first written later, with the Swift runtime's
/// threads running on other CPUs, costs a copy-on-write fault and a TLB flush on every one of them.
/// 0 on success; -1 where there is no such advice (Linux before 5.14, other systems): nothing is done.
int cb_populate_writable_data(void);

/// Grows glibc's main heap by `reserve` bytes now and advises transparent huge pages on it
/// (`madvise(MADV_HUGEPAGE)`; with THP set to "madvise", as here, the heap otherwise gets 4 KB pages).
/// Memory first touched there then costs one fault per 2 MB instead of one per 4 KB; pages never
/// touched cost nothing. Call it once, early, from the main thread, after the other malloc settings.
/// 0 on success; -1 where nothing was advised (no THP, not Linux, the heap not grown by `brk`).
int cb_heap_huge_pages(unsigned long reserve);

#endif
