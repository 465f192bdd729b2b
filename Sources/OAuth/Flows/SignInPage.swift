/// The small HTML page the browser shows after the loopback redirect.
enum SignInPage {
    static func html(title: String, message: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>calbridge: \(escape(title))</title>
        <style>body{font-family:system-ui,sans-serif;max-width:36em;margin:4em auto;padding:0 1em;color:#222}
        h1{font-size:1.4em}</style></head>
        <body><h1>\(escape(title))</h1><p>\(escape(message))</p></body></html>

        """
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
