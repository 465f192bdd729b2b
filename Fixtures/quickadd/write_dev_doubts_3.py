#!/usr/bin/env python3
"""Writes dev-doubts-3.jsonl: a third development set for quick-add, phrases written and labelled by hand.

Written on 2026-12-06 by a helper session that read docs/quick-add.md, Fixtures/quickadd/README.md and
write_moments.py (for the JSON shape and label conventions) and nothing of the parser, its tests or benches,
nor any held-out or doubts file (those were loaded by a script only, to check that no phrase repeats one of
theirs). Labels are what the writer means; where a phrase leaves something open, docs/quick-add.md's rules.

Moments (as moments-*.jsonl): Tuesday 2026-03-10 09:00, Friday 2026-12-04 17:30, Thursday 2026-12-31 23:30;
English in America/New_York, German in Europe/Berlin. Every date and time below is written by hand, one per
moment; this script only turns wall-clock times into RFC 3339 with zoneinfo and never runs calbridge.
Standalone, standard library only. Run: python3 Fixtures/quickadd/write_dev_doubts_3.py
"""
import datetime as dt
import json
import os
from zoneinfo import ZoneInfo

MOMENTS = {"en": "America/New_York", "de": "Europe/Berlin"}
NOWS = ["2026-03-10T09:00:00", "2026-12-04T17:30:00", "2026-12-31T23:30:00"]
OUT = []


def iso(day, hm, zone):
    d = dt.date.fromisoformat(day)
    return dt.datetime(d.year, d.month, d.day, hm[0], hm[1], tzinfo=ZoneInfo(zone)).isoformat()


def P(lang, text, title, days, at=None, to=None, dur=60, next_day_end=False, loc=None, rr=(), past=(False, False, False),
      zone=None, last=None, rrs=None):
    """days: one hand-written date per moment (or "reject:CODE"); at: (h, m) or None for all day; to: wall end;
    last: the last day of an all-day range, per moment; rrs: the RRULE lines per moment when they differ."""
    user_zone = MOMENTS[lang]
    zone = zone or user_zone
    for i, day in enumerate(days):
        now = dt.datetime.fromisoformat(NOWS[i]).replace(tzinfo=ZoneInfo(user_zone)).isoformat()
        line = {"text": text, "now": now, "tz": user_zone, "lang": lang, "moment": i}
        rule = list(rrs[i]) if rrs else list(rr)
        if day.startswith("reject:"):
            line["reject"] = day[7:]
        elif at is None:
            after = dt.date.fromisoformat(last[i] if last else day) + dt.timedelta(days=1)
            line["expect"] = {"title": title, "start": day, "end": after.isoformat(), "allDay": True, "timeZone": zone,
                              "location": loc, "recurrence": rule, "past": past[i]}
        else:
            start = iso(day, at, zone)
            if to is not None:
                end_day = (dt.date.fromisoformat(day) + dt.timedelta(days=1)).isoformat() if next_day_end else day
                end = iso(end_day, to, zone)
            else:
                end = (dt.datetime.fromisoformat(start) + dt.timedelta(minutes=dur)).isoformat()
            line["expect"] = {"title": title, "start": start, "end": end, "allDay": False, "timeZone": zone,
                              "location": loc, "recurrence": rule, "past": past[i]}
        OUT.append(line)


def E(*a, **k): P("en", *a, **k)
def G(*a, **k): P("de", *a, **k)


def R(code): return ["reject:" + code] * 3


# Hand-written days per moment (m0 Tue 2026-03-10 09:00, m1 Fri 2026-12-04 17:30, m2 Thu 2026-12-31 23:30).
TODAY = ["2026-03-10", "2026-12-04", "2026-12-31"]
TMRW = ["2026-03-11", "2026-12-05", "2027-01-01"]
MON = ["2026-03-16", "2026-12-07", "2027-01-04"]
TUE = ["2026-03-10", "2026-12-08", "2027-01-05"]      # today at m0: a time after 09:00 (or all day)
TUE_N = ["2026-03-17", "2026-12-08", "2027-01-05"]    # a time before 09:00, or "next Tuesday"
WED = ["2026-03-11", "2026-12-09", "2027-01-06"]
THU = ["2026-03-12", "2026-12-10", "2027-01-07"]      # m2: Thursday's time has passed at 23:30
THU_AD = ["2026-03-12", "2026-12-10", "2026-12-31"]   # all day: today at m2
FRI = ["2026-03-13", "2026-12-04", "2027-01-01"]      # today at m1: a time after 17:30 (or all day)
FRI_P = ["2026-03-13", "2026-12-11", "2027-01-01"]    # m1: a time before 17:30 has passed
SAT = ["2026-03-14", "2026-12-05", "2027-01-02"]
SUN = ["2026-03-15", "2026-12-06", "2027-01-03"]
# A clock time with no date: today if still ahead, else tomorrow.
LATE = ["2026-03-10", "2026-12-04", "2027-01-01"]     # 17:30 < time < 23:30
DAYT = ["2026-03-10", "2026-12-05", "2027-01-01"]     # 09:00 < time <= 17:30
WD = "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"
NO = (False, False, False)
PAST2 = (False, False, True)

# ---------------------------------------------------------------- English: meetings, errands, appointments
E("Mtg w/ Sarah tmrw 10am", "Mtg w/ Sarah", TMRW, at=(10, 0))
E("dentist appt thurs 2:15", "dentist appt", THU, at=(14, 15))
E("Pick up dry cleaning Sat", "Pick up dry cleaning", SAT)
E("Call plumber re: leak @ 4", "Call plumber re: leak", DAYT, at=(16, 0))
E("Team lunch next Wed 12:30", "Team lunch", WED, at=(12, 30))
E("Quarterly review Q3 numbers Dec 15 2pm", "Quarterly review Q3 numbers", ["2026-12-15", "2026-12-15", "2027-12-15"], at=(14, 0))
E("Mom's bday 4/22", "Mom's bday", ["2026-04-22", "2027-04-22", "2027-04-22"])
E("Yoga class 6:30pm Mondays", "Yoga class", MON, at=(18, 30), rr=["RRULE:FREQ=WEEKLY;BYDAY=MO"])
E("Submit expense report by Fri", "Submit expense report", FRI)
E("Parent-teacher conf 3:45 tomorrow at Jefferson Middle School", "Parent-teacher conf", TMRW, at=(15, 45), loc="Jefferson Middle School")
E("Oil change around 11 sat", "Oil change", SAT, at=(11, 0))
E("Drinks with the team Thursday at 6", "Drinks with the team", THU, at=(18, 0))
E("Standup 9:15-9:30 daily", "Standup", ["2026-03-10", "2026-12-05", "2027-01-01"], at=(9, 15), to=(9, 30), rr=["RRULE:FREQ=DAILY"])
E("Haircut w/ Jess 11:30 on the 18th", "Haircut w/ Jess", ["2026-03-18", "2026-12-18", "2027-01-18"], at=(11, 30))
E("Pay Verizon bill $84.99 due 12/20", "Pay Verizon bill $84.99", ["2026-12-20", "2026-12-20", "2027-12-20"])
E("Order 2 pizzas for game night Friday 7", "Order 2 pizzas for game night", FRI, at=(19, 0))
E("Conference call 3pm PT tmrw", "Conference call", TMRW, at=(15, 0), zone="America/Los_Angeles")
E("Webinar 11am GMT Dec 9", "Webinar", ["2026-12-09", "2026-12-09", "2027-12-09"], at=(11, 0), zone="UTC")
E("10k run w/ Ben sun morning", "10k run w/ Ben", SUN, at=(9, 0))
E("Fix bug #2291 by 5 today", "Fix bug #2291", TODAY, at=(17, 0), past=(False, True, True))
E("Doctor's appt 10:45 a.m. 3/30", "Doctor's appt", ["2026-03-30", "2027-03-30", "2027-03-30"], at=(10, 45))
E("Volunteer shift 8a-12p Saturday", "Volunteer shift", SAT, at=(8, 0), to=(12, 0))
E("Night shift Sun 11pm-7am", "Night shift", SUN, at=(23, 0), to=(7, 0), next_day_end=True)
E("Book club 7:30pm on the first Tuesday of every month", "Book club", ["2026-04-07", "2027-01-05", "2027-01-05"], at=(19, 30),
  rr=["RRULE:FREQ=MONTHLY;BYDAY=1TU"])
E("Piano recital Apr 25th 2pm at St. Mark's Church", "Piano recital", ["2026-04-25", "2027-04-25", "2027-04-25"], at=(14, 0), loc="St. Mark's Church")
E("Renew car registration in 3 wks", "Renew car registration", ["2026-03-31", "2026-12-25", "2027-01-21"])
E("Coffee w/ Priya a week from Friday 9am", "Coffee w/ Priya", ["2026-03-20", "2026-12-11", "2027-01-08"], at=(9, 0))
E("Interview w/ Acme 2-2:45 Wed", "Interview w/ Acme", WED, at=(14, 0), to=(14, 45))
E("School pickup 3:10 weekdays", "School pickup", ["2026-03-10", "2026-12-07", "2027-01-01"], at=(15, 10), rr=[WD])
E("Gym M/W/F 6am until end of April", "Gym", ["2026-03-11", "2026-12-07", "2027-01-01"], at=(6, 0),
  rrs=[["RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR;UNTIL=20260501T035959Z"], ["RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR;UNTIL=20270501T035959Z"],
       ["RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR;UNTIL=20270501T035959Z"]])
E("Call back 555-0142 at 2:30", "Call back 555-0142", DAYT, at=(14, 30))
E("Meet Tom in Room 4B at 1", "Meet Tom in Room 4B", DAYT, at=(13, 0))
E("Dinner @ Nonna's 8:15 Sat w/ parents", "Dinner w/ parents", SAT, at=(20, 15), loc="Nonna's")
E("Lunch 11:30-1 Thursday", "Lunch", THU, at=(11, 30), to=(13, 0))
E("Release v2.4.1 to prod Monday 10pm", "Release v2.4.1 to prod", MON, at=(22, 0))
E("File taxes (federal + state) due 4/15", "File taxes (federal + state)", ["2026-04-15", "2027-04-15", "2027-04-15"])
E("Kids' swim lessons Saturdays 9-9:45am for 8 weeks", "Kids' swim lessons", SAT, at=(9, 0), to=(9, 45),
  rrs=[["RRULE:FREQ=WEEKLY;BYDAY=SA;UNTIL=20260509T035959Z"], ["RRULE:FREQ=WEEKLY;BYDAY=SA;UNTIL=20270130T045959Z"],
       ["RRULE:FREQ=WEEKLY;BYDAY=SA;UNTIL=20270227T045959Z"]])
E("Anniversary dinner Feb 14 7:30", "Anniversary dinner", ["2027-02-14"] * 3, at=(19, 30))
E("Trash out every Wednesday night", "Trash out", WED, at=(21, 0), rr=["RRULE:FREQ=WEEKLY;BYDAY=WE"])
E("Dentist cleaning 1/14 8:40am", "Dentist cleaning", ["2027-01-14"] * 3, at=(8, 40))
E("Call grandma tmrw ~4", "Call grandma", TMRW, at=(16, 0))
E("BBQ at Mike's sat 1pm-ish", "BBQ", SAT, at=(13, 0), loc="Mike's")
E("Pediatrician appt for Lily 9:20am Mon", "Pediatrician appt for Lily", MON, at=(9, 20))
E("Math tutoring Tu/Th 4-5", "Math tutoring", TUE, at=(16, 0), to=(17, 0), rr=["RRULE:FREQ=WEEKLY;BYDAY=TU,TH"])
E("Ticket JIRA-4821 review 3pm", "Ticket JIRA-4821 review", DAYT, at=(15, 0))
E("Farmers market sat 8-noon", "Farmers market", SAT, at=(8, 0), to=(12, 0))
E("Red Sox game Fenway 7:10pm Apr 14", "Red Sox game Fenway", ["2026-04-14", "2027-04-14", "2027-04-14"], at=(19, 10))
E("Review 2027 budget draft Jan 12 10am", "Review 2027 budget draft", ["2027-01-12"] * 3, at=(10, 0))
E("Email coach re 3-2 loss tomorrow", "Email coach re 3-2 loss", TMRW)
E("Pay $1,200 rent on the 1st", "Pay $1,200 rent", ["2026-04-01", "2027-01-01", "2027-01-01"])
E("Office hrs 1-3 Wed in Rm 210", "Office hrs in Rm 210", WED, at=(13, 0), to=(15, 0))
E("Flight DL 88 JFK→CDG Dec 20 10:25pm", "Flight DL 88 JFK→CDG", ["2026-12-20", "2026-12-20", "2027-12-20"], at=(22, 25))
E("Hotel stay Dec 21-23", "Hotel stay", ["2026-12-21", "2026-12-21", "2027-12-21"], last=["2026-12-23", "2026-12-23", "2027-12-23"])
E("Ski trip Jan 15 - Jan 18", "Ski trip", ["2027-01-15"] * 3, last=["2027-01-18"] * 3)
E("Midterm exam Mar 19 8:00-9:50", "Midterm exam", ["2026-03-19", "2027-03-19", "2027-03-19"], at=(8, 0), to=(9, 50))
E("CS 101 lecture MWF 10-10:50 am", "CS 101 lecture", ["2026-03-11", "2026-12-07", "2027-01-01"], at=(10, 0), to=(10, 50),
  rr=["RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR"])
E("Chem lab every Thursday 1:30-4:20 until May 7", "Chem lab", THU, at=(13, 30), to=(16, 20),
  rrs=[["RRULE:FREQ=WEEKLY;BYDAY=TH;UNTIL=20260508T035959Z"], ["RRULE:FREQ=WEEKLY;BYDAY=TH;UNTIL=20270508T035959Z"],
       ["RRULE:FREQ=WEEKLY;BYDAY=TH;UNTIL=20270508T035959Z"]])
E("Take meds 8am and 8pm daily", "", R("conflict"))
E("Birthday party for Ava (turns 6) Sat 2-4", "Birthday party for Ava (turns 6)", SAT, at=(14, 0), to=(16, 0))
E("Neighbor's housewarming 6 pm next Sat", "Neighbor's housewarming", SAT, at=(18, 0))
E("Payroll cutoff EOD Thursday", "Payroll cutoff", THU, at=(17, 0))
E("Vet for Max @ Banfield 4:40 tmrw", "Vet for Max", TMRW, at=(16, 40), loc="Banfield")
E("Room 12 booked for training 9-12 Friday", "Room 12 booked for training", FRI_P, at=(9, 0), to=(12, 0))
E("Concert at 8 on Dec 19 at the Beacon Theatre", "Concert", ["2026-12-19", "2026-12-19", "2027-12-19"], at=(20, 0), loc="the Beacon Theatre")
E("Lunch w/ Dana 12-1:30 next Tuesday at Cafe Gratitude", "Lunch w/ Dana", TUE_N, at=(12, 0), to=(13, 30), loc="Cafe Gratitude")
E("happy hour this fri 6pm", "happy hour", FRI, at=(18, 0))
E("Call with London office 9am UK time Thursday", "Call with London office", THU, at=(9, 0), zone="Europe/London")
E("Sync w/ Berlin team 4pm CET tomorrow", "Sync w/ Berlin team", TMRW, at=(16, 0), zone="Europe/Berlin")
E("Tokyo call 8am JST Mon", "Tokyo call", MON, at=(8, 0), zone="Asia/Tokyo")
E("Quarterly planning 9:30 ET on 1/12/27", "Quarterly planning", ["2027-01-12"] * 3, at=(9, 30))
E("Lunch w/ Omar last Thursday 12:30", "Lunch w/ Omar", ["2026-03-05", "2026-12-03", "2026-12-24"], at=(12, 30), past=(True, True, True))
E("Dinner res for 4 at 7:45 Saturday", "Dinner res for 4", SAT, at=(19, 45))
E("Wedding rehearsal Fri June 11 2027 5pm", "Wedding rehearsal", ["2027-06-11"] * 3, at=(17, 0))
E("Meeting tomorrow 10 or 11", "", R("conflict"))
E("Brunch sometime this weekend", "", R("vagueDate"))
E("Parent night at school Thursday 6:30", "Parent night", THU, at=(18, 30), loc="school")
E("Guitar lesson every other Sat 11am starting Jan 9", "Guitar lesson", ["2027-01-09"] * 3, at=(11, 0), rr=["RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=SA"])
E("Move-out walkthrough Saturday, May 30, 2026 10am", "Move-out walkthrough", ["2026-05-30"] * 3, at=(10, 0), past=(False, True, True))
E("Renew passport before trip - due 6/1", "Renew passport before trip", ["2026-06-01", "2027-06-01", "2027-06-01"])
E("Call Dad tonight 9ish", "Call Dad", TODAY, at=(21, 0), past=PAST2)
E("1:1 with manager Thursdays 2:30", "1:1 with manager", THU, at=(14, 30), rr=["RRULE:FREQ=WEEKLY;BYDAY=TH"])
E("Pick up 2x4s at Home Depot sat morning", "Pick up 2x4s", SAT, at=(9, 0), loc="Home Depot")
E("Rent 5/1", "Rent", ["2026-05-01", "2027-05-01", "2027-05-01"])
E("Mtg rm 3.14 booked 11-11:30 tmrw", "Mtg rm 3.14 booked", TMRW, at=(11, 0), to=(11, 30))
E("Call the bank at 10 re mortgage", "Call the bank re mortgage", DAYT, at=(10, 0))
E("Trivia night at the Tap Room 8pm every Tuesday", "Trivia night", TUE, at=(20, 0), loc="the Tap Room", rr=["RRULE:FREQ=WEEKLY;BYDAY=TU"])
E("Vacation 12/24-1/3", "Vacation", ["2026-12-24", "2026-12-24", "2027-12-24"], last=["2027-01-03", "2027-01-03", "2028-01-03"])
E("Daycare closed Fri", "Daycare closed", FRI)
E("Soccer game vs Eagles on field 3 Sat 9am", "Soccer game vs Eagles on field 3", SAT, at=(9, 0))
E("Car inspection due by the 28th", "Car inspection", ["2026-03-28", "2026-12-28", "2027-01-28"])
E("Laundry tonight at 10:45", "Laundry", TODAY, at=(22, 45), past=PAST2)
E("New Year's Day hangover brunch @ Jo's 11:30", "New Year's Day hangover brunch", ["2027-01-01"] * 3, at=(11, 30), loc="Jo's")
E("Countdown party 11pm tonight", "Countdown party", TODAY, at=(23, 0), past=PAST2)
E("Team offsite Jan 7-8", "Team offsite", ["2027-01-07"] * 3, last=["2027-01-08"] * 3)
E("Yankees vs Red Sox 1:05pm 4/11", "Yankees vs Red Sox", ["2026-04-11", "2027-04-11", "2027-04-11"], at=(13, 5))
E("Deploy hotfix 3.2.1 at 0600 Wed", "Deploy hotfix 3.2.1", WED, at=(6, 0))
E("Tour at 221 Baker St Saturday 10am", "Tour", SAT, at=(10, 0), loc="221 Baker St")
E("Zoom w/ Raj 10:30-11 pst friday", "Zoom w/ Raj", FRI_P, at=(10, 30), to=(11, 0), zone="America/Los_Angeles")
E("Coach Dan practice 5-6:30 every Mon and Wed at Riverside Park", "Coach Dan practice", ["2026-03-11", "2026-12-07", "2027-01-04"],
  at=(17, 0), to=(18, 30), loc="Riverside Park", rr=["RRULE:FREQ=WEEKLY;BYDAY=MO,WE"])
E("Stats homework due 11:59pm Sunday", "Stats homework", SUN, at=(23, 59))
E("Thanksgiving dinner at Aunt Jo's 3pm", "Thanksgiving dinner", ["2026-11-26", "2027-11-25", "2027-11-25"], at=(15, 0), loc="Aunt Jo's")
E("Halloween trick or treat w/ kids 5:30pm", "Halloween trick or treat w/ kids", ["2026-10-31", "2027-10-31", "2027-10-31"], at=(17, 30))
E("Sprint planning every 2 wks Mon 10am", "Sprint planning", MON, at=(10, 0), rr=["RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO"])
E("Mortgage pmt monthly on the 5th", "Mortgage pmt", ["2026-04-05", "2026-12-05", "2027-01-05"], rr=["RRULE:FREQ=MONTHLY;BYMONTHDAY=5"])
E("Water plants every 4 days", "Water plants", TODAY, rr=["RRULE:FREQ=DAILY;INTERVAL=4"])
E("Physical therapy every Mon & Thu 7:15am for 10 times", "Physical therapy", ["2026-03-12", "2026-12-07", "2027-01-04"], at=(7, 15),
  rr=["RRULE:FREQ=WEEKLY;BYDAY=MO,TH;COUNT=10"])
E("Flight home 12/23 6am from gate B7", "Flight home from gate B7", ["2026-12-23", "2026-12-23", "2027-12-23"], at=(6, 0))
E("Ice skating w/ kids 2-3:30 Dec 27", "Ice skating w/ kids", ["2026-12-27", "2026-12-27", "2027-12-27"], at=(14, 0), to=(15, 30))
E("Lunch with Marco 15 Dec 2027 1pm", "Lunch with Marco", ["2027-12-15"] * 3, at=(13, 0))
E("Holiday party Dec 18 7-11pm @ the Loft", "Holiday party", ["2026-12-18", "2026-12-18", "2027-12-18"], at=(19, 0), to=(23, 0), loc="the Loft")
E("Return library books by 3/28", "Return library books", ["2026-03-28", "2027-03-28", "2027-03-28"])
E("Dog groomer appt in 10 days 9am", "Dog groomer appt", ["2026-03-20", "2026-12-14", "2027-01-10"], at=(9, 0))
E("Grocery pickup 10-10:30 tmrw at Whole Foods", "Grocery pickup", TMRW, at=(10, 0), to=(10, 30), loc="Whole Foods")
E("Cleaning lady comes every other Thursday", "Cleaning lady comes", THU_AD, rr=["RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TH"])
E("Basketball tryouts 3:30 the 2nd Tuesday of the month", "Basketball tryouts", ["2026-03-10", "2026-12-08", "2027-01-12"], at=(15, 30))
E("Recital dress rehearsal tomorrow 4:30-6", "Recital dress rehearsal", TMRW, at=(16, 30), to=(18, 0))
E("Drop car at mechanic 7:30am Tues, pick up 5pm", "", R("conflict"))
E("Closing shift 6pm-2am Friday", "Closing shift", FRI, at=(18, 0), to=(2, 0), next_day_end=True)
E("NYE party 9pm-1am", "NYE party", ["2026-12-31"] * 3, at=(21, 0), to=(1, 0), next_day_end=True, past=PAST2)
E("Overnight hike 10pm to 4am Sat", "Overnight hike", SAT, at=(22, 0), to=(4, 0), next_day_end=True)
E("Server maintenance 11:45pm-12:45am tonight", "Server maintenance", TODAY, at=(23, 45), to=(0, 45), next_day_end=True)
E("Lunch & learn 11-1 Thurs", "Lunch & learn", THU, at=(11, 0), to=(13, 0))
E("Catch up with Jen sometime next week", "", R("vagueDate"))
E("Dentist Monday or Tuesday 3pm", "", R("conflict"))
E("Project due end of March", "Project", ["2026-03-31", "2027-03-31", "2027-03-31"])
E("Reunion April 31 noon", "", R("invalidDate"))
E("Buy stamps and envelopes", "", R("nothingToSchedule"))
E("Tues 4pm", "", R("missingTitle"))
E("Call Jim this afternoon at 9am", "", R("conflict"))
E("Gym 5:75pm", "", R("invalidTime"))
E("Retreat Mar 20-17", "", R("invalidRange"))
E("Call 3pm Mars/Olympus", "", R("unknownTimeZone"))
E("Road trip over Memorial Day weekend", "", R("vagueDate"))
E("Office Christmas party 6:30pm", "", R("vagueDate"))
E("Costco w/ mom Sunday 11", "Costco w/ mom", SUN, at=(11, 0))
E("Lunch tmrw @ noon w/ Chris at Panera", "Lunch w/ Chris", TMRW, at=(12, 0), loc="Panera")
E("Pay credit card by the 25th 5pm", "Pay credit card", ["2026-03-25", "2026-12-25", "2027-01-25"], at=(17, 0))
E("Uber to airport 4:45am Thursday", "Uber to airport", THU, at=(4, 45))
E("Check out of Airbnb by 11 Sunday", "Check out of Airbnb", SUN, at=(11, 0))
E("Shift at Target 2-10 sat", "Shift", SAT, at=(14, 0), to=(22, 0), loc="Target")
E("Opening shift 5:30am-1:30pm Sun", "Opening shift", SUN, at=(5, 30), to=(13, 30))
E("Dr. Patel follow-up 8:50 am Dec 11", "Dr. Patel follow-up", ["2026-12-11", "2026-12-11", "2027-12-11"], at=(8, 50))
E("Mammogram 12/9 @ 1:15", "Mammogram", ["2026-12-09", "2026-12-09", "2027-12-09"], at=(13, 15))
E("Bloodwork fasting 7:30 AM tmw", "Bloodwork fasting", TMRW, at=(7, 30))
E("Allergy shot every 2 weeks Wed 4:15", "Allergy shot", WED, at=(16, 15), rr=["RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=WE"])
E("Happy hour @ Brewdog 5-7 Fri", "Happy hour", FRI_P, at=(17, 0), to=(19, 0), loc="Brewdog")
E("Bday drinks for Sam at 9 Sat", "Bday drinks for Sam", SAT, at=(21, 0))
E("Valentine's dinner 7:30 at Le Bernardin", "Valentine's dinner", ["2027-02-14"] * 3, at=(19, 30), loc="Le Bernardin")
E("4th of July BBQ 3pm", "4th of July BBQ", ["2026-07-04", "2027-07-04", "2027-07-04"], at=(15, 0))
E("Concert tix go on sale Fri 10am", "Concert tix go on sale", FRI_P, at=(10, 0))
E("HOA meeting 2nd Thursday of every month 7pm", "HOA meeting", ["2026-03-12", "2026-12-10", "2027-01-14"], at=(19, 0),
  rr=["RRULE:FREQ=MONTHLY;BYDAY=2TH"])
E("Garbage pickup every Mon & Thu", "Garbage pickup", ["2026-03-12", "2026-12-07", "2026-12-31"], rr=["RRULE:FREQ=WEEKLY;BYDAY=MO,TH"])
E("Marathon Nov 1 7am", "Marathon", ["2026-11-01", "2027-11-01", "2027-11-01"], at=(7, 0))
E("Pottery workshop 10-2 Sat at Clay Studio", "Pottery workshop", SAT, at=(10, 0), to=(14, 0), loc="Clay Studio")
E("Holiday cards in the mail by Dec 15", "Holiday cards in the mail", ["2026-12-15", "2026-12-15", "2027-12-15"])
E("Secret Santa exchange the 18th at 3", "Secret Santa exchange", ["2026-03-18", "2026-12-18", "2027-01-18"], at=(15, 0))
E("Lease renewal 15 Dec 2027", "Lease renewal", ["2027-12-15"] * 3)
E("Carpool duty Wed 7:40-8:10am", "Carpool duty", WED, at=(7, 40), to=(8, 10))
E("swim meet @ YMCA sun 8am-1pm", "swim meet", SUN, at=(8, 0), to=(13, 0), loc="YMCA")
E("Field trip permission slip due Thurs", "Field trip permission slip", THU_AD)
E("Orthodontist for Noah the 3rd at 3:20", "Orthodontist for Noah", ["2026-04-03", "2027-01-03", "2027-01-03"], at=(15, 20))
E("Budget sync 4:30-5:15pm 12/14", "Budget sync", ["2026-12-14", "2026-12-14", "2027-12-14"], at=(16, 30), to=(17, 15))
E("Hair appt @ 2:45 Tuesday w/ Mia", "Hair appt w/ Mia", TUE, at=(14, 45))
E("Write Q1 OKRs by end of month", "Write Q1 OKRs", ["2026-03-31", "2026-12-31", "2026-12-31"])
E("Chiropractor in 2 weeks at 11:15", "Chiropractor", ["2026-03-24", "2026-12-18", "2027-01-14"], at=(11, 15))
E("Game 7 watch party tonight 8pm", "Game 7 watch party", TODAY, at=(20, 0), past=PAST2)
E("Pick up Ella from ballet at 5:45", "Pick up Ella from ballet", ["2026-03-10", "2026-12-04", "2027-01-01"], at=(17, 45))
E("Call Aunt May 11am Pacific Saturday", "Call Aunt May", SAT, at=(11, 0), zone="America/Los_Angeles")
E("Standup 10:00 ET weekdays until 3/31", "Standup", ["2026-03-10", "2026-12-07", "2027-01-01"], at=(10, 0),
  rrs=[[WD + ";UNTIL=20260401T035959Z"], [WD + ";UNTIL=20270401T035959Z"], [WD + ";UNTIL=20270401T035959Z"]])
E("Bible study Wednesdays 7-8:30pm at church", "Bible study", WED, at=(19, 0), to=(20, 30), loc="church", rr=["RRULE:FREQ=WEEKLY;BYDAY=WE"])
E("Spring break 3/16-3/20", "Spring break", ["2026-03-16", "2027-03-16", "2027-03-16"], last=["2026-03-20", "2027-03-20", "2027-03-20"])
E("Mow lawn sat afternoon", "Mow lawn", SAT, at=(15, 0))
E("Vet recheck for Luna in 6 weeks", "Vet recheck for Luna", ["2026-04-21", "2027-01-15", "2027-02-11"])

# ---------------------------------------------------------------- German
G("Zahnarzt Do 14:30", "Zahnarzt", THU, at=(14, 30))
G("Elternabend Klasse 3b am Mittwoch um 7", "Elternabend Klasse 3b", WED, at=(19, 0))
G("Friseur morgen um halb 10", "Friseur", TMRW, at=(9, 30))
G("Mama anrufen heut abend", "Mama anrufen", TODAY, at=(19, 0), past=PAST2)
G("Steuererklärung fällig 31.7.", "Steuererklärung", ["2026-07-31", "2027-07-31", "2027-07-31"])
G("Abgabe Hausarbeit spätestens 15. Januar", "Abgabe Hausarbeit", ["2027-01-15"] * 3)
G("Kita geschlossen übermorgen", "Kita geschlossen", ["2026-03-12", "2026-12-06", "2027-01-02"])
G("Fussball Training di+do 17:30 bis 19 Uhr", "Fussball Training", TUE, at=(17, 30), to=(19, 0), rr=["RRULE:FREQ=WEEKLY;BYDAY=TU,TH"])
G("Termin beim Hautarzt 8.4. 11:15", "Termin beim Hautarzt", ["2026-04-08", "2027-04-08", "2027-04-08"], at=(11, 15))
G("Geburtstag Oma 3. Mai", "Geburtstag Oma", ["2026-05-03", "2027-05-03", "2027-05-03"])
G("Zug nach Hamburg ICE 578 Fr 6:12", "Zug nach Hamburg ICE 578", FRI_P, at=(6, 12))
G("Flug LH 400 nach New York 23.12. 10:05", "Flug LH 400 nach New York", ["2026-12-23", "2026-12-23", "2027-12-23"], at=(10, 5))
G("Teammeeting jeden Montag 9:30 im Konfi 2", "Teammeeting", MON, at=(9, 30), loc="Konfi 2", rr=["RRULE:FREQ=WEEKLY;BYDAY=MO"])
G("Yoga mittwochs 19 Uhr bis Ende Juni", "Yoga", WED, at=(19, 0),
  rrs=[["RRULE:FREQ=WEEKLY;BYDAY=WE;UNTIL=20260630T215959Z"], ["RRULE:FREQ=WEEKLY;BYDAY=WE;UNTIL=20270630T215959Z"],
       ["RRULE:FREQ=WEEKLY;BYDAY=WE;UNTIL=20270630T215959Z"]])
G("Kino mit Lena Samstag um 8", "Kino mit Lena", SAT, at=(20, 0))
G("Mittagessen mit Jonas um 1 im Café Extrablatt", "Mittagessen mit Jonas", DAYT, at=(13, 0), loc="Café Extrablatt")
G("Anruf Versicherung gegen 10", "Anruf Versicherung", DAYT, at=(10, 0))
G("Grillabend bei Tim Sa ab 18 Uhr", "Grillabend bei Tim", SAT, at=(18, 0))
G("Arzttermin nächsten Dienstag 8:15", "Arzttermin", TUE_N, at=(8, 15))
G("Spätschicht Mo-Fr 14-22 Uhr", "Spätschicht", ["2026-03-10", "2026-12-07", "2027-01-01"], at=(14, 0), to=(22, 0), rr=[WD])
G("Nachtdienst Samstag 22 bis 6 Uhr", "Nachtdienst", SAT, at=(22, 0), to=(6, 0), next_day_end=True)
G("Schwimmkurs Emma 10x samstags 9 Uhr", "Schwimmkurs Emma", SAT, at=(9, 0), rr=["RRULE:FREQ=WEEKLY;BYDAY=SA;COUNT=10"])
G("Müll rausstellen jeden 2. Dienstag", "Müll rausstellen", TUE, rr=["RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU"])
G("Meeting mit NY 15 Uhr New Yorker Zeit morgen", "Meeting mit NY", TMRW, at=(15, 0), zone="America/New_York")
G("Call mit Kunde 18 Uhr MEZ Do", "Call mit Kunde", THU, at=(18, 0))
G("Online-Seminar 10:00 UTC am 14.1.2027", "Online-Seminar", ["2027-01-14"] * 3, at=(10, 0), zone="UTC")
G("Kundentermin um 11 oder 12", "", R("conflict"))
G("Ausflug irgendwann nächste Woche", "", R("vagueDate"))
G("Treffen am 30. Februar", "", R("invalidDate"))
G("Brötchen holen beim Bäcker", "", R("nothingToSchedule"))
G("morgen um 9", "", R("missingTitle"))
G("Frühstück morgen früh 19 Uhr", "", R("conflict"))
G("Präsentation vorbereiten bis Do 12 Uhr", "Präsentation vorbereiten", THU, at=(12, 0))
G("Heizungsableser kommt zw. 8 und 12 Uhr am Mo", "Heizungsableser kommt", MON, at=(8, 0), to=(12, 0))
G("Weihnachtsmarkt mit Kollegen Do 18 Uhr", "Weihnachtsmarkt mit Kollegen", THU, at=(18, 0))
G("Silvesterparty bei Anna ab 20 Uhr", "Silvesterparty bei Anna", ["2026-12-31"] * 3, at=(20, 0), past=PAST2)
G("Neujahrsspaziergang 1.1. 14 Uhr", "Neujahrsspaziergang", ["2027-01-01"] * 3, at=(14, 0))
G("Reifenwechsel Werkstatt Müller 7:30 Sa", "Reifenwechsel Werkstatt Müller", SAT, at=(7, 30))
G("Kinderarzt U7 Untersuchung Mi 10:40", "Kinderarzt U7 Untersuchung", WED, at=(10, 40))
G("Handwerker kommt Di zwischen 7 und 9", "Handwerker kommt", TUE_N, at=(7, 0), to=(9, 0))
G("Abendessen bei Schmidts um acht", "Abendessen bei Schmidts", LATE, at=(20, 0))
G("Probe Chor dienstags 19:30 ab 17.3.", "Probe Chor", ["2026-03-17", "2027-03-23", "2027-03-23"], at=(19, 30), rr=["RRULE:FREQ=WEEKLY;BYDAY=TU"])
G("Ferienbetreuung 30.3.-3.4.", "Ferienbetreuung", ["2026-03-30", "2027-03-30", "2027-03-30"], last=["2026-04-03", "2027-04-03", "2027-04-03"])
G("Urlaub Mallorca 12. bis 26. Juli", "Urlaub Mallorca", ["2026-07-12", "2027-07-12", "2027-07-12"], last=["2026-07-26", "2027-07-26", "2027-07-26"])
G("Klassenfahrt 7b nach Rügen vom 4. bis 8. Mai", "Klassenfahrt 7b nach Rügen", ["2026-05-04", "2027-05-04", "2027-05-04"], last=["2026-05-08", "2027-05-08", "2027-05-08"])
G("Bewerbungsgespräch bei Siemens 10:30 am 15.12.", "Bewerbungsgespräch bei Siemens", ["2026-12-15", "2026-12-15", "2027-12-15"], at=(10, 30))
G("Stammtisch jeden letzten Freitag im Monat", "Stammtisch", ["2026-03-27", "2026-12-25", "2027-01-29"], rr=["RRULE:FREQ=MONTHLY;BYDAY=-1FR"])
G("Blutabnahme nüchtern 7:45 morgen", "Blutabnahme nüchtern", TMRW, at=(7, 45))
G("Krankengymnastik 8 mal freitags 16:30", "Krankengymnastik", FRI_P, at=(16, 30), rr=["RRULE:FREQ=WEEKLY;BYDAY=FR;COUNT=8"])
G("Zeugnisausgabe 31.7. 3. Stunde", "Zeugnisausgabe 3. Stunde", ["2026-07-31", "2027-07-31", "2027-07-31"])
G("Server-Update auf Version 2.3 am Sa um 22 Uhr", "Server-Update auf Version 2.3", SAT, at=(22, 0))
G("Raum 1.14 reserviert Mi 13-15 Uhr", "Raum 1.14 reserviert", WED, at=(13, 0), to=(15, 0))
G("Paket DHL Sendung 00340434 abholen bis Samstag", "Paket DHL Sendung 00340434 abholen", SAT)
G("Konzert Philharmonie 15. Dezember 20 Uhr", "Konzert Philharmonie", ["2026-12-15", "2026-12-15", "2027-12-15"], at=(20, 0))
G("Tanzkurs donnerstags von 20 bis 21:30 Uhr für 10 Wochen", "Tanzkurs", THU, at=(20, 0), to=(21, 30),
  rrs=[["RRULE:FREQ=WEEKLY;BYDAY=TH;UNTIL=20260520T215959Z"], ["RRULE:FREQ=WEEKLY;BYDAY=TH;UNTIL=20270217T225959Z"],
       ["RRULE:FREQ=WEEKLY;BYDAY=TH;UNTIL=20270317T225959Z"]])
G("Wohnungsbesichtigung Fr., 8.1. 17 Uhr", "Wohnungsbesichtigung", ["2027-01-08"] * 3, at=(17, 0))
G("Mittagspause mit Caro 12-13 Uhr morgen", "Mittagspause mit Caro", TMRW, at=(12, 0), to=(13, 0))
G("Laufen gehen so gegen 7 heute abend", "Laufen gehen", TODAY, at=(19, 0), past=PAST2)
G("Telko um 14h mit Team Paris", "Telko mit Team Paris", DAYT, at=(14, 0))
G("Vorlesung Mathe II Mo/Mi 8:15-9:45", "Vorlesung Mathe II", ["2026-03-11", "2026-12-07", "2027-01-04"], at=(8, 15), to=(9, 45),
  rr=["RRULE:FREQ=WEEKLY;BYDAY=MO,WE"])
G("Klausur Statistik am 2. Februar 9 Uhr im Audimax", "Klausur Statistik", ["2027-02-02"] * 3, at=(9, 0), loc="Audimax")
G("Auto in die Werkstatt Montag früh", "Auto in die Werkstatt", MON, at=(8, 0))
G("Zahnreinigung in drei Wochen", "Zahnreinigung", ["2026-03-31", "2026-12-25", "2027-01-21"])
G("Impftermin in 2 Wochen um 9:20", "Impftermin", ["2026-03-24", "2026-12-18", "2027-01-14"], at=(9, 20))
G("Nachbarschaftsfest Sonntag ab 15 Uhr", "Nachbarschaftsfest", SUN, at=(15, 0))
G("Hochzeit von Lisa und Ben 5. Juni 2027", "Hochzeit von Lisa und Ben", ["2027-06-05"] * 3)
G("Jahresgespräch mit Chef Freitag nachmittag", "Jahresgespräch mit Chef", FRI_P, at=(15, 0))
G("Muttertagsbrunch bei Oma 11 Uhr", "Muttertagsbrunch bei Oma", ["2026-05-10", "2027-05-09", "2027-05-09"], at=(11, 0))
G("Nikolaus-Feier im Kindergarten 16 Uhr", "", R("vagueDate"))
G("Laternenumzug Kita 11.11. 17 Uhr", "Laternenumzug Kita", ["2026-11-11", "2027-11-11", "2027-11-11"], at=(17, 0))
G("Heiligabend Gottesdienst 16:30", "Heiligabend Gottesdienst", ["2026-12-24", "2026-12-24", "2027-12-24"], at=(16, 30))
G("Weinprobe ca. 19 Uhr Sa., 9. Januar", "Weinprobe", ["2027-01-09"] * 3, at=(19, 0))
G("Lieferung Sofa KW 12", "", R("nothingToSchedule|vagueDate"))
G("Essen gehen mit Kollegen Do um 12:30", "Essen gehen mit Kollegen", THU, at=(12, 30))
G("Frühschicht ab Montag täglich 6-14 Uhr", "Frühschicht", MON, at=(6, 0), to=(14, 0), rr=["RRULE:FREQ=DAILY"])
G("Gitarrenunterricht alle 2 Wochen Mi 17 Uhr bis 1.7.", "Gitarrenunterricht", WED, at=(17, 0),
  rrs=[["RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=WE;UNTIL=20260701T215959Z"], ["RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=WE;UNTIL=20270701T215959Z"],
       ["RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=WE;UNTIL=20270701T215959Z"]])
G("Rückruf Hr. Meier 0171 2345678 um 15 Uhr", "Rückruf Hr. Meier 0171 2345678", DAYT, at=(15, 0))
G("Abholung Kinder 12 Uhr 30 Schule", "Abholung Kinder Schule", DAYT, at=(12, 30))
G("Wochenmarkt samstags 8-13 Uhr", "Wochenmarkt", SAT, at=(8, 0), to=(13, 0), rr=["RRULE:FREQ=WEEKLY;BYDAY=SA"])
G("Trainingslager 2.-5. April", "Trainingslager", ["2026-04-02", "2027-04-02", "2027-04-02"], last=["2026-04-05", "2027-04-05", "2027-04-05"])
G("Betriebsversammlung dreiviertel 9 am Donnerstag", "Betriebsversammlung", THU, at=(8, 45))
G("Rasen mähen kommenden Samstag vormittags", "Rasen mähen", SAT, at=(10, 0))
G("Mietzahlung monatlich am 3.", "Mietzahlung", ["2026-04-03", "2027-01-03", "2027-01-03"], rr=["RRULE:FREQ=MONTHLY;BYMONTHDAY=3"])
G("Bürgeramt Termin Mi 9.40 Uhr", "Bürgeramt Termin", WED, at=(9, 40))
G("Oma vom Bahnhof abholen um viertel nach 5", "Oma vom Bahnhof abholen", DAYT, at=(17, 15))
G("Party bei Max Fr 21 Uhr bis 3 Uhr", "Party bei Max", FRI, at=(21, 0), to=(3, 0), next_day_end=True)
G("Geburtstagsfeier Paul (wird 40) am 20.3.", "Geburtstagsfeier Paul (wird 40)", ["2026-03-20", "2027-03-20", "2027-03-20"])
G("Zahnarzt letzten Montag", "Zahnarzt", ["2026-03-09", "2026-11-30", "2026-12-28"], past=(True, True, True))
G("Reise nach Wien übernächsten Freitag", "Reise nach Wien", ["2026-03-20", "2026-12-18", "2027-01-08"])
G("Besprechung 10-11:30 Uhr Raum B 204 übermorgen", "Besprechung Raum B 204", ["2026-03-12", "2026-12-06", "2027-01-02"], at=(10, 0), to=(11, 30))
G("Fahrradtour am Tag der Arbeit", "Fahrradtour", ["2026-05-01", "2027-05-01", "2027-05-01"])
G("Kaffee mit Sven um 3 im Einstein", "Kaffee mit Sven", DAYT, at=(15, 0), loc="Einstein")
G("Spieleabend Fr. 19.30 Uhr", "Spieleabend", FRI, at=(19, 30))
G("Vortrag 17 Uhr MESZ 20.6.", "Vortrag", ["2026-06-20", "2027-06-20", "2027-06-20"], at=(17, 0))
G("Brunch Sonntagvormittag bei Jule", "Brunch bei Jule", SUN, at=(10, 0))
G("Tatort gucken So 20:15", "Tatort gucken", SUN, at=(20, 15))
G("Arbeitsamt morgen in der Früh", "Arbeitsamt", TMRW, at=(8, 0))
G("Kino mit den Jungs freitagabend", "Kino mit den Jungs", FRI, at=(19, 0))
G("Treffen mit Ali um viertel vor 7 abends", "Treffen mit Ali", LATE, at=(18, 45))
G("Ostern bei den Eltern", "", R("nothingToSchedule|vagueDate"))
G("Umbau Küche Ende August", "", R("vagueDate"))
G("Training um 24:30", "", R("invalidTime"))
G("Seminar 20.-18. Mai", "", R("invalidRange"))
G("Schichtwechsel Sa 5:45", "Schichtwechsel", SAT, at=(5, 45))
G("Elterngespräch Frau Yilmaz Mo 15.30 Uhr", "Elterngespräch Frau Yilmaz", MON, at=(15, 30))
G("Laufgruppe jeden Sonntagmorgen im Stadtpark", "Laufgruppe", SUN, at=(9, 0), loc="Stadtpark", rr=["RRULE:FREQ=WEEKLY;BYDAY=SU"])
G("Miete überweisen bis zum 3.", "Miete überweisen", ["2026-04-03", "2027-01-03", "2027-01-03"])
G("Hundeschule mit Bello samstags 10-11 Uhr für 6 Wochen", "Hundeschule mit Bello", SAT, at=(10, 0), to=(11, 0),
  rrs=[["RRULE:FREQ=WEEKLY;BYDAY=SA;UNTIL=20260424T215959Z"], ["RRULE:FREQ=WEEKLY;BYDAY=SA;UNTIL=20270115T225959Z"],
       ["RRULE:FREQ=WEEKLY;BYDAY=SA;UNTIL=20270212T225959Z"]])
G("Frisör Termin Dienstag, 16. März 2027 um 9", "Frisör Termin", ["2027-03-16"] * 3, at=(9, 0))
G("Sommerfest Firma 3.7. 16-23 Uhr", "Sommerfest Firma", ["2026-07-03", "2027-07-03", "2027-07-03"], at=(16, 0), to=(23, 0))
G("Chorprobe heute 19h30", "Chorprobe", TODAY, at=(19, 30), past=PAST2)
G("Notartermin Kaufvertrag 9 Uhr 15 am 22.1.", "Notartermin Kaufvertrag", ["2027-01-22"] * 3, at=(9, 15))
G("Mathe-Nachhilfe Lukas Mo+Do 16 Uhr", "Mathe-Nachhilfe Lukas", ["2026-03-12", "2026-12-07", "2027-01-04"], at=(16, 0),
  rr=["RRULE:FREQ=WEEKLY;BYDAY=MO,TH"])
G("Zugfahrt Berlin-München 12.2. 7:04 ab Hbf", "Zugfahrt Berlin-München ab Hbf", ["2027-02-12"] * 3, at=(7, 4))
G("Kaffeeklatsch bei Tante Gerda übermorgen nachmittags", "Kaffeeklatsch bei Tante Gerda", ["2026-03-12", "2026-12-06", "2027-01-02"], at=(15, 0))

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "dev-doubts-3.jsonl"), "w", encoding="utf-8") as f:
    for line in OUT:
        f.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")
print(len(OUT), "phrase-moments written")
