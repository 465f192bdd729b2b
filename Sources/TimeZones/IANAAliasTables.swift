/// The lookups that need the tz database's links: ids the table spells differently, and ids in any case.
package struct IANAAliasTables: Sendable {
    package let links: TZDatabaseLinks
    /// Canonical (link-resolved) IANA id -> Windows name, for ids the table spells differently.
    package let windowsByCanonical: [String: String]
    /// Lowercased IANA id (table, links, UTC family) -> its proper spelling.
    package let ianaByFolded: [String: String]

    package init(mappings: [WindowsZoneMapping], links: TZDatabaseLinks) {
        var windowsByIANA: [String: String] = [:]
        for mapping in mappings {
            for id in mapping.iana { windowsByIANA[id] = mapping.windows }
        }
        // The table's id and the asked id are one zone when their link targets agree. Several table ids can
        // share a target: the table's own spelling of the target wins (looked up before this table), then
        // the first id in sorted order, so the answer never depends on dictionary order.
        var windowsByCanonical: [String: String] = [:]
        for id in windowsByIANA.keys.sorted() {
            let target = links.canonical(id)
            if windowsByIANA[target] == nil, windowsByCanonical[target] == nil {
                windowsByCanonical[target] = windowsByIANA[id]
            }
        }
        var ianaByFolded: [String: String] = [:]
        for id in links.allIdentifiers.union(windowsByIANA.keys).union(WindowsZoneIndex.utcFamily).sorted() {
            ianaByFolded[id.lowercased()] = ianaByFolded[id.lowercased()] ?? id
        }
        self.links = links
        self.windowsByCanonical = windowsByCanonical
        self.ianaByFolded = ianaByFolded
    }
}
