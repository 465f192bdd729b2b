import CLI
import CStartup
import Foundation
import Testing

/// `calbridge`'s first call: the executable's writable data mapped in, writable, with no value changed.
@Suite("startup: the writable data populated in one call")
struct StartupTests {
    @Test("madvise(MADV_POPULATE_WRITE) over .data and .bss succeeds here and leaves the values as they were")
    func populate() throws {
        let before = (CommandLine.arguments, ProcessInfo.processInfo.environment, TimeZone.current)
        let result = cb_populate_writable_data()
        // Linux 5.14 and later have the advice (this machine runs a 6.x kernel); older ones refuse it: -1.
        #expect(result == 0, "errno \(errno)")
        #expect(CommandLine.arguments == before.0)
        #expect(ProcessInfo.processInfo.environment == before.1)
        #expect(TimeZone.current == before.2)
    }

    @Test("the process's context keeps what commands are done with until exit; a test context frees it")
    func exitKeeper() {
        #expect(CommandContext.process().exitKeeper != nil)
        let sink = BufferSink()
        #expect(CommandContext(stdout: sink, stderr: sink, environment: [:]).exitKeeper == nil)
    }
}
