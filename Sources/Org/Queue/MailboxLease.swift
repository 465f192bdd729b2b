import Foundation

/// A worker's claim on one mailbox: who holds it, which generation, and until when (the database's clock).
///
/// The generation grows by one at every claim, so a worker whose lease expired and was claimed by another
/// holds a stale generation: every write it attempts is refused (fencing).
package struct MailboxLease: Sendable, Equatable, Hashable {
    package var address: String
    package var owner: String
    package var generation: Int64
    package var expiresAt: Date
    /// Claims since the mailbox last synced, this one included (for the failure policy's backoff).
    package var attempts: Int = 1
}

/// How one turn of work on a mailbox ended, as `WorkQueue.release` records it.
package enum MailboxOutcome: Sendable, Equatable {
    /// Synced: due again after the idle interval; attempts and last error cleared.
    case synced(nextIn: Duration)
    /// A failure worth retrying: due again after `retryIn` (the service's Retry-After, or a backoff).
    case retry(error: String, retryIn: Duration)
    /// Stop working on this mailbox until an operator acts (a 403 outside the app's scope): never retried in
    /// a loop.
    case suspend(reason: String)
}

/// The lease is no longer this worker's: it expired and another worker may hold the mailbox.
package struct LeaseLost: Error, Sendable, Equatable, CustomStringConvertible {
    package var lease: MailboxLease
    package var description: String {
        "the lease on \(lease.address) (generation \(lease.generation)) is no longer held by \(lease.owner); its work is dropped"
    }
}
