import CalbridgeSupport

/// The small HTML page the browser shows after the loopback redirect.
enum SignInPage {
    static func html(title: String, message: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>calbridge: \(HTML.escape(title))</title>
        <style>body{font-family:system-ui,sans-serif;max-width:36em;margin:4em auto;padding:0 1em;color:#222}
        h1{font-size:1.4em}</style></head>
        <body><h1>\(HTML.escape(title))</h1><p>\(HTML.escape(message))</p></body></html>

        """
    }

}
