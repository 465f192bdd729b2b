// libdeflate (libdeflate-dev): whole-buffer gzip, zlib and raw DEFLATE decoding for HTTPCurl's response bodies.
#include <libdeflate.h>
