import CalendarBridge
import Foundation

/// The two checks every change or deletion of an existing event passes before anything is sent: nobody is
/// mailed by accident, and a copy made by calbridge is changed at its original unless told otherwise.
///
/// What the services mail is in `AttendeeMail`'s documentation (with the references it was checked against).
enum EventWriteGuard {
    enum Options {
        static let notify = Flag("notify", "Mail the attendees as the service does (Google: sendUpdates=all; Outlook always mails).")
        static let noNotify = Flag(
            "no-notify", "Mail nobody (Google: sendUpdates=none); refused where the service cannot avoid it (Outlook).")
        static let detach = Flag("detach", "Change a calbridge copy itself, not its original (a later copy or sync may undo it).")
    }

    /// The attendees a change of `event` may mail: everyone but the user, when the user organises it (or no
    /// organizer is named). An attendee's own change of a meeting mails nobody.
    static func recipients(of event: Event, user: Set<String>) -> [String] {
        if let organizer = event.organizer, !user.contains(organizer.email.lowercased()) { return [] }
        return event.attendees.map(\.email).filter { !user.contains($0.lowercased()) }
    }

    /// How to write `event` (`verb`: "changing", "deleting"), or a refusal naming who would be mailed and what to add.
    static func mail(
        for event: Event, verb: String, user: Set<String>, capabilities: ProviderCapabilities, notify: Bool, noNotify: Bool,
        command: String
    ) throws -> AttendeeMail {
        if notify && noNotify { throw UsageError("give --notify or --no-notify, not both", command: command) }
        let recipients = recipients(of: event, user: user)
        guard !recipients.isEmpty else { return .none }
        let who = "'\(event.title)' has attendees (\(recipients.joined(separator: ", ")))"
        switch capabilities.invitations {
        case .sentByService:
            if notify { return .asService }
            let fix = "add --notify to go ahead (they will be mailed)"
            if noNotify {
                throw UsageError(
                    "--no-notify cannot work here: \(who) and Outlook mails them about every change or deletion of a meeting "
                        + "you organise (Microsoft Graph has no way to avoid it); \(fix)", command: command)
            }
            throw UsageError(
                "\(who): \(verb) it mails each of them (Outlook does for every change or deletion of a meeting you organise); \(fix)",
                command: command)
        case .notSent:
            if notify { return .asService }
            if noNotify { return .none }
            throw UsageError(
                "\(who): \(verb) it can mail them; add --notify to mail them (sendUpdates=all) or --no-notify to mail nobody",
                command: command)
        }
    }

    /// Refuses to write a calbridge copy unless `detach`; with it, the line that says what the change means.
    static func checkCopy(_ origin: OriginMarker?, title: String, deleting: Bool, detach: Bool, command: String) throws -> String? {
        guard let origin else {
            if detach { throw UsageError("--detach is for copies made by calbridge; this event is not one", command: command) }
            return nil
        }
        guard detach else {
            let verb = deleting ? "delete" : "change"
            throw UsageError(
                "'\(title)' is \(EventDetails.originText(origin)): \(verb) the original and the next copy or sync carries it "
                    + "here, or add --detach to \(verb) this copy only", command: command)
        }
        if deleting {
            return "Deleted this copy only: the next 'calbridge copy' of its original makes it again, and a sync pair takes "
                + "the deletion to the original."
        }
        return "Changed this copy only: the next 'calbridge copy' overwrites it once its original changes, and a sync pair "
            + "carries the change back to the original."
    }

    /// The addresses that are the user: the account's e-mail and identity, and the calendar's id (Google's
    /// primary calendar is the address), lowercased.
    static func userAddresses(_ target: CalendarTarget) async -> Set<String> {
        var addresses: Set<String> = [target.calendar.id.lowercased()]
        if let info = try? await target.provider.userInfo() {
            for address in [info.email, info.accountIdentity].compactMap({ $0 }) { addresses.insert(address.lowercased()) }
        }
        return addresses
    }

    /// Who the write mailed (or would), nil when it has nobody to mail.
    static func mailLine(_ recipients: [String], mail: AttendeeMail, dryRun: Bool) -> String? {
        guard !recipients.isEmpty else { return nil }
        let list = recipients.joined(separator: ", ")
        switch (mail, dryRun) {
        case (.asService, true): return "Would mail the attendees: \(list)"
        case (.asService, false): return "Mailed the attendees (as the service does): \(list)"
        case (.none, true): return "Would mail nobody (not: \(list))"
        case (.none, false): return "Mailed nobody (not: \(list))"
        }
    }
}
