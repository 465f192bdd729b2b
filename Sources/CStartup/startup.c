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

#if defined(__linux__)
#include <malloc.h>
#endif

int cb_heap_huge_pages(unsigned long reserve) {
#if defined(__linux__)
    if (reserve > (1ul << 30)) return -1;
    // One allocation the heap's free top cannot hold makes malloc grow the heap by `brk`, with
    // M_TOP_PAD set, by `reserve` beyond it. mallopt(3): 128 KB is M_TOP_PAD's default.
    mallopt(M_TOP_PAD, (int)reserve);
    void *probe = malloc(256 << 10);
    mallopt(M_TOP_PAD, 128 << 10);
    if (!probe) return -1;
    uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t top = (uintptr_t)sbrk(0);
    uintptr_t start = ((uintptr_t)probe + huge - 1) & ~(huge - 1);
    uintptr_t end = top & ~(huge - 1);
    int result = -1;
    // Only where the probe lies in the heap just grown (it could come from elsewhere when `brk` fails).
    if ((uintptr_t)probe < top && top - (uintptr_t)probe <= reserve + (1u << 20) && end > start) {
        result = madvise((void *)start, end - start, MADV_HUGEPAGE);
    }
    free(probe);
    return result;
#else
    (void)reserve;
    return -1;
#endif
}
