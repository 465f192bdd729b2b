#ifndef CALBRIDGE_CSTARTUP_H
#define CALBRIDGE_CSTARTUP_H

/// Maps the executable's own writable data (`.data` through `.bss`, `__data_start` to `_end`) in,
/// writable, with one `madvise(MADV_POPULATE_WRITE)`; the contents do not change. Call it first in
/// `main`, while the process has one thread: a page first written later, with the Swift runtime's
/// threads running on other CPUs, costs a copy-on-write fault and a TLB flush on every one of them.
/// 0 on success; -1 where there is no such advice (Linux before 5.14, other systems): nothing is done.
int cb_populate_writable_data(void);

#endif
