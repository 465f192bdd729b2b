internal import CCurl
import HTTP

/// Facts about the libcurl this binary runs with.
public enum CurlInfo {
    /// libcurl's version string, e.g. "7.88.1".
    public static var version: String {
        guard let info = cb_version_info(), let text = info.pointee.version else { return "unknown" }
        return String(cString: text)
    }

    /// Whether this libcurl can speak HTTP/2 (built with nghttp2). `CurlTransport` then negotiates it
    /// with ALPN on https URLs and multiplexes requests to one host over one connection.
    public static var supportsHTTP2: Bool { cb_feature_http2() != 0 }

    /// Whether this libcurl decodes `Content-Encoding: br`.
    public static var supportsBrotli: Bool { cb_feature_brotli() != 0 }

    /// Whether this libcurl decodes `Content-Encoding: gzip` and `deflate` (built with zlib).
    public static var supportsGzip: Bool { cb_feature_libz() != 0 }
}
