// SHA-256 block compression with the x86 SHA extensions (SHA-NI): two rounds per
// sha256rnds2, the message schedule by sha256msg1/sha256msg2. The Swift
// implementation in CalbridgeSupport hashes everything else (padding, digests)
// and compresses blocks itself where these instructions are missing.
#include "CSHA256.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

// Valgrind (3.19 at least) reports the SHA extensions in its CPUID but cannot execute them: under it,
// the Swift rounds run. Its documented client request RUNNING_ON_VALGRIND (0x1001): a rotation of rdi by
// 128 bits in all, then xchg rbx,rbx, which natively changes nothing and leaves rdx as it was (0), and
// under Valgrind puts the number of Valgrinds in rdx.
static int running_on_valgrind(void) {
    volatile unsigned long request[6] = {0x1001, 0, 0, 0, 0, 0};
    unsigned long result = 0;
    __asm__ volatile(
        "rolq $3, %%rdi ; rolq $13, %%rdi\n\t"
        "rolq $61, %%rdi ; rolq $51, %%rdi\n\t"
        "xchgq %%rbx, %%rbx"
        : "=d"(result)
        : "a"(&request[0]), "0"(result)
        : "cc", "memory");
    return result != 0;
}

int cb_sha256_accelerated(void) {
    if (running_on_valgrind()) return 0;
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    int ssse3 = (ecx >> 9) & 1, sse41 = (ecx >> 19) & 1;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
    int sha = (ebx >> 29) & 1;
    return ssse3 && sse41 && sha;
}


__attribute__((target("sha,sse4.1,ssse3")))
void cb_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks, const uint32_t k[64]) {
    // Big-endian words: reverse the bytes of each 32-bit lane.
    const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);

    // The instructions keep the state as (A, B, E, F) and (C, D, G, H), highest lane first.
    __m128i dcba = _mm_loadu_si128((const __m128i *)&state[0]);
    __m128i hgfe = _mm_loadu_si128((const __m128i *)&state[4]);
    __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
    __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
    __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
    __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);

    for (; blocks > 0; blocks--, data += 64) {
        const __m128i abef_before = abef, cdgh_before = cdgh;
        __m128i w[4];
        for (int i = 0; i < 4; i++) {
            w[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * i)), byte_swap);
        }
        // Sixteen groups of four rounds; w[j % 4] holds words 4j...4j+3 of the schedule.
        for (int j = 0; j < 16; j++) {
            __m128i message = _mm_add_epi32(w[j & 3], _mm_loadu_si128((const __m128i *)&k[4 * j]));
            // The first two rounds leave (A, B, E, F) in `cdgh`, and `abef` is then (C, D, G, H): two
            // rounds on, C, D, G, H are what A, B, E, F were. The next two put the names right again.
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, message);
            message = _mm_shuffle_epi32(message, 0x0E);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, message);
            if (j < 12) {
                // W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16], for the four words of group j + 4.
                __m128i minus7 = _mm_alignr_epi8(w[(j + 3) & 3], w[(j + 2) & 3], 4);
                __m128i next = _mm_add_epi32(_mm_sha256msg1_epu32(w[j & 3], w[(j + 1) & 3]), minus7);
                w[j & 3] = _mm_sha256msg2_epu32(next, w[(j + 3) & 3]);
            }
        }
        abef = _mm_add_epi32(abef, abef_before);
        cdgh = _mm_add_epi32(cdgh, cdgh_before);
    }

    __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    _mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(feba, dchg, 0xF0));
    _mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(dchg, feba, 8));
}

#else

int cb_sha256_accelerated(void) { return 0; }

void cb_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks, const uint32_t k[64]) {
    (void)state; (void)data; (void)blocks; (void)k;
}

#endif
