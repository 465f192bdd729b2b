/// A provider whose reads of a whole calendar can be shared by the calls of one copy run: CalDAV, where the
/// copies' lookups and the occurrences of copied series are all answered by reading the calendar (servers
/// differ in searching `X-` properties, and expansion is the client's), so that a run reads the target once
/// instead of once per lookup and again for the occurrences.
///
/// `CopyEngine.run` asks for such a provider at its start and drops it at its end: what it keeps never
/// outlives the run, so a long-lived process (`sync --watch`) never answers from an old read.
///
/// Writing one: return a copy of the provider with a fresh store of reads. Its own writes keep the store
/// current (a write's answer replaces the resource, a delete removes it, a failed write forgets the
/// calendar, whose next read then goes to the server); reads by id still go to the server.
public protocol ReadSharingProvider: CalendarProvider {
    /// This provider with a store of whole-calendar reads that lives as long as the value returned.
    func sharingReads() -> any CalendarProvider
}
