"""The occurrences of an .ics file by Python's icalendar and recurring-ical-events: the independent oracle of
ICalendarCorpusTests (neither uses libical).

Reads one JSON object a line on stdin: {"path", "floating" (an IANA zone for times without a zone),
"from", "to" (YYYY-MM-DD, the window: occurrences starting on or after "from" and before "to")}.
Writes one JSON object a line, in the same order: {"path", "occurrences": [...]} or {"path", "error"}.
An occurrence: {"uid", "title", "start", "end", "status"}; a time is {"date": "YYYY-MM-DD"} or
{"instant": seconds since 1970 (UTC), "local": "YYYY-MM-DDTHH:MM:SS" on its own zone's clock}.
Floating times are read in "floating", as calbridge's --tz reads them.
"""
import datetime
import json
import sys
import zoneinfo

import icalendar
import recurring_ical_events


def time_value(value, floating):
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=floating)
        return {"instant": int(value.timestamp()), "local": value.strftime("%Y-%m-%dT%H:%M:%S")}
    return {"date": value.isoformat()}


def in_window(value, start, stop):
    """Whether an occurrence starts in the window: a date by date, a time by its instant (UTC midnights)."""
    if "date" in value:
        return start.isoformat() <= value["date"] < stop.isoformat()
    utc = datetime.timezone.utc
    low = datetime.datetime(start.year, start.month, start.day, tzinfo=utc).timestamp()
    high = datetime.datetime(stop.year, stop.month, stop.day, tzinfo=utc).timestamp()
    return low <= value["instant"] < high


def occurrences(case):
    floating = zoneinfo.ZoneInfo(case["floating"])
    start = datetime.date.fromisoformat(case["from"])
    stop = datetime.date.fromisoformat(case["to"])
    with open(case["path"], "rb") as f:
        data = f.read()
    calendars = icalendar.Calendar.from_ical(data, multiple=True)
    found = []
    for calendar in calendars:
        # A day's margin each side: the window is cut below by start, the same way on both sides.
        query = recurring_ical_events.of(calendar)
        for component in query.between(start - datetime.timedelta(days=2), stop + datetime.timedelta(days=2)):
            begin = time_value(component["DTSTART"].dt, floating)
            if not in_window(begin, start, stop):
                continue
            if "DTEND" in component:
                end = time_value(component["DTEND"].dt, floating)
            else:
                end = begin if "date" not in begin else time_value(component["DTSTART"].dt + datetime.timedelta(days=1), floating)
            found.append({
                "uid": str(component.get("UID", "")),
                "title": str(component.get("SUMMARY", "")),
                "start": begin,
                "end": end,
                "status": str(component.get("STATUS", "")).upper(),
            })
    return found


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        case = json.loads(line)
        try:
            answer = {"path": case["path"], "occurrences": occurrences(case)}
        except Exception as error:  # noqa: BLE001 -- every refusal is an answer, named by its type and text
            answer = {"path": case["path"], "error": f"{type(error).__name__}: {error}"[:300]}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
