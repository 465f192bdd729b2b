/// The calendars one copy run read whole (`ReadSharingProvider`), each read once however many callers ask
/// at the same time, and kept current by the run's own writes: a written resource replaces the one read, a
/// deleted one leaves, and a write whose outcome is unknown drops the calendar (its next read goes to the
/// server again).
actor CalDAVCalendarReads {
    private enum Entry {
        /// Being read: the callers meanwhile wait for the same answer.
        case reading(Task<[CalDAVResource], any Error>, generation: Int)
        /// Read: the resources by name, in the order the server gave them (new ones after).
        case read(names: [String], byName: [String: CalDAVResource])
    }

    private var calendars: [String: Entry] = [:]
    /// Each read's number: a read in flight while a write dropped its calendar is answered but not kept.
    private var generation = 0

    /// The calendar's resources: from the run's earlier read, or from `read` (once, for every caller waiting).
    func resources(calendarID: String, read: @escaping @Sendable () async throws -> [CalDAVResource]) async throws -> [CalDAVResource] {
        switch calendars[calendarID] {
        case .read(let names, let byName):
            return names.compactMap { byName[$0] }
        case .reading(let task, _):
            return try await task.value
        case nil:
            generation += 1
            let mine = generation
            let task = Task { try await read() }
            calendars[calendarID] = .reading(task, generation: mine)
            do {
                let resources = try await task.value
                if case .reading(_, let current) = calendars[calendarID], current == mine {
                    calendars[calendarID] = .read(
                        names: resources.map(\.name), byName: Dictionary(resources.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a }))
                }
                return resources
            } catch {
                if case .reading(_, let current) = calendars[calendarID], current == mine { calendars[calendarID] = nil }
                throw error
            }
        }
    }

    /// A resource as it is now (written, or read by name).
    func stored(_ resource: CalDAVResource, calendarID: String) {
        switch calendars[calendarID] {
        case .read(var names, var byName):
            if byName[resource.name] == nil { names.append(resource.name) }
            byName[resource.name] = resource
            calendars[calendarID] = .read(names: names, byName: byName)
        case .reading:
            calendars[calendarID] = nil  // The read in flight may or may not hold the write: read again.
        case nil:
            break
        }
    }

    /// A resource deleted.
    func removed(name: String, calendarID: String) {
        switch calendars[calendarID] {
        case .read(let names, var byName):
            byName[name] = nil
            calendars[calendarID] = .read(names: names, byName: byName)
        case .reading:
            calendars[calendarID] = nil
        case nil:
            break
        }
    }

    /// A write whose outcome is unknown: the calendar is read from the server again when next asked.
    func forget(calendarID: String) { calendars[calendarID] = nil }

    /// The resource by name when the calendar was read whole and it is there (nil otherwise: unknown).
    func resource(name: String, calendarID: String) -> CalDAVResource? {
        guard case .read(_, let byName) = calendars[calendarID] else { return nil }
        return byName[name]
    }
}
