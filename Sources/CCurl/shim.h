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
static inline CURLcode cb_easy_getinfo_off(CURL *h, CURLINFO i, curl_off_t *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLMcode cb_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }
static inline const curl_version_info_data *cb_version_info(void) { return curl_version_info(CURLVERSION_NOW); }

// Callbacks: libcurl's header callback has the same shape as the write callback.
typedef size_t (*cb_data_callback)(char *, size_t, size_t, void *);
static inline CURLcode cb_easy_setopt_callback(CURL *h, CURLoption o, cb_data_callback f) { return curl_easy_setopt(h, o, f); }

// Values libcurl defines as macros or anonymous enums, which Swift imports unevenly.
static inline long cb_pipe_multiplex(void) { return CURLPIPE_MULTIPLEX; }
static inline long cb_http_version_2tls(void) { return CURL_HTTP_VERSION_2TLS; }
static inline int cb_feature_http2(void) { return (cb_version_info()->features & CURL_VERSION_HTTP2) != 0; }
static inline int cb_feature_brotli(void) { return (cb_version_info()->features & CURL_VERSION_BROTLI) != 0; }
static inline int cb_feature_libz(void) { return (cb_version_info()->features & CURL_VERSION_LIBZ) != 0; }
static inline long cb_error_size(void) { return CURL_ERROR_SIZE; }

// CURLMsg carries its result in an anonymous union.
static inline int cb_msg_is_done(const CURLMsg *m) { return m->msg == CURLMSG_DONE; }
static inline CURLcode cb_msg_result(const CURLMsg *m) { return m->data.result; }
#endif
