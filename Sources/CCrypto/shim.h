#ifndef CALBRIDGE_CCRYPTO_SHIM_H
#define CALBRIDGE_CCRYPTO_SHIM_H
// OpenSSL's libcrypto (libssl-dev), already in the process through libcurl: its SHA-256 uses the CPU's
// SHA extensions where there are any; its RSA signs and checks the app-only credentials' assertions
// (RS256, PS256) and reads their PEM keys and certificates.
#include <openssl/sha.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/rsa.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#endif
