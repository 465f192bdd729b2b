extension SandboxServer {
    /// Expires every change cursor the sandbox has handed out: Google sync tokens (next use: 410
    /// `fullSyncRequired`) and Graph delta tokens (next use: 410 `SyncStateNotFound`).
    public func expireChangeCursors() async {
        for named in apiComponents {
            if let google = named.component as? GoogleCalendarEmulator {
                await google.expireSyncTokens()
            } else if let graph = named.component as? GraphEmulator {
                await graph.expireDeltaTokens()
            }
        }
    }
}
