import CLibXML2
import Foundation

/// Reads a CLDR `windowsZones.xml` with libxml2 and checks that it has the shape the table needs.
///
/// Used only at build time (by WindowsZonesGenerator); nothing in calbridge parses XML at run time.
/// Every rejection is a `WindowsZonesParseError` naming the file and line.
public enum WindowsZonesParser {
    /// Parses the file at `path`; errors name the file as given.
    public static func parse(fileAt path: String) throws(WindowsZonesParseError) -> WindowsZonesTable {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw WindowsZonesParseError(file: path, line: 0, message: "cannot read the file")
        }
        return try parse(Array(data), fileName: path)
    }

    /// Parses XML text; `fileName` is only used in error messages.
    public static func parse(_ bytes: [UInt8], fileName: String) throws(WindowsZonesParseError) -> WindowsZonesTable {
        func fail(_ line: Int, _ message: String) -> WindowsZonesParseError {
            WindowsZonesParseError(file: fileName, line: line, message: message)
        }
        guard !bytes.isEmpty else { throw fail(1, "the file is empty, expected CLDR windowsZones XML") }

        xmlInitParser()
        let context = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { pointer in
                xmlCreateMemoryParserCtxt(pointer, Int32(buffer.count))
            }
        }
        guard let context else { throw fail(0, "libxml2 could not allocate a parser") }
        defer { xmlFreeParserCtxt(context) }
        // No network, no DTD loading (the file names CLDR's DTD by a relative path), no libxml2 chatter on
        // stderr. libxml2 keeps only the last error and a malformed file often raises several, the first
        // being the useful one, so a structured-error callback records the first.
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        xmlCtxtUseOptions(context, options)
        let firstError = FirstError()
        context.pointee._private = Unmanaged.passUnretained(firstError).toOpaque()
        context.pointee.sax.pointee.serror = { userData, error in
            guard let userData, let error else { return }
            let parser = userData.assumingMemoryBound(to: xmlParserCtxt.self)
            guard let box = parser.pointee._private else { return }
            let first = Unmanaged<FirstError>.fromOpaque(box).takeUnretainedValue()
            guard first.line == nil else { return }
            first.line = Int(error.pointee.line)
            first.message = error.pointee.message.map { String(cString: $0) } ?? "malformed XML"
        }
        let parsed = xmlParseDocument(context)
        let document = context.pointee.myDoc
        guard parsed == 0, let document, context.pointee.wellFormed != 0 else {
            if let document { xmlFreeDoc(document) }
            let message = firstError.message.trimmingCharacters(in: .whitespacesAndNewlines)
            throw fail(max(firstError.line ?? 1, 1), "not well-formed XML: \(message.isEmpty ? "malformed XML" : message)")
        }
        defer { xmlFreeDoc(document) }
        return try TreeReader(fileName: fileName).read(document)
    }
}

/// The first error libxml2 reported while parsing (filled by the structured-error callback).
private final class FirstError {
    var line: Int?
    var message = ""
}

/// Walks the parsed tree: `supplementalData` > `windowsZones` > `mapTimezones` > `mapZone`*.
private struct TreeReader {
    let fileName: String

    func fail(_ node: xmlNodePtr?, _ message: String) -> WindowsZonesParseError {
        WindowsZonesParseError(file: fileName, line: node.map(line(of:)) ?? 1, message: message)
    }

    func line(of node: xmlNodePtr) -> Int { max(Int(xmlGetLineNo(node)), 1) }

    func name(of node: xmlNodePtr) -> String { node.pointee.name.map { String(cString: $0) } ?? "" }

    func elements(under node: xmlNodePtr) -> [xmlNodePtr] {
        children(of: node).filter { $0.pointee.type == XML_ELEMENT_NODE }
    }

    func children(of node: xmlNodePtr) -> [xmlNodePtr] {
        var result: [xmlNodePtr] = []
        var child = node.pointee.children
        while let current = child {
            result.append(current)
            child = current.pointee.next
        }
        return result
    }

    /// The attribute's value; nil when it is absent.
    func attribute(_ attributeName: String, of node: xmlNodePtr) -> String? {
        guard let value = xmlGetProp(node, attributeName) else { return nil }
        defer { cb_xml_free(value) }
        return String(cString: value)
    }

    /// A required, non-blank attribute, trimmed.
    func required(_ attributeName: String, of node: xmlNodePtr) throws(WindowsZonesParseError) -> String {
        guard let value = attribute(attributeName, of: node) else {
            throw fail(node, "<\(name(of: node))> has no '\(attributeName)' attribute")
        }
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw fail(node, "<\(name(of: node))> has an empty '\(attributeName)' attribute") }
        return trimmed
    }

    func only(_ elementName: String, under parent: xmlNodePtr) throws(WindowsZonesParseError) -> xmlNodePtr {
        let found = elements(under: parent).filter { name(of: $0) == elementName }
        guard let first = found.first else {
            throw fail(parent, "<\(name(of: parent))> has no <\(elementName)> element")
        }
        guard found.count == 1 else {
            throw fail(found[1], "a second <\(elementName)> element (the first is at line \(line(of: first)))")
        }
        return first
    }

    func read(_ document: xmlDocPtr) throws(WindowsZonesParseError) -> WindowsZonesTable {
        guard let root = xmlDocGetRootElement(document) else { throw fail(nil, "the document has no root element") }
        guard name(of: root) == "supplementalData" else {
            throw fail(root, "the root element is <\(name(of: root))>, expected CLDR's <supplementalData>")
        }
        let windowsZones = try only("windowsZones", under: root)
        let mapTimezones = try only("mapTimezones", under: windowsZones)
        let typeVersion = try required("typeVersion", of: mapTimezones)
        let otherVersion = try required("otherVersion", of: mapTimezones)

        var rows: [WindowsZonesTable.Row] = []
        var displayNames: [WindowsZonesTable.DisplayName] = []
        var pendingDisplayName: String?
        var namedWindows: Set<String> = []
        for node in children(of: mapTimezones) {
            switch node.pointee.type {
            case XML_COMMENT_NODE:
                // CLDR precedes each Windows zone's rows with its display name, "(UTC+01:00) Amsterdam, …".
                let text = node.pointee.content.map { String(cString: $0) } ?? ""
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                if trimmed.hasPrefix("(UTC") { pendingDisplayName = trimmed }
            case XML_ELEMENT_NODE:
                guard name(of: node) == "mapZone" else {
                    throw fail(node, "unexpected <\(name(of: node))> inside <mapTimezones>, expected <mapZone>")
                }
                let row = try readRow(node)
                if let display = pendingDisplayName, !namedWindows.contains(row.windows) {
                    displayNames.append(.init(displayName: display, windows: row.windows))
                    namedWindows.insert(row.windows)
                }
                pendingDisplayName = nil
                rows.append(row)
            default:
                continue
            }
        }
        guard !rows.isEmpty else { throw fail(mapTimezones, "<mapTimezones> has no <mapZone> rows") }
        try check(rows)
        return WindowsZonesTable(
            typeVersion: typeVersion,
            otherVersion: otherVersion,
            rows: rows,
            displayNames: uniqueDisplayNames(displayNames)
        )
    }

    func readRow(_ node: xmlNodePtr) throws(WindowsZonesParseError) -> WindowsZonesTable.Row {
        let windows = try required("other", of: node)
        let territory = try required("territory", of: node)
        let type = try required("type", of: node)
        guard isTerritory(territory) else {
            throw fail(node, "territory '\(territory)' of '\(windows)' is not 001, ZZ or a two-letter region code")
        }
        // Split on any whitespace: CLDR has at least one value with a trailing space.
        let ids = type.split(whereSeparator: { $0.isWhitespace }).map(String.init)
        for id in ids where !isIANAIdentifier(id) {
            throw fail(node, "'\(id)' in the type of '\(windows)' is not an IANA time zone id")
        }
        if let repeated = ids.first(where: { id in ids.filter { $0 == id }.count > 1 }) {
            throw fail(node, "'\(repeated)' is listed twice in the type of '\(windows)' (\(territory))")
        }
        return .init(windows: windows, territory: territory, iana: ids, line: line(of: node))
    }

    /// Rules the lookups rely on: one row per (Windows name, territory), a 001 row for every Windows name,
    /// Windows names distinct ignoring case, and every IANA id under one Windows name only.
    func check(_ rows: [WindowsZonesTable.Row]) throws(WindowsZonesParseError) {
        var seenPairs: [String: Int] = [:]
        var spelling: [String: (name: String, line: Int)] = [:]
        var owner: [String: (windows: String, line: Int)] = [:]
        for row in rows {
            let rowError = { (message: String) in
                WindowsZonesParseError(file: fileName, line: row.line, message: message)
            }
            let pair = row.windows + "\u{0}" + row.territory
            if let first = seenPairs[pair] {
                throw rowError("duplicate \(row.territory) row for '\(row.windows)' (the first is at line \(first))")
            }
            seenPairs[pair] = row.line
            let folded = row.windows.lowercased()
            if let other = spelling[folded], other.name != row.windows {
                throw rowError("'\(row.windows)' differs only in case from '\(other.name)' at line \(other.line)")
            }
            spelling[folded] = spelling[folded] ?? (row.windows, row.line)
            for id in row.iana {
                if let first = owner[id], first.windows != row.windows {
                    throw rowError(
                        "'\(id)' is listed under '\(row.windows)' and under '\(first.windows)' (line \(first.line)); "
                            + "the IANA to Windows direction would be ambiguous"
                    )
                }
                owner[id] = owner[id] ?? (row.windows, row.line)
            }
        }
        let defaults = Set(rows.filter { $0.territory == "001" }.map(\.windows))
        if let missing = rows.first(where: { !defaults.contains($0.windows) }) {
            throw WindowsZonesParseError(
                file: fileName,
                line: missing.line,
                message: "'\(missing.windows)' has no territory=\"001\" (default) row"
            )
        }
    }

    /// A display name shared by two Windows zones would be ambiguous: keep neither.
    func uniqueDisplayNames(_ names: [WindowsZonesTable.DisplayName]) -> [WindowsZonesTable.DisplayName] {
        var count: [String: Int] = [:]
        for name in names { count[name.displayName.lowercased(), default: 0] += 1 }
        return names.filter { count[$0.displayName.lowercased()] == 1 }
    }

    func isTerritory(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        if scalars.count == 3 { return scalars.allSatisfy { ("0"..."9").contains($0) } }
        return scalars.count == 2 && scalars.allSatisfy { ("A"..."Z").contains($0) }
    }

    func isIANAIdentifier(_ text: String) -> Bool {
        !text.isEmpty && !text.hasPrefix("/") && !text.hasSuffix("/") && !text.contains("//")
            && text.unicodeScalars.allSatisfy { scalar in
                ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
                    || "/_+-".unicodeScalars.contains(scalar)
            }
    }
}
