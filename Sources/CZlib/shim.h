#ifndef CALBRIDGE_CZLIB_SHIM_H
#define CALBRIDGE_CZLIB_SHIM_H
#include <zlib.h>

// deflateInit2 and inflateInit2 are macros (they pass zlib's version and the stream's size), which Swift
// cannot call. Window bits 15 + 16: a gzip wrapper, as HTTP's Content-Encoding: gzip carries.
static inline int cb_deflate_init_gzip(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}
static inline int cb_inflate_init_gzip(z_stream *stream) { return inflateInit2(stream, 15 + 16); }

#endif
