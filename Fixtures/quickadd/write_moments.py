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

# Held out, second batch (written before any of it was run; only run, never read while fixing).
MO, TU, WE, TH, FR, SA, SU = (["2026-03-16", "2026-12-07", "2027-01-04"], ["2026-03-17", "2026-12-08", "2027-01-05"],
                              ["2026-03-11", "2026-12-09", "2027-01-06"], ["2026-03-12", "2026-12-10", "2027-01-07"],
                              ["2026-03-13", "2026-12-11", "2027-01-01"], ["2026-03-14", "2026-12-05", "2027-01-02"],
                              ["2026-03-15", "2026-12-06", "2027-01-03"])
TOMORROW = ["2026-03-11", "2026-12-05", "2027-01-01"]
TODAY = ["2026-03-10", "2026-12-04", "2026-12-31"]
WEEKDAYS = WK + ";BYDAY=MO,TU,WE,TH,FR"
HE("Team sync Wednesday 10:30am", "Team sync", WE, at=(10, 30))
HE("Call with Sarah tomorrow at 2pm", "Call with Sarah", TOMORROW, at=(14, 0))
HE("Doctor appointment March 20 at 9:15am", "Doctor appointment", ["2026-03-20", "2027-03-20", "2027-03-20"], at=(9, 15))
HE("Coffee with Tom at Blue Bottle Saturday 10am", "Coffee with Tom", SA, at=(10, 0), loc="Blue Bottle")
HE("Movie night Friday 8pm", "Movie night", ["2026-03-13", "2026-12-04", "2027-01-01"], at=(20, 0))
HE("Standup every weekday at 10am", "Standup", ["2026-03-10", "2026-12-07", "2027-01-01"], at=(10, 0), rr=[WEEKDAYS])
HE("Lunch 12-1 Thursday", "Lunch", TH, at=(12, 0), to=(13, 0))
HE("Flight to Chicago Dec 18 7:40am", "Flight to Chicago", ["2026-12-18", "2026-12-18", "2027-12-18"], at=(7, 40))
HE("Pay credit card bill on the 25th", "Pay credit card bill", ["2026-03-25", "2026-12-25", "2027-01-25"])
HE("Anniversary dinner Feb 14 7pm", "Anniversary dinner", ["2027-02-14"] * 3, at=(19, 0))
HE("Quarterly review in 2 weeks 3pm", "Quarterly review", ["2026-03-24", "2026-12-18", "2027-01-14"], at=(15, 0))
HE("Water plants every 3 days", "Water plants", TODAY, rr=["RRULE:FREQ=DAILY;INTERVAL=3"])
HE("Board meeting Monday 9-11am", "Board meeting", MO, at=(9, 0), to=(11, 0))
HE("Pick up kids at 3:15", "Pick up kids", ["2026-03-10", "2026-12-05", "2027-01-01"], at=(15, 15))
HE("Webinar 11am PST tomorrow", "Webinar", TOMORROW, at=(11, 0), zone="America/Los_Angeles")
HE("Vacation Dec 21 - Jan 3", "Vacation", ["2026-12-21", "2026-12-21", "2027-12-21"], last=["2027-01-03", "2027-01-03", "2028-01-03"])
HE("Send invoice by end of day Monday", "Send invoice", MO, at=(17, 0))
HE("Yoga class every Tuesday and Thursday at 6:30pm", "Yoga class", ["2026-03-10", "2026-12-08", "2027-01-05"], at=(18, 30), rr=[WK + ";BYDAY=TU,TH"])
HE("Parent-teacher conference Thursday 4:15pm", "Parent-teacher conference", TH, at=(16, 15))
HE("Brunch with Lisa Sunday 11am", "Brunch with Lisa", SU, at=(11, 0))
HE("Haircut next Tuesday at 4pm", "Haircut", TU, at=(16, 0))
HE("Car service 8:30am Friday", "Car service", FR, at=(8, 30))
HE("Book launch party Saturday 7-10pm", "Book launch party", SA, at=(19, 0), to=(22, 0))
HE("Call Grandma tonight at 8", "Call Grandma", TODAY, at=(20, 0), past=(False, False, True))
HE("Dentist cleaning Jan 12 at 10:30", "Dentist cleaning", ["2027-01-12"] * 3, at=(10, 30))
HE("Project deadline Friday 5pm", "Project deadline", FR, at=(17, 0))
HE("Run 5k Saturday morning", "Run 5k", SA, at=(9, 0))
HE("Meeting with Acme Corp 2pm-3:30pm Wednesday", "Meeting with Acme Corp", WE, at=(14, 0), to=(15, 30))
HE("Pay rent every month on the 1st", "Pay rent", ["2026-04-01", "2027-01-01", "2027-01-01"], rr=["RRULE:FREQ=MONTHLY;BYMONTHDAY=1"])
HE("Trash out every Tuesday night", "Trash out", ["2026-03-10", "2026-12-08", "2027-01-05"], at=(21, 0), rr=[WK + ";BYDAY=TU"])
HE("Concert at Madison Square Garden Dec 12 8pm", "Concert", ["2026-12-12", "2026-12-12", "2027-12-12"], at=(20, 0), loc="Madison Square Garden")
HE("Renew car registration by 3/31", "Renew car registration", ["2026-03-31", "2027-03-31", "2027-03-31"])
HE("Call Mike at 11:30 tomorrow", "Call Mike", TOMORROW, at=(11, 30))
HE("Sprint planning Monday 10am for 2 hours", "Sprint planning", MO, at=(10, 0), dur=120)
HE("Daily standup at 9:45am every weekday", "Daily standup", ["2026-03-10", "2026-12-07", "2027-01-01"], at=(9, 45), rr=[WEEKDAYS])
HE("Ski trip Jan 8-10", "Ski trip", ["2027-01-08"] * 3, last=["2027-01-10"] * 3)
HE("Lunch tomorrow at noon with Priya", "Lunch with Priya", TOMORROW, at=(12, 0))
HE("Tax appointment April 14 2pm", "Tax appointment", ["2026-04-14", "2027-04-14", "2027-04-14"], at=(14, 0))
HE("Dinner with the Johnsons Saturday at 7", "Dinner with the Johnsons", SA, at=(19, 0))
HE("Happy hour Friday 6pm", "Happy hour", ["2026-03-13", "2026-12-04", "2027-01-01"], at=(18, 0))
HE("Wedding June 12 2027", "Wedding", ["2027-06-12"] * 3)
HE("Remember to call the plumber", "", R)
HE("Meeting tomorrow 10am 2pm", "", ["reject:conflict"] * 3)
HG("Arzttermin Donnerstag 10:30", "Arzttermin", TH, at=(10, 30))
HG("Besprechung morgen um 14 Uhr", "Besprechung", TOMORROW, at=(14, 0))
HG("Geburtstagsfeier Samstag 19 Uhr", "Geburtstagsfeier", SA, at=(19, 0))
HG("Mittagessen mit Anna Freitag 12:30", "Mittagessen mit Anna", FR, at=(12, 30))
HG("Konzert am 12. Dezember um 20 Uhr", "Konzert", ["2026-12-12", "2026-12-12", "2027-12-12"], at=(20, 0))
HG("Zugfahrt nach Hamburg übermorgen 7:15", "Zugfahrt nach Hamburg", ["2026-03-12", "2026-12-06", "2027-01-02"], at=(7, 15))
HG("Teamrunde jeden Dienstag um 10 Uhr", "Teamrunde", ["2026-03-10", "2026-12-08", "2027-01-05"], at=(10, 0), rr=[WK + ";BYDAY=TU"])
HG("Müll rausbringen jeden Mittwoch", "Müll rausbringen", WE, rr=[WK + ";BYDAY=WE"])
HG("Urlaub vom 20. bis 24. Juli", "Urlaub", ["2026-07-20", "2027-07-20", "2027-07-20"], last=["2026-07-24", "2027-07-24", "2027-07-24"])
HG("Steuerberater nächsten Montag 9 Uhr", "Steuerberater", MO, at=(9, 0))
HG("Yoga heute Abend", "Yoga", TODAY, at=(19, 0), past=(False, False, True))
HG("Termin beim Friseur Samstag um 10", "Termin beim Friseur", SA, at=(10, 0))
HG("Elternsprechtag am 18.3. von 15 bis 17 Uhr", "Elternsprechtag", ["2026-03-18", "2027-03-18", "2027-03-18"], at=(15, 0), to=(17, 0))
HG("Kaffee mit Jonas in 3 Tagen um 15 Uhr", "Kaffee mit Jonas", ["2026-03-13", "2026-12-07", "2027-01-03"], at=(15, 0))
HG("Wocheneinkauf samstags 9 Uhr", "Wocheneinkauf", SA, at=(9, 0), rr=[WK + ";BYDAY=SA"])
HG("Projektabgabe bis 15. Januar", "Projektabgabe", ["2027-01-15"] * 3)
HG("Spieleabend Freitag 19:30", "Spieleabend", ["2026-03-13", "2026-12-04", "2027-01-01"], at=(19, 30))
HG("Videocall 16 Uhr MEZ morgen", "Videocall", TOMORROW, at=(16, 0))
HG("Anruf bei der Bank morgen Vormittag", "Anruf bei der Bank", TOMORROW, at=(10, 0))
HG("Fahrstunde Dienstag 16:45", "Fahrstunde", ["2026-03-10", "2026-12-08", "2027-01-05"], at=(16, 45))
HG("Weihnachtsfeier 18.12. 18 Uhr", "Weihnachtsfeier", ["2026-12-18", "2026-12-18", "2027-12-18"], at=(18, 0))
HG("Zahnreinigung am 3. Februar um 8:30", "Zahnreinigung", ["2027-02-03"] * 3, at=(8, 30))
HG("Lauftreff jeden Donnerstag 7 Uhr", "Lauftreff", TH, at=(7, 0), rr=[WK + ";BYDAY=TH"])
HG("Wäsche waschen", "", R)
HG("Meeting am 31.4.", "", ["reject:invalidDate"] * 3)
HG("Abendessen bei Oma Sonntag 18 Uhr", "Abendessen bei Oma", SU, at=(18, 0))

here = os.path.dirname(os.path.abspath(__file__))
for name, lines in OUT.items():
    with open(os.path.join(here, name + ".jsonl"), "w", encoding="utf-8") as f:
        for line in lines:
            f.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")
    print(f"{name}: {len(lines)} labelled phrase-moments")
