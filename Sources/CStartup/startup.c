#include "CStartup.h"

#if defined(__linux__)
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

// The linker's and crt1's markers of the executable's data: `__data_start` at the start of `.data`,
// `_end` after `.bss`.
extern char __data_start[];
extern char _end[];
#endif

int cb_populate_writable_data(void) {
#if defined(__linux__)
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t start = (uintptr_t)__data_start & ~(page - 1);
    uintptr_t end = ((uintptr_t)_end + page - 1) & ~(page - 1);
    if (end <= start) return 0;
    return madvise((void *)start, end - start, MADV_POPULATE_WRITE);
#else
    return -1;
#endif
}
