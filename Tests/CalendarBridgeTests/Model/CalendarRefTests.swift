import CalendarBridge
import Testing

@Suite("CalendarRef: parsing and resolution")
struct CalendarRefTests {
    static let calendars = [
        CalendarInfo(id: "ann@example.com", name: "ann@example.com", account: "home", provider: .google, isPrimary: true, accessRole: .owner),
        CalendarInfo(id: "en.usa#holiday@group.v.calendar.google.com", name: "Holidays", account: "home", provider: .google, accessRole: .reader),
        CalendarInfo(id: "AAMk1=", name: "Calendar", account: "work", provider: .microsoft, isPrimary: true, accessRole: .owner),
        CalendarInfo(id: "AAMk2=", name: "Team", account: "work", provider: .microsoft, accessRole: .writer),
        CalendarInfo(id: "AAMk3=", name: "team", account: "work", provider: .microsoft, accessRole: .owner),
        CalendarInfo(id: "AAMk4=", name: "Ünïcode Cal", account: "work", provider: .microsoft, accessRole: .owner),
    ]

    @Test("account:calendar splits at the first colon; primary and default (any case) name the main calendar")
    func parsing() throws {
        #expect(try CalendarRef(parsing: "work:Team") == CalendarRef(account: "work", selector: .idOrName("Team")))
        #expect(try CalendarRef(parsing: "home:a:b") == CalendarRef(account: "home", selector: .idOrName("a:b")))
        #expect(try CalendarRef(parsing: "work:primary").selector == .primary)
        #expect(try CalendarRef(parsing: "work:DEFAULT").selector == .primary)
        #expect(try CalendarRef(parsing: "work") == CalendarRef(account: "work", selector: .primary))
        #expect(try CalendarRef(parsing: "home:en.usa#holiday@group.v.calendar.google.com").description
            == "home:en.usa#holiday@group.v.calendar.google.com")
    }

    @Test("malformed references are usage errors naming the fix", arguments: [":Team", "work:", "", "  "])
    func malformed(_ text: String) {
        let error = #expect(throws: CalendarError.self) { try CalendarRef(parsing: text) }
        #expect(error?.code == .invalidReference)
        #expect(error?.description.contains("ACCOUNT:CALENDAR") == true)
    }

    @Test("an exact id wins; names match case-insensitively; primary picks the main calendar")
    func resolution() throws {
        #expect(try CalendarRef(parsing: "home:primary").resolve(in: Self.calendars).id == "ann@example.com")
        #expect(try CalendarRef(parsing: "work:default").resolve(in: Self.calendars).id == "AAMk1=")
        #expect(try CalendarRef(parsing: "home:HOLIDAYS").resolve(in: Self.calendars).id == "en.usa#holiday@group.v.calendar.google.com")
        #expect(try CalendarRef(parsing: "home:en.usa#holiday@group.v.calendar.google.com").resolve(in: Self.calendars).name == "Holidays")
        #expect(try CalendarRef(parsing: "work:AAMk3=").resolve(in: Self.calendars).name == "team")
        #expect(try CalendarRef(parsing: "work:ünïcode cal").resolve(in: Self.calendars).id == "AAMk4=")
    }

    @Test("an ambiguous name lists every candidate with its id")
    func ambiguous() {
        let error = #expect(throws: CalendarError.self) { try CalendarRef(parsing: "work:TEAM").resolve(in: Self.calendars) }
        #expect(error?.code == .ambiguous)
        #expect(error?.candidates == ["'Team' (id AAMk2=)", "'team' (id AAMk3=)"])
        #expect(error?.description == "account 'work' (microsoft), calendar 'TEAM': 2 calendars have that name; candidates: 'Team' (id AAMk2=), 'team' (id AAMk3=); use the calendar id instead of the name")
    }

    @Test("unknown calendar lists the account's calendars; unknown account lists the accounts")
    func notFound() {
        let cal = #expect(throws: CalendarError.self) { try CalendarRef(parsing: "home:Birthdays").resolve(in: Self.calendars) }
        #expect(cal?.code == .notFound)
        #expect(cal?.candidates == ["ann@example.com", "Holidays"])
        let account = #expect(throws: CalendarError.self) { try CalendarRef(parsing: "nobody:x").resolve(in: Self.calendars) }
        #expect(account?.code == .notFound)
        #expect(account?.candidates == ["home", "work"])
        let noPrimary = #expect(throws: CalendarError.self) {
            try CalendarRef(parsing: "x:primary").resolve(in: [
                CalendarInfo(id: "1", name: "One", account: "x", provider: .google, accessRole: .owner)
            ])
        }
        #expect(noPrimary?.code == .notFound)
    }
}
