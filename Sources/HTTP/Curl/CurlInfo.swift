internal import CCurl

/// Facts about the libcurl this binary runs with.
public enum CurlInfo {
    /// libcurl's version string, e.g. "7.88.1".
    public static var version: String {
        guard let info = cb_version_info(), let text = info.pointee.version else { return "unknown" }
        return String(cString: text)
    }
}
