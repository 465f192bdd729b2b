import CalendarBridge

/// Events of many calendars in one listing: each row names its calendar by the reference the next
/// command takes.
extension EventFormatting {
    /// One agenda row: the event, its calendar, and the calendar's reference.
    struct AgendaRow {
        var event: Event
        var calendar: CalendarInfo
        var reference: String
    }

    /// The agenda as a table: date, time span, calendar reference (never cut), title (with the repeat
    /// marker), location, and the event id when `ids`.
    func agendaTable(_ rows: [AgendaRow], ids: Bool) -> Table {
        var columns = [
            Table.Column("date", "DATE", shrinkable: false),
            Table.Column("time", "TIME", shrinkable: false),
            Table.Column("calendar", "CALENDAR", shrinkable: false),
            Table.Column("title", "TITLE", shrinkOrder: 1),
            Table.Column("location", "LOCATION"),
        ]
        if ids { columns.append(Table.Column("id", "ID", shrinkable: false)) }
        var table = Table(columns: columns)
        for row in rows {
            var cells = [dateCell(row.event), timeCell(row.event), row.reference, titleCell(row.event), row.event.location ?? ""]
            if ids { cells.append(row.event.id) }
            table.rows.append(cells)
        }
        return table
    }

    /// The agenda as TSV: exact values, the calendar reference and the ids always.
    func agendaTSV(_ rows: [AgendaRow]) -> Table {
        var table = Table(columns: [
            Table.Column("start", "START"), Table.Column("end", "END"), Table.Column("all_day", "ALL DAY"),
            Table.Column("calendar", "CALENDAR"), Table.Column("title", "TITLE"), Table.Column("location", "LOCATION"),
            Table.Column("id", "ID"), Table.Column("series_id", "SERIES ID"),
        ])
        for row in rows {
            let event = row.event
            table.rows.append([
                text(event.start), text(event.end), event.isAllDay ? "true" : "false", row.reference, event.title,
                event.location ?? "", event.id, event.seriesID ?? "",
            ])
        }
        return table
    }

    /// One agenda event as JSON: `json(_:calendar:)` with the calendar's reference, account and id.
    func agendaJSON(_ row: AgendaRow) -> [String: Any] {
        var object = json(row.event, calendar: row.reference)
        object["account"] = row.calendar.account
        object["calendarId"] = row.calendar.id
        return object
    }
}
