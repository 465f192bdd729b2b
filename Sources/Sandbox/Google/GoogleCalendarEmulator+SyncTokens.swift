import Foundation

extension GoogleCalendarEmulator {
    /// A sandbox switch: invalidates every sync token handed out so far (events and calendar list), so the
    /// next `syncToken` request answers 410 `fullSyncRequired`, as Google does when a token has expired or
    /// its server state is gone. Tokens handed out afterwards work again.
    public func expireSyncTokens() {
        state.epoch = "\(state.epoch)-expired\(state.changeCounter)-\(UUID().uuidString.prefix(8))"
    }
}
