import CLI
import Foundation
import Testing

/// What `calbridge`'s main relies on at start-up and exit.
@Suite("startup and exit")
struct StartupTests {
    @Test("the process's context keeps what commands are done with until exit; a test context frees it")
    func exitKeeper() {
        #expect(CommandContext.process().exitKeeper != nil)
        let sink = BufferSink()
        #expect(CommandContext(stdout: sink, stderr: sink, environment: [:]).exitKeeper == nil)
    }
}
