import CalDAV
import CalendarBridge
import Foundation

/// The XML calendar service's documents, both ways:
///
/// ```xml
/// <event id="e1" calendar="c1">
///   <title>Planning</title><location>Room 1</location><description>...</description>
///   <start zone="Europe/Berlin">2026-12-02T09:00:00Z</start> (or <start date="2026-12-02"/>)
///   <end zone="Europe/Berlin">2026-12-02T10:00:00Z</end>
///   <property name="calbridge.origin">...</property>
/// </event>
/// <calendars><calendar id="c1" name="Diary" timeZone="Europe/Berlin" primary="true" role="owner"/></calendars>
/// <user name="Ann" email="ann@xmlcal.example" timeZone="Europe/Berlin"/>
/// <error code="not-found">no event e9</error>
/// ```
public enum XMLCalendarCodec {
    public static func element(for event: Event) -> DAVElement {
        var children = [DAVElement("", "title", text: event.title)]
        if let location = event.location { children.append(DAVElement("", "location", text: location)) }
        if let body = event.body { children.append(DAVElement("", "description", text: body.content)) }
        children.append(time("start", event.start))
        children.append(time("end", event.end))
        for (name, value) in event.propertiesToWrite.sorted(by: { $0.key < $1.key }) {
            children.append(DAVElement("", "property", attributes: ["name": name], text: value))
        }
        var attributes = ["calendar": event.calendarID]
        if !event.id.isEmpty { attributes["id"] = event.id }
        return DAVElement("", "event", attributes: attributes, children: children)
    }

    /// - Throws: `DAVXMLError` when a required part is missing or malformed.
    public static func event(from element: DAVElement) throws(DAVXMLError) -> Event {
        guard element.name == "event" else { throw DAVXMLError("expected <event>, found <\(element.name)>") }
        guard let start = element.child("", "start"), let end = element.child("", "end") else {
            throw DAVXMLError("<event> needs <start> and <end>")
        }
        var properties: [String: String] = [:]
        for property in element.children("", "property") {
            guard let name = property.attributes["name"], !name.isEmpty else { throw DAVXMLError("<property> needs a name") }
            properties[name] = property.text
        }
        let (origin, rest) = Event.splitProperties(properties)
        var event = Event(
            id: element.attributes["id"] ?? "", calendarID: element.attributes["calendar"] ?? "",
            title: element.child("", "title")?.text ?? "", body: element.child("", "description").map { .text($0.text) },
            location: element.child("", "location")?.text, start: try time(start), end: try time(end))
        event.origin = origin
        event.extendedProperties = rest
        return event
    }

    private static func time(_ name: String, _ time: EventTime) -> DAVElement {
        switch time {
        case .timed(let instant, let zone): DAVElement("", name, attributes: ["zone": zone], text: instantText(instant))
        case .allDay(let date): DAVElement("", name, attributes: ["date": date.description])
        }
    }

    private static func time(_ element: DAVElement) throws(DAVXMLError) -> EventTime {
        if let text = element.attributes["date"] {
            guard let date = LocalDate(text) else { throw DAVXMLError("<\(element.name) date=\"\(text)\"> is not a date") }
            return .allDay(date: date)
        }
        guard let instant = instant(element.text.trimmingCharacters(in: .whitespaces)) else {
            throw DAVXMLError("<\(element.name)> is not a UTC time like 2026-12-02T09:00:00Z")
        }
        return .timed(instant: instant, zone: element.attributes["zone"] ?? "UTC")
    }

    /// `2026-12-02T09:00:00Z`, as times and query parameters carry instants.
    public static func instantText(_ instant: Date) -> String { instant.formatted(Date.ISO8601FormatStyle()) }
    public static func instant(_ text: String) -> Date? { try? Date(text, strategy: Date.ISO8601FormatStyle()) }
}
