#!/usr/bin/env python3
"""Writes dev-doubts.jsonl: a development set for quick-add's doubts (docs/quick-add.md, "Doubts").

64 phrases (35 English, 29 German) of the kinds people type, written and labelled by hand for the three
reference moments of moments-*.jsonl (Tuesday 2026-03-10 09:00, Friday 2026-12-04 17:30, Thursday 2026-12-31
23:30; English in America/New_York, German in Europe/Berlin). A label is what the writer means, not what the
parser does: some phrases are ones the parser reads wrong ("Hair cut Sat 11", "Book club 7:30 on the 15th"),
and the bench counts whether such a miss is flagged (a doubt) or silent, and how many right readings are
flagged (false alarms). The weekday helper encodes one meaning: the next such day, today while its time (or
the whole day) is still ahead. Run: python3 Fixtures/quickadd/write_dev_doubts.py
"""
import datetime as dt
import json
import os
from zoneinfo import ZoneInfo

ZONES = {"en": "America/New_York", "de": "Europe/Berlin"}
MOMENTS = [dt.datetime(2026, 3, 10, 9, 0), dt.datetime(2026, 12, 4, 17, 30), dt.datetime(2026, 12, 31, 23, 30)]
LINES = []
MO, TU, WE, TH, FR, SA, SU = range(1, 8)


def nxt(weekday, at=None):
    """The next `weekday` (ISO) per moment: today while `at` (or the whole day, at=None) is still ahead."""
    days = []
    for now in MOMENTS:
        delta = (weekday - now.isoweekday()) % 7
        if delta == 0 and at is not None and (at[0], at[1]) <= (now.hour, now.minute):
            delta = 7
        days.append((now.date() + dt.timedelta(days=delta)).isoformat())
    return days


def soonest(at):
    """Today while `at` is still ahead, else tomorrow, per moment."""
    return [(now.date() + dt.timedelta(days=0 if (at[0], at[1]) > (now.hour, now.minute) else 1)).isoformat() for now in MOMENTS]


def on(month, day):
    """The next `month`/`day` on or after each moment's date."""
    out = []
    for now in MOMENTS:
        d = dt.date(now.year, month, day)
        out.append((d if d >= now.date() else dt.date(now.year + 1, month, day)).isoformat())
    return out


TOMORROW = [(now.date() + dt.timedelta(days=1)).isoformat() for now in MOMENTS]


def P(lang, text, title, days, at=None, to=None, dur=60, loc=None, rr=(), zone=None, last=None):
    user_zone = ZONES[lang]
    zone = zone or user_zone
    for i, day in enumerate(days):
        now = MOMENTS[i].replace(tzinfo=ZoneInfo(user_zone)).isoformat()
        line = {"text": text, "now": now, "tz": user_zone, "lang": lang, "moment": i}
        if at is None:
            end = dt.date.fromisoformat(last[i] if last else day) + dt.timedelta(days=1)
            line["expect"] = {"title": title, "start": day, "end": end.isoformat(), "allDay": True, "timeZone": zone,
                              "location": loc, "recurrence": list(rr)}
        else:
            d = dt.date.fromisoformat(day)
            start = dt.datetime(d.year, d.month, d.day, at[0], at[1], tzinfo=ZoneInfo(zone))
            if to is not None:
                end = dt.datetime(d.year, d.month, d.day, to[0], to[1], tzinfo=ZoneInfo(zone))
                if end <= start:
                    end += dt.timedelta(days=1)
            else:
                end = start + dt.timedelta(minutes=dur)
            line["expect"] = {"title": title, "start": start.isoformat(), "end": end.isoformat(), "allDay": False,
                              "timeZone": zone, "location": loc, "recurrence": list(rr)}
        LINES.append(line)


def E(*a, **k): P("en", *a, **k)
def G(*a, **k): P("de", *a, **k)


WK = "RRULE:FREQ=WEEKLY"
NEXT_YEAR = lambda m, d: on(m, d)

# English.
E("Call mom at 4:30", "Call mom", soonest((16, 30)), at=(16, 30))
E("Team sync Thursday 10am", "Team sync", nxt(TH, (10, 0)), at=(10, 0))
E("Pick up 2 tickets Friday", "Pick up 2 tickets", nxt(FR))
E("Dinner for 6 people Saturday 7pm", "Dinner for 6 people", nxt(SA, (19, 0)), at=(19, 0))
E("Room 204 booked for workshop tomorrow 9-11", "Room 204 booked for workshop", TOMORROW, at=(9, 0), to=(11, 0))
E("Release 2.4 on Monday", "Release 2.4", nxt(MO))
E("Meet Sarah at 6", "Meet Sarah", soonest((18, 0)), at=(18, 0))
E("Flight to Denver Tuesday 6:15am", "Flight to Denver", nxt(TU, (6, 15)), at=(6, 15))
E("Coffee with Tom next Wed 8:30am", "Coffee with Tom", ["2026-03-11", "2026-12-09", "2027-01-06"], at=(8, 30))
E("Doctor appointment March 18 at 2:45pm", "Doctor appointment", on(3, 18), at=(14, 45))
E("Pay rent on the 1st", "Pay rent", ["2026-04-01", "2027-01-01", "2027-01-01"])
E("Q2 planning offsite Apr 14-15", "Q2 planning offsite", on(4, 14), last=on(4, 15))
E("Parent teacher conference 3:15 Thursday", "Parent teacher conference", nxt(TH, (15, 15)), at=(15, 15))
E("Bake sale at school 8-10am Saturday", "Bake sale", nxt(SA, (8, 0)), at=(8, 0), to=(10, 0), loc="school")
E("Lunch w/ Priya 12:15", "Lunch w/ Priya", soonest((12, 15)), at=(12, 15))
E("Book club 7:30 on the 15th", "Book club", ["2026-03-15", "2026-12-15", "2027-01-15"], at=(19, 30))
E("Mechanic drop off 7:45 Monday", "Mechanic drop off", nxt(MO, (7, 45)), at=(7, 45))
E("Soccer practice every Tuesday 5:30", "Soccer practice", nxt(TU, (17, 30)), at=(17, 30), rr=[WK + ";BYDAY=TU"])
E("Interview with Acme 10/14 at 1pm", "Interview with Acme", on(10, 14), at=(13, 0))
E("Board meeting 9am EST on Jan 20", "Board meeting", on(1, 20), at=(9, 0))
E("Renew passport by June 30", "Renew passport", on(6, 30))
E("Hair cut Sat 11", "Hair cut", nxt(SA, (11, 0)), at=(11, 0))
E("Standup 9:15 weekdays", "Standup", ["2026-03-10", "2026-12-07", "2027-01-01"], at=(9, 15), rr=[WK + ";BYDAY=MO,TU,WE,TH,FR"])
E("Take out recycling every other Wednesday", "Take out recycling", nxt(WE), rr=[WK + ";INTERVAL=2;BYDAY=WE"])
E("Vet appt for Max 3:40pm tmrw", "Vet appt for Max", TOMORROW, at=(15, 40))
E("Order 3 pizzas for the party at 7pm Friday", "Order 3 pizzas for the party", nxt(FR, (19, 0)), at=(19, 0))
E("Dentist Tuesday 2", "Dentist", nxt(TU, (14, 0)), at=(14, 0))
E("Quarterly review 10:30-12 on Dec 10", "Quarterly review", on(12, 10), at=(10, 30), to=(12, 0))
E("Yoga 7 pm Wednesdays", "Yoga", nxt(WE, (19, 0)), at=(19, 0), rr=[WK + ";BYDAY=WE"])
E("Return library books by Thu", "Return library books", nxt(TH))
E("Drinks after work Friday", "Drinks after work", nxt(FR))
E("Sprint 14 demo Wednesday 3pm", "Sprint 14 demo", nxt(WE, (15, 0)), at=(15, 0))
E("Oil change at 8 tomorrow", "Oil change", TOMORROW, at=(8, 0))
E("Piano lesson for Emma Thursday 4", "Piano lesson for Emma", nxt(TH, (16, 0)), at=(16, 0))
E("Grandma's 90th birthday party Sunday 1pm", "Grandma's 90th birthday party", nxt(SU, (13, 0)), at=(13, 0))

# German.
G("Zahnarzt Dienstag 14:30", "Zahnarzt", nxt(TU, (14, 30)), at=(14, 30))
G("Elternabend Donnerstag 19 Uhr", "Elternabend", nxt(TH, (19, 0)), at=(19, 0))
G("Friseur am Samstag um 10", "Friseur", nxt(SA, (10, 0)), at=(10, 0))
G("Treffen mit Anna morgen um 18:30", "Treffen mit Anna", TOMORROW, at=(18, 30))
G("Steuererklärung abgeben bis 31.7.", "Steuererklärung abgeben", on(7, 31))
G("Fußball Training jeden Mittwoch 18 Uhr", "Fußball Training", nxt(WE, (18, 0)), at=(18, 0), rr=[WK + ";BYDAY=WE"])
G("Mittagessen mit Jens um 12:30", "Mittagessen mit Jens", soonest((12, 30)), at=(12, 30))
G("Arzttermin 8:15 Montag", "Arzttermin", nxt(MO, (8, 15)), at=(8, 15))
G("Kita Sommerfest 20.6. ab 15 Uhr", "Kita Sommerfest", on(6, 20), at=(15, 0))
G("Abgabe Projekt 2 am Freitag", "Abgabe Projekt 2", nxt(FR))
G("Telefonat mit Bank um 9.30", "Telefonat mit Bank", soonest((9, 30)), at=(9, 30))
G("Betriebsversammlung 14-16 Uhr am Mittwoch", "Betriebsversammlung", nxt(WE, (14, 0)), at=(14, 0), to=(16, 0))
G("Geburtstag Oma 12.3.", "Geburtstag Oma", on(3, 12))
G("Müll rausbringen jeden Donnerstag", "Müll rausbringen", nxt(TH), rr=[WK + ";BYDAY=TH"])
G("Kino mit Lea Samstag 20:15", "Kino mit Lea", nxt(SA, (20, 15)), at=(20, 15))
G("Bewerbungsgespräch 10.12. 11 Uhr", "Bewerbungsgespräch", on(12, 10), at=(11, 0))
G("Flug nach Rom Montag 6:40", "Flug nach Rom", nxt(MO, (6, 40)), at=(6, 40))
G("Essen bei Sven Freitag 19:30", "Essen bei Sven", nxt(FR, (19, 30)), at=(19, 30))
G("3 Flaschen Wein kaufen morgen", "3 Flaschen Wein kaufen", TOMORROW)
G("Zahnarzt Dienstag 3", "Zahnarzt", nxt(TU, (15, 0)), at=(15, 0))
G("Team-Meeting um 10 Uhr in Raum 12", "Team-Meeting", soonest((10, 0)), at=(10, 0), loc="Raum 12")
G("Version 4.2 ausrollen am Montag", "Version 4.2 ausrollen", nxt(MO))
G("Laufen gehen morgen früh", "Laufen gehen", TOMORROW, at=(8, 0))
G("Konzert 20 Uhr am 18.12.", "Konzert", on(12, 18), at=(20, 0))
G("Vorstellungsgespräch Donnerstag 9", "Vorstellungsgespräch", nxt(TH, (9, 0)), at=(9, 0))
G("Reifenwechsel 7:30 Samstag", "Reifenwechsel", nxt(SA, (7, 30)), at=(7, 30))
G("Sprint 14 Review Mittwoch 15 Uhr", "Sprint 14 Review", nxt(WE, (15, 0)), at=(15, 0))
G("Chorprobe dienstags 19:30", "Chorprobe", nxt(TU, (19, 30)), at=(19, 30), rr=[WK + ";BYDAY=TU"])
G("Oma besuchen Sonntag Nachmittag", "Oma besuchen", nxt(SU, (15, 0)), at=(15, 0))



def write(name, lines):
    """Writes `lines` to `name` beside this script (write_dev_doubts_2.py uses it too)."""
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, name), "w", encoding="utf-8") as f:
        for line in lines:
            f.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")
    print(f"{name}: {len(lines)} phrase-moments")


if __name__ == "__main__":
    write("dev-doubts.jsonl", LINES)
