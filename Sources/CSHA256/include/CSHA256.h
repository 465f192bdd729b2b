#ifndef CALBRIDGE_CSHA256_H
#define CALBRIDGE_CSHA256_H

#include <stddef.h>
#include <stdint.h>

/// Whether this CPU has the x86 SHA extensions (with SSSE3 and SSE4.1) that
/// `cb_sha256_blocks` needs: 1 or 0. Always 0 on other architectures, and under
/// valgrind, which reports the extensions but cannot execute them.
int cb_sha256_accelerated(void);

/// SHA-256 (FIPS 180-4) compression of `blocks` whole 64-byte blocks at `data`
/// into `state` (H0...H7), with the SHA extensions and the 64 round constants
/// `k`. Only call it when `cb_sha256_accelerated()` returned 1.
void cb_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks, const uint32_t k[64]);

#endif
