import CalbridgeSupport
import Foundation
import JSON

/// Where a copied event came from: written into every event calbridge creates, so copies are found
/// again on the server (never by matching titles) and are not copied back (no ping-pong).
///
/// Stored in the provider's own extension field (Google `extendedProperties.private`, Graph
/// `singleValueExtendedProperties`) as the three properties in `properties`.
public struct OriginMarker: Sendable, Hashable, Codable {
    // Changing what a key is a hash of forgets the key (`knownEventKey`, `knownCalendarKey`).
    public var provider: ProviderKind { didSet { forgetKeys() } }
    public var account: String { didSet { forgetKeys() } }
    public var calendarID: String { didSet { forgetKeys() } }
    public var eventID: String { didSet { knownEventKey = nil } }
    /// A hash of the copied content, so an unchanged source is recognised without comparing fields.
    public var contentHash: String
    /// The revision of the source event that was copied (its iCalendar `SEQUENCE`), where the source has
    /// revisions: a later read of an older revision does not overwrite the copy. Nil in every other marker.
    public var sourceSequence: Int?
    /// The source's `LAST-MODIFIED` (whole seconds since 1970) recorded with `sourceSequence`: between two
    /// reads of one revision, the one modified earlier is the older.
    public var sourceModified: Int?

    /// `eventKey` and `calendarKey` when whoever made the marker knows them already, so that a write
    /// hashes each once: its idempotency key and its properties both need the event key, and every copy
    /// of a run has the same calendar key, which would otherwise be hashed again for each. Not part of the
    /// marker's value: neither encoded nor compared.
    var knownEventKey: String?
    var knownCalendarKey: String?

    private enum CodingKeys: String, CodingKey {
        case provider, account, calendarID, eventID, contentHash, sourceSequence, sourceModified
    }

    public init(provider: ProviderKind, account: String, calendarID: String, eventID: String, contentHash: String) {
        self.provider = provider
        self.account = account
        self.calendarID = calendarID
        self.eventID = eventID
        self.contentHash = contentHash
    }

    public static func == (a: OriginMarker, b: OriginMarker) -> Bool {
        a.provider == b.provider && a.account == b.account && a.calendarID == b.calendarID && a.eventID == b.eventID
            && a.contentHash == b.contentHash && a.sourceSequence == b.sourceSequence && a.sourceModified == b.sourceModified
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(provider)
        hasher.combine(account)
        hasher.combine(calendarID)
        hasher.combine(eventID)
        hasher.combine(contentHash)
        hasher.combine(sourceSequence)
        hasher.combine(sourceModified)
    }

    private mutating func forgetKeys() {
        knownEventKey = nil
        knownCalendarKey = nil
    }

    /// The marker with `eventKey` worked out once for all that read it.
    func withEventKey() -> OriginMarker {
        var marker = self
        marker.knownEventKey = eventKey
        return marker
    }

    /// Property holding the whole marker as JSON.
    public static let markerProperty = "calbridge.origin"
    /// Property holding `eventKey`, for server-side lookups of one source event's copies.
    public static let eventKeyProperty = "calbridge.originKey"
    /// Property holding `calendarKey`, for finding every copy of one source calendar (pruning).
    public static let calendarKeyProperty = "calbridge.originCalendar"
    /// Every property name calbridge writes; providers fetch these with each event.
    public static let propertyNames = [markerProperty, eventKeyProperty, calendarKeyProperty]

    /// What a read event's property is to the marker: the marker itself, one of the keys derived from
    /// it (dropped when read: the marker gives them again), or someone else's.
    enum PropertyRole { case marker, key, other }

    /// The role of the property whose name `isNamed` recognises (a name kept as a `String`, or a key
    /// matched on the bytes of a document), for `Event.splitProperties` and `Event.readProperties`.
    static func role(ofPropertyNamed isNamed: (String) -> Bool) -> PropertyRole {
        if isNamed(markerProperty) { return .marker }
        if isNamed(eventKeyProperty) || isNamed(calendarKeyProperty) { return .key }
        return .other
    }

    /// A short stable key for the source event (32 hex digits; safe in any query or filter).
    public var eventKey: String {
        knownEventKey ?? Self.eventKey(provider: provider, account: account, calendarID: calendarID, eventID: eventID)
    }

    /// A short stable key for the source calendar.
    public var calendarKey: String {
        knownCalendarKey ?? Self.calendarKey(provider: provider, account: account, calendarID: calendarID)
    }

    public static func eventKey(provider: ProviderKind, account: String, calendarID: String, eventID: String) -> String {
        String(SHA256.hex([provider.rawValue, account, calendarID, eventID].joined(separator: "\u{1F}")).prefix(32))
    }

    public static func calendarKey(provider: ProviderKind, account: String, calendarID: String) -> String {
        String(SHA256.hex([provider.rawValue, account, calendarID].joined(separator: "\u{1F}")).prefix(32))
    }

    /// The marker as extension properties (name → value).
    public var properties: [String: String] {
        [Self.markerProperty: json, Self.eventKeyProperty: eventKey, Self.calendarKeyProperty: calendarKey]
    }

    /// The marker as JSON, as `JSONEncoder` with sorted keys and unescaped slashes writes it. Fields of
    /// printable ASCII without quotes or backslashes (every id the providers give) need no escaping, so
    /// that text is written directly rather than by an encoder per written event.
    var json: String {
        var fields = [account, calendarID, contentHash, eventID, provider.rawValue]
        let names: [StaticString] = [#"{"account":""#, #"","calendarID":""#, #"","contentHash":""#, #"","eventID":""#, #"","provider":""#]
        // One buffer: concatenating eleven strings reallocates at each step. Each field checked and copied
        // through its contiguous UTF-8, not iterated through its `utf8` view byte by byte.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(80 + fields.reduce(0) { $0 + $1.utf8.count })
        for index in fields.indices {
            let plain = fields[index].withUTF8 { field -> Bool in
                guard Self.needsNoEscape(field) else { return false }
                names[index].withUTF8Buffer { bytes.append(contentsOf: $0) }
                bytes.append(contentsOf: field)
                return true
            }
            guard plain else { return encodedJSON }
        }
        bytes.append(UInt8(ascii: "\""))
        // The revision members sort after `provider`; whole numbers, as `JSONEncoder` writes them.
        if let sourceModified { bytes.append(contentsOf: Array(#","sourceModified":\#(sourceModified)"#.utf8)) }
        if let sourceSequence { bytes.append(contentsOf: Array(#","sourceSequence":\#(sourceSequence)"#.utf8)) }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `json` by `JSONEncoder` (any text).
    var encodedJSON: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    private static func needsNoEscape(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in text where byte < 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
        return true
    }

    /// Reads a marker back from extension properties; nil when there is none or it does not parse.
    public init?(properties: [String: String]) {
        guard let json = properties[Self.markerProperty] else { return nil }
        self.init(json: json)
    }

    /// Reads a marker from its JSON (the `markerProperty` value); nil when it does not parse.
    init?(json: String) {
        var json = json
        // The string's own bytes, read in place, not copied for the reader.
        guard let marker = json.withUTF8({ OriginMarker(json: $0) }) else { return nil }
        self = marker
    }

    /// `init(json:)` of the UTF-8 of the JSON text.
    init?(json bytes: UnsafeBufferPointer<UInt8>) {
        if let marker = Self.plainMarker(bytes) {
            self = marker
            return
        }
        guard let marker = try? JSONDecoder().decode(OriginMarker.self, from: Data(bytes)) else { return nil }
        self = marker
    }

    /// The marker as `properties` writes it, read by hand: one object of exactly the five members (and the two
    /// revision numbers where recorded), each once, each a string (the revisions integers), all in printable ASCII without escapes or whitespace. Such text `JSONDecoder`
    /// reads to the same marker; anything else gives nil here and goes to `JSONDecoder` as before.
    /// Every listed copy carries a marker, so a `JSONDecoder` per marker would be a cost on every rerun.
    static func plainMarker(_ bytes: UnsafeBufferPointer<UInt8>) -> OriginMarker? {
        guard isPlainPrintable(bytes) else { return nil }
        let marker = try? JSONReader.read(buffer: bytes) { (reader: inout JSONReader) throws(JSONReader.Error) -> OriginMarker? in
            var provider: String?
            var account: String?
            var calendarID: String?
            var eventID: String?
            var contentHash: String?
            var sourceSequence: Int?
            var sourceModified: Int?
            try reader.beginObject()
            while let key = try reader.nextKey() {
                switch key {
                case "provider" where provider == nil: provider = try reader.string()
                case "account" where account == nil: account = try reader.string()
                case "calendarID" where calendarID == nil: calendarID = try reader.string()
                case "eventID" where eventID == nil: eventID = try reader.string()
                case "contentHash" where contentHash == nil: contentHash = try reader.string()
                case "sourceSequence" where sourceSequence == nil: sourceSequence = try reader.int()
                case "sourceModified" where sourceModified == nil: sourceModified = try reader.int()
                default: return nil
                }
            }
            guard let provider, let account, let calendarID, let eventID, let contentHash else { return nil }
            var marker = OriginMarker(
                provider: ProviderKind(rawValue: provider), account: account, calendarID: calendarID, eventID: eventID,
                contentHash: contentHash)
            marker.sourceSequence = sourceSequence
            marker.sourceModified = sourceModified
            return marker
        }
        return marker ?? nil
    }

    /// A marker read from the raw text of the JSON string holding it (from its opening quote), when that
    /// text is `json` as a JSON string value writes it: `"{\"account\":\"…\",…,\"provider\":\"…\"}"`,
    /// each field printable ASCII without quotes, backslashes or spaces. Such a string is valid JSON and
    /// decodes to text `plainMarker` reads to the same marker; anything else gives nil (and is decoded
    /// and read as before). The marker and the string's length in bytes, quotes included. Read in one
    /// pass, without decoding the escapes into a second string first.
    ///
    /// `repeated` makes the strings of the fields a listing's markers share (account, calendar, provider).
    package static func escapedMarker(
        _ text: UnsafeBufferPointer<UInt8>,
        repeated: (UnsafeBufferPointer<UInt8>) -> String = { String(decoding: $0, as: UTF8.self) }
    ) -> (value: OriginMarker, length: Int)? {
        guard let base = text.baseAddress else { return nil }
        var position = 0
        // The field after `literal`; nil when the text does not go on with `literal`.
        func field(after literal: StaticString, shared: Bool = false) -> String? {
            guard literal.withUTF8Buffer({ expect($0, in: text, at: &position) }) else { return nil }
            let start = position
            position = endOfPlainText(base, from: position, count: text.count, quotes: true)
            let bytes = UnsafeBufferPointer(start: base + start, count: position - start)
            return shared ? repeated(bytes) : String(decoding: bytes, as: UTF8.self)
        }
        // Each field only once the text before it matched: the members in `json`'s order.
        guard let account = field(after: #""{\"account\":\""#, shared: true),
            let calendarID = field(after: #"\",\"calendarID\":\""#, shared: true),
            let contentHash = field(after: #"\",\"contentHash\":\""#),
            let eventID = field(after: #"\",\"eventID\":\""#),
            let provider = field(after: #"\",\"provider\":\""#, shared: true),
            (#"\"}""# as StaticString).withUTF8Buffer({ expect($0, in: text, at: &position) })
        else { return nil }
        let marker = OriginMarker(
            provider: ProviderKind(rawValue: provider), account: account, calendarID: calendarID, eventID: eventID,
            contentHash: contentHash)
        return (marker, position)
    }

    /// Whether `literal` is at `position` of `text`; if so, `position` moves past it.
    private static func expect(
        _ literal: UnsafeBufferPointer<UInt8>, in text: UnsafeBufferPointer<UInt8>, at position: inout Int
    ) -> Bool {
        guard literal.count <= text.count - position, let a = literal.baseAddress, let b = text.baseAddress,
            memcmp(a, b + position, literal.count) == 0
        else { return false }
        position += literal.count
        return true
    }

    /// Whether every byte is printable ASCII other than a space or backslash.
    private static func isPlainPrintable(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        return endOfPlainText(base, from: 0, count: bytes.count, quotes: false) == bytes.count
    }

    /// The first position from `start` whose byte is not printable ASCII, or is a space or a backslash,
    /// or with `quotes` a quote; `count` when there is none. Eight bytes at a time (byte by byte it was
    /// most of reading a marker).
    private static func endOfPlainText(_ base: UnsafePointer<UInt8>, from start: Int, count: Int, quotes: Bool) -> Int {
        var index = start
        while index + 8 <= count {
            let word = ByteWord.load(base, at: index)
            var refused = ByteWord.below(word, 0x21) | ByteWord.high(word) | ByteWord.equal(word, 0x7F)
                | ByteWord.equal(word, UInt8(ascii: "\\"))
            if quotes { refused |= ByteWord.equal(word, UInt8(ascii: "\"")) }
            if refused != 0 { break }
            index += 8
        }
        while index < count {
            let byte = base[index]
            guard byte > 0x20, byte < 0x7F, byte != UInt8(ascii: "\\"), !(quotes && byte == UInt8(ascii: "\""))
            else { return index }
            index += 1
        }
        return index
    }
}

extension OriginMarker {
    /// The marker a copy of `source` carries: the source calendar's coordinates, the event's id and the copy's
    /// content hash, with the calendar's key computed once by the caller (one hash per run, not per write).
    static func copy(
        of source: Event, provider: ProviderKind, account: String, calendarID: String, calendarKey: String, hash: String
    ) -> OriginMarker {
        var marker = OriginMarker(provider: provider, account: account, calendarID: calendarID, eventID: source.id, contentHash: hash)
        marker.knownCalendarKey = calendarKey
        // Revisions are recorded for sources that have them (iCalendar), so other markers stay as they were.
        if let sequence = source.sequence {
            marker.sourceSequence = sequence
            marker.sourceModified = source.updated.map { Int($0.timeIntervalSince1970.rounded(.down)) }
        }
        return marker
    }
}
