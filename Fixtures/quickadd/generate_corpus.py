#!/usr/bin/env python3
"""Writes en.jsonl and de.jsonl, the quick-add phrase corpus.

Every expectation below is stated by hand from the README's rules (the date each phrase means, the
wall-clock time, the title, ...). This script only does the arithmetic a person should not do by hand:
turning a wall-clock time in a zone into RFC 3339 with the right offset (Python's zoneinfo, fold=0:
a time in a spring-forward gap moves forward by the gap, an ambiguous fall-back time is the first one),
adding elapsed durations, and writing UNTIL in UTC. It never runs calbridge.

Run: python3 Fixtures/quickadd/generate_corpus.py
"""
import datetime as dt
import json
import os
from zoneinfo import ZoneInfo

UTC = dt.timezone.utc
ROWS = {"en": [], "de": []}
CTX = {}
WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


def ctx(now, tz, lang, order):
    CTX.update(now=now, tz=tz, lang=lang, order=order)


def D(text):
    return dt.date.fromisoformat(text)


def instant(day, hm, zone):
    h, m = hm
    return dt.datetime(day.year, day.month, day.day, h, m, tzinfo=ZoneInfo(zone), fold=0).astimezone(UTC)


def rfc(utc, zone):
    return utc.astimezone(ZoneInfo(zone)).isoformat()


def until_utc(day, zone):
    local = dt.datetime(day.year, day.month, day.day, 23, 59, 59, tzinfo=ZoneInfo(zone), fold=0)
    return local.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def row(text, expect=None, reject=None):
    entry = {"text": text, "now": CTX["now"], "tz": CTX["tz"], "lang": CTX["lang"], "dateOrder": CTX["order"]}
    if reject:
        entry["reject"] = reject
    else:
        entry["expect"] = expect
    ROWS[CTX["lang"]].append(entry)


def check_weekday(day, wd):
    if wd is not None:
        assert WEEKDAYS[day.weekday()] == wd, (day, wd)


def timed(text, title, day, hm, end=None, end_day=None, dur=60, loc=None, rr=(), zone=None, wd=None):
    """A timed event. `end` is a wall-clock end (on `end_day`, default the start day); else `dur` minutes elapsed."""
    zone = zone or CTX["tz"]
    day = D(day)
    check_weekday(day, wd)
    start = instant(day, hm, zone)
    if end is not None:
        stop = instant(D(end_day) if end_day else day, end, zone)
    else:
        stop = start + dt.timedelta(minutes=dur)
    row(text, {
        "title": title, "start": rfc(start, zone), "end": rfc(stop, zone), "allDay": False,
        "timeZone": zone, "location": loc, "recurrence": list(rr),
    })


def allday(text, title, first, last=None, loc=None, rr=(), zone=None, wd=None):
    """An all-day event from `first` through `last` (inclusive); the JSON end is the day after."""
    zone = zone or CTX["tz"]
    first = D(first)
    check_weekday(first, wd)
    last = D(last) if last else first
    row(text, {
        "title": title, "start": first.isoformat(), "end": (last + dt.timedelta(days=1)).isoformat(),
        "allDay": True, "timeZone": zone, "location": loc, "recurrence": list(rr),
    })


def reject(text, code):
    row(text, reject=code)


# ---------------------------------------------------------------------------------------------------
# English, New York, Thursday 2026-03-05 10:00 EST. US clocks spring forward on Sunday 2026-03-08.
ctx("2026-03-05T10:00:00-05:00", "America/New_York", "en", "mdy")
NY = "America/New_York"

# Times on "tomorrow" (Friday 2026-03-06, still EST).
for phrase, hm in [
    ("3pm", (15, 0)), ("3 pm", (15, 0)), ("3PM", (15, 0)), ("3:30pm", (15, 30)), ("3:30 p.m.", (15, 30)),
    ("15:00", (15, 0)), ("noon", (12, 0)), ("at noon", (12, 0)), ("midnight", (0, 0)), ("at 7am", (7, 0)),
    ("at 19", (19, 0)), ("9 o'clock", (9, 0)), ("12am", (0, 0)), ("12pm", (12, 0)), ("12:15am", (0, 15)),
    ("11:59pm", (23, 59)), ("9:05", (9, 5)), ("at 0:30", (0, 30)), ("7 a.m.", (7, 0)), ("@ 4pm", (16, 0)),
    ("1:00PM", (13, 0)), ("at 21:45", (21, 45)), ("midday", (12, 0)), ("6 am", (6, 0)),
]:
    timed(f"Standup tomorrow {phrase}", "Standup", "2026-03-06", hm, wd="Fri")
    timed(f"Standup {phrase} tomorrow", "Standup", "2026-03-06", hm, wd="Fri")

# Dates with "at 10am".
for phrase, day, wd in [
    ("today", "2026-03-05", "Thu"), ("tomorrow", "2026-03-06", "Fri"),
    ("day after tomorrow", "2026-03-07", "Sat"), ("the day after tomorrow", "2026-03-07", "Sat"),
    ("Monday", "2026-03-09", "Mon"), ("on Monday", "2026-03-09", "Mon"), ("next Monday", "2026-03-09", "Mon"),
    ("Thursday", "2026-03-05", "Thu"), ("next Thursday", "2026-03-12", "Thu"), ("this Friday", "2026-03-06", "Fri"),
    ("next Friday", "2026-03-06", "Fri"), ("Sat", "2026-03-07", "Sat"), ("on Sun", "2026-03-08", "Sun"),
    ("wed", "2026-03-11", "Wed"), ("in 3 days", "2026-03-08", "Sun"), ("in 2 weeks", "2026-03-19", "Thu"),
    ("in a week", "2026-03-12", "Thu"), ("in one day", "2026-03-06", "Fri"), ("Dec 5", "2026-12-05", None),
    ("December 5th", "2026-12-05", None), ("5 December", "2026-12-05", None), ("5th of December", "2026-12-05", None),
    ("Dec 5, 2027", "2027-12-05", None), ("December 5 2027", "2027-12-05", None), ("2026-04-01", "2026-04-01", None),
    ("4/1", "2026-04-01", None), ("4/1/2027", "2027-04-01", None), ("12/31/26", "2026-12-31", None),
    ("March 5", "2026-03-05", None), ("March 4", "2027-03-04", None), ("the 20th", "2026-03-20", None),
    ("on the 5th", "2026-03-05", None), ("Jan 1", "2027-01-01", None), ("Sept 30", "2026-09-30", None),
    ("Dec. 5", "2026-12-05", None), ("on Friday, March 6", "2026-03-06", "Fri"), ("2027/01/15", "2027-01-15", None),
    ("in 2 months", "2026-05-05", None), ("Thu", "2026-03-05", "Thu"),
]:
    timed(f"Review {phrase} at 10am", "Review", day, (10, 0), wd=wd)

# A time without a date is today, even when it has passed.
timed("Call the bank 9am", "Call the bank", "2026-03-06", (9, 0))  # 9am has passed at 10am: tomorrow
timed("Call the bank at 4:15pm", "Call the bank", "2026-03-05", (16, 15))
timed("Pick up kids 3pm", "Pick up kids", "2026-03-05", (15, 0))

# Time ranges on tomorrow.
for phrase, start, end, end_day in [
    ("3-4pm", (15, 0), (16, 0), None), ("3pm-5pm", (15, 0), (17, 0), None), ("from 9 to 11am", (9, 0), (11, 0), None),
    ("9:30-10:15", (9, 30), (10, 15), None), ("11-1pm", (11, 0), (13, 0), None), ("9am-5pm", (9, 0), (17, 0), None),
    ("10pm-1am", (22, 0), (1, 0), "2026-03-07"), ("between 2 and 4pm", (14, 0), (16, 0), None),
    ("2pm to 3:30pm", (14, 0), (15, 30), None), ("9-5pm", (9, 0), (17, 0), None), ("3pm-5", (15, 0), (17, 0), None),
    ("11am-1", (11, 0), (13, 0), None), ("noon-2pm", (12, 0), (14, 0), None), ("14:00-15:30", (14, 0), (15, 30), None),
    ("from 1pm until 2pm", (13, 0), (14, 0), None), ("9am – 10am", (9, 0), (10, 0), None),
    ("from 9 to 17", (9, 0), (17, 0), None), ("9:30-10:15pm", (21, 30), (22, 15), None),
    ("11pm-midnight", (23, 0), (0, 0), "2026-03-07"), ("8-9:30am", (8, 0), (9, 30), None),
]:
    timed(f"Workshop tomorrow {phrase}", "Workshop", "2026-03-06", start, end=end, end_day=end_day)

# Durations.
for phrase, minutes in [
    ("for 2 hours", 120), ("for 45 min", 45), ("for 1h30", 90), ("for 90 minutes", 90), ("for an hour", 60),
    ("for half an hour", 30), ("for 1.5 hours", 90), ("for 2h", 120), ("for 30m", 30),
    ("for 1 hour 30 minutes", 90), ("for 3 days", 3 * 24 * 60), ("for 2 hrs", 120), ("for 1 hour and 15 minutes", 75),
    ("for 15 mins", 15), ("for two hours", 120), ("2h", 120), ("for 1h 45m", 105),
]:
    timed(f"Deep work tomorrow 3pm {phrase}", "Deep work", "2026-03-06", (15, 0), dur=minutes)

# All-day events and ranges of days.
allday("Holiday Dec 25", "Holiday", "2026-12-25")
allday("Conference Dec 14-16", "Conference", "2026-12-14", "2026-12-16")
allday("Trip Dec 30 - Jan 2", "Trip", "2026-12-30", "2027-01-02")
allday("Off Monday to Friday", "Off", "2026-03-09", "2026-03-13", wd="Mon")
allday("Vacation 14-16 December", "Vacation", "2026-12-14", "2026-12-16")
allday("Offsite all day tomorrow", "Offsite", "2026-03-06")
allday("Holiday all day", "Holiday", "2026-03-05")
allday("Birthday 5/20", "Birthday", "2026-05-20")
allday("Taxes due April 15", "Taxes", "2026-04-15")  # a deadline: "due" leaves the title
allday("Camp Dec 14 for 3 days", "Camp", "2026-12-14", "2026-12-16")
allday("Festival Jul 3 through Jul 5", "Festival", "2026-07-03", "2026-07-05")
allday("Moving day Saturday", "Moving day", "2026-03-07", wd="Sat")
allday("Visit grandma next Sunday all-day", "Visit grandma", "2026-03-08", wd="Sun")
allday("Retreat from Apr 10 to Apr 12", "Retreat", "2026-04-10", "2026-04-12")
allday("Hackathon Mar 20-22", "Hackathon", "2026-03-20", "2026-03-22")
allday("Book fair 2026-10-14 for 5 days", "Book fair", "2026-10-14", "2026-10-18")
allday("Ski week in 2 weeks for a week", "Ski week", "2026-03-19", "2026-03-25")

# Zones: the date is the user's, the wall-clock time is the zone's.
timed("Call tomorrow 10:00 ET", "Call", "2026-03-06", (10, 0), zone=NY)
timed("Board call Nov 6, 10:00 ET", "Board call", "2026-11-06", (10, 0), zone=NY)
timed("Call 3pm PST", "Call", "2026-03-05", (15, 0), zone="America/Los_Angeles")
timed("Sync 9am CET tomorrow", "Sync", "2026-03-06", (9, 0), zone="Europe/Berlin")
timed("Sync tomorrow 15:00 Europe/London", "Sync", "2026-03-06", (15, 0), zone="Europe/London")
timed("Sync tomorrow 3pm W. Europe Standard Time", "Sync", "2026-03-06", (15, 0), zone="Europe/Berlin")
timed("Sync tomorrow 3pm Eastern Standard Time", "Sync", "2026-03-06", (15, 0), zone=NY)
timed("Standup tomorrow 10am JST", "Standup", "2026-03-06", (10, 0), zone="Asia/Tokyo")
timed("Standup tomorrow 4pm AEST", "Standup", "2026-03-06", (16, 0), zone="Australia/Sydney")
timed("Release noon UTC tomorrow", "Release", "2026-03-06", (12, 0), zone="UTC")
timed("Demo tomorrow 8am IST", "Demo", "2026-03-06", (8, 0), zone="Asia/Kolkata")
timed("Call Jul 1 9am BST", "Call", "2026-07-01", (9, 0), zone="Europe/London")
timed("Webinar Jul 1 3pm EST", "Webinar", "2026-07-01", (15, 0), zone=NY)
timed("Webinar tomorrow 2pm CT", "Webinar", "2026-03-06", (14, 0), zone="America/Chicago")
timed("Webinar tomorrow 11am MT", "Webinar", "2026-03-06", (11, 0), zone="America/Denver")
timed("Webinar 3pm PT tomorrow", "Webinar", "2026-03-06", (15, 0), zone="America/Los_Angeles")
timed("Call Monday 10:00 America/Sao_Paulo", "Call", "2026-03-09", (10, 0), zone="America/Sao_Paulo")
timed("Call tomorrow 9-10am PDT", "Call", "2026-03-06", (9, 0), end=(10, 0), zone="America/Los_Angeles")
timed("Europe/Paris call tomorrow 18:00", "call", "2026-03-06", (18, 0), zone="Europe/Paris")
timed("Call tomorrow 10:00Z", "Call", "2026-03-06", (10, 0), zone="UTC")
timed("Call tomorrow 3pm Pacific Standard Time", "Call", "2026-03-06", (15, 0), zone="America/Los_Angeles")
timed("Call tomorrow 09:00 GMT", "Call", "2026-03-06", (9, 0), zone="UTC")

# Locations.
timed("Lunch with Ann tomorrow 1pm at Cafe Luna", "Lunch with Ann", "2026-03-06", (13, 0), loc="Cafe Luna")
timed("Lunch at Cafe Luna tomorrow 1pm", "Lunch", "2026-03-06", (13, 0), loc="Cafe Luna")
timed("Dinner @ Joe's 7pm", "Dinner", "2026-03-05", (19, 0), loc="Joe's")
timed("Meeting at 221B Baker Street tomorrow 10am", "Meeting", "2026-03-06", (10, 0), loc="221B Baker Street")
timed("Coffee at the Corner Cafe with Bob Friday 8am", "Coffee with Bob", "2026-03-06", (8, 0), loc="the Corner Cafe")
timed("Party at 5th Avenue Loft Saturday 9pm", "Party", "2026-03-07", (21, 0), loc="5th Avenue Loft")
timed("Interview tomorrow 2pm @ Room 4.12", "Interview", "2026-03-06", (14, 0), loc="Room 4.12")
timed("Brunch Sunday 11am at the Ritz with Ann", "Brunch with Ann", "2026-03-08", (11, 0), loc="the Ritz")
timed("Dentist at Smile Clinic, Main St on Monday at 9am", "Dentist", "2026-03-09", (9, 0), loc="Smile Clinic, Main St")
allday("Conference at Moscone Center Dec 14-16", "Conference", "2026-12-14", "2026-12-16", loc="Moscone Center")

# Repeats.
WK = "RRULE:FREQ=WEEKLY"
timed("Standup every weekday 9:30am", "Standup", "2026-03-06", (9, 30), rr=[WK + ";BYDAY=MO,TU,WE,TH,FR"])
timed("Gym every Monday 6pm", "Gym", "2026-03-09", (18, 0), rr=[WK + ";BYDAY=MO"])
timed("Gym every Monday and Wednesday 6pm", "Gym", "2026-03-09", (18, 0), rr=[WK + ";BYDAY=MO,WE"])
timed("Water plants every day 8am", "Water plants", "2026-03-06", (8, 0), rr=["RRULE:FREQ=DAILY"])
timed("1:1 every 2 weeks Friday 2pm", "1:1", "2026-03-06", (14, 0), rr=[WK + ";INTERVAL=2;BYDAY=FR"])
timed("Weekly review Friday 3pm", "Weekly review", "2026-03-06", (15, 0))  # adjective, not a repeat
timed("Retro every other week on Tuesday 3pm", "Retro", "2026-03-10", (15, 0), rr=[WK + ";INTERVAL=2;BYDAY=TU"])
timed("Yoga weekly on Tue and Thu 6pm", "Yoga", "2026-03-05", (18, 0), rr=[WK + ";BYDAY=TU,TH"])
allday("Rent monthly on the 15th", "Rent", "2026-03-15", rr=["RRULE:FREQ=MONTHLY;BYMONTHDAY=15"])
timed("Report every month on the 31st 9am", "Report", "2026-03-31", (9, 0), rr=["RRULE:FREQ=MONTHLY;BYMONTHDAY=31"])
allday("Anniversary every year on Jun 12", "Anniversary", "2026-06-12", rr=["RRULE:FREQ=YEARLY"])
allday("Birthday every Dec 5", "Birthday", "2026-12-05", rr=["RRULE:FREQ=YEARLY"])
timed("Team lunch every Friday noon until Apr 30", "Team lunch", "2026-03-06", (12, 0),
      rr=[WK + ";BYDAY=FR;UNTIL=" + until_utc(D("2026-04-30"), NY)])
timed("Piano every Monday 5pm for 10 times", "Piano", "2026-03-09", (17, 0), rr=[WK + ";BYDAY=MO;COUNT=10"])
timed("Class every Tuesday 7pm 10 times", "Class", "2026-03-10", (19, 0), rr=[WK + ";BYDAY=TU;COUNT=10"])
timed("Backup daily 2am", "Backup", "2026-03-06", (2, 0), rr=["RRULE:FREQ=DAILY"])
timed("Review every 3 days 4pm", "Review", "2026-03-05", (16, 0), rr=["RRULE:FREQ=DAILY;INTERVAL=3"])
allday("Report every weekday", "Report", "2026-03-05", rr=[WK + ";BYDAY=MO,TU,WE,TH,FR"])
timed("Yoga Mondays 7am", "Yoga", "2026-03-09", (7, 0), rr=[WK + ";BYDAY=MO"])
timed("Yoga on Mondays and Wednesdays at 7am", "Yoga", "2026-03-09", (7, 0), rr=[WK + ";BYDAY=MO,WE"])
timed("Lessons weekdays 4pm", "Lessons", "2026-03-05", (16, 0), rr=[WK + ";BYDAY=MO,TU,WE,TH,FR"])
allday("Payroll every 15th", "Payroll", "2026-03-15", rr=["RRULE:FREQ=MONTHLY;BYMONTHDAY=15"])
timed("Sync every Monday from Apr 6 until Jun 29 10am", "Sync", "2026-04-06", (10, 0),
      rr=[WK + ";BYDAY=MO;UNTIL=" + until_utc(D("2026-06-29"), NY)])
timed("Meetup fortnightly Thursday 7pm", "Meetup", "2026-03-05", (19, 0), rr=[WK + ";INTERVAL=2;BYDAY=TH"])
timed("Sprint planning every 2nd week on Monday 10am", "Sprint planning", "2026-03-09", (10, 0),
      rr=[WK + ";INTERVAL=2;BYDAY=MO"])
allday("Bins every Tuesday until 6/30", "Bins", "2026-03-10", rr=[WK + ";BYDAY=TU;UNTIL=20260630"])
timed("Check-in every day 9am for 5 times", "Check-in", "2026-03-06", (9, 0), rr=["RRULE:FREQ=DAILY;COUNT=5"])
timed("Pay day monthly on the 1st 9am", "Pay day", "2026-04-01", (9, 0), rr=["RRULE:FREQ=MONTHLY;BYMONTHDAY=1"])
timed("Choir every Mon, Wed and Fri 6-7pm", "Choir", "2026-03-06", (18, 0), end=(19, 0), rr=[WK + ";BYDAY=MO,WE,FR"])
timed("Daily standup every weekday 9am starting Monday", "Daily standup", "2026-03-09", (9, 0),
      rr=[WK + ";BYDAY=MO,TU,WE,TH,FR"])
timed("Tennis every Saturday 8am from Mar 14", "Tennis", "2026-03-14", (8, 0), rr=[WK + ";BYDAY=SA"])
timed("Standup every weekday 9am Dec 1 - Dec 18", "Standup", "2026-12-01", (9, 0),
      rr=[WK + ";BYDAY=MO,TU,WE,TH,FR;UNTIL=" + until_utc(D("2026-12-18"), NY)])
allday("Quarterly review every 3 months on the 1st", "Quarterly review", "2026-04-01",
       rr=["RRULE:FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=1"])
timed("Stretch every day 7am until Friday", "Stretch", "2026-03-06", (7, 0),
      rr=["RRULE:FREQ=DAILY;UNTIL=" + until_utc(D("2026-03-06"), NY)])

# Daylight saving: wall-clock times in the event's zone.
timed("Flight next Monday 9am", "Flight", "2026-03-09", (9, 0), wd="Mon")          # EDT after the change
timed("Night shift Mar 8 2:30am", "Night shift", "2026-03-08", (2, 30))             # gap: becomes 03:30 EDT
timed("Night shift Mar 8 1:30am for 2 hours", "Night shift", "2026-03-08", (1, 30), dur=120)
timed("Party Mar 7 11pm-3am", "Party", "2026-03-07", (23, 0), end=(3, 0), end_day="2026-03-08")
timed("Late show Nov 1 1:30am", "Late show", "2026-11-01", (1, 30))                # ambiguous: first (EDT)
timed("Late show Nov 1 1:30am for 1 hour", "Late show", "2026-11-01", (1, 30), dur=60)
timed("Party Oct 31 11pm-2am", "Party", "2026-10-31", (23, 0), end=(2, 0), end_day="2026-11-01")
timed("Call Mar 29 2:30am CET", "Call", "2026-03-29", (2, 30), zone="Europe/Berlin")  # Berlin's own gap
timed("Brunch Mar 8 11am", "Brunch", "2026-03-08", (11, 0))
timed("Sleep Mar 7 10pm for 10 hours", "Sleep", "2026-03-07", (22, 0), dur=600)
timed("Call Nov 1 9am", "Call", "2026-11-01", (9, 0))
timed("Call Oct 25 1:30am Europe/London", "Call", "2026-10-25", (1, 30), zone="Europe/London")  # ambiguous in London

# Spacing and capitalisation are kept, whitespace normalised.
timed("  Lunch   with  ANN   tomorrow  1PM  ", "Lunch with ANN", "2026-03-06", (13, 0))
timed("iOS sync-up TOMORROW 3PM", "iOS sync-up", "2026-03-06", (15, 0))
timed("Dentist tomorrow 3pm.", "Dentist", "2026-03-06", (15, 0))
timed("Call - tomorrow 3pm", "Call", "2026-03-06", (15, 0))
timed("Meet Dr. Smith tomorrow 3pm", "Meet Dr. Smith", "2026-03-06", (15, 0))
timed("Q2 planning (tomorrow 3pm)", "Q2 planning", "2026-03-06", (15, 0))
timed("Call Mom, tomorrow, 6pm", "Call Mom", "2026-03-06", (18, 0))
timed("Write a report for the board tomorrow 9am", "Write a report for the board", "2026-03-06", (9, 0))
timed("Ship v2.0 tomorrow 5pm", "Ship v2.0", "2026-03-06", (17, 0))
timed("Meeting on the 3rd floor tomorrow 2pm", "Meeting on the 3rd floor", "2026-03-06", (14, 0))
timed("Buy 3 apples tomorrow 9am", "Buy 3 apples", "2026-03-06", (9, 0))
timed("Drive to Boston tomorrow 8am", "Drive to Boston", "2026-03-06", (8, 0))
timed("I may call tomorrow 4pm", "I may call", "2026-03-06", (16, 0))
timed("Sun cream shopping tomorrow 10am", "Sun cream shopping", "2026-03-06", (10, 0))
timed("Café ☕ with Zoë tomorrow 8am", "Café ☕ with Zoë", "2026-03-06", (8, 0))
timed("Call in 2 days at 9am", "Call", "2026-03-07", (9, 0))

# Rejected.
reject("Buy milk", "nothingToSchedule")
reject("Meeting with Ann", "nothingToSchedule")
reject("", "nothingToSchedule")
reject("   ", "nothingToSchedule")
reject("Review next week", "vagueDate")
# "in N hours" is now plus that long (docs/quick-add.md, durations); it was refused before.
timed("Call in 2 hours", "Call", "2026-03-05", (12, 0))
reject("Call in 2 hours tomorrow", "conflict")
reject("tomorrow 3pm", "missingTitle")
reject("Dec 14-16", "missingTitle")
reject("Party Feb 30", "invalidDate")
reject("Lunch April 31", "invalidDate")
reject("Party Feb 29 2027", "invalidDate")
reject("Party 13/13/2026", "invalidDate")
reject("Meeting 13pm tomorrow", "invalidTime")
reject("Call 25:00 tomorrow", "invalidTime")
reject("Call 10:75 tomorrow", "invalidTime")
# Bare hours: 7-11 morning, 12 noon, 1-6 afternoon; a range's end is the first reading after its start.
timed("Lunch at 1 tomorrow", "Lunch", "2026-03-06", (13, 0))
timed("Lunch at 1", "Lunch", "2026-03-05", (13, 0))
timed("Meeting from 9 to 11 tomorrow", "Meeting", "2026-03-06", (9, 0), end=(11, 0))
reject("Review tonight at 10am", "conflict")
reject("Lunch tomorrow Monday", "conflict")
reject("Call 3pm 5pm", "conflict")
reject("Party 3pm all day tomorrow", "conflict")
reject("Call tomorrow 3pm PST Europe/London", "conflict")
reject("Meet Dec 14-16 3pm", "conflict")
reject("Lunch Friday, March 9", "conflict")
reject("Call tomorrow 10:00 Europe/Londn", "unknownTimeZone")
reject("Trip Dec 16-14", "invalidRange")
reject("Review tomorrow 10pm-10pm", "invalidRange")
reject("Gym every Monday until 3/1/2026", "invalidRange")
allday("Meeting until Friday", "Meeting", "2026-03-06")  # "until" without a repeat is a deadline
reject("Meeting 5 times", "untilWithoutRepeat")
reject("Trip Dec 5 1850", "outOfRange")
reject("Yoga every Monday for 1000 times", "outOfRange")
reject("Gym every 0 days", "outOfRange")
reject("Nap tomorrow 3pm for 400 days", "outOfRange")
reject("Lecture tomorrow for 2 hours", "durationWithoutTime")
reject("Lunch " + "very " * 120 + "tomorrow 1pm", "tooLong")

# English, London, Wednesday 2026-12-30 15:00 (British day-first numeric dates): year rollover.
ctx("2026-12-30T15:00:00Z", "Europe/London", "en", "dmy")
allday("Pay rent tomorrow", "Pay rent", "2026-12-31")
allday("Brunch day after tomorrow", "Brunch", "2027-01-01")
allday("Hike in 3 days", "Hike", "2027-01-02")
timed("Dentist Jan 5 9am", "Dentist", "2027-01-05", (9, 0))
timed("Kickoff Monday 10:00", "Kickoff", "2027-01-04", (10, 0), wd="Mon")
timed("Sync next Wednesday 11:00", "Sync", "2027-01-06", (11, 0), wd="Wed")
timed("Sync Wednesday 17:00", "Sync", "2026-12-30", (17, 0), wd="Wed")
allday("Trip Dec 30 - Jan 2", "Trip", "2026-12-30", "2027-01-02")
timed("New Year's Eve party Dec 31 8pm", "New Year's Eve party", "2026-12-31", (20, 0))
timed("NYE Dec 31 10pm-2am", "NYE", "2026-12-31", (22, 0), end=(2, 0), end_day="2027-01-01")
allday("Gym the 1st", "Gym", "2027-01-01")
allday("Review in 2 weeks", "Review", "2027-01-13")
allday("Review in 1 month", "Review", "2027-01-30")
allday("Sale 4/1", "Sale", "2027-01-04")
timed("Call 25/12 3pm", "Call", "2027-12-25", (15, 0))
timed("Call 31/12/2026 3pm", "Call", "2026-12-31", (15, 0))
timed("Call 1/7 10:00", "Call", "2027-07-01", (10, 0))
timed("Walk every day 8am until Jan 3", "Walk", "2026-12-31", (8, 0),
      rr=["RRULE:FREQ=DAILY;UNTIL=" + until_utc(D("2027-01-03"), "Europe/London")])
timed("Fireworks midnight Jan 1", "Fireworks", "2027-01-01", (0, 0))
allday("Holiday Dec 31 - Jan 1", "Holiday", "2026-12-31", "2027-01-01")
timed("Party 31/12/2026 at 3", "Party", "2026-12-31", (15, 0))  # "party": an evening word

# English, Los Angeles, Sunday 2028-02-27 12:00: leap day.
ctx("2028-02-27T12:00:00-08:00", "America/Los_Angeles", "en", "mdy")
allday("Errand tomorrow", "Errand", "2028-02-28")
timed("Leap party in 2 days 8pm", "Leap party", "2028-02-29", (20, 0))
allday("Leap day Feb 29", "Leap day", "2028-02-29")
allday("Leap day Feb 29 2028", "Leap day", "2028-02-29")
allday("Leap day 2/29", "Leap day", "2028-02-29")
allday("Trip Feb 28-Mar 1", "Trip", "2028-02-28", "2028-03-01")
allday("Trip Feb 28-29", "Trip", "2028-02-28", "2028-02-29")
allday("Review in 1 week", "Review", "2028-03-05")
allday("Bills the 29th", "Bills", "2028-02-29")
timed("Lunch Tuesday 12:30pm", "Lunch", "2028-02-29", (12, 30), wd="Tue")
timed("Lunch next Sunday 1pm", "Lunch", "2028-03-05", (13, 0), wd="Sun")
timed("Lunch Sunday 1pm", "Lunch", "2028-02-27", (13, 0), wd="Sun")
allday("Leap birthday every Feb 29", "Leap birthday", "2028-02-29", rr=["RRULE:FREQ=YEARLY"])
allday("Span Feb 27 for 3 days", "Span", "2028-02-27", "2028-02-29")
reject("Party 2029-02-29", "invalidDate")

# English, Tokyo, Friday 2026-01-30 09:00: end of month.
ctx("2026-01-30T09:00:00+09:00", "Asia/Tokyo", "en", "mdy")
allday("Close books tomorrow", "Close books", "2026-01-31")
allday("Audit in 2 days", "Audit", "2026-02-01")
allday("Audit in 1 month", "Audit", "2026-02-28")
allday("Audit the 31st", "Audit", "2026-01-31")
allday("Audit the 30th", "Audit", "2026-01-30")
timed("Close every month on the 31st 9am", "Close", "2026-01-31", (9, 0), rr=["RRULE:FREQ=MONTHLY;BYMONTHDAY=31"])
timed("Sync next Friday 9am", "Sync", "2026-02-06", (9, 0), wd="Fri")
allday("Report Jan 30", "Report", "2026-01-30")
allday("Report Jan 29", "Report", "2027-01-29")
allday("Report Feb 1-3", "Report", "2026-02-01", "2026-02-03")
reject("Audit Apr 31", "invalidDate")

# ---------------------------------------------------------------------------------------------------
# German, Berlin, Thursday 2026-03-26 10:00 CET. Clocks spring forward on Sunday 2026-03-29.
ctx("2026-03-26T10:00:00+01:00", "Europe/Berlin", "de", "dmy")
BER = "Europe/Berlin"
for phrase, hm in [
    ("15 Uhr", (15, 0)), ("15:00", (15, 0)), ("15:00 Uhr", (15, 0)), ("15.30 Uhr", (15, 30)), ("9 Uhr", (9, 0)),
    ("mittags", (12, 0)), ("um Mitternacht", (0, 0)), ("um 14 Uhr", (14, 0)), ("gegen 10 Uhr", (10, 0)),
    ("8:15", (8, 15)), ("0:30 Uhr", (0, 30)), ("um 18:45", (18, 45)), ("um 20", (20, 0)), ("7.05 Uhr", (7, 5)),
]:
    timed(f"Zahnarzt morgen {phrase}", "Zahnarzt", "2026-03-27", hm, wd="Fri")
timed("morgen 15 Uhr Zahnarzt", "Zahnarzt", "2026-03-27", (15, 0))

for phrase, day, wd in [
    ("heute", "2026-03-26", "Thu"), ("morgen", "2026-03-27", "Fri"), ("übermorgen", "2026-03-28", "Sat"),
    ("Montag", "2026-03-30", "Mon"), ("am Montag", "2026-03-30", "Mon"), ("nächsten Montag", "2026-03-30", "Mon"),
    ("Donnerstag", "2026-03-26", "Thu"), ("nächsten Donnerstag", "2026-04-02", "Thu"),
    ("kommenden Freitag", "2026-03-27", "Fri"), ("diesen Samstag", "2026-03-28", "Sat"),
    ("in 3 Tagen", "2026-03-29", "Sun"), ("in zwei Wochen", "2026-04-09", "Thu"), ("in einer Woche", "2026-04-02", "Thu"),
    ("am 5. Dezember", "2026-12-05", None), ("5. Dezember 2027", "2027-12-05", None), ("5.12.", "2026-12-05", None),
    ("5.12.2026", "2026-12-05", None), ("05.12.26", "2026-12-05", None), ("am 28.", "2026-03-28", None),
    ("2026-12-05", "2026-12-05", None), ("1.4.", "2026-04-01", None), ("3. April", "2026-04-03", None),
    ("Mo", "2026-03-30", "Mon"), ("am Di.", "2026-03-31", "Tue"), ("4/5", "2026-05-04", None),
    ("26. März", "2026-03-26", None), ("25. März", "2027-03-25", None), ("1. Jänner", "2027-01-01", None),
    ("Sonnabend", "2026-03-28", "Sat"), ("Freitag, den 27. März", "2026-03-27", "Fri"),
]:
    timed(f"Besprechung {phrase} um 10 Uhr", "Besprechung", day, (10, 0), wd=wd)

for phrase, start, end in [
    ("von 9 bis 11 Uhr", (9, 0), (11, 0)), ("9-11 Uhr", (9, 0), (11, 0)), ("14-16 Uhr", (14, 0), (16, 0)),
    ("9:30-10:15", (9, 30), (10, 15)), ("zwischen 14 und 16 Uhr", (14, 0), (16, 0)),
    ("von 10:00 bis 12:30", (10, 0), (12, 30)), ("13 bis 14.30 Uhr", (13, 0), (14, 30)),
    ("von 8 Uhr bis 17 Uhr", (8, 0), (17, 0)),
]:
    timed(f"Workshop morgen {phrase}", "Workshop", "2026-03-27", start, end=end)

for phrase, minutes in [
    ("für 2 Stunden", 120), ("für 45 Minuten", 45), ("für eine Stunde", 60), ("für 1,5 Stunden", 90),
    ("für eine halbe Stunde", 30), ("2 Std.", 120), ("für 1h30", 90), ("90 Min.", 90), ("für drei Stunden", 180),
]:
    timed(f"Lernen morgen 15 Uhr {phrase}", "Lernen", "2026-03-27", (15, 0), dur=minutes)

allday("Betriebsausflug am 5. Dezember ganztägig", "Betriebsausflug", "2026-12-05")
allday("Urlaub 14.-16. Dezember", "Urlaub", "2026-12-14", "2026-12-16")
allday("Urlaub vom 14. bis 16. Dezember", "Urlaub", "2026-12-14", "2026-12-16")
allday("Umzug ganztags morgen", "Umzug", "2026-03-27")
allday("Feiertag 1.5.", "Feiertag", "2026-05-01")
allday("Messe 20.4.-22.4.", "Messe", "2026-04-20", "2026-04-22")
allday("Kur ab 4.5. für 2 Wochen", "Kur", "2026-05-04", "2026-05-17")
allday("Reise 30. Dezember bis 2. Januar", "Reise", "2026-12-30", "2027-01-02")
allday("Tag der offenen Tür Samstag", "Tag der offenen Tür", "2026-03-28", wd="Sat")

timed("Call morgen 15 Uhr MEZ", "Call", "2026-03-27", (15, 0), zone=BER)
timed("Call morgen 10 Uhr ET", "Call", "2026-03-27", (10, 0), zone=NY)
timed("Call morgen 9:00 Europe/London", "Call", "2026-03-27", (9, 0), zone="Europe/London")
timed("Call morgen 16 Uhr UTC", "Call", "2026-03-27", (16, 0), zone="UTC")
timed("Call 1. Juli 15 Uhr MESZ", "Call", "2026-07-01", (15, 0), zone=BER)
timed("Call morgen 15 Uhr W. Europe Standard Time", "Call", "2026-03-27", (15, 0), zone=BER)
timed("Meeting ist wichtig morgen 10 Uhr", "Meeting ist wichtig", "2026-03-27", (10, 0))

timed("Besprechung übermorgen von 9 bis 11 Uhr im Büro", "Besprechung", "2026-03-28", (9, 0), end=(11, 0), loc="Büro")
timed("Essen 5.12.2026 19:30 in Berlin mit Anna", "Essen mit Anna", "2026-12-05", (19, 30), loc="Berlin")
timed("Kaffee @ Café Luna morgen 9 Uhr", "Kaffee", "2026-03-27", (9, 0), loc="Café Luna")
timed("Mittagessen in der Mensa mit Anna morgen 12:30", "Mittagessen mit Anna", "2026-03-27", (12, 30), loc="der Mensa")
timed("Arzt in 3 Tagen um 14:30 für 45 Minuten", "Arzt", "2026-03-29", (14, 30), dur=45)

timed("Teammeeting jeden Montag 9:00", "Teammeeting", "2026-03-30", (9, 0), rr=[WK + ";BYDAY=MO"])
timed("Joggen jeden Tag 7 Uhr", "Joggen", "2026-03-27", (7, 0), rr=["RRULE:FREQ=DAILY"])
timed("Tabletten täglich 8 Uhr", "Tabletten", "2026-03-27", (8, 0), rr=["RRULE:FREQ=DAILY"])
timed("Yoga wöchentlich am Dienstag und Donnerstag 18 Uhr", "Yoga", "2026-03-26", (18, 0), rr=[WK + ";BYDAY=TU,TH"])
timed("Standup jeden Werktag 9 Uhr", "Standup", "2026-03-27", (9, 0), rr=[WK + ";BYDAY=MO,TU,WE,TH,FR"])
timed("Standup werktags 9:15", "Standup", "2026-03-27", (9, 15), rr=[WK + ";BYDAY=MO,TU,WE,TH,FR"])
timed("Chor montags 19 Uhr", "Chor", "2026-03-30", (19, 0), rr=[WK + ";BYDAY=MO"])
timed("Sport alle 2 Wochen am Freitag 17 Uhr", "Sport", "2026-03-27", (17, 0), rr=[WK + ";INTERVAL=2;BYDAY=FR"])
timed("Jour fixe jeden zweiten Montag 10 Uhr", "Jour fixe", "2026-03-30", (10, 0), rr=[WK + ";INTERVAL=2;BYDAY=MO"])
allday("Miete monatlich am 15.", "Miete", "2026-04-15", rr=["RRULE:FREQ=MONTHLY;BYMONTHDAY=15"])
allday("Hochzeitstag jährlich am 5. Dezember", "Hochzeitstag", "2026-12-05", rr=["RRULE:FREQ=YEARLY"])
timed("Yoga dienstags und donnerstags 18 Uhr bis 30.6.", "Yoga", "2026-03-26", (18, 0),
      rr=[WK + ";BYDAY=TU,TH;UNTIL=" + until_utc(D("2026-06-30"), BER)])
timed("Kurs jeden Mittwoch 10 Uhr bis zum 31.12.2026", "Kurs", "2026-04-01", (10, 0),
      rr=[WK + ";BYDAY=WE;UNTIL=" + until_utc(D("2026-12-31"), BER)])
timed("Kurs jeden Mittwoch 10 Uhr 8 mal", "Kurs", "2026-04-01", (10, 0), rr=[WK + ";BYDAY=WE;COUNT=8"])
timed("Physio jeden Freitag 8 Uhr 10x", "Physio", "2026-03-27", (8, 0), rr=[WK + ";BYDAY=FR;COUNT=10"])
timed("Nachhilfe jeden Montag und Mittwoch 16 Uhr 5-mal", "Nachhilfe", "2026-03-30", (16, 0),
      rr=[WK + ";BYDAY=MO,WE;COUNT=5"])
timed("Gießen jede Woche am Samstag 9 Uhr", "Gießen", "2026-03-28", (9, 0), rr=[WK + ";BYDAY=SA"])
allday("Bericht jeden Monat am 1.", "Bericht", "2026-04-01", rr=["RRULE:FREQ=MONTHLY;BYMONTHDAY=1"])
timed("Lauftreff jeden Samstag 9 Uhr ab 4.4.", "Lauftreff", "2026-04-04", (9, 0), rr=[WK + ";BYDAY=SA"])

# Daylight saving in Berlin.
timed("Nachtdienst Sonntag 2:30 Uhr", "Nachtdienst", "2026-03-29", (2, 30), wd="Sun")  # gap -> 03:30 CEST
timed("Frühstück Sonntag 9 Uhr", "Frühstück", "2026-03-29", (9, 0), wd="Sun")
timed("Flug nächsten Montag 6 Uhr", "Flug", "2026-03-30", (6, 0), wd="Mon")
timed("Party Samstag 22 Uhr bis 4 Uhr", "Party", "2026-03-28", (22, 0), end=(4, 0), end_day="2026-03-29")
timed("Nachtdienst Samstag 23 Uhr für 8 Stunden", "Nachtdienst", "2026-03-28", (23, 0), dur=480)
timed("Termin 25.10. 2:30 Uhr", "Termin", "2026-10-25", (2, 30))                         # ambiguous: first (CEST)
timed("Termin 25.10. 1:00 Uhr für 3 Stunden", "Termin", "2026-10-25", (1, 0), dur=180)

timed("Anruf Café Müller – morgen 11 Uhr", "Anruf Café Müller", "2026-03-27", (11, 0))
timed("ÄRZTIN  Dr.  Özdemir   morgen  8 Uhr", "ÄRZTIN Dr. Özdemir", "2026-03-27", (8, 0))
timed("Treffen nächsten Freitag 15.30 Uhr", "Treffen", "2026-03-27", (15, 30), wd="Fri")  # first Friday after today
timed("So ein Tag morgen 10 Uhr", "So ein Tag", "2026-03-27", (10, 0))
timed("Do it morgen 10 Uhr", "Do it", "2026-03-27", (10, 0))

reject("Einkaufen", "nothingToSchedule")
reject("Anruf bei Mama", "nothingToSchedule")
reject("morgen 15 Uhr", "missingTitle")
reject("Party 30.2.", "invalidDate")
reject("Termin 31. April", "invalidDate")
reject("Termin morgen 25 Uhr", "invalidTime")
timed("Treffen um 3", "Treffen", "2026-03-26", (15, 0))
reject("Treffen morgen Montag", "conflict")
allday("Termin bis Freitag", "Termin", "2026-03-27")
reject("Vortrag morgen für 2 Stunden", "durationWithoutTime")
reject("Urlaub 16.-14. Dezember", "invalidRange")
reject("Call morgen 10 Uhr Europe/Berlinn", "unknownTimeZone")

# German, Berlin, Wednesday 2026-12-30 10:00: year rollover and leap years.
ctx("2026-12-30T10:00:00+01:00", "Europe/Berlin", "de", "dmy")
allday("Silvester morgen", "Silvester", "2026-12-31")
allday("Neujahr übermorgen", "Neujahr", "2027-01-01")
timed("Zahnarzt 5. Januar 9 Uhr", "Zahnarzt", "2027-01-05", (9, 0))
timed("Zahnarzt 5.1. 9 Uhr", "Zahnarzt", "2027-01-05", (9, 0))
timed("Start Montag 8 Uhr", "Start", "2027-01-04", (8, 0), wd="Mon")
timed("Silvesterparty 31.12. 20 Uhr bis 2 Uhr", "Silvesterparty", "2026-12-31", (20, 0), end=(2, 0), end_day="2027-01-01")
allday("Skiurlaub 30.12.-3.1.", "Skiurlaub", "2026-12-30", "2027-01-03")
allday("Frist in 3 Tagen", "Frist", "2027-01-02")
allday("Schalttag 29.2.", "Schalttag", "2028-02-29")
allday("Schalttag 29. Februar 2028", "Schalttag", "2028-02-29")
reject("Schalttag 29.2.2027", "invalidDate")

# German with month-first numeric dates (an explicit --date-order mdy).
ctx("2026-03-26T10:00:00+01:00", "Europe/Berlin", "de", "mdy")
timed("Termin 4/5 10 Uhr", "Termin", "2026-04-05", (10, 0))
timed("Termin 5.4. 10 Uhr", "Termin", "2026-04-05", (10, 0))

here = os.path.dirname(os.path.abspath(__file__))
for lang, rows in ROWS.items():
    with open(os.path.join(here, f"{lang}.jsonl"), "w", encoding="utf-8") as handle:
        for entry in rows:
            handle.write(json.dumps(entry, ensure_ascii=False, sort_keys=True) + "\n")
    accepted = sum(1 for r in rows if "expect" in r)
    print(f"{lang}: {len(rows)} phrases, {accepted} accepted, {len(rows) - accepted} rejected")
