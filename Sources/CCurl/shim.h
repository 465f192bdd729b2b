#ifndef CALBRIDGE_CCURL_SHIM_H
#define CALBRIDGE_CCURL_SHIM_H
#include <curl/curl.h>

// libcurl's option setters are C variadic functions, which Swift cannot call.
// These typed wrappers are the only way the HTTP module touches them.
static inline CURLcode cb_easy_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode cb_easy_setopt_ptr(CURL *h, CURLoption o, const void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode cb_easy_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode cb_easy_setopt_write(CURL *h, CURLoption o, size_t (*f)(char *, size_t, size_t, void *)) { return curl_easy_setopt(h, o, f); }
static inline CURLcode cb_easy_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode cb_easy_getinfo_ptr(CURL *h, CURLINFO i, void *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLMcode cb_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }
static inline const curl_version_info_data *cb_version_info(void) { return curl_version_info(CURLVERSION_NOW); }
#endif
