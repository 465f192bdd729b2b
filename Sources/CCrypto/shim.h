#ifndef CALBRIDGE_CCRYPTO_SHIM_H
#define CALBRIDGE_CCRYPTO_SHIM_H
// OpenSSL's libcrypto (libssl-dev), already in the process through libcurl: its SHA-256 uses the CPU's
// SHA extensions where there are any.
#include <openssl/sha.h>
#endif
