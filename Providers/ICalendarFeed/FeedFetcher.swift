import CalbridgeSupport
import CalendarBridge
import Foundation
import HTTP
import ICalendar
import ProviderSeam

/// Fetches one subscribed feed at most once per process and decides whether what came is whole and
/// plausible enough to stand for the calendar; remembers the last good body (the provider's account state).
///
/// - A conditional request (`If-None-Match` with the last ETag, `If-Modified-Since` with the last
///   `Last-Modified`): a 304 costs one request and reads the cached body.
/// - Refused (`CalendarError.incompleteRead`, exit 4): an HTTP error or no response, a body without its
///   closing `END:VCALENDAR` (truncated) or one libical cannot read, and, unless accepted
///   (`acceptShrink()`), an empty calendar or a drop of more than half the events since the last good body.
///   A refused fetch changes nothing: not the cache, so not what a later run compares with.
actor FeedFetcher {
    /// What one process read from the feed.
    struct Snapshot: Sendable {
        /// The feed as a read-only calendar.
        var calendar: ICalendarFileProvider
        /// The body's SHA-256 (hex): the change cursor `sync` keeps.
        var digest: String
        /// Whether the feed answered 304 (or a file had the cached body's bytes).
        var unchanged: Bool
        /// HTTP requests this fetch took (0 for a file).
        var requests: Int
        /// Single events and series (not counting changed occurrences).
        var events: Int
    }

    /// What the account state keeps besides the body.
    struct CacheRecord: Codable, Sendable {
        var etag: String?
        var lastModified: String?
        /// Top-level `VEVENT`s of the body (singles, masters, overrides).
        var eventCount: Int
        /// The SHA-256 of the cached body: a record whose body is gone or other is not used.
        var digest: String
    }

    static let bodyItem = "feed.ics"
    static let recordItem = "feed.json"

    let account: String
    let url: URL
    let transport: any HTTPTransport
    let state: (any ProviderStateStore)?
    let kind: ProviderKind
    private var acceptsShrink = false
    private var fetching: Task<Snapshot, any Error>?

    init(account: String, url: URL, transport: any HTTPTransport, state: (any ProviderStateStore)?, kind: ProviderKind) {
        self.account = account
        self.url = url
        self.transport = transport
        self.state = state
        self.kind = kind
    }

    /// Lets this process take an empty or shrunken feed as the calendar (`--accept-shrink`), once: the body
    /// becomes the last good one that later fetches are compared with.
    func acceptShrink() { acceptsShrink = true }

    /// The feed as this process reads it: fetched on the first call, the same snapshot afterwards.
    func snapshot() async throws -> Snapshot {
        if let fetching { return try await fetching.value }
        let task = Task { try await self.fetch() }
        fetching = task
        return try await task.value
    }

    private func fetch() async throws -> Snapshot {
        let cached = loadCache()
        let body: Data
        var record = CacheRecord(etag: nil, lastModified: nil, eventCount: 0, digest: "")
        var requests = 0
        if url.isFileURL {
            body = try readFile()
        } else {
            requests = 1
            var request = HTTPRequest(url: url, headers: ["Accept": "text/calendar"], timeout: .seconds(60))
            request.urlIsSecret = true
            if let cached {
                if let etag = cached.record.etag { request.headers["If-None-Match"] = etag }
                if let modified = cached.record.lastModified { request.headers["If-Modified-Since"] = modified }
            }
            let response: HTTPResponse
            do {
                response = try await transport.send(request)
            } catch let error as HTTPError {
                throw refused("failed (\(error.code.rawValue): \(error.message))", code: .incompleteRead)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                throw refused("failed (\(error))", code: .incompleteRead)
            }
            if response.status == 304, let cached {
                return try snapshot(of: cached.body, digest: cached.record.digest, unchanged: true, requests: requests)
            }
            guard response.status == 200 else {
                throw refused("was answered with HTTP \(response.status)", code: .incompleteRead, status: response.status)
            }
            body = response.body
            record.etag = response.headers["ETag"]
            record.lastModified = response.headers["Last-Modified"]
        }
        let digest = SHA256.hex(bytes: SHA256.hash(body))
        if let cached, cached.record.digest == digest {
            // The same bytes (a server without validators, or a file): nothing to check or store again.
            if record.etag != cached.record.etag || record.lastModified != cached.record.lastModified {
                record.eventCount = cached.record.eventCount
                record.digest = digest
                try await save(record: record)
            }
            return try snapshot(of: cached.body, digest: digest, unchanged: true, requests: requests)
        }
        let file = try read(body)
        if let previous = cached?.record.eventCount, previous > 0, !acceptsShrink {
            let now = file.events.count
            if now == 0 {
                throw refused(
                    "came with no events (\(previous) at the last good fetch); nothing was read as deletions. "
                        + "If it really is empty now, run copy or sync again with --accept-shrink", code: .incompleteRead)
            }
            if 2 * (previous - now) > previous {
                throw refused(
                    "came with \(now) events, \(previous) at the last good fetch (more than half gone); nothing was "
                        + "read as deletions. If that is right, run copy or sync again with --accept-shrink", code: .incompleteRead)
            }
        }
        record.eventCount = file.events.count
        record.digest = digest
        try await save(body: body, record: record)
        return snapshot(of: file, digest: digest, unchanged: false, requests: requests)
    }

    private func snapshot(of body: Data, digest: String, unchanged: Bool, requests: Int) throws -> Snapshot {
        snapshot(of: try read(body), digest: digest, unchanged: unchanged, requests: requests)
    }

    private func snapshot(of file: ICalendarFile, digest: String, unchanged: Bool, requests: Int) -> Snapshot {
        let calendar = ICalendarFileProvider(
            file: file, account: account, name: file.name ?? account, kind: kind, calendarID: ICalendarFeedProvider.calendarID)
        return Snapshot(
            calendar: calendar, digest: digest, unchanged: unchanged, requests: requests,
            events: file.events.filter { $0.seriesID == nil }.count)
    }

    /// The body read as iCalendar; a body cut short (no closing `END:VCALENDAR`) is refused before libical,
    /// which would read what is there.
    private func read(_ body: Data) throws -> ICalendarFile {
        guard body.count <= ICalendarReader.maxBytes else {
            throw refused("is larger than \(ICalendarReader.maxBytes / 1_048_576) MB, the most calbridge reads", code: .incompleteRead)
        }
        let text = String(decoding: body, as: UTF8.self)
        let lastLine = text.split(whereSeparator: \.isNewline).last { !$0.allSatisfy(\.isWhitespace) }
        guard lastLine?.trimmingCharacters(in: .whitespaces).uppercased() == "END:VCALENDAR" else {
            throw refused("came cut short (no closing END:VCALENDAR)", code: .incompleteRead)
        }
        do {
            return try ICalendarReader.read(text, floatingZone: .current)
        } catch {
            throw refused("is not iCalendar calbridge can read: \(error.message)", code: .incompleteRead)
        }
    }

    private func readFile() throws -> Data {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
            let handle = FileHandle(forReadingAtPath: path)
        else { throw refused("file is gone or unreadable", code: .incompleteRead) }
        defer { try? handle.close() }
        var data = Data()
        while data.count <= ICalendarReader.maxBytes {
            guard let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty else { break }
            data.append(chunk)
        }
        return data
    }

    private func loadCache() -> (record: CacheRecord, body: Data)? {
        guard let state, let recordData = try? state.load(Self.recordItem),
            let record = try? JSONDecoder().decode(CacheRecord.self, from: recordData),
            let body = try? state.load(Self.bodyItem), SHA256.hex(bytes: SHA256.hash(body)) == record.digest
        else { return nil }
        return (record, body)
    }

    /// The body first, then the record naming its digest: a crash in between leaves a record that does not
    /// match, read as no cache (one unconditional fetch).
    private func save(body: Data, record: CacheRecord) async throws {
        guard let state else { return }
        try await state.save(body, as: Self.bodyItem)
        try await save(record: record)
    }

    private func save(record: CacheRecord) async throws {
        guard let state else { return }
        try await state.save(try JSONEncoder().encode(record), as: Self.recordItem)
    }

    /// An error that names the account, never the URL (it is a secret).
    private func refused(_ why: String, code: CalendarError.Code, status: Int? = nil) -> CalendarError {
        // The description names the account already ("account 'league' (ics-feed): ...").
        CalendarError(code, "the feed \(why)", provider: kind, account: account, httpStatus: status)
    }
}
