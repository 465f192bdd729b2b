#!/usr/bin/env python3
"""Writes moments-en.jsonl, moments-de.jsonl (and heldout.jsonl): phrases labelled by hand for three
reference moments each.

Moments: a weekday morning (Tuesday 2026-03-10 09:00), a Friday evening (2026-12-04 17:30) and New
Year's Eve late (Thursday 2026-12-31 23:30); English in America/New_York, German in Europe/Berlin.
Every date and time below is written by hand, one per moment; this script only turns wall-clock times
into RFC 3339 with zoneinfo and never runs calbridge. Run: python3 Fixtures/quickadd/write_moments.py
"""
import datetime as dt
import json
import os
from zoneinfo import ZoneInfo

MOMENTS = {"en": ("America/New_York", ["2026-03-10T09:00:00", "2026-12-04T17:30:00", "2026-12-31T23:30:00"]),
           "de": ("Europe/Berlin", ["2026-03-10T09:00:00", "2026-12-04T17:30:00", "2026-12-31T23:30:00"])}
OUT = {}


def iso(day, hm, zone):
    d = dt.date.fromisoformat(day)
    return dt.datetime(d.year, d.month, d.day, hm[0], hm[1], tzinfo=ZoneInfo(zone), fold=0).isoformat()


def now_text(lang, i):
    zone, moments = MOMENTS[lang]
    return dt.datetime.fromisoformat(moments[i]).replace(tzinfo=ZoneInfo(zone)).isoformat()


def P(file, lang, text, title, days, at=None, to=None, dur=60, next_day_end=False, loc=None, rr=(), past=(False, False, False), zone=None, last=None):
    """days: one hand-written date per moment (or "reject:CODE"); at: (h, m) or None for all day; to: wall
    end; last: the last day of an all-day range, per moment."""
    user_zone = MOMENTS[lang][0]
    zone = zone or user_zone
    for i, day in enumerate(days):
        line = {"text": text, "now": now_text(lang, i), "tz": user_zone, "lang": lang, "moment": i}
        if day.startswith("reject:"):
            line["reject"] = day[7:]
        elif at is None:
            after = dt.date.fromisoformat(last[i] if last else day) + dt.timedelta(days=1)
            line["expect"] = {"title": title, "start": day, "end": after.isoformat(), "allDay": True, "timeZone": zone,
                              "location": loc, "recurrence": list(rr), "past": past[i]}
        else:
            start = iso(day, at, zone)
            if to is not None:
                end_day = (dt.date.fromisoformat(day) + dt.timedelta(days=1)).isoformat() if next_day_end else day
                end = iso(end_day, to, zone)
            else:
                end = (dt.datetime.fromisoformat(start) + dt.timedelta(minutes=dur)).isoformat()
            line["expect"] = {"title": title, "start": start, "end": end, "allDay": False, "timeZone": zone,
                              "location": loc, "recurrence": list(rr), "past": past[i]}
        OUT.setdefault(file, []).append(line)


def E(*args, **kw): P("moments-en", "en", *args, **kw)
def G(*args, **kw): P("moments-de", "de", *args, **kw)
def HE(*args, **kw): P("heldout", "en", *args, **kw)
def HG(*args, **kw): P("heldout", "de", *args, **kw)


WK = "RRULE:FREQ=WEEKLY"
R = ["reject:nothingToSchedule"] * 3

# English. Clock times and ranges.
E("Dentist Friday 3pm", "Dentist", ["2026-03-13", "2026-12-11", "2027-01-01"], at=(15, 0))
E("Lunch with Ann 12:30-1:30 tomorrow", "Lunch with Ann", ["2026-03-11", "2026-12-05", "2027-01-01"], at=(12, 30), to=(13, 30))
E("Call at 4:30", "Call", ["2026-03-10", "2026-12-05", "2027-01-01"], at=(16, 30))
E("Haircut Saturday at 10", "Haircut", ["2026-03-14", "2026-12-05", "2027-01-02"], at=(10, 0))
E("Dinner at 8", "Dinner", ["2026-03-10", "2026-12-04", "2027-01-01"], at=(20, 0))
E("Breakfast meeting tomorrow at 7:30", "Breakfast meeting", ["2026-03-11", "2026-12-05", "2027-01-01"], at=(7, 30))
E("Party Saturday 10pm-2am", "Party", ["2026-03-14", "2026-12-05", "2027-01-02"], at=(22, 0), to=(2, 0), next_day_end=True)
E("Workshop from 9 to 5 Thursday", "Workshop", ["2026-03-12", "2026-12-10", "2027-01-07"], at=(9, 0), to=(17, 0))
E("Room 101 booking Thursday 2-3pm", "Room 101 booking", ["2026-03-12", "2026-12-10", "2027-01-07"], at=(14, 0), to=(15, 0))
E("Call London office tomorrow 3pm Europe/London", "Call London office", ["2026-03-11", "2026-12-05", "2027-01-01"], at=(15, 0), zone="Europe/London")
E("Review next Monday 10am", "Review", ["2026-03-16", "2026-12-07", "2027-01-04"], at=(10, 0))
E("Interview this Friday 2pm", "Interview", ["2026-03-13", "2026-12-04", "2027-01-01"], at=(14, 0), past=(False, True, False))
E("Vet in 3 days 10am", "Vet", ["2026-03-13", "2026-12-07", "2027-01-03"], at=(10, 0))
E("Flight Jan 15 6:45am", "Flight", ["2027-01-15", "2027-01-15", "2027-01-15"], at=(6, 45))
# Parts of the day.
E("Call Mom tomorrow morning", "Call Mom", ["2026-03-11", "2026-12-05", "2027-01-01"], at=(9, 0))
E("Drinks tonight", "Drinks", ["2026-03-10", "2026-12-04", "2026-12-31"], at=(20, 0), past=(False, False, True))
E("Coffee with Jo this afternoon", "Coffee with Jo", ["2026-03-10", "2026-12-04", "2026-12-31"], at=(15, 0), past=(False, True, True))
E("Stretching in the evening", "Stretching", ["2026-03-10", "2026-12-04", "2027-01-01"], at=(19, 0))
E("Meet at Starbucks tomorrow morning", "Meet", ["2026-03-11", "2026-12-05", "2027-01-01"], at=(9, 0), loc="Starbucks")
# Deadlines.
E("Submit report by Friday", "Submit report", ["2026-03-13", "2026-12-04", "2027-01-01"])
E("Pay invoice due Dec 15", "Pay invoice", ["2026-12-15", "2026-12-15", "2027-12-15"])
E("Essay due tomorrow 5pm", "Essay", ["2026-03-11", "2026-12-05", "2027-01-01"], at=(17, 0))
# Words that are not dates.
E("Deploy v1.2.3 Monday 9am", "Deploy v1.2.3", ["2026-03-16", "2026-12-07", "2027-01-04"], at=(9, 0))
E("Book 2 tickets for the concert Friday", "Book 2 tickets for the concert", ["2026-03-13", "2026-12-04", "2027-01-01"])
E("Review PR #481 tomorrow 11am", "Review PR #481", ["2026-03-11", "2026-12-05", "2027-01-01"], at=(11, 0))
E("Q3 planning Wednesday 2pm", "Q3 planning", ["2026-03-11", "2026-12-09", "2027-01-06"], at=(14, 0))
E("Slurpee at 7-Eleven tomorrow 3pm", "Slurpee", ["2026-03-11", "2026-12-05", "2027-01-01"], at=(15, 0), loc="7-Eleven")
E("24/7 on-call handover Monday 9am", "24/7 on-call handover", ["2026-03-16", "2026-12-07", "2027-01-04"], at=(9, 0))
E("Python 3.12 upgrade Wednesday", "Python 3.12 upgrade", ["2026-03-11", "2026-12-09", "2027-01-06"])
# Dates.
E("Mom's birthday Dec 5", "Mom's birthday", ["2026-12-05", "2026-12-05", "2027-12-05"])
E("Trip Dec 14-16", "Trip", ["2026-12-14", "2026-12-14", "2027-12-14"], last=["2026-12-16", "2026-12-16", "2027-12-16"])
E("Conference 2027-02-03", "Conference", ["2027-02-03", "2027-02-03", "2027-02-03"])
E("Day off today", "Day off", ["2026-03-10", "2026-12-04", "2026-12-31"])
E("Holiday all day Friday", "Holiday", ["2026-03-13", "2026-12-04", "2027-01-01"])
# Repeats.
E("Standup every weekday 9:30", "Standup", ["2026-03-10", "2026-12-07", "2027-01-01"], at=(9, 30), rr=[WK + ";BYDAY=MO,TU,WE,TH,FR"])
E("Gym every Monday 6pm", "Gym", ["2026-03-16", "2026-12-07", "2027-01-04"], at=(18, 0), rr=[WK + ";BYDAY=MO"])
E("Yoga every Tue and Thu 7am", "Yoga", ["2026-03-12", "2026-12-08", "2027-01-05"], at=(7, 0), rr=[WK + ";BYDAY=TU,TH"])
E("Pay rent monthly on the 1st", "Pay rent", ["2026-04-01", "2027-01-01", "2027-01-01"], rr=["RRULE:FREQ=MONTHLY;BYMONTHDAY=1"])
E("Team lunch every Friday at noon", "Team lunch", ["2026-03-13", "2026-12-11", "2027-01-01"], at=(12, 0), rr=[WK + ";BYDAY=FR"])
# Refusals.
E("Buy milk", "", R)
E("tomorrow 3pm", "", ["reject:missingTitle"] * 3)
E("Party Feb 30", "", ["reject:invalidDate"] * 3)
E("Run tomorrow morning 9pm", "", ["reject:conflict"] * 3)

# German.
G("Zahnarzt Freitag 15 Uhr", "Zahnarzt", ["2026-03-13", "2026-12-11", "2027-01-01"], at=(15, 0))
G("Kino heute Abend um 20 Uhr", "Kino", ["2026-03-10", "2026-12-04", "2026-12-31"], at=(20, 0), past=(False, False, True))
G("Frühstück morgen früh um 8", "Frühstück", ["2026-03-11", "2026-12-05", "2027-01-01"], at=(8, 0))
G("Teammeeting jeden Montag um 9 Uhr", "Teammeeting", ["2026-03-16", "2026-12-07", "2027-01-04"], at=(9, 0), rr=[WK + ";BYDAY=MO"])
G("Bericht bis Freitag", "Bericht", ["2026-03-13", "2026-12-04", "2027-01-01"])
G("Steuererklärung fällig am 15.12.", "Steuererklärung", ["2026-12-15", "2026-12-15", "2027-12-15"])
G("Mittagessen mit Ben morgen um 12:30", "Mittagessen mit Ben", ["2026-03-11", "2026-12-05", "2027-01-01"], at=(12, 30))
G("Anruf um 4", "Anruf", ["2026-03-10", "2026-12-05", "2027-01-01"], at=(16, 0))
G("Elternabend Mittwoch 19:30", "Elternabend", ["2026-03-11", "2026-12-09", "2027-01-06"], at=(19, 30))
G("Sprechstunde Montag 10-12 Uhr", "Sprechstunde", ["2026-03-16", "2026-12-07", "2027-01-04"], at=(10, 0), to=(12, 0))
G("Urlaub 14.-16. Dezember", "Urlaub", ["2026-12-14", "2026-12-14", "2027-12-14"], last=["2026-12-16", "2026-12-16", "2027-12-16"])
G("Geburtstag Oma am 5.12.", "Geburtstag Oma", ["2026-12-05", "2026-12-05", "2027-12-05"])
G("Yoga dienstags 18 Uhr", "Yoga", ["2026-03-10", "2026-12-08", "2027-01-05"], at=(18, 0), rr=[WK + ";BYDAY=TU"])
G("Joggen Montag vormittags", "Joggen", ["2026-03-16", "2026-12-07", "2027-01-04"], at=(10, 0))
G("Release v2.1.0 Donnerstag 14 Uhr", "Release v2.1.0", ["2026-03-12", "2026-12-10", "2027-01-07"], at=(14, 0))
G("Treffen im Büro morgen 9 Uhr", "Treffen", ["2026-03-11", "2026-12-05", "2027-01-01"], at=(9, 0), loc="Büro")
G("Anruf nächsten Dienstag 11 Uhr", "Anruf", ["2026-03-17", "2026-12-08", "2027-01-05"], at=(11, 0))
G("Abendessen um 7", "Abendessen", ["2026-03-10", "2026-12-04", "2027-01-01"], at=(19, 0))
G("Einkaufen", "", R)
G("Party 30.2.", "", ["reject:invalidDate"] * 3)

# Held out: only run, never read while fixing the parser.
HE("Pick up dry cleaning Thursday 5:30", "Pick up dry cleaning", ["2026-03-12", "2026-12-10", "2027-01-07"], at=(17, 30))
HE("Book club the 20th 7pm", "Book club", ["2026-03-20", "2026-12-20", "2027-01-20"], at=(19, 0))
HE("Parents evening next Wednesday 6:30pm", "Parents evening", ["2026-03-11", "2026-12-09", "2027-01-06"], at=(18, 30))
HE("Renew passport by Jan 31", "Renew passport", ["2027-01-31", "2027-01-31", "2027-01-31"])
HE("Sprint review every other Friday 3pm", "Sprint review", ["2026-03-13", "2026-12-11", "2027-01-01"], at=(15, 0), rr=[WK + ";INTERVAL=2;BYDAY=FR"])
HE("Order 3 pizzas tomorrow at 6", "Order 3 pizzas", ["2026-03-11", "2026-12-05", "2027-01-01"], at=(18, 0))
HG("Friseur Samstag um 11", "Friseur", ["2026-03-14", "2026-12-05", "2027-01-02"], at=(11, 0))
HG("Stammtisch jeden Donnerstag 20 Uhr", "Stammtisch", ["2026-03-12", "2026-12-10", "2027-01-07"], at=(20, 0), rr=[WK + ";BYDAY=TH"])
HG("Rechnung bezahlen bis 20.1.", "Rechnung bezahlen", ["2027-01-20", "2027-01-20", "2027-01-20"])
HG("Elterngespräch morgen nachmittags", "Elterngespräch", ["2026-03-11", "2026-12-05", "2027-01-01"], at=(15, 0))

here = os.path.dirname(os.path.abspath(__file__))
for name, lines in OUT.items():
    with open(os.path.join(here, name + ".jsonl"), "w", encoding="utf-8") as f:
        for line in lines:
            f.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")
    print(f"{name}: {len(lines)} labelled phrase-moments")
