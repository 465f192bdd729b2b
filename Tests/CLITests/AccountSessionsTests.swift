import Accounts
import CalendarBridge
import Foundation
import Testing
import TestSupport
@testable import CLI
@testable import MicrosoftGraph

@Suite("One session per account per process")
struct AccountSessionsTests {
    @Test("two calendars of one Outlook account share one token manager and one 4-request limiter; another account has its own")
    func oneSessionPerAccount() async throws {
        try await SandboxHome.with { home in
            let context = CommandContext(stdout: BufferSink(), stderr: BufferSink(), environment: home.environment)
            let accounts = AccountProviders(context: context, verbose: false)
            // What `copy carol:A carol:B` asks for: the providers of both references.
            let source = try #require(try accounts.provider(for: CalendarRef(parsing: "carol:Calendar")) as? GraphCalendarProvider)
            let target = try #require(try accounts.provider(for: CalendarRef(parsing: "carol:Birthdays")) as? GraphCalendarProvider)
            #expect(source.limiter === target.limiter)
            let carol = try accounts.registry.require("carol")
            let ann = try accounts.registry.require("ann")
            #expect(try accounts.sessions.session(for: carol).tokens === accounts.sessions.session(for: carol).tokens)
            #expect(try accounts.sessions.session(for: carol).tokens !== accounts.sessions.session(for: ann).tokens)

            // The shared provider serves calls as before.
            #expect(try await !source.listCalendars().isEmpty)
        }
    }
}
