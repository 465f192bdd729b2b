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


def P(file, lang, text, title, days, at=None, to=None, dur=60, next_day_end=False, loc=None, rr=(), past=(False, False, False), zone=None, last=None, exact=None, rrs=None):
    """days: one hand-written date per moment (or "reject:CODE"); at: (h, m) or None for all day; to: wall
    end; last: the last day of an all-day range, per moment; exact: a start time per moment (relative hours);
    rrs: the RRULE lines per moment, when they differ (an UNTIL counted from the first occurrence)."""
    user_zone = MOMENTS[lang][0]
    zone = zone or user_zone
    for i, day in enumerate(days):
        line = {"text": text, "now": now_text(lang, i), "tz": user_zone, "lang": lang, "moment": i}
        moment_at = exact[i] if exact else at
        if rrs:
            rr = rrs[i]
        if day.startswith("reject:"):
            line["reject"] = day[7:]
        elif moment_at is None:
            after = dt.date.fromisoformat(last[i] if last else day) + dt.timedelta(days=1)
            line["expect"] = {"title": title, "start": day, "end": after.isoformat(), "allDay": True, "timeZone": zone,
                              "location": loc, "recurrence": list(rr), "past": past[i]}
        else:
            start = iso(day, moment_at, zone)
            if to is not None:
                end_day = (dt.date.fromisoformat(day) + dt.timedelta(days=1)).isoformat() if next_day_end else day
                end = iso(end_day, to, zone)
            else:
                end = (dt.datetime.fromisoformat(start) + dt.timedelta(minutes=dur)).isoformat()
            line["expect"] = {"title": title, "start": start, "end": end, "allDay": False, "timeZone": zone,
                              "location": loc, "recurrence": list(rr), "past": past[i]}
        if file != "heldout" and ctparse_review(text):
            line["ctparse"] = ctparse_review(text)
        OUT.setdefault(file, []).append(line)


def E(*args, **kw): P("moments-en", "en", *args, **kw)
def G(*args, **kw): P("moments-de", "de", *args, **kw)
def HE(*args, **kw): P("heldout", "en", *args, **kw)
def HG(*args, **kw): P("heldout", "de", *args, **kw)


# Reviewed disagreements with ctparse (QuickAddCtparseTests): who read the date and time as meant, and why.
CT_REASONS = {
    "hour": "calbridge: ctparse reads a bare hour as a.m.; meant is the hour the clock rule gives (a range read from its start, the kind of event, 1-6 in the afternoon)",
    "part": "calbridge: ctparse keeps only the date of a part of the day or named time (morning 09:00, afternoon 15:00, evening 19:00, noon 12:00, früh 08:00); meant is that time",
    "relative": "calbridge: ctparse does not read 'in N days/weeks/months' (or reads it as a time); meant is today plus that amount",
    "next": "calbridge: ctparse takes 'next Monday' as the Monday of next week; meant (documented) is the first Monday after today",
    "repeat": "calbridge: ctparse reads no repeat rule; meant is the rule's first occurrence that has not passed",
    "today": "calbridge: the weekday is today and its time (or the whole day) is still ahead, so it is today; ctparse moves it a week on",
    "passed": "calbridge: the time has passed today, so the next such day is meant; ctparse keeps a day whose time is over",
    "duration": "calbridge: ctparse ignores the duration and reads only the start; meant is start plus the duration",
    "title": "calbridge: ctparse reads a number of the title (a count, version, room, code or name) as a date or time",
    "numeric": "calbridge: a numeric date is month/day in en_US (written order, year included); ctparse reads another order or a time range",
    "none": "calbridge: ctparse finds no date or time in this wording",
    "rangestart": "calbridge: a range's start takes the end's am/pm or the end's Uhr (3-4pm is 15:00-16:00); ctparse reads the start alone",
    "deadline": "calbridge: a deadline ('by', 'bis', 'spätestens') is that day; ctparse reads an open range with no start",
    "dayafter": "calbridge: ctparse reads 'day after tomorrow' as tomorrow",
    "weekday": "calbridge: ctparse misreads an abbreviated weekday, or a number next to it, as a date",
    "past": "calbridge: a date with its year is kept as written (and flagged past); ctparse moves it",
    "rangeend": "calbridge: ctparse reads only the end of a clock range ('10-11am' as 11:00); meant is the range from its start",
}
CT_REVIEW = {
    "hour": ["Call at 4:30", "Dinner at 8", "Workshop from 9 to 5 Thursday", "Workshop 11-1 tomorrow", "Lunch with Ben at 1",
             "Drinks at 9", "Office hours 2:00-4:00 Thursday", "Presentation Thursday from 3:30 to 4:15pm", "Vet appointment today at 4",
             "Nap at 2", "Anruf um 4", "Lunch with Ann 12:30-1:30 tomorrow", "Planning session from 10 to 12 Monday",
             "Abendessen um 7", "Mittagessen mit Ben um 1", "Dinner at 7 with Jen Friday", "Seminar 1-3 Wednesday"],
    "part": ["Call Mom tomorrow morning", "Drinks tonight", "Coffee with Jo this afternoon", "Stretching in the evening",
             "Meet at Starbucks tomorrow morning", "Meeting at noon", "Call the school at 8:45 tomorrow morning",
             "Call Rachel in the afternoon tomorrow", "Write blog post tomorrow afternoon", "Walk the dog this evening",
             "Dinner party Saturday evening", "Morning run tomorrow", "Evening walk Friday", "Team lunch tomorrow at lunchtime",
             "Movie with kids Sunday afternoon", "Laundry this afternoon", "Finish slides by noon tomorrow", "Joggen Montag vormittags",
             "Rückruf Rachel morgen Nachmittag", "Blogartikel schreiben morgen nachmittags", "Mit dem Hund raus heute Abend",
             "Spaziergang Freitag abends", "Teamessen morgen mittags", "Wäsche heute Nachmittag", "Bericht abschließen Donnerstag bis Feierabend",
             "Sport morgen Abend", "Einkaufen Samstag vormittags", "Lesen heute Nacht", "Arzt heute früh", "Lunch @ Chipotle Friday noon",
             "Parents' night Thursday 6:30pm", "Game night Saturday 7pm", "Elternabend Mittwoch 19:30", "Filmabend Samstag 19 Uhr",
             "Hackathon Saturday 9am-9pm", "Wrap up report by EOD Thursday", "Folien fertig bis morgen Mittag"],
    "relative": ["Vet in 3 days 10am", "Dentist in a week", "Follow up in 10 days", "Review contract in 3 weeks", "Renew lease in 6 months",
                 "Call in 2 days at 10am", "Zahnarzt in einer Woche", "Nachfassen in 10 Tagen", "Vertrag prüfen in 3 Wochen",
                 "Mietvertrag verlängern in 6 Monaten", "Anruf in 2 Tagen um 10 Uhr"],
    "next": ["Review next Monday 10am", "Team offsite next Monday", "Grant application due next Monday", "Anruf nächsten Dienstag 11 Uhr",
             "Teamausflug nächsten Montag", "Förderantrag bis nächsten Montag"],
    "repeat": ["Standup every weekday 9:30", "Gym every Monday 6pm", "Yoga every Tue and Thu 7am", "Team lunch every Friday at noon",
               "Piano lesson every Wednesday 4pm", "Swim every Mon, Wed and Fri at 7am", "Timesheet every Friday at 4pm until Jan 29",
               "Gym Mondays and Thursdays 6pm", "Physio every Tuesday 10am 6 times", "Water the garden every 2 days at 7pm", "Standup weekdays 9:15",
               "Standup 10am ET every weekday", "Standup 10 Uhr MEZ jeden Werktag", "Schwimmen jeden Montag, Mittwoch und Freitag um 7 Uhr",
               "Fitness montags und donnerstags 18 Uhr", "Newsletter jeden zweiten Montag", "Standup werktags 9:15", "Check-in weekly on Tuesday 11am",
               "Jour fixe wöchentlich am Dienstag 11 Uhr", "Physiotherapie jeden Dienstag 10 Uhr 6 mal", "Yoga dienstags 18 Uhr"],
    "today": ["Submit report by Friday", "Holiday all day Friday", "Night shift Friday 10pm-6am", "Deadline 11:59pm Friday", "Late dinner 9:30pm Friday",
              "Payday Friday", "Garbage day Thursday", "Monthly report Tuesday", "Soccer practice at Lincoln Park 5:30pm Tuesday",
              "Nachtschicht Freitag 22-6 Uhr", "Abgabe Freitag 23:59", "Zahltag Freitag", "Müllabfuhr Donnerstag", "Monatsbericht Dienstag",
              "Fußballtraining im Stadtpark Dienstag 17:30"],
    "passed": ["Meeting 2pm for 90 min Friday"],
    "duration": ["Call at 4pm for 30 minutes", "Workshop Friday 1pm 2h", "Meditation 7am for 20 min", "Training Monday 10am for 1h30",
                 "Telefonat um 16 Uhr für 30 Minuten", "Workshop Freitag 13 Uhr 2 Std.", "Meditation 7 Uhr für 20 Minuten",
                 "Schulung Montag 10 Uhr für eine halbe Stunde"],
    "title": ["Book 2 tickets for the concert Friday", "Slurpee at 7-Eleven tomorrow 3pm", "Upgrade to iOS 18.2 Tuesday", "Order 4 chairs for the office Monday",
              "Meet at Gate B12 Friday 7am", "Pick up 3 boxes at 7-Eleven Sunday", "Watch Apollo 13 tonight", "Update auf iOS 18.2 Dienstag",
              "Treffpunkt Gate B12 Freitag 7 Uhr", "Room 101 booking Thursday 2-3pm", "Kinder abholen um 3", "Pick up Sam from school at 3"],
    "numeric": ["Mortgage payment 4/1", "Car inspection 12/15", "Dentist 1/7/2027 9am", "Dentist 10/3 at 2pm"],
    "rangestart": ["Interview 3-4pm Monday", "Conference call 8:30-9:30am tomorrow", "Tennis 5-6:30pm Wednesday", "Workshop 11-13 Uhr morgen",
                   "Planung von 10 bis 12 Uhr Montag", "Flight 6:05 a.m. Monday"],
    "deadline": ["Bericht bis Freitag", "Steuererklärung bis 31. Juli", "Bücher zurückgeben bis Samstag", "Anmeldung spätestens am 15. Januar"],
    "dayafter": ["Cleaning day after tomorrow"],
    "weekday": ["Flight Thu 6am"],
    "past": ["Umzug Samstag, 14. März 2026"],
}
# The third English batch's disagreements, reviewed one by one (ctparse's reading against the label).
for _kind, _texts in {
    "hour": ["Call 4:45-5:15 tomorrow", "Review from 2 to 4 tomorrow", "Meeting at 1:30 tomorrow", "Dinner Friday at 7:30"],
    "part": ["Call Sunday evening", "Lunch with Priya tomorrow at noon", "Picnic Saturday noon", "Lunch 12 noon Monday", "Movie tomorrow night"],
    "relative": ["Follow up with client in 2 weeks", "Check on plants in 2 weeks at 9am", "Dentist cleaning in 6 weeks", "Renew passport in 1 month", "Oil change in 3 months"],
    "next": ["Dentist next Tuesday 2pm", "Lunch next Thursday", "Game next Sunday 1pm", "Offsite next Friday"],
    "today": ["Review 2026 budget Thursday", "Dinner at Nobu Friday 8pm", "Parent-teacher conference at Lincoln Elementary Tuesday 3:15pm", "Drinks at Pier 39 Friday 7pm"],
    "duration": ["Run 5k tomorrow 7am for 45 min", "Call with Ana Friday 11am 30 min"],
    "title": ["Migrate to Node 20 Tuesday"],
    "weekday": ["Meeting Thurs 10am", "Call Tues at 2pm", "Dentist Weds 9am"],
    "none": ["Yoga at the gym 6pm"],
    "rangeend": ["Meeting 10-11am Friday", "Doctor 9:30-10 tomorrow", "Sprint review 3:30-4:30pm Thursday", "Volunteer shift 8am-12pm Saturday", "Babysitter 7pm to 11pm Saturday", "Brunch 11am-1pm Sunday", "Shift 7am-3pm Sunday", "Focus block 1-4pm Wednesday"],
}.items():
    CT_REVIEW.setdefault(_kind, []).extend(_texts)
# The fourth batch's disagreements, reviewed one by one (ctparse's reading against the label).
CT_REASONS.update({
    "clockphrase": "calbridge: ctparse reads 'half past 4', 'halb 8', 'viertel nach 3' on the a.m. clock ('halb 1' as 00:30); meant is the hour by the bare-hour rule (or the kind of event)",
    "letter": "calbridge: ctparse misses am/pm written as one letter ('3p', '9:30a') and keeps only the date",
    "zoneword": "calbridge: ctparse keeps only the date when a zone word or a place follows the time ('3pm Eastern', '16 Uhr deutscher Zeit', '1pm Central Park')",
    "compound": "calbridge: ctparse does not read a weekday joined to a part of the day ('Saturday night', 'Freitagabend', 'Samstag Nacht') and keeps only the date",
    "nth": "calbridge: ctparse does not read 'the first/last <weekday> of the month' ('im Monat') and takes the next such weekday",
    "week": "calbridge: 'Tuesday next week' is the Tuesday of the next calendar week (Monday to Sunday), 'this week' this week's; ctparse counts from today",
    "half": "calbridge: ctparse does not read 'an hour and a half', 'half an hour', 'anderthalb Stunden' or 'in N minutes' as meant",
    "rangeyear": "calbridge: ctparse misreads a range of days followed by its year or written in numbers ('Mar 3-5, 2027', '12/20-12/27')",
    "uhrminutes": "calbridge: ctparse reads '9 Uhr 30' as the 30th; meant is 09:30",
})
for _kind, _texts in {
    "clockphrase": ["Call Dad at half past 4 tomorrow", "Dinner at half past 7 Saturday", "Abendessen um halb 8 Samstag",
                    "Anruf morgen um viertel nach 3", "Bus um halb 1"],
    "letter": ["Dentist 3p Thursday", "Standup 9:30a tomorrow", "Pickup at 5p Friday"],
    "zoneword": ["Picnic 1pm Central Park Saturday", "Videocall 16 Uhr deutscher Zeit Montag"],
    "today": ["Pick up Jo at about 6:30pm Friday", "Drinks Friday night at 9", "Teammeeting 14-tägig dienstags 10 Uhr",
              "Elternabend Dienstagabend 19:30"],
    "title": ["Talk about 2 proposals Monday", "Read chapters 4-6 tonight"],
    "compound": ["Party Saturday night", "Poker next Friday night", "Kino Freitagabend", "Brunch Sonntagvormittag",
                 "Joggen Samstagmorgen um 7", "Lesen Sonntagnachmittag", "Party Samstag Nacht", "Geburtstagsfeier Samstagabend"],
    "repeat": ["Meditate every morning", "Journal every evening", "Take out trash every Sunday night", "Check email every afternoon at 4",
               "Lock the door nightly 10pm", "Physio every Tuesday 10am for 6 weeks", "Water plants every day for 2 weeks",
               "Language class every Monday 6pm for 3 months", "Meditation jeden Morgen", "Müll rausbringen jeden Sonntagabend",
               "Physio jeden Dienstag 10 Uhr für 6 Wochen"],
    "nth": ["Book club first Thursday of every month 7pm", "Team lunch last Friday of every month at noon", "Pay bills monthly on the first Monday",
            "Budget review the last Friday of the month", "Board meeting every third Wednesday of the month 2pm",
            "Submit grades by the last Friday of the month", "Quarterly review on the second Tuesday of the month 10am",
            "Stammtisch jeden ersten Freitag im Monat 19 Uhr", "Sitzung am letzten Freitag im Monat um 15 Uhr"],
    "week": ["Dentist Tuesday next week 2pm", "Interview next week on Thursday at 10am", "Call Sam Wednesday this week",
             "Zahnarzt nächste Woche Dienstag 14 Uhr", "Arzt Donnerstag nächster Woche"],
    "half": ["Lunch tomorrow 12:30 for an hour and a half", "Call back in half an hour", "Check oven in 45 minutes",
             "Workshop Monday 9am for one and a half hours", "Ping Lee in an hour and a half", "Mittagessen morgen 12:30 für anderthalb Stunden",
             "Rückruf in einer halben Stunde", "Nudeln abgießen in 12 Minuten"],
    "rangeyear": ["Conference Mar 3-5, 2027", "Trip 12/20-12/27"],
    "uhrminutes": ["Anruf um 9 Uhr 30 Donnerstag"],
}.items():
    CT_REVIEW.setdefault(_kind, []).extend(_texts)
# The fifth batch's disagreements, reviewed one by one (ctparse's reading against the label).
CT_REASONS["holiday"] = ("calbridge: ctparse does not read a holiday's name (it finds no date, or only the time or the rest); "
                         "meant is the holiday's day in the locale's country")
for _kind, _texts in {
    "holiday": ["Christmas dinner 5pm", "Christmas Day at the Smiths", "New Year's Day brunch 11am", "Independence Day picnic",
                "Thanksgiving at Grandma's", "Halloween trick or treating 6pm", "Christmas Eve service 5pm", "Mother's Day brunch",
                "Father's Day BBQ", "Good Friday service at noon", "MLK Day volunteering", "Veterans Day parade 11am",
                "New Year's Eve countdown", "Family dinner on Christmas Day 2pm", "Heiligabend Bescherung 18 Uhr", "Neujahr Spaziergang",
                "Ostermontag Ausflug", "Pfingstmontag frei", "Tag der Deutschen Einheit Wanderung", "Erster Weihnachtstag Essen 13 Uhr",
                "Zweiter Weihnachtstag Kino", "Christi Himmelfahrt Radtour", "Familienessen am ersten Weihnachtstag 12 Uhr"],
    "repeat": ["10k steps every day"],
    "today": ["Print 4x6 photos Friday"],
    "part": ["Stream 4k movie tonight"],
    "letter": ["Dentist 3p tomorrow"],
    "hour": ["Lunch 12 to 1 Thursday", "Workshop 2 to 5 Saturday"],
}.items():
    CT_REVIEW.setdefault(_kind, []).extend(_texts)
# The sixth batch's disagreements, reviewed one by one: in each calbridge read the label and ctparse did not.
CT_REASONS["weeklist"] = ("calbridge: weekdays joined by a slash, plus or comma are a weekly series; its first occurrence is the first "
                          "of those days whose time has not passed; ctparse reads one or two of the days as a date or a range of dates")
CT_REASONS["compound"] = ("calbridge: a word that starts with a holiday's name (a compound, or joined by a dash) is that holiday's day "
                          "(its night's small hours the next day's); ctparse does not know the holiday and reads the time as today's or a weekday")
for _kind, _texts in {
    "weeklist": ["Soccer practice Mon/Wed 5pm", "Tennis Tue/Thu/Sat 8am", "Office hours Mon, Wed, Fri 2-3pm",
                 "Guitar lesson Mon, Wed and Fri at 4", "Run Tues/Thurs 6:30am", "Brunch Sat/Sun 10am", "Piano Tue, Thu 4:30pm",
                 "Spin class every Mon/Fri 6am", "Volleyball Mo/Do 20 Uhr", "Laufen Di, Do und Sa um 7 Uhr",
                 "Deutschkurs Montag/Mittwoch 18:30", "Lauftreff Mo+Mi 18 Uhr", "Schwimmen Di/Fr 6:45"],
    "repeat": ["Krankengymnastik 6x dienstags 10 Uhr"],
    "compound": ["NYE-party at Sam's 9pm", "Thanksgiving-dinner 4pm", "Silvesterparty um Mitternacht", "Silvesterfeier bei Tom 19 Uhr",
                 "Valentinstagsessen 19:30", "Karfreitagsgottesdienst 10 Uhr", "Silvester-Party bei Lea 21 Uhr"],
}.items():
    CT_REVIEW.setdefault(_kind, []).extend(_texts)
CT_SPECIAL = {
    "Flight 6:05 a.m. Monday": "calbridge: ctparse misses the dotted 'a.m.' and reads 6:05 as 18:05",
    "Kinder abholen um 3": CT_REASONS["none"] + " ('um 3' is 15:00 by the bare-hour rule)",
    "Pick up Sam from school at 3": CT_REASONS["none"] + " ('at 3' is 15:00 by the bare-hour rule)",
    "Room 101 booking Thursday 2-3pm": CT_REASONS["rangestart"],
    "Meeting 2pm for 90 min Friday": "calbridge: ctparse drops 'Friday' after the duration and reads today 14:00; meant is Friday 14:00-15:30",
    "Dinner at 7 with Jen Friday": "calbridge: ctparse keeps only the date; 'Dinner at 7' is 19:00 by the kind of event",
    "Abendessen um 7": "calbridge: ctparse keeps only the date; 'Abendessen um 7' is 19:00 by the kind of event",
    "Mittagessen mit Ben um 1": "calbridge: ctparse keeps only the date; 'Mittagessen um 1' is 13:00 by the kind of event",
    "Planning session from 10 to 12 Monday": "calbridge: ctparse reads 'from 10 to 12' as the 10th to the 12th; meant is Monday 10:00-12:00",
    "Seminar 1-3 Wednesday": "calbridge: ctparse reads 1-3 as a date; meant is Wednesday 13:00-15:00 (a range of bare hours next to a day)",
    "Lunch 12-1 Friday": "calbridge: ctparse reads 12-1 as a date (January 12); meant is Friday 12:00-13:00 (a range of bare hours next to a day)",
    "Class 6-8pm Tuesday": "calbridge: ctparse reads only the range's end and moves a Tuesday whose time is still ahead a week on; meant is 18:00-20:00 on the next Tuesday, today included",
    "Call this evening at 6": "calbridge: 'this evening' is today even when its time has passed (flagged past); ctparse moves it to tomorrow",
    "Call back in 2 hours": "calbridge: ctparse finds no time in 'in 2 hours'; meant is now plus two hours",
    "Server maintenance tonight at midnight": "calbridge: ctparse reads 'tonight at midnight' as today 12:00; meant is 00:00 after tonight",
    "Call at 7 tonight": "calbridge: ctparse reads '7 tonight' as a date (7 April); meant is today 19:00 (a bare hour in the evening)",
    "Team offsite Monday for 2 days": "calbridge: 'for 2 days' is Monday and Tuesday; ctparse ends the range a day later",
}
def ctparse_review(text):
    if text in CT_SPECIAL:
        return CT_SPECIAL[text]
    for kind, texts in CT_REVIEW.items():
        if text in texts:
            return CT_REASONS[kind]
    return None


WK = "RRULE:FREQ=WEEKLY"
R = ["reject:nothingToSchedule"] * 3
MO, TU, WE, TH, FR, SA, SU = (["2026-03-16", "2026-12-07", "2027-01-04"], ["2026-03-17", "2026-12-08", "2027-01-05"],
                              ["2026-03-11", "2026-12-09", "2027-01-06"], ["2026-03-12", "2026-12-10", "2027-01-07"],
                              ["2026-03-13", "2026-12-11", "2027-01-01"], ["2026-03-14", "2026-12-05", "2027-01-02"],
                              ["2026-03-15", "2026-12-06", "2027-01-03"])
TOMORROW = ["2026-03-11", "2026-12-05", "2027-01-01"]
TODAY = ["2026-03-10", "2026-12-04", "2026-12-31"]
WEEKDAYS = WK + ";BYDAY=MO,TU,WE,TH,FR"
# Days that depend on whether the moment's time of day is already past (m0 Tuesday 09:00, m1 Friday 17:30,
# m2 Thursday 23:30): a Tuesday after 09:00, a Friday after 17:30 or all day, a Thursday all day; a time with
# no date between 09:00 and 17:30, after 17:30, before 09:00.
TU_LATER = ["2026-03-10", "2026-12-08", "2027-01-05"]
FR_LATER = ["2026-03-13", "2026-12-04", "2027-01-01"]
TH_ALLDAY = ["2026-03-12", "2026-12-10", "2026-12-31"]
AT_DAYTIME = ["2026-03-10", "2026-12-05", "2027-01-01"]
AT_EVENING = ["2026-03-10", "2026-12-04", "2027-01-01"]
AT_EARLY = TOMORROW

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

# English, second batch: the kinds of phrases calendar apps' help pages and date parsers' tests show.
# Clock times and ranges.
E("Workshop 11-1 tomorrow", "Workshop", TOMORROW, at=(11, 0), to=(13, 0))
E("Standup 9:15am", "Standup", AT_DAYTIME, at=(9, 15))
E("Call Dad at 6pm", "Call Dad", AT_EVENING, at=(18, 0))
E("Meeting at 10:00", "Meeting", AT_DAYTIME, at=(10, 0))
E("Appointment 14:30 Thursday", "Appointment", TH, at=(14, 30))
E("Interview 3-4pm Monday", "Interview", MO, at=(15, 0), to=(16, 0))
E("Seminar 1-3 Wednesday", "Seminar", WE, at=(13, 0), to=(15, 0))
E("Team dinner 7:30pm Saturday", "Team dinner", SA, at=(19, 30))
E("Coffee 10.30am tomorrow", "Coffee", TOMORROW, at=(10, 30))
E("Call at 4pm for 30 minutes", "Call", AT_DAYTIME, at=(16, 0), dur=30)
E("Meeting 2pm for 90 min Friday", "Meeting", FR, at=(14, 0), dur=90)
E("Hackathon Saturday 9am-9pm", "Hackathon", SA, at=(9, 0), to=(21, 0))
E("Night shift Friday 10pm-6am", "Night shift", FR_LATER, at=(22, 0), to=(6, 0), next_day_end=True)
E("Lunch with Ben at 1", "Lunch with Ben", AT_DAYTIME, at=(13, 0))
E("Pick up Sam from school at 3", "Pick up Sam from school", AT_DAYTIME, at=(15, 0))
E("Call at 11", "Call", AT_DAYTIME, at=(11, 0))
E("Drinks at 9", "Drinks", AT_EVENING, at=(21, 0))
E("Breakfast with Kim at 8 tomorrow", "Breakfast with Kim", TOMORROW, at=(8, 0))
E("Meeting at noon", "Meeting", AT_DAYTIME, at=(12, 0))
E("Launch at midnight", "Launch", TOMORROW, at=(0, 0))
E("Deadline 11:59pm Friday", "Deadline", FR_LATER, at=(23, 59))
E("Check-in 3 pm Saturday", "Check-in", SA, at=(15, 0))
E("Flight 6:05 a.m. Monday", "Flight", MO, at=(6, 5))
E("Conference call 8:30-9:30am tomorrow", "Conference call", TOMORROW, at=(8, 30), to=(9, 30))
E("Office hours 2:00-4:00 Thursday", "Office hours", TH, at=(14, 0), to=(16, 0))
E("Dentist at 10 o'clock Friday", "Dentist", FR, at=(10, 0))
E("Tennis 5-6:30pm Wednesday", "Tennis", WE, at=(17, 0), to=(18, 30))
E("Gym 6:30am", "Gym", AT_EARLY, at=(6, 30))
E("Planning session from 10 to 12 Monday", "Planning session", MO, at=(10, 0), to=(12, 0))
E("Presentation Thursday from 3:30 to 4:15pm", "Presentation", TH, at=(15, 30), to=(16, 15))
E("Lunch and learn Wednesday 12:00-1:00", "Lunch and learn", WE, at=(12, 0), to=(13, 0))
E("Late dinner 9:30pm Friday", "Late dinner", FR_LATER, at=(21, 30))
E("Concert at 8 in the evening Saturday", "Concert", SA, at=(20, 0))
E("Call the school at 8:45 tomorrow morning", "Call the school", TOMORROW, at=(8, 45))
E("Run at 6 in the morning", "Run", AT_EARLY, at=(6, 0))
# Parts of the day.
E("Call Rachel in the afternoon tomorrow", "Call Rachel", TOMORROW, at=(15, 0))
E("Write blog post tomorrow afternoon", "Write blog post", TOMORROW, at=(15, 0))
E("Walk the dog this evening", "Walk the dog", TODAY, at=(19, 0), past=(False, False, True))
E("Dinner party Saturday evening", "Dinner party", SA, at=(19, 0))
E("Morning run tomorrow", "Morning run", TOMORROW, at=(9, 0))
E("Evening walk Friday", "Evening walk", FR_LATER, at=(19, 0))
E("Team lunch tomorrow at lunchtime", "Team lunch", TOMORROW, at=(12, 0))
E("Movie with kids Sunday afternoon", "Movie with kids", SU, at=(15, 0))
E("Laundry this afternoon", "Laundry", TODAY, at=(15, 0), past=(False, True, True))
E("Finish slides by noon tomorrow", "Finish slides", TOMORROW, at=(12, 0))
E("Wrap up report by EOD Thursday", "Wrap up report", TH, at=(17, 0))
# Zones.
E("Call with Tokyo team 9am JST Wednesday", "Call with Tokyo team", WE, at=(9, 0), zone="Asia/Tokyo")
E("Sync with London 4pm GMT tomorrow", "Sync with London", TOMORROW, at=(16, 0), zone="UTC")
E("Standup 10am ET every weekday", "Standup", ["2026-03-10", "2026-12-07", "2027-01-01"], at=(10, 0), rr=[WEEKDAYS])
E("Call Sydney office 5pm Australia/Sydney Monday", "Call Sydney office", MO, at=(17, 0), zone="Australia/Sydney")
E("Demo 1pm CET Thursday", "Demo", TH, at=(13, 0), zone="Europe/Berlin")
# Dates.
E("Jury duty March 23", "Jury duty", ["2026-03-23", "2027-03-23", "2027-03-23"])
E("Sam's graduation May 16th", "Sam's graduation", ["2026-05-16", "2027-05-16", "2027-05-16"])
E("Mortgage payment 4/1", "Mortgage payment", ["2026-04-01", "2027-04-01", "2027-04-01"])
E("Car inspection 12/15", "Car inspection", ["2026-12-15", "2026-12-15", "2027-12-15"])
E("Dentist 1/7/2027 9am", "Dentist", ["2027-01-07"] * 3, at=(9, 0))
E("Bake sale the 28th", "Bake sale", ["2026-03-28", "2026-12-28", "2027-01-28"])
E("Recital on the 3rd at 6pm", "Recital", ["2026-04-03", "2027-01-03", "2027-01-03"], at=(18, 0))
E("Housewarming December 19th 6pm", "Housewarming", ["2026-12-19", "2026-12-19", "2027-12-19"], at=(18, 0))
E("Visit grandparents 15 January", "Visit grandparents", ["2027-01-15"] * 3)
E("Annual checkup 2027-04-07 10:00", "Annual checkup", ["2027-04-07"] * 3, at=(10, 0))
E("Moving day Saturday, March 14 2026", "Moving day", ["2026-03-14"] * 3, past=(False, True, True))
E("Conference Oct 5-7", "Conference", ["2026-10-05", "2027-10-05", "2027-10-05"], last=["2026-10-07", "2027-10-07", "2027-10-07"])
E("Festival from June 20 to June 22", "Festival", ["2026-06-20", "2027-06-20", "2027-06-20"], last=["2026-06-22", "2027-06-22", "2027-06-22"])
E("Out of office Monday to Wednesday", "Out of office", MO, last=["2026-03-18", "2026-12-09", "2027-01-06"])
E("Offsite Dec 10-11", "Offsite", ["2026-12-10", "2026-12-10", "2027-12-10"], last=["2026-12-11", "2026-12-11", "2027-12-11"])
E("Dentist in a week", "Dentist", ["2026-03-17", "2026-12-11", "2027-01-07"])
E("Follow up in 10 days", "Follow up", ["2026-03-20", "2026-12-14", "2027-01-10"])
E("Review contract in 3 weeks", "Review contract", ["2026-03-31", "2026-12-25", "2027-01-21"])
E("Renew lease in 6 months", "Renew lease", ["2026-09-10", "2027-06-04", "2027-06-30"])
E("Cleaning day after tomorrow", "Cleaning", ["2026-03-12", "2026-12-06", "2027-01-02"])
E("Payday Friday", "Payday", FR_LATER)
E("Garbage day Thursday", "Garbage day", TH_ALLDAY)
E("Team offsite next Monday", "Team offsite", MO)
E("Dinner Sat 7pm", "Dinner", SA, at=(19, 0))
E("Meeting on Mon at 3pm", "Meeting", MO, at=(15, 0))
E("Flight Thu 6am", "Flight", TH, at=(6, 0))
E("Christmas dinner Dec 25 at 6pm", "Christmas dinner", ["2026-12-25", "2026-12-25", "2027-12-25"], at=(18, 0))
E("Call in 2 days at 10am", "Call", ["2026-03-12", "2026-12-06", "2027-01-02"], at=(10, 0))
E("Meeting tomorrow 3pm", "Meeting", TOMORROW, at=(15, 0))
E("Dentist tmrw 11am", "Dentist", TOMORROW, at=(11, 0))
E("Dentist 10/3 at 2pm", "Dentist", ["2026-10-03", "2027-10-03", "2027-10-03"], at=(14, 0))
E("Reunion Aug 1st, 2027", "Reunion", ["2027-08-01"] * 3)
E("Interview on the 12th at 11am", "Interview", ["2026-03-12", "2026-12-12", "2027-01-12"], at=(11, 0))
E("Appt w/ Dr. Lee 3/18 2:30pm", "Appt w/ Dr. Lee", ["2026-03-18", "2027-03-18", "2027-03-18"], at=(14, 30))
E("Fly to Denver Tuesday 7:15am", "Fly to Denver", TU, at=(7, 15))
E("Pickup groceries today 6pm", "Pickup groceries", TODAY, at=(18, 0), past=(False, False, True))
E("Vet appointment today at 4", "Vet appointment", TODAY, at=(16, 0), past=(False, True, True))
# Deadlines.
E("Finish taxes by April 15", "Finish taxes", ["2026-04-15", "2027-04-15", "2027-04-15"])
E("Submit expenses due Friday 5pm", "Submit expenses", FR, at=(17, 0))
E("Return library books by Saturday", "Return library books", SA)
E("Pay water bill by the 20th", "Pay water bill", ["2026-03-20", "2026-12-20", "2027-01-20"])
E("Grant application due next Monday", "Grant application", MO)
E("Register for marathon no later than Jan 15", "Register for marathon", ["2027-01-15"] * 3)
E("Report due Wed", "Report", WE)
# Words that are not dates.
E("Upgrade to iOS 18.2 Tuesday", "Upgrade to iOS 18.2", TU_LATER)
E("Order 4 chairs for the office Monday", "Order 4 chairs for the office", MO)
E("Meeting in Room 204 tomorrow 10am", "Meeting in Room 204", TOMORROW, at=(10, 0))
E("Fix bug #1234 Wednesday", "Fix bug #1234", WE)
E("Release 3.0 launch Thursday 9am", "Release 3.0 launch", TH, at=(9, 0))
E("Meet at Gate B12 Friday 7am", "Meet", FR, at=(7, 0), loc="Gate B12")
E("Dinner for 6 people Saturday 7pm", "Dinner for 6 people", SA, at=(19, 0))
E("Review Q4 numbers Monday 2pm", "Review Q4 numbers", MO, at=(14, 0))
E("Pick up 3 boxes at 7-Eleven Sunday", "Pick up 3 boxes", SU, loc="7-Eleven")
E("Watch Apollo 13 tonight", "Watch Apollo 13", TODAY, at=(20, 0), past=(False, False, True))
E("Ship v2.4.1 hotfix tomorrow 4pm", "Ship v2.4.1 hotfix", TOMORROW, at=(16, 0))
E("Call 555-0123 tomorrow 10am", "Call 555-0123", TOMORROW, at=(10, 0))
E("Top 10 list review Friday 1pm", "Top 10 list review", FR, at=(13, 0))
E("Book table for 2 at 8pm Saturday", "Book table for 2", SA, at=(20, 0))
E("Parents' night Thursday 6:30pm", "Parents' night", TH, at=(18, 30))
E("Game night Saturday 7pm", "Game night", SA, at=(19, 0))
E("Weekly review Friday 3pm", "Weekly review", FR, at=(15, 0))
E("Monthly report Tuesday", "Monthly report", TU_LATER)
# Repeats.
E("Piano lesson every Wednesday 4pm", "Piano lesson", WE, at=(16, 0), rr=[WK + ";BYDAY=WE"])
E("Take vitamins every day at 8am", "Take vitamins", TOMORROW, at=(8, 0), rr=["RRULE:FREQ=DAILY"])
E("Team retro every 2 weeks on Friday at 2pm", "Team retro", FR, at=(14, 0), rr=[WK + ";INTERVAL=2;BYDAY=FR"])
E("Pay mortgage monthly on the 15th", "Pay mortgage", ["2026-03-15", "2026-12-15", "2027-01-15"], rr=["RRULE:FREQ=MONTHLY;BYMONTHDAY=15"])
E("Mom's birthday every year on Aug 9", "Mom's birthday", ["2026-08-09", "2027-08-09", "2027-08-09"], rr=["RRULE:FREQ=YEARLY"])
E("Swim every Mon, Wed and Fri at 7am", "Swim", ["2026-03-11", "2026-12-07", "2027-01-01"], at=(7, 0), rr=[WK + ";BYDAY=MO,WE,FR"])
E("Standup daily at 9:30am", "Standup", AT_DAYTIME, at=(9, 30), rr=["RRULE:FREQ=DAILY"])
E("Check-in weekly on Tuesday 11am", "Check-in", TU_LATER, at=(11, 0), rr=[WK + ";BYDAY=TU"])
E("Timesheet every Friday at 4pm until Jan 29", "Timesheet", FR, at=(16, 0), rr=[WK + ";BYDAY=FR;UNTIL=20270130T045959Z"])
E("Gym Mondays and Thursdays 6pm", "Gym", ["2026-03-12", "2026-12-07", "2027-01-04"], at=(18, 0), rr=[WK + ";BYDAY=MO,TH"])
E("Newsletter every other Monday", "Newsletter", MO, rr=[WK + ";INTERVAL=2;BYDAY=MO"])
E("Physio every Tuesday 10am 6 times", "Physio", TU_LATER, at=(10, 0), rr=[WK + ";BYDAY=TU;COUNT=6"])
E("Water the garden every 2 days at 7pm", "Water the garden", AT_EVENING, at=(19, 0), rr=["RRULE:FREQ=DAILY;INTERVAL=2"])
E("Quarterly taxes every 3 months on the 15th", "Quarterly taxes", ["2026-03-15", "2026-12-15", "2027-01-15"], rr=["RRULE:FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=15"])
E("Anniversary every year on June 3", "Anniversary", ["2026-06-03", "2027-06-03", "2027-06-03"], rr=["RRULE:FREQ=YEARLY"])
E("Standup weekdays 9:15", "Standup", ["2026-03-10", "2026-12-07", "2027-01-01"], at=(9, 15), rr=[WEEKDAYS])
E("Choir practice Thursdays at 7:30pm", "Choir practice", TH, at=(19, 30), rr=[WK + ";BYDAY=TH"])
# Places.
E("Coffee at Starbucks tomorrow 9am", "Coffee", TOMORROW, at=(9, 0), loc="Starbucks")
E("Lunch @ Chipotle Friday noon", "Lunch", FR, at=(12, 0), loc="Chipotle")
E("Meeting at the library Thursday 4pm", "Meeting", TH, at=(16, 0), loc="the library")
E("Drinks with Alex at The Anchor Saturday 8pm", "Drinks with Alex", SA, at=(20, 0), loc="The Anchor")
E("Soccer practice at Lincoln Park 5:30pm Tuesday", "Soccer practice", TU_LATER, at=(17, 30), loc="Lincoln Park")
E("Interview at Google HQ Monday 11am", "Interview", MO, at=(11, 0), loc="Google HQ")
E("Soccer game Sat 10am at Riverside Field", "Soccer game", SA, at=(10, 0), loc="Riverside Field")
# Durations and all day.
E("Deep work tomorrow 9am for 3 hours", "Deep work", TOMORROW, at=(9, 0), dur=180)
E("Call with vendor Thursday 3pm for 45 minutes", "Call with vendor", TH, at=(15, 0), dur=45)
E("Workshop Friday 1pm 2h", "Workshop", FR, at=(13, 0), dur=120)
E("Meditation 7am for 20 min", "Meditation", AT_EARLY, at=(7, 0), dur=20)
E("Training Monday 10am for 1h30", "Training", MO, at=(10, 0), dur=90)
E("Conference all day Wednesday", "Conference", WE)
E("Off work tomorrow", "Off work", TOMORROW)
E("Company holiday Dec 24", "Company holiday", ["2026-12-24", "2026-12-24", "2027-12-24"])
# Titles with punctuation and abbreviations.
E("Call mom, tomorrow, 6pm", "Call mom", TOMORROW, at=(18, 0))
E("Dr. Smith appointment Monday 9:30am", "Dr. Smith appointment", MO, at=(9, 30))
E("Meet Jo - Thursday 2pm", "Meet Jo", TH, at=(14, 0))
E("Zoom call w/ team @ 11am tomorrow", "Zoom call w/ team", TOMORROW, at=(11, 0))
# Refusals: what cannot be one event, or would be a guess.
E("Meeting Monday Tuesday 10am", "", ["reject:conflict"] * 3)
E("Party April 31", "", ["reject:invalidDate"] * 3)
E("Call at 25:00", "", ["reject:invalidTime"] * 3)
E("Gym 13pm tomorrow", "", ["reject:invalidTime"] * 3)
E("Dinner tomorrow evening 8am", "", ["reject:conflict"] * 3)
E("Remember the milk", "", R)
E("next Friday", "", ["reject:missingTitle"] * 3)
E("Call 2pm Europe/Nowhere", "", ["reject:unknownTimeZone"] * 3)
E("Vacation Dec 16-14", "", ["reject:invalidRange"] * 3)

# English, third batch (written by hand for issue 36's follow-up, not beside the held-out set): titles with
# numbers that look like times or dates, ranges, weekdays with this/next, relative days and hours, the end of the
# month, noon and midnight, places after "at", durations.
# Titles with numbers, versions and date-like tokens.
E("1:1 with Sarah Thursday 3pm", "1:1 with Sarah", TH, at=(15, 0))
E("1:1 with manager tomorrow 10:30", "1:1 with manager", TOMORROW, at=(10, 30))
E("2nd interview Friday 11am", "2nd interview", FR, at=(11, 0))
E("3rd grade play Thursday 6pm", "3rd grade play", TH, at=(18, 0))
E("Review 2026 budget Thursday", "Review 2026 budget", TH_ALLDAY)
E("Form 1040 review Monday", "Form 1040 review", MO)
E("Windows 11 rollout Monday 9am", "Windows 11 rollout", MO, at=(9, 0))
E("Migrate to Node 20 Tuesday", "Migrate to Node 20", TU_LATER)
E("Release v3.1 retro Friday 2pm", "Release v3.1 retro", FR, at=(14, 0))
E("COVID-19 booster Thursday 10am", "COVID-19 booster", TH, at=(10, 0))
E("Flight UA 234 Friday 6:10am", "Flight UA 234", FR, at=(6, 10))
E("Sprint 42 planning Monday 10am", "Sprint 42 planning", MO, at=(10, 0))
E("Run 5k tomorrow 7am for 45 min", "Run 5k", TOMORROW, at=(7, 0), dur=45)
E("Bake 24 cupcakes Saturday", "Bake 24 cupcakes", SA)
E("iPhone 16 launch event Sept 9 10am", "iPhone 16 launch event", ["2026-09-09", "2027-09-09", "2027-09-09"], at=(10, 0))
E("FY2027 kickoff Jan 12 9am", "FY2027 kickoff", ["2027-01-12"] * 3, at=(9, 0))
E("Tax form W-2 deadline Jan 31", "Tax form W-2 deadline", ["2027-01-31"] * 3)
E("Pay 3 invoices tomorrow", "Pay 3 invoices", TOMORROW)
E("Highway 101 drive Saturday 8am", "Highway 101 drive", SA, at=(8, 0))
# Ranges.
E("Meeting 10-11am Friday", "Meeting", FR, at=(10, 0), to=(11, 0))
E("Class 6-8pm Tuesday", "Class", TU_LATER, at=(18, 0), to=(20, 0))
E("Doctor 9:30-10 tomorrow", "Doctor", TOMORROW, at=(9, 30), to=(10, 0))
E("Sprint review 3:30-4:30pm Thursday", "Sprint review", TH, at=(15, 30), to=(16, 30))
E("Volunteer shift 8am-12pm Saturday", "Volunteer shift", SA, at=(8, 0), to=(12, 0))
E("Babysitter 7pm to 11pm Saturday", "Babysitter", SA, at=(19, 0), to=(23, 0))
E("Brunch 11am-1pm Sunday", "Brunch", SU, at=(11, 0), to=(13, 0))
E("Call 4:45-5:15 tomorrow", "Call", TOMORROW, at=(16, 45), to=(17, 15))
E("Standup 9:00 to 9:15 tomorrow", "Standup", TOMORROW, at=(9, 0), to=(9, 15))
E("Lunch 12-1 Friday", "Lunch", FR, at=(12, 0), to=(13, 0))
E("Shift 7am-3pm Sunday", "Shift", SU, at=(7, 0), to=(15, 0))
E("Review from 2 to 4 tomorrow", "Review", TOMORROW, at=(14, 0), to=(16, 0))
E("New Year's party Dec 31 9pm-1am", "New Year's party", ["2026-12-31"] * 3, at=(21, 0), to=(1, 0), next_day_end=True, past=(False, False, True))
E("Meeting 2pm-3pm", "Meeting", AT_DAYTIME, at=(14, 0), to=(15, 0))
E("Focus block 1-4pm Wednesday", "Focus block", WE, at=(13, 0), to=(16, 0))
# Weekdays, this and next.
E("Team sync Wednesday 10am", "Team sync", WE, at=(10, 0))
E("Haircut this Saturday 11am", "Haircut", SA, at=(11, 0))
E("Dentist next Tuesday 2pm", "Dentist", TU, at=(14, 0))
E("Lunch next Thursday", "Lunch", TH)
E("Board meeting this Thursday 4pm", "Board meeting", ["2026-03-12", "2026-12-10", "2026-12-31"], at=(16, 0), past=(False, False, True))
E("Call Sunday evening", "Call", SU, at=(19, 0))
E("Game next Sunday 1pm", "Game", SU, at=(13, 0))
E("Call this evening at 6", "Call", TODAY, at=(18, 0), past=(False, False, True))
E("Meeting Thurs 10am", "Meeting", TH, at=(10, 0))
E("Call Tues at 2pm", "Call", TU_LATER, at=(14, 0))
E("Dentist Weds 9am", "Dentist", WE, at=(9, 0))
E("Offsite next Friday", "Offsite", FR)
E("Book club this Thursday 7pm", "Book club", ["2026-03-12", "2026-12-10", "2026-12-31"], at=(19, 0), past=(False, False, True))
# Relative days and hours, the end of the month.
E("Follow up with client in 2 weeks", "Follow up with client", ["2026-03-24", "2026-12-18", "2027-01-14"])
E("Check on plants in 2 weeks at 9am", "Check on plants", ["2026-03-24", "2026-12-18", "2027-01-14"], at=(9, 0))
E("Dentist cleaning in 6 weeks", "Dentist cleaning", ["2026-04-21", "2027-01-15", "2027-02-11"])
E("Renew passport in 1 month", "Renew passport", ["2026-04-10", "2027-01-04", "2027-01-31"])
E("Oil change in 3 months", "Oil change", ["2026-06-10", "2027-03-04", "2027-03-31"])
E("Call back in 2 hours", "Call back", ["2026-03-10", "2026-12-04", "2027-01-01"], at=None, dur=60, exact=[(11, 0), (19, 30), (1, 30)])
E("Submit timesheet end of month", "Submit timesheet", ["2026-03-31", "2026-12-31", "2026-12-31"])
E("Pay rent by end of month", "Pay rent", ["2026-03-31", "2026-12-31", "2026-12-31"])
E("Quarterly report due end of the month", "Quarterly report", ["2026-03-31", "2026-12-31", "2026-12-31"])
# Noon and midnight.
E("Lunch with Priya tomorrow at noon", "Lunch with Priya", TOMORROW, at=(12, 0))
E("Picnic Saturday noon", "Picnic", SA, at=(12, 0))
E("Server maintenance tonight at midnight", "Server maintenance", TOMORROW, at=(0, 0))
E("Lunch 12 noon Monday", "Lunch", MO, at=(12, 0))
# Bare hours.
E("Standup tomorrow at 9", "Standup", TOMORROW, at=(9, 0))
E("Call at 7 tonight", "Call", TODAY, at=(19, 0), past=(False, False, True))
E("Dinner Friday at 7:30", "Dinner", FR_LATER, at=(19, 30))
E("Meeting at 1:30 tomorrow", "Meeting", TOMORROW, at=(13, 30))
E("Appointment at 12:15 Monday", "Appointment", MO, at=(12, 15))
E("Movie tomorrow night", "Movie", TOMORROW, at=(21, 0))
# Places after "at".
E("Dinner at Nobu Friday 8pm", "Dinner", FR_LATER, at=(20, 0), loc="Nobu")
E("Coffee with Sam at Blue Bottle 10am tomorrow", "Coffee with Sam", TOMORROW, at=(10, 0), loc="Blue Bottle")
E("Team lunch at Olive Garden Wednesday at 12:30", "Team lunch", WE, at=(12, 30), loc="Olive Garden")
E("Yoga at the gym 6pm", "Yoga", AT_EVENING, at=(18, 0), loc="the gym")
E("Parent-teacher conference at Lincoln Elementary Tuesday 3:15pm", "Parent-teacher conference", TU_LATER, at=(15, 15), loc="Lincoln Elementary")
E("Book signing at Barnes & Noble Saturday 2pm", "Book signing", SA, at=(14, 0), loc="Barnes & Noble")
E("Meet at 5th Ave Starbucks Monday 9am", "Meet", MO, at=(9, 0), loc="5th Ave Starbucks")
E("Drinks at Pier 39 Friday 7pm", "Drinks", FR_LATER, at=(19, 0), loc="Pier 39")
# Durations.
E("Call with Ana Friday 11am 30 min", "Call with Ana", FR, at=(11, 0), dur=30)
E("Workshop tomorrow 10am for 2 hours", "Workshop", TOMORROW, at=(10, 0), dur=120)
E("Team offsite Monday for 2 days", "Team offsite", MO, last=["2026-03-17", "2026-12-08", "2027-01-05"])

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

E("Sales call 10am MST Monday", "Sales call", MO, at=(10, 0), zone="America/Denver")
E("Grocery run Sunday at 10", "Grocery run", SU, at=(10, 0))
E("Dinner at 7 with Jen Friday", "Dinner with Jen", FR_LATER, at=(19, 0))
E("Nap at 2", "Nap", AT_DAYTIME, at=(14, 0))
E("Breakfast tomorrow 7:30", "Breakfast", TOMORROW, at=(7, 30))

# German, second batch. Clock times and ranges.
G("Workshop 11-13 Uhr morgen", "Workshop", TOMORROW, at=(11, 0), to=(13, 0))
G("Zahnarzt morgen um 9:30", "Zahnarzt", TOMORROW, at=(9, 30))
G("Meeting um 10 Uhr", "Meeting", AT_DAYTIME, at=(10, 0))
G("Anruf bei Mama um 18 Uhr", "Anruf bei Mama", AT_EVENING, at=(18, 0))
G("Besprechung Donnerstag 14:30", "Besprechung", TH, at=(14, 30))
G("Vorstellungsgespräch Montag 15-16 Uhr", "Vorstellungsgespräch", MO, at=(15, 0), to=(16, 0))
G("Seminar Mittwoch von 13 bis 15 Uhr", "Seminar", WE, at=(13, 0), to=(15, 0))
G("Teamessen Samstag 19:30", "Teamessen", SA, at=(19, 30))
G("Kaffee morgen um 10.30 Uhr", "Kaffee", TOMORROW, at=(10, 30))
G("Telefonat um 16 Uhr für 30 Minuten", "Telefonat", AT_DAYTIME, at=(16, 0), dur=30)
G("Meeting Freitag 14 Uhr für 90 Minuten", "Meeting", FR, at=(14, 0), dur=90)
G("Nachtschicht Freitag 22-6 Uhr", "Nachtschicht", FR_LATER, at=(22, 0), to=(6, 0), next_day_end=True)
G("Mittagessen mit Ben um 1", "Mittagessen mit Ben", AT_DAYTIME, at=(13, 0))
G("Kinder abholen um 3", "Kinder abholen", AT_DAYTIME, at=(15, 0))
G("Frühstück mit Kim morgen um 8", "Frühstück mit Kim", TOMORROW, at=(8, 0))
G("Treffen um 12 Uhr mittags", "Treffen", AT_DAYTIME, at=(12, 0))
# The party is on New Year's Eve; its midnight is the night's, the first minute of the new year.
G("Silvesterparty um Mitternacht", "Silvesterparty", ["2027-01-01"] * 3, at=(0, 0))
G("Abgabe Freitag 23:59", "Abgabe", FR_LATER, at=(23, 59))
G("Flug Montag 6:05", "Flug", MO, at=(6, 5))
G("Telefonkonferenz morgen 8:30-9:30", "Telefonkonferenz", TOMORROW, at=(8, 30), to=(9, 30))
G("Sprechstunde Donnerstag 14-16 Uhr", "Sprechstunde", TH, at=(14, 0), to=(16, 0))
G("Tennis Mittwoch 17-18.30 Uhr", "Tennis", WE, at=(17, 0), to=(18, 30))
G("Joggen um 6:30 Uhr", "Joggen", AT_EARLY, at=(6, 30))
G("Planung von 10 bis 12 Uhr Montag", "Planung", MO, at=(10, 0), to=(12, 0))
G("Präsentation Donnerstag von 15:30 bis 16:15", "Präsentation", TH, at=(15, 30), to=(16, 15))
G("Konzert Samstag um 8 Uhr abends", "Konzert", SA, at=(20, 0))
G("Schule anrufen morgen früh um 8:45", "Schule anrufen", TOMORROW, at=(8, 45))
G("Laufen um 6 Uhr morgens", "Laufen", AT_EARLY, at=(6, 0))
G("Abendessen morgen Abend 8 Uhr", "Abendessen", TOMORROW, at=(20, 0))
# Parts of the day.
G("Rückruf Rachel morgen Nachmittag", "Rückruf Rachel", TOMORROW, at=(15, 0))
G("Blogartikel schreiben morgen nachmittags", "Blogartikel schreiben", TOMORROW, at=(15, 0))
G("Mit dem Hund raus heute Abend", "Mit dem Hund raus", TODAY, at=(19, 0), past=(False, False, True))
G("Spaziergang Freitag abends", "Spaziergang", FR_LATER, at=(19, 0))
G("Teamessen morgen mittags", "Teamessen", TOMORROW, at=(12, 0))
G("Wäsche heute Nachmittag", "Wäsche", TODAY, at=(15, 0), past=(False, True, True))
G("Folien fertig bis morgen Mittag", "Folien fertig", TOMORROW, at=(12, 0))
G("Bericht abschließen Donnerstag bis Feierabend", "Bericht abschließen", TH, at=(17, 0))
G("Sport morgen Abend", "Sport", TOMORROW, at=(19, 0))
G("Einkaufen Samstag vormittags", "Einkaufen", SA, at=(10, 0))
G("Lesen heute Nacht", "Lesen", TODAY, at=(21, 0), past=(False, False, True))
G("Arzt heute früh", "Arzt", TODAY, at=(8, 0), past=(True, True, True))
# Zones.
G("Call mit Tokio 9 Uhr JST Mittwoch", "Call mit Tokio", WE, at=(9, 0), zone="Asia/Tokyo")
G("Abstimmung mit London 16 Uhr Europe/London morgen", "Abstimmung mit London", TOMORROW, at=(16, 0), zone="Europe/London")
G("Standup 10 Uhr MEZ jeden Werktag", "Standup", ["2026-03-10", "2026-12-07", "2027-01-01"], at=(10, 0), rr=[WEEKDAYS])
G("Call New York 15 Uhr America/New_York Montag", "Call New York", MO, at=(15, 0), zone="America/New_York")
# Dates.
G("Schöffendienst 23. März", "Schöffendienst", ["2026-03-23", "2027-03-23", "2027-03-23"])
G("Abschlussfeier am 16. Mai", "Abschlussfeier", ["2026-05-16", "2027-05-16", "2027-05-16"])
G("Miete 1.4.", "Miete", ["2026-04-01", "2027-04-01", "2027-04-01"])
G("TÜV 15.12.", "TÜV", ["2026-12-15", "2026-12-15", "2027-12-15"])
G("Zahnarzt 7.1.2027 9 Uhr", "Zahnarzt", ["2027-01-07"] * 3, at=(9, 0))
G("Flohmarkt am 28.", "Flohmarkt", ["2026-03-28", "2026-12-28", "2027-01-28"])
G("Klavierabend am 3. um 18 Uhr", "Klavierabend", ["2026-04-03", "2027-01-03", "2027-01-03"], at=(18, 0))
G("Einweihungsfeier 19. Dezember 18 Uhr", "Einweihungsfeier", ["2026-12-19", "2026-12-19", "2027-12-19"], at=(18, 0))
G("Großeltern besuchen 15. Januar", "Großeltern besuchen", ["2027-01-15"] * 3)
G("Vorsorgeuntersuchung 2027-04-07 10:00", "Vorsorgeuntersuchung", ["2027-04-07"] * 3, at=(10, 0))
G("Umzug Samstag, 14. März 2026", "Umzug", ["2026-03-14"] * 3, past=(False, True, True))
G("Messe 5.-7. Oktober", "Messe", ["2026-10-05", "2027-10-05", "2027-10-05"], last=["2026-10-07", "2027-10-07", "2027-10-07"])
G("Festival vom 20. bis 22. Juni", "Festival", ["2026-06-20", "2027-06-20", "2027-06-20"], last=["2026-06-22", "2027-06-22", "2027-06-22"])
G("Abwesend Montag bis Mittwoch", "Abwesend", MO, last=["2026-03-18", "2026-12-09", "2027-01-06"])
G("Klausurtagung 10.-11. Dezember", "Klausurtagung", ["2026-12-10", "2026-12-10", "2027-12-10"], last=["2026-12-11", "2026-12-11", "2027-12-11"])
G("Zahnarzt in einer Woche", "Zahnarzt", ["2026-03-17", "2026-12-11", "2027-01-07"])
G("Nachfassen in 10 Tagen", "Nachfassen", ["2026-03-20", "2026-12-14", "2027-01-10"])
G("Vertrag prüfen in 3 Wochen", "Vertrag prüfen", ["2026-03-31", "2026-12-25", "2027-01-21"])
G("Mietvertrag verlängern in 6 Monaten", "Mietvertrag verlängern", ["2026-09-10", "2027-06-04", "2027-06-30"])
G("Putzen übermorgen", "Putzen", ["2026-03-12", "2026-12-06", "2027-01-02"])
G("Zahltag Freitag", "Zahltag", FR_LATER)
G("Müllabfuhr Donnerstag", "Müllabfuhr", TH_ALLDAY)
G("Teamausflug nächsten Montag", "Teamausflug", MO)
G("Abendessen Sa 19 Uhr", "Abendessen", SA, at=(19, 0))
G("Meeting am Mo um 15 Uhr", "Meeting", MO, at=(15, 0))
G("Flug Do 6 Uhr", "Flug", TH, at=(6, 0))
G("Weihnachtsessen 25.12. um 18 Uhr", "Weihnachtsessen", ["2026-12-25", "2026-12-25", "2027-12-25"], at=(18, 0))
G("Anruf in 2 Tagen um 10 Uhr", "Anruf", ["2026-03-12", "2026-12-06", "2027-01-02"], at=(10, 0))
G("Termin morgen 15 Uhr", "Termin", TOMORROW, at=(15, 0))
G("Zahnarzt 3.10. um 14 Uhr", "Zahnarzt", ["2026-10-03", "2027-10-03", "2027-10-03"], at=(14, 0))
G("Klassentreffen 1. August 2027", "Klassentreffen", ["2027-08-01"] * 3)
G("Vorstellungsgespräch am 12. um 11 Uhr", "Vorstellungsgespräch", ["2026-03-12", "2026-12-12", "2027-01-12"], at=(11, 0))
G("Flug nach Wien Dienstag 7:15", "Flug nach Wien", TU, at=(7, 15))
G("Einkauf heute 18 Uhr", "Einkauf", TODAY, at=(18, 0), past=(False, False, True))
G("Tierarzt heute um 16 Uhr", "Tierarzt", TODAY, at=(16, 0), past=(False, True, True))
# Deadlines.
G("Steuererklärung bis 31. Juli", "Steuererklärung", ["2026-07-31", "2027-07-31", "2027-07-31"])
G("Reisekosten abrechnen fällig Freitag 17 Uhr", "Reisekosten abrechnen", FR, at=(17, 0))
G("Bücher zurückgeben bis Samstag", "Bücher zurückgeben", SA)
G("Stromrechnung bezahlen bis zum 20.", "Stromrechnung bezahlen", ["2026-03-20", "2026-12-20", "2027-01-20"])
G("Förderantrag bis nächsten Montag", "Förderantrag", MO)
G("Anmeldung spätestens am 15. Januar", "Anmeldung", ["2027-01-15"] * 3)
# Words that are not dates.
G("Update auf iOS 18.2 Dienstag", "Update auf iOS 18.2", TU_LATER)
G("4 Stühle bestellen Montag", "4 Stühle bestellen", MO)
G("Meeting in Raum 204 morgen 10 Uhr", "Meeting", TOMORROW, at=(10, 0), loc="Raum 204")
G("Bug #1234 fixen Mittwoch", "Bug #1234 fixen", WE)
G("Release 3.0 Donnerstag 9 Uhr", "Release 3.0", TH, at=(9, 0))
G("Treffpunkt Gate B12 Freitag 7 Uhr", "Treffpunkt Gate B12", FR, at=(7, 0))
G("Essen für 6 Personen Samstag 19 Uhr", "Essen für 6 Personen", SA, at=(19, 0))
G("Q4-Zahlen durchgehen Montag 14 Uhr", "Q4-Zahlen durchgehen", MO, at=(14, 0))
G("Tatort heute 20:15", "Tatort", TODAY, at=(20, 15), past=(False, False, True))
G("Version 2.4.1 ausrollen morgen 16 Uhr", "Version 2.4.1 ausrollen", TOMORROW, at=(16, 0))
G("Top 10 Liste besprechen Freitag 13 Uhr", "Top 10 Liste besprechen", FR, at=(13, 0))
G("Tisch für 2 reservieren Samstag 20 Uhr", "Tisch für 2 reservieren", SA, at=(20, 0))
G("Filmabend Samstag 19 Uhr", "Filmabend", SA, at=(19, 0))
G("Wochenrückblick Freitag 15 Uhr", "Wochenrückblick", FR, at=(15, 0))
G("Monatsbericht Dienstag", "Monatsbericht", TU_LATER)
# Repeats.
G("Klavierstunde jeden Mittwoch 16 Uhr", "Klavierstunde", WE, at=(16, 0), rr=[WK + ";BYDAY=WE"])
G("Vitamine nehmen täglich um 8 Uhr", "Vitamine nehmen", TOMORROW, at=(8, 0), rr=["RRULE:FREQ=DAILY"])
G("Retro alle 2 Wochen am Freitag um 14 Uhr", "Retro", FR, at=(14, 0), rr=[WK + ";INTERVAL=2;BYDAY=FR"])
G("Kreditrate monatlich am 15.", "Kreditrate", ["2026-03-15", "2026-12-15", "2027-01-15"], rr=["RRULE:FREQ=MONTHLY;BYMONTHDAY=15"])
G("Geburtstag Mama jährlich am 9. August", "Geburtstag Mama", ["2026-08-09", "2027-08-09", "2027-08-09"], rr=["RRULE:FREQ=YEARLY"])
G("Schwimmen jeden Montag, Mittwoch und Freitag um 7 Uhr", "Schwimmen", ["2026-03-11", "2026-12-07", "2027-01-01"], at=(7, 0), rr=[WK + ";BYDAY=MO,WE,FR"])
G("Standup täglich um 9:30", "Standup", AT_DAYTIME, at=(9, 30), rr=["RRULE:FREQ=DAILY"])
G("Jour fixe wöchentlich am Dienstag 11 Uhr", "Jour fixe", TU_LATER, at=(11, 0), rr=[WK + ";BYDAY=TU"])
G("Stundenzettel jeden Freitag um 16 Uhr bis 29.1.", "Stundenzettel", FR, at=(16, 0), rr=[WK + ";BYDAY=FR;UNTIL=20270129T225959Z"])
G("Fitness montags und donnerstags 18 Uhr", "Fitness", ["2026-03-12", "2026-12-07", "2027-01-04"], at=(18, 0), rr=[WK + ";BYDAY=MO,TH"])
G("Newsletter jeden zweiten Montag", "Newsletter", MO, rr=[WK + ";INTERVAL=2;BYDAY=MO"])
G("Physiotherapie jeden Dienstag 10 Uhr 6 mal", "Physiotherapie", TU_LATER, at=(10, 0), rr=[WK + ";BYDAY=TU;COUNT=6"])
G("Garten gießen alle 2 Tage um 19 Uhr", "Garten gießen", AT_EVENING, at=(19, 0), rr=["RRULE:FREQ=DAILY;INTERVAL=2"])
G("Chorprobe donnerstags um 19:30", "Chorprobe", TH, at=(19, 30), rr=[WK + ";BYDAY=TH"])
G("Standup werktags 9:15", "Standup", ["2026-03-10", "2026-12-07", "2027-01-01"], at=(9, 15), rr=[WEEKDAYS])
# Places.
G("Kaffee im Café Luna morgen 9 Uhr", "Kaffee", TOMORROW, at=(9, 0), loc="Café Luna")
G("Mittagessen @ Kantine Freitag 12 Uhr", "Mittagessen", FR, at=(12, 0), loc="Kantine")
G("Treffen in Berlin Donnerstag 16 Uhr", "Treffen", TH, at=(16, 0), loc="Berlin")
G("Drinks mit Alex im Anker Samstag 20 Uhr", "Drinks mit Alex", SA, at=(20, 0), loc="Anker")
G("Fußballtraining im Stadtpark Dienstag 17:30", "Fußballtraining", TU_LATER, at=(17, 30), loc="Stadtpark")
# Durations and all day.
G("Konzentriert arbeiten morgen 9 Uhr für 3 Stunden", "Konzentriert arbeiten", TOMORROW, at=(9, 0), dur=180)
G("Lieferantengespräch Donnerstag 15 Uhr für 45 Minuten", "Lieferantengespräch", TH, at=(15, 0), dur=45)
G("Workshop Freitag 13 Uhr 2 Std.", "Workshop", FR, at=(13, 0), dur=120)
G("Meditation 7 Uhr für 20 Minuten", "Meditation", AT_EARLY, at=(7, 0), dur=20)
G("Schulung Montag 10 Uhr für eine halbe Stunde", "Schulung", MO, at=(10, 0), dur=30)
G("Konferenz ganztägig Mittwoch", "Konferenz", WE)
G("Brückentag morgen", "Brückentag", TOMORROW)
G("Betriebsferien 24.12.", "Betriebsferien", ["2026-12-24", "2026-12-24", "2027-12-24"])
G("Mama anrufen, morgen, 18 Uhr", "Mama anrufen", TOMORROW, at=(18, 0))
G("Dr. Schmidt Termin Montag 9:30", "Dr. Schmidt Termin", MO, at=(9, 30))
# Refusals.
G("Meeting Montag Dienstag 10 Uhr", "", ["reject:conflict"] * 3)
G("Party 31. April", "", ["reject:invalidDate"] * 3)
G("Anruf um 25 Uhr", "", ["reject:invalidTime"] * 3)
G("Brot kaufen", "", R)
G("nächsten Freitag", "", ["reject:missingTitle"] * 3)
G("Urlaub 16.-14. Dezember", "", ["reject:invalidRange"] * 3)
G("Joggen morgen früh um 20 Uhr", "", ["reject:conflict"] * 3)

# Fourth batch (issue 36's last gap; written by hand from the kinds people type into calendar apps and the kinds
# of chrono's and ctparse's tests that the corpus lacked, never from the held-out phrases): clock phrases
# ("half past 4", "halb 8"), "3p", approximate times, weekday nights and German weekday compounds, repeats at a
# part of the day, repeats for a span ("for 6 weeks"), the n-th weekday of a month, "next week" with and without
# a day, zone words ("Pacific time"), "an hour and a half", a year after a range, numbers in names.
# English. Clock phrases and "3p".
E("Call Dad at half past 4 tomorrow", "Call Dad", TOMORROW, at=(16, 30))
E("Meeting quarter past 10 Monday", "Meeting", MO, at=(10, 15))
E("Train at quarter to 8 tomorrow", "Train", TOMORROW, at=(7, 45))
E("Dinner at half past 7 Saturday", "Dinner", SA, at=(19, 30))
E("Standup at a quarter past nine Wednesday", "Standup", WE, at=(9, 15))
E("Call half past 12 Thursday", "Call", TH, at=(12, 30))
E("Dentist 3p Thursday", "Dentist", TH, at=(15, 0))
E("Standup 9:30a tomorrow", "Standup", TOMORROW, at=(9, 30))
E("Pickup at 5p Friday", "Pickup", FR, at=(17, 0))
E("Room 4a walkthrough tomorrow", "Room 4a walkthrough", TOMORROW)
# Approximate times.
E("Call around 3pm tomorrow", "Call", TOMORROW, at=(15, 0))
E("Pick up Jo at about 6:30pm Friday", "Pick up Jo", FR_LATER, at=(18, 30))
E("Talk about 2 proposals Monday", "Talk about 2 proposals", MO)
E("Coffee ~10am Saturday", "Coffee", SA, at=(10, 0))
E("Walk around the lake tomorrow 7am", "Walk around the lake", TOMORROW, at=(7, 0))
# Weekday nights.
E("Party Saturday night", "Party", SA, at=(21, 0))
E("Drinks Friday night at 9", "Drinks", FR_LATER, at=(21, 0))
E("Poker next Friday night", "Poker", FR, at=(21, 0))
E("Movie Sunday night 8:30", "Movie", SU, at=(20, 30))
# Repeats at a part of the day.
E("Meditate every morning", "Meditate", AT_DAYTIME, at=(9, 0), rr=["RRULE:FREQ=DAILY"])
E("Journal every evening", "Journal", AT_EVENING, at=(19, 0), rr=["RRULE:FREQ=DAILY"])
E("Take out trash every Sunday night", "Take out trash", SU, at=(21, 0), rr=[WK + ";BYDAY=SU"])
E("Check email every afternoon at 4", "Check email", AT_DAYTIME, at=(16, 0), rr=["RRULE:FREQ=DAILY"])
E("Lock the door nightly 10pm", "Lock the door", AT_EVENING, at=(22, 0), rr=["RRULE:FREQ=DAILY"])
# Repeats for a span: the last day is the day before the span ends, counted from the first occurrence.
E("Physio every Tuesday 10am for 6 weeks", "Physio", TU_LATER, at=(10, 0),
  rrs=[[WK + ";BYDAY=TU;UNTIL=20260421T035959Z"], [WK + ";BYDAY=TU;UNTIL=20270119T045959Z"], [WK + ";BYDAY=TU;UNTIL=20270216T045959Z"]])
E("Water plants every day for 2 weeks", "Water plants", TODAY,
  rrs=[["RRULE:FREQ=DAILY;UNTIL=20260323"], ["RRULE:FREQ=DAILY;UNTIL=20261217"], ["RRULE:FREQ=DAILY;UNTIL=20270113"]])
E("Language class every Monday 6pm for 3 months", "Language class", MO, at=(18, 0),
  rrs=[[WK + ";BYDAY=MO;UNTIL=20260616T035959Z"], [WK + ";BYDAY=MO;UNTIL=20270307T045959Z"], [WK + ";BYDAY=MO;UNTIL=20270404T035959Z"]])
E("Sabbatical Jan 4 for 6 months", "", ["reject:conflict"] * 3)
# The n-th weekday of a month.
E("Book club first Thursday of every month 7pm", "Book club", ["2026-04-02", "2027-01-07", "2027-01-07"], at=(19, 0), rr=["RRULE:FREQ=MONTHLY;BYDAY=1TH"])
E("Team lunch last Friday of every month at noon", "Team lunch", ["2026-03-27", "2026-12-25", "2027-01-29"], at=(12, 0), rr=["RRULE:FREQ=MONTHLY;BYDAY=-1FR"])
E("Pay bills monthly on the first Monday", "Pay bills", ["2026-04-06", "2026-12-07", "2027-01-04"], rr=["RRULE:FREQ=MONTHLY;BYDAY=1MO"])
E("Budget review the last Friday of the month", "Budget review", ["2026-03-27", "2026-12-25", "2027-01-29"])
E("Board meeting every third Wednesday of the month 2pm", "Board meeting", ["2026-03-18", "2026-12-16", "2027-01-20"], at=(14, 0), rr=["RRULE:FREQ=MONTHLY;BYDAY=3WE"])
E("Submit grades by the last Friday of the month", "Submit grades", ["2026-03-27", "2026-12-25", "2027-01-29"])
E("Quarterly review on the second Tuesday of the month 10am", "Quarterly review", ["2026-03-10", "2026-12-08", "2027-01-12"], at=(10, 0))
# "next week", "this week" with a day; alone, no one day.
E("Dentist Tuesday next week 2pm", "Dentist", TU, at=(14, 0))
E("Interview next week on Thursday at 10am", "Interview", ["2026-03-19", "2026-12-10", "2027-01-07"], at=(10, 0))
E("Call Sam Wednesday this week", "Call Sam", ["2026-03-11", "2026-12-02", "2026-12-30"], past=(False, True, True))
E("Dinner with Kim next week", "", ["reject:vagueDate"] * 3)
E("Hike this weekend", "", ["reject:vagueDate"] * 3)
E("Pay rent next month", "", ["reject:vagueDate"] * 3)
E("Clean garage over the weekend", "", ["reject:vagueDate"] * 3)
E("Meeting this coming Monday 10am", "Meeting", MO, at=(10, 0))
E("Haircut this coming Saturday", "Haircut", SA)
# Durations and relative times with halves.
E("Lunch tomorrow 12:30 for an hour and a half", "Lunch", TOMORROW, at=(12, 30), dur=90)
E("Call back in half an hour", "Call back", ["2026-03-10", "2026-12-04", "2027-01-01"], exact=[(9, 30), (18, 0), (0, 0)])
E("Check oven in 45 minutes", "Check oven", ["2026-03-10", "2026-12-04", "2027-01-01"], exact=[(9, 45), (18, 15), (0, 15)])
E("Workshop Monday 9am for one and a half hours", "Workshop", MO, at=(9, 0), dur=90)
E("Ping Lee in an hour and a half", "Ping Lee", ["2026-03-10", "2026-12-04", "2027-01-01"], exact=[(10, 30), (19, 0), (1, 0)])
# Zone words after a time.
E("Call 3pm Central tomorrow", "Call", TOMORROW, at=(15, 0), zone="America/Chicago")
E("Webinar 11am Pacific time Monday", "Webinar", MO, at=(11, 0), zone="America/Los_Angeles")
E("Sync 9am London time Wednesday", "Sync", WE, at=(9, 0), zone="Europe/London")
E("Picnic 1pm Central Park Saturday", "Picnic Central Park", SA, at=(13, 0))
E("Standup 10am Central time every weekday", "Standup", ["2026-03-10", "2026-12-07", "2027-01-01"], at=(10, 0), zone="America/Chicago", rr=[WEEKDAYS])
# A year after a range of days; numeric ranges.
E("Conference Mar 3-5, 2027", "Conference", ["2027-03-03"] * 3, last=["2027-03-05"] * 3)
E("Trip 12/20-12/27", "Trip", ["2026-12-20", "2026-12-20", "2027-12-20"], last=["2026-12-27", "2026-12-27", "2027-12-27"])
# Numbers in names.
E("Buy 2x4 boards Saturday", "Buy 2x4 boards", SA)
E("Read chapters 4-6 tonight", "Read chapters 4-6", TODAY, at=(20, 0), past=(False, False, True))
E("Route 66 road trip Saturday", "Route 66 road trip", SA)
E("Catch-22 book club Thursday 7pm", "Catch-22 book club", TH, at=(19, 0))
E("Call 1-800-555-0199 tomorrow 10am", "Call 1-800-555-0199", TOMORROW, at=(10, 0))
E("Apollo 11 documentary Sunday 8pm", "Apollo 11 documentary", SU, at=(20, 0))

# German, fourth batch. "halb 8", "viertel nach 3", "9 Uhr 30".
G("Treffen um halb 8 morgen", "Treffen", TOMORROW, at=(7, 30))
G("Abendessen um halb 8 Samstag", "Abendessen", SA, at=(19, 30))
G("Anruf morgen um viertel nach 3", "Anruf", TOMORROW, at=(15, 15))
G("Zahnarzt Montag viertel vor 9", "Zahnarzt", MO, at=(8, 45))
G("Kino um halb 9 abends", "Kino", AT_EVENING, at=(20, 30))
G("Bus um halb 1", "Bus", AT_DAYTIME, at=(12, 30))
G("Anruf um 9 Uhr 30 Donnerstag", "Anruf", TH, at=(9, 30))
# Weekday compounds and "Samstag Nacht".
G("Kino Freitagabend", "Kino", FR_LATER, at=(19, 0))
G("Brunch Sonntagvormittag", "Brunch", SU, at=(10, 0))
G("Joggen Samstagmorgen um 7", "Joggen", SA, at=(7, 0))
G("Lesen Sonntagnachmittag", "Lesen", SU, at=(15, 0))
G("Party Samstag Nacht", "Party", SA, at=(21, 0))
G("Elternabend Dienstagabend 19:30", "Elternabend", TU_LATER, at=(19, 30))
G("Geburtstagsfeier Samstagabend", "Geburtstagsfeier", SA, at=(19, 0))
# Repeats at a part of the day, every two weeks, for a span, on the n-th weekday.
G("Meditation jeden Morgen", "Meditation", AT_DAYTIME, at=(9, 0), rr=["RRULE:FREQ=DAILY"])
G("Tagebuch jeden Abend um 21 Uhr", "Tagebuch", AT_EVENING, at=(21, 0), rr=["RRULE:FREQ=DAILY"])
G("Müll rausbringen jeden Sonntagabend", "Müll rausbringen", SU, at=(19, 0), rr=[WK + ";BYDAY=SU"])
G("Teammeeting 14-tägig dienstags 10 Uhr", "Teammeeting", TU_LATER, at=(10, 0), rr=[WK + ";INTERVAL=2;BYDAY=TU"])
G("Physio jeden Dienstag 10 Uhr für 6 Wochen", "Physio", TU_LATER, at=(10, 0),
  rrs=[[WK + ";BYDAY=TU;UNTIL=20260420T215959Z"], [WK + ";BYDAY=TU;UNTIL=20270118T225959Z"], [WK + ";BYDAY=TU;UNTIL=20270215T225959Z"]])
G("Sport jeden Montag 18 Uhr für 3 Monate", "Sport", MO, at=(18, 0),
  rrs=[[WK + ";BYDAY=MO;UNTIL=20260615T215959Z"], [WK + ";BYDAY=MO;UNTIL=20270306T225959Z"], [WK + ";BYDAY=MO;UNTIL=20270403T215959Z"]])
G("Stammtisch jeden ersten Freitag im Monat 19 Uhr", "Stammtisch", ["2026-04-03", "2026-12-04", "2027-01-01"], at=(19, 0), rr=["RRULE:FREQ=MONTHLY;BYDAY=1FR"])
G("Sitzung am letzten Freitag im Monat um 15 Uhr", "Sitzung", ["2026-03-27", "2026-12-25", "2027-01-29"], at=(15, 0), rr=["RRULE:FREQ=MONTHLY;BYDAY=-1FR"])
# "nächste Woche" with and without a day; other spans that name no day.
G("Zahnarzt nächste Woche Dienstag 14 Uhr", "Zahnarzt", TU, at=(14, 0))
G("Arzt Donnerstag nächster Woche", "Arzt", ["2026-03-19", "2026-12-10", "2027-01-07"])
G("Umzug am Wochenende", "", ["reject:vagueDate"] * 3)
G("Miete nächsten Monat", "", ["reject:vagueDate"] * 3)
G("Friseur nächste Woche", "", ["reject:vagueDate"] * 3)
# Approximate times, halves, zone words.
G("Anruf ca. 15 Uhr morgen", "Anruf", TOMORROW, at=(15, 0))
G("Treffen etwa um 10 Uhr Montag", "Treffen", MO, at=(10, 0))
G("Mittagessen morgen 12:30 für anderthalb Stunden", "Mittagessen", TOMORROW, at=(12, 30), dur=90)
G("Rückruf in einer halben Stunde", "Rückruf", ["2026-03-10", "2026-12-04", "2027-01-01"], exact=[(9, 30), (18, 0), (0, 0)])
G("Nudeln abgießen in 12 Minuten", "Nudeln abgießen", ["2026-03-10", "2026-12-04", "2026-12-31"], exact=[(9, 12), (17, 42), (23, 42)])
G("Videocall 16 Uhr deutscher Zeit Montag", "Videocall", MO, at=(16, 0))
G("Call 15 Uhr New Yorker Zeit morgen", "Call", TOMORROW, at=(15, 0), zone="America/New_York")


# Fifth batch (written for the fresh held-out set's round, from general kinds, never from the held-out phrases):
# named holidays (the day in the calendar's locale when the name is one day and it begins the text or follows
# on/am; refused where the name is a season, several days, or what the event is about but not its day), numbers
# with a letter or unit that are counts, not times ("1st class", "3x", "10k", "2L", "4x6"),
# ranges of bare hours with "to", phone numbers.
HOLIDAY_NO_DAY = ["reject:nothingToSchedule|vagueDate"] * 3
XMAS_DAY = ["2026-12-25", "2026-12-25", "2027-12-25"]
XMAS_EVE_DAY = ["2026-12-24", "2026-12-24", "2027-12-24"]
NEW_YEARS_EVE = ["2026-12-31", "2026-12-31", "2026-12-31"]
# English (the United States' holidays).
E("Christmas dinner 5pm", "Christmas dinner", XMAS_DAY, at=(17, 0))
E("Christmas Day at the Smiths", "Christmas Day", XMAS_DAY, loc="the Smiths")
E("New Year's Day brunch 11am", "New Year's Day brunch", ["2027-01-01"] * 3, at=(11, 0))
E("Independence Day picnic", "Independence Day picnic", ["2026-07-04", "2027-07-04", "2027-07-04"])
E("Thanksgiving at Grandma's", "Thanksgiving", ["2026-11-26", "2027-11-25", "2027-11-25"], loc="Grandma's")
E("Halloween trick or treating 6pm", "Halloween trick or treating", ["2026-10-31", "2027-10-31", "2027-10-31"], at=(18, 0))
E("Easter egg hunt Sunday 10am", "Easter egg hunt", SU, at=(10, 0))
E("Valentine's dinner Saturday 8pm", "Valentine's dinner", SA, at=(20, 0))
E("Wrap Christmas presents", "", HOLIDAY_NO_DAY)
E("Halloween party", "", HOLIDAY_NO_DAY)
E("Christmas Eve service 5pm", "Christmas Eve service", XMAS_EVE_DAY, at=(17, 0))
E("Mother's Day brunch", "Mother's Day brunch", ["2026-05-10", "2027-05-09", "2027-05-09"])
E("Father's Day BBQ", "Father's Day BBQ", ["2026-06-21", "2027-06-20", "2027-06-20"])
E("Labor Day weekend trip", "", ["reject:vagueDate"] * 3)
E("Good Friday service at noon", "Good Friday service", ["2026-04-03", "2027-03-26", "2027-03-26"], at=(12, 0))
E("MLK Day volunteering", "MLK Day volunteering", ["2027-01-18"] * 3)
E("Veterans Day parade 11am", "Veterans Day parade", ["2026-11-11", "2027-11-11", "2027-11-11"], at=(11, 0))
E("New Year's Eve countdown", "New Year's Eve countdown", NEW_YEARS_EVE)
E("Christmas shopping Saturday", "Christmas shopping", SA)
E("Buy Christmas tree", "", HOLIDAY_NO_DAY)
E("Family dinner on Christmas Day 2pm", "Family dinner", XMAS_DAY, at=(14, 0))
E("Easter weekend at the lake", "", ["reject:vagueDate"] * 3)
# Numbers with a letter or unit that are counts and sizes, not times or dates.
E("Send 1st class parcel Monday", "Send 1st class parcel", MO)
E("Pack 3x shirts tomorrow", "Pack 3x shirts", TOMORROW)
E("10k steps every day", "10k steps", TODAY, rr=["RRULE:FREQ=DAILY"])
E("Get 50p coins for parking", "", R)
E("Swim 1k Tuesday 6am", "Swim 1k", TU, at=(6, 0))
E("Bring 2L soda Saturday", "Bring 2L soda", SA)
E("Print 4x6 photos Friday", "Print 4x6 photos", FR_LATER)
E("Order 8p envelopes", "", R)
E("Buy 12a fuse Monday", "Buy 12a fuse", MO)
E("Stream 4k movie tonight", "Stream 4k movie", TODAY, at=(20, 0), past=(False, False, True))
E("Water bill 15th", "Water bill", ["2026-03-15", "2026-12-15", "2027-01-15"])
E("Dentist 3p tomorrow", "Dentist", TOMORROW, at=(15, 0))
E("Call 212-555-0187 Friday 10am", "Call 212-555-0187", FR, at=(10, 0))
# Ranges of bare hours with "to".
E("Lunch 12 to 1 Thursday", "Lunch", TH, at=(12, 0), to=(13, 0))
E("Workshop 2 to 5 Saturday", "Workshop", SA, at=(14, 0), to=(17, 0))
# German (Germany's nationwide holidays; "Weihnachten" names three days and is refused).
G("Heiligabend Bescherung 18 Uhr", "Heiligabend Bescherung", XMAS_EVE_DAY, at=(18, 0))
G("Neujahr Spaziergang", "Neujahr Spaziergang", ["2027-01-01"] * 3)
G("Ostermontag Ausflug", "Ostermontag Ausflug", ["2026-04-06", "2027-03-29", "2027-03-29"])
G("Pfingstmontag frei", "Pfingstmontag frei", ["2026-05-25", "2027-05-17", "2027-05-17"])
G("Tag der Deutschen Einheit Wanderung", "Tag der Deutschen Einheit Wanderung", ["2026-10-03", "2027-10-03", "2027-10-03"])
G("Weihnachten bei den Eltern", "", HOLIDAY_NO_DAY)
G("Erster Weihnachtstag Essen 13 Uhr", "Erster Weihnachtstag Essen", XMAS_DAY, at=(13, 0))
G("Zweiter Weihnachtstag Kino", "Zweiter Weihnachtstag Kino", ["2026-12-26", "2026-12-26", "2027-12-26"])
G("Weihnachtsmarkt Samstag 17 Uhr", "Weihnachtsmarkt", SA, at=(17, 0))
G("Weihnachtsgeschenke kaufen", "", R)
G("Christi Himmelfahrt Radtour", "Christi Himmelfahrt Radtour", ["2026-05-14", "2027-05-06", "2027-05-06"])
G("Familienessen am ersten Weihnachtstag 12 Uhr", "Familienessen", XMAS_DAY, at=(12, 0))
G("Osterferien", "", HOLIDAY_NO_DAY)
G("3 Liter Milch kaufen morgen", "3 Liter Milch kaufen", TOMORROW)

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
HE("Lunch with Maria Thursday 1pm", "Lunch with Maria", TH, at=(13, 0))
HE("Call insurance company Monday morning", "Call insurance company", MO, at=(9, 0))
HE("Guitar lesson every Saturday at 11am", "Guitar lesson", SA, at=(11, 0), rr=[WK + ";BYDAY=SA"])
HE("Book flights by March 31", "Book flights", ["2026-03-31", "2027-03-31", "2027-03-31"])
HE("Team building Friday 2-5pm", "Team building", FR, at=(14, 0), to=(17, 0))
HE("Pediatrician in 4 days at 9:30am", "Pediatrician", ["2026-03-14", "2026-12-08", "2027-01-04"], at=(9, 30))
HE("Pick up 12 cupcakes Saturday 10am", "Pick up 12 cupcakes", SA, at=(10, 0))
HG("Friseurtermin Mittwoch 17 Uhr", "Friseurtermin", WE, at=(17, 0))
HG("Elternabend am 20.3. um 19 Uhr", "Elternabend", ["2026-03-20", "2027-03-20", "2027-03-20"], at=(19, 0))
HG("Yoga jeden Sonntag um 10 Uhr", "Yoga", SU, at=(10, 0), rr=[WK + ";BYDAY=SU"])
HG("Reifenwechsel nächsten Samstag", "Reifenwechsel", SA)
HG("Meeting morgen von 9 bis 10:30", "Meeting", TOMORROW, at=(9, 0), to=(10, 30))


# A sixth developed-on batch (general kinds behind the known misses, none copied from a held-out set): weekdays
# joined by a slash or a comma without "every" (a weekly series on those days; two days joined only by "and" are
# refused, as they may be one event over two days), counts such as "2x" and "3 x" before a noun (title words,
# not a repeat count), holiday names inside compounds ("Silvesterfeier", "Valentinstagsessen", "NYE-party"): the
# day where the name is one day the party is held on, refused where the party is only named after it.
W_MO_WE = ["2026-03-11", "2026-12-07", "2027-01-04"]
E("Soccer practice Mon/Wed 5pm", "Soccer practice", W_MO_WE, at=(17, 0), rr=[WK + ";BYDAY=MO,WE"])
E("Tennis Tue/Thu/Sat 8am", "Tennis", ["2026-03-12", "2026-12-05", "2027-01-02"], at=(8, 0), rr=[WK + ";BYDAY=TU,TH,SA"])
E("Office hours Mon, Wed, Fri 2-3pm", "Office hours", ["2026-03-11", "2026-12-07", "2027-01-01"], at=(14, 0), to=(15, 0),
  rr=[WK + ";BYDAY=MO,WE,FR"])
E("Guitar lesson Mon, Wed and Fri at 4", "Guitar lesson", ["2026-03-11", "2026-12-07", "2027-01-01"], at=(16, 0),
  rr=[WK + ";BYDAY=MO,WE,FR"])
E("Run Tues/Thurs 6:30am", "Run", ["2026-03-12", "2026-12-08", "2027-01-05"], at=(6, 30), rr=[WK + ";BYDAY=TU,TH"])
E("Brunch Sat/Sun 10am", "Brunch", ["2026-03-14", "2026-12-05", "2027-01-02"], at=(10, 0), rr=[WK + ";BYDAY=SA,SU"])
E("Piano Tue, Thu 4:30pm", "Piano", ["2026-03-10", "2026-12-08", "2027-01-05"], at=(16, 30), rr=[WK + ";BYDAY=TU,TH"])
E("Spin class every Mon/Fri 6am", "Spin class", ["2026-03-13", "2026-12-07", "2027-01-01"], at=(6, 0), rr=[WK + ";BYDAY=MO,FR"])
E("Conference Monday and Tuesday", "", ["reject:conflict"] * 3)
G("Volleyball Mo/Do 20 Uhr", "Volleyball", ["2026-03-12", "2026-12-07", "2027-01-04"], at=(20, 0), rr=[WK + ";BYDAY=MO,TH"])
G("Laufen Di, Do und Sa um 7 Uhr", "Laufen", ["2026-03-12", "2026-12-05", "2027-01-02"], at=(7, 0), rr=[WK + ";BYDAY=TU,TH,SA"])
G("Deutschkurs Montag/Mittwoch 18:30", "Deutschkurs", W_MO_WE, at=(18, 30), rr=[WK + ";BYDAY=MO,WE"])
G("Lauftreff Mo+Mi 18 Uhr", "Lauftreff", W_MO_WE, at=(18, 0), rr=[WK + ";BYDAY=MO,WE"])
G("Schwimmen Di/Fr 6:45", "Schwimmen", ["2026-03-13", "2026-12-08", "2027-01-01"], at=(6, 45), rr=[WK + ";BYDAY=TU,FR"])
G("Messe Montag und Dienstag", "", ["reject:conflict"] * 3)
# Counts before a noun are title words; a count before a repeat or at the end is still the repeat's.
E("Buy 2x HDMI cables Saturday", "Buy 2x HDMI cables", SA)
E("Print 3x flyers tomorrow 9am", "Print 3x flyers", TOMORROW, at=(9, 0))
G("2x Milch kaufen morgen", "2x Milch kaufen", TOMORROW)
G("3 x Kaffee bestellen Freitag 10 Uhr", "3 x Kaffee bestellen", FR, at=(10, 0))
G("4x Pizza abholen heute 19 Uhr", "4x Pizza abholen", TODAY, at=(19, 0), past=(False, False, True))
G("Krankengymnastik 6x dienstags 10 Uhr", "Krankengymnastik", TU_LATER, at=(10, 0), rr=[WK + ";BYDAY=TU;COUNT=6"])
# Holiday names inside compounds.
G("Silvesterfeier bei Tom 19 Uhr", "Silvesterfeier bei Tom", ["2026-12-31"] * 3, at=(19, 0), past=(False, False, True))
G("Valentinstagsessen 19:30", "Valentinstagsessen", ["2027-02-14"] * 3, at=(19, 30))
G("Karfreitagsgottesdienst 10 Uhr", "Karfreitagsgottesdienst", ["2026-04-03", "2027-03-26", "2027-03-26"], at=(10, 0))
G("Weihnachtsfeier der Firma 18 Uhr", "", ["reject:vagueDate"] * 3)
G("Halloweenparty 20 Uhr", "", ["reject:vagueDate"] * 3)
G("Ostereiersuche im Garten", "", ["reject:nothingToSchedule|vagueDate"] * 3)
G("Ostereiersuche im Garten 11 Uhr", "", ["reject:vagueDate"] * 3)
G("Weihnachtsmarkt Samstag 16 Uhr", "Weihnachtsmarkt", SA, at=(16, 0))
G("Silvester-Party bei Lea 21 Uhr", "Silvester-Party bei Lea", ["2026-12-31"] * 3, at=(21, 0), past=(False, False, True))
G("Pfingstrosen pflanzen Samstag", "Pfingstrosen pflanzen", SA)
E("NYE-party at Sam's 9pm", "NYE-party", ["2026-12-31"] * 3, at=(21, 0), loc="Sam's", past=(False, False, True))
E("Halloween-party Saturday 8pm", "Halloween-party", SA, at=(20, 0))
E("Christmas-party 7pm", "", ["reject:vagueDate"] * 3)
E("Thanksgiving-dinner 4pm", "Thanksgiving-dinner", ["2026-11-26", "2027-11-25", "2027-11-25"], at=(16, 0))

# Held out, 2026-12-05 (a fresh set: written by a session that had not read the parser or any of its misses,
# labelled by hand before it was run, committed before any parser change; only run, never read while fixing).
# Kinds from calendar apps' help pages and issue 36: clock times and ranges, parts of the day, dates, relative
# days and hours, deadlines, numbers that are not dates or times ("3p stamps", "5k", "2x4s", phone numbers),
# named holidays (read to their date in the calendar's locale where it is one day, refused where not), repeats,
# zones, places, and refusals. A refusal labelled "a|b" accepts either code.
def FE(*args, **kw): P("heldout-2026-12-05", "en", *args, **kw)
def FG(*args, **kw): P("heldout-2026-12-05", "de", *args, **kw)


NO_DAY = ["reject:nothingToSchedule|vagueDate"] * 3
XMAS_EVE = ["2026-12-24", "2026-12-24", "2027-12-24"]
NYE = ["2026-12-31", "2026-12-31", "2026-12-31"]
EASTER = ["2026-04-05", "2027-03-28", "2027-03-28"]
# English. Clock times and ranges.
FE("Coffee with Dana 10:15 Wednesday", "Coffee with Dana", WE, at=(10, 15))
FE("Call plumber at 2:45", "Call plumber", AT_DAYTIME, at=(14, 45))
FE("Pilates 6:15am Thursday", "Pilates", TH, at=(6, 15))
FE("Team sync 1-2 Monday", "Team sync", MO, at=(13, 0), to=(14, 0))
FE("Dinner with the Johnsons Saturday at 7:30", "Dinner with the Johnsons", SA, at=(19, 30))
FE("Board meeting 9-11:30am Wednesday", "Board meeting", WE, at=(9, 0), to=(11, 30))
FE("Late show 11pm Friday", "Late show", FR_LATER, at=(23, 0))
FE("Overnight flight Sunday 11pm-7am", "Overnight flight", SU, at=(23, 0), to=(7, 0), next_day_end=True)
FE("Parent conference Thursday 4:20pm", "Parent conference", TH, at=(16, 20))
FE("Standup 9:45 tomorrow", "Standup", TOMORROW, at=(9, 45))
FE("Call Grandma at 5", "Call Grandma", AT_DAYTIME, at=(17, 0))
FE("Piano recital Sunday 2pm to 4pm", "Piano recital", SU, at=(14, 0), to=(16, 0))
FE("Webinar 12pm Tuesday for 45 minutes", "Webinar", TU_LATER, at=(12, 0), dur=45)
FE("Meeting with Raj at 12:15 tomorrow", "Meeting with Raj", TOMORROW, at=(12, 15))
FE("Vet 8:40 Saturday", "Vet", SA, at=(8, 40))
FE("Office party 4 to 7 Friday", "Office party", FR, at=(16, 0), to=(19, 0))
FE("Dentist today 8am", "Dentist", TODAY, at=(8, 0), past=(True, True, True))
# Parts of the day.
FE("Pick up cake Saturday morning", "Pick up cake", SA, at=(9, 0))
FE("Gardening Sunday afternoon", "Gardening", SU, at=(15, 0))
FE("Study session tonight at 9", "Study session", TODAY, at=(21, 0), past=(False, False, True))
FE("Call Lisa tomorrow evening", "Call Lisa", TOMORROW, at=(19, 0))
FE("Email Mark end of day", "Email Mark", AT_DAYTIME, at=(17, 0))
FE("Book club Wednesday night", "Book club", WE, at=(21, 0))
FE("Coffee at noon Friday", "Coffee", FR, at=(12, 0))
FE("Meditate in the afternoon", "Meditate", AT_DAYTIME, at=(15, 0))
FE("Dinner reservation 8:15 tonight", "Dinner reservation", TODAY, at=(20, 15), past=(False, False, True))
# Dates.
FE("Dentist March 3 at 10am", "Dentist", ["2027-03-03"] * 3, at=(10, 0))
FE("Wedding June 12th", "Wedding", ["2026-06-12", "2027-06-12", "2027-06-12"])
FE("Anniversary dinner on the 18th at 7", "Anniversary dinner", ["2026-03-18", "2026-12-18", "2027-01-18"], at=(19, 0))
FE("Lease signing 4/15 3pm", "Lease signing", ["2026-04-15", "2027-04-15", "2027-04-15"], at=(15, 0))
FE("Vacation July 6-10", "Vacation", ["2026-07-06", "2027-07-06", "2027-07-06"], last=["2026-07-10", "2027-07-10", "2027-07-10"])
FE("Jury duty Wednesday to Friday", "Jury duty", WE, last=["2026-03-13", "2026-12-11", "2027-01-08"])
FE("Closing 2027-01-20 11am", "Closing", ["2027-01-20"] * 3, at=(11, 0))
FE("Dad's retirement party Sat Jan 9 6pm", "Dad's retirement party", ["2027-01-09"] * 3, at=(18, 0))
# English places follow "at" or "@" only (docs/quick-add.md, "Location"; "Meeting in Room 204" keeps its title):
# "in Chicago" stays in the title (the label said location "Chicago" until 2026-12-06).
FE("Conference Oct 7-9 in Chicago", "Conference in Chicago", ["2026-10-07", "2027-10-07", "2027-10-07"],
   last=["2026-10-09", "2027-10-09", "2027-10-09"])
FE("Flight to Denver Friday Dec 18 8:05am", "Flight to Denver", ["2026-12-18", "2026-12-18", "reject:conflict|invalidDate"], at=(8, 5))
# Relative days and hours.
FE("Follow up with recruiter in 5 days", "Follow up with recruiter", ["2026-03-15", "2026-12-09", "2027-01-05"])
FE("Check the oven in 20 minutes", "Check the oven", TODAY, exact=[(9, 20), (17, 50), (23, 50)])
FE("Renew library books in 2 weeks", "Renew library books", ["2026-03-24", "2026-12-18", "2027-01-14"])
FE("Dentist day after tomorrow 11am", "Dentist", ["2026-03-12", "2026-12-06", "2027-01-02"], at=(11, 0))
FE("Call back in 3 hours", "Call back", ["2026-03-10", "2026-12-04", "2027-01-01"], exact=[(12, 0), (20, 30), (2, 30)])
# Deadlines.
FE("Submit expense report by Tuesday", "Submit expense report", TU_LATER)
FE("Taxes due April 15", "Taxes", ["2026-04-15", "2027-04-15", "2027-04-15"])
FE("Return library books by Thursday 5pm", "Return library books", TH, at=(17, 0))
FE("Finish draft by end of month", "Finish draft", ["2026-03-31", "2026-12-31", "2026-12-31"])
FE("RSVP no later than Nov 20", "RSVP", ["2026-11-20", "2027-11-20", "2027-11-20"])
FE("Report due the 30th", "Report", ["2026-03-30", "2026-12-30", "2027-01-30"])
# Numbers that are not dates or times.
FE("Buy 3p stamps", "", R)
FE("Buy 3p stamps tomorrow", "Buy 3p stamps", TOMORROW)
FE("5k run Saturday 8am", "5k run", SA, at=(8, 0))
FE("Run 10k Sunday morning", "Run 10k", SU, at=(9, 0))
FE("Pay rent 1st", "Pay rent", ["2026-04-01", "2027-01-01", "2027-01-01"])
FE("Order 2x4s at Home Depot Saturday", "Order 2x4s", SA, loc="Home Depot")
FE("Take 2 pills at 8pm", "Take 2 pills", AT_EVENING, at=(20, 0))
FE("Windows 11 rollout Thursday", "Windows 11 rollout", TH_ALLDAY)
FE("Gate 22 boarding 7:10pm Friday", "Gate 22 boarding", FR_LATER, at=(19, 10))
FE("Apt 5C inspection Monday 10am", "Apt 5C inspection", MO, at=(10, 0))
FE("Order 100 business cards Wednesday", "Order 100 business cards", WE)
FE("Call 555-0142 tomorrow 9am", "Call 555-0142", TOMORROW, at=(9, 0))
FE("Top 10 list review Friday 3pm", "Top 10 list review", FR, at=(15, 0))
FE("Flight UA 1234 Jan 4 6am", "Flight UA 1234", ["2027-01-04"] * 3, at=(6, 0))
FE("Pick up 2 dozen bagels 7am Sunday", "Pick up 2 dozen bagels", SU, at=(7, 0))
FE("Buy 2x AA batteries", "", R)
FE("Half marathon Sunday 7:30am", "Half marathon", SU, at=(7, 30))
# Named holidays: the date in the calendar's locale (en: the United States) when the name is one day and no
# other date is given; the name stays in the title. A holiday the event is about but not on is refused.
FE("Christmas Eve dinner at 6", "Christmas Eve dinner", XMAS_EVE, at=(18, 0))
FE("Christmas Eve party", "Christmas Eve party", XMAS_EVE)
FE("New Year's Eve party 9pm", "New Year's Eve party", NYE, at=(21, 0), past=(False, False, True))
FE("Thanksgiving dinner at Mom's 3pm", "Thanksgiving dinner", ["2026-11-26", "2027-11-25", "2027-11-25"], at=(15, 0), loc="Mom's")
FE("Halloween party Saturday 8pm", "Halloween party", SA, at=(20, 0))
FE("Christmas party Friday 7pm", "Christmas party", FR_LATER, at=(19, 0))
FE("Easter brunch 11am", "Easter brunch", EASTER, at=(11, 0))
FE("Valentine's Day dinner 7:30pm", "Valentine's Day dinner", ["2027-02-14"] * 3, at=(19, 30))
FE("Fireworks July 4th 9pm", "Fireworks", ["2026-07-04", "2027-07-04", "2027-07-04"], at=(21, 0))
FE("Christmas party", "", NO_DAY)
FE("Memorial Day BBQ", "Memorial Day BBQ", ["2026-05-25", "2027-05-31", "2027-05-31"])
FE("Buy Halloween costume", "", NO_DAY)
FE("St. Patrick's Day parade", "St. Patrick's Day parade", ["2026-03-17", "2027-03-17", "2027-03-17"])
FE("Labor Day cookout 1pm", "Labor Day cookout", ["2026-09-07", "2027-09-06", "2027-09-06"], at=(13, 0))
# Repeats.
FE("Trash night every Tuesday 8pm", "Trash night", TU_LATER, at=(20, 0), rr=[WK + ";BYDAY=TU"])
FE("Water plants every 3 days", "Water plants", TODAY, rr=["RRULE:FREQ=DAILY;INTERVAL=3"])
FE("Team retro every other Thursday 4pm", "Team retro", TH, at=(16, 0), rr=[WK + ";INTERVAL=2;BYDAY=TH"])
FE("Pay credit card monthly on the 25th", "Pay credit card", ["2026-03-25", "2026-12-25", "2027-01-25"],
   rr=["RRULE:FREQ=MONTHLY;BYMONTHDAY=25"])
FE("Swim lessons Saturdays 10am until Feb 27", "Swim lessons", SA, at=(10, 0), rr=[WK + ";BYDAY=SA;UNTIL=20270228T045959Z"])
FE("Book club every 2nd Wednesday of the month 7pm", "Book club", ["2026-03-11", "2026-12-09", "2027-01-13"], at=(19, 0),
   rr=["RRULE:FREQ=MONTHLY;BYDAY=2WE"])
FE("Daily standup 9:30 weekdays", "Daily standup", ["2026-03-10", "2026-12-07", "2027-01-01"], at=(9, 30), rr=[WEEKDAYS])
FE("Anniversary every year on Aug 22", "Anniversary", ["2026-08-22", "2027-08-22", "2027-08-22"], rr=["RRULE:FREQ=YEARLY"])
FE("Walk the dog every evening at 6:30", "Walk the dog", AT_EVENING, at=(18, 30), rr=["RRULE:FREQ=DAILY"])
FE("Guitar practice Mon/Wed 5pm", "Guitar practice", ["2026-03-11", "2026-12-07", "2027-01-04"], at=(17, 0), rr=[WK + ";BYDAY=MO,WE"])
# Zones.
FE("Call with Tokyo team 8am JST Thursday", "Call with Tokyo team", TH, at=(8, 0), zone="Asia/Tokyo")
FE("Webinar 2pm Pacific Wednesday", "Webinar", WE, at=(14, 0), zone="America/Los_Angeles")
FE("Standup 10:30 CET tomorrow", "Standup", TOMORROW, at=(10, 30), zone="Europe/Berlin")
# Places.
FE("Lunch at Joe's Diner Friday 12:30", "Lunch", FR, at=(12, 30), loc="Joe's Diner")
FE("Haircut @ Supercuts Thursday 4:15pm", "Haircut", TH, at=(16, 15), loc="Supercuts")
# Refusals.
FE("Meeting sometime next week", "", ["reject:vagueDate"] * 3)
FE("Call Bob Monday or Tuesday", "", ["reject:conflict"] * 3)
FE("Dinner 25:00 Friday", "", ["reject:invalidTime"] * 3)
FE("Trip April 31", "", ["reject:invalidDate"] * 3)
FE("Gym tonight at 7am", "", ["reject:conflict"] * 3)
FE("Party 9pm-9pm Saturday", "", ["reject:invalidRange"] * 3)
FE("Pick up Sam at 3:30 or 4", "", ["reject:conflict"] * 3)

# German. Clock times and ranges.
FG("Zahnarzt Mittwoch 8:15", "Zahnarzt", WE, at=(8, 15))
FG("Telefonkonferenz morgen 13:30 bis 14:15", "Telefonkonferenz", TOMORROW, at=(13, 30), to=(14, 15))
FG("Joggen um 6:30", "Joggen", AT_EARLY, at=(6, 30))
FG("Abendessen mit Lena Samstag um 8", "Abendessen mit Lena", SA, at=(20, 0))
FG("Besprechung 10-11 Uhr Donnerstag", "Besprechung", TH, at=(10, 0), to=(11, 0))
FG("Handwerker kommt Dienstag zwischen 8 und 12 Uhr", "Handwerker kommt", TU, at=(8, 0), to=(12, 0))
FG("Mittagspause um 12:30", "Mittagspause", AT_DAYTIME, at=(12, 30))
# Parts of the day.
FG("Anruf bei Mama heute Abend", "Anruf bei Mama", TODAY, at=(19, 0), past=(False, False, True))
FG("Frühstück mit Tom morgen früh", "Frühstück mit Tom", TOMORROW, at=(8, 0))
FG("Kita-Fest Samstagnachmittag", "Kita-Fest", SA, at=(15, 0))
FG("Präsentation Donnerstag vormittags", "Präsentation", TH, at=(10, 0))
FG("Nachtwanderung Freitag Nacht", "Nachtwanderung", FR_LATER, at=(21, 0))
# Dates.
FG("Hochzeit am 12.6.", "Hochzeit", ["2026-06-12", "2027-06-12", "2027-06-12"])
FG("Geburtstag Oma 3. Januar", "Geburtstag Oma", ["2027-01-03"] * 3)
FG("Klassentreffen am 17. Oktober 2027 um 18 Uhr", "Klassentreffen", ["2027-10-17"] * 3, at=(18, 0))
FG("Seminar vom 4. bis 6. Mai", "Seminar", ["2026-05-04", "2027-05-04", "2027-05-04"], last=["2026-05-06", "2027-05-06", "2027-05-06"])
FG("Urlaub 23.12.-2.1.", "Urlaub", ["2026-12-23", "2026-12-23", "2027-12-23"], last=["2027-01-02", "2027-01-02", "2028-01-02"])
FG("Abgabe Hausarbeit am 15.", "Abgabe Hausarbeit", ["2026-03-15", "2026-12-15", "2027-01-15"])
FG("Termin beim Amt in 2 Wochen", "Termin beim Amt", ["2026-03-24", "2026-12-18", "2027-01-14"])
FG("Rückruf in 45 Minuten", "Rückruf", ["2026-03-10", "2026-12-04", "2027-01-01"], exact=[(9, 45), (18, 15), (0, 15)])
FG("Elternabend nächsten Donnerstag 19:30", "Elternabend", TH, at=(19, 30))
FG("Autoverkauf übermorgen 10 Uhr", "Autoverkauf", ["2026-03-12", "2026-12-06", "2027-01-02"], at=(10, 0))
# Deadlines.
FG("Steuererklärung abgeben bis 31.7.", "Steuererklärung abgeben", ["2026-07-31", "2027-07-31", "2027-07-31"])
FG("Rechnung fällig am 10.1.", "Rechnung", ["2027-01-10"] * 3)
FG("Formular ausfüllen bis Montag 12 Uhr", "Formular ausfüllen", MO, at=(12, 0))
# Numbers that are not dates or times.
FG("3 Brötchen kaufen morgen", "3 Brötchen kaufen", TOMORROW)
FG("Update auf Version 2.4 Freitag", "Update auf Version 2.4", FR_LATER)
FG("Raum 204 reservieren Mittwoch 9 Uhr", "Raum 204 reservieren", WE, at=(9, 0))
FG("Zug ICE 578 morgen 7:42", "Zug ICE 578", TOMORROW, at=(7, 42))
FG("5-km-Lauf Sonntag 10 Uhr", "5-km-Lauf", SU, at=(10, 0))
FG("Miete zahlen am 1.", "Miete zahlen", ["2026-04-01", "2027-01-01", "2027-01-01"])
FG("B2-Prüfung Dienstag 14 Uhr", "B2-Prüfung", TU_LATER, at=(14, 0))
# Named holidays (de: Germany's dates; a name the event is about but not on, or that names several days, refused).
FG("Heiligabend bei Oma", "Heiligabend bei Oma", XMAS_EVE)
FG("Silvesterparty 20 Uhr", "Silvesterparty", NYE, at=(20, 0), past=(False, False, True))
FG("Ostersonntag Gottesdienst 10 Uhr", "Ostersonntag Gottesdienst", EASTER, at=(10, 0))
FG("Weihnachtsfeier Firma", "", NO_DAY)
FG("Adventskaffee am 1. Advent 15 Uhr", "Adventskaffee", ["2026-11-29", "2027-11-28", "2027-11-28"], at=(15, 0))
FG("Karfreitag frei", "Karfreitag frei", ["2026-04-03", "2027-03-26", "2027-03-26"])
FG("Silvester bei Jan", "Silvester bei Jan", NYE)
# Repeats.
FG("Chor jeden Mittwoch 19:30", "Chor", WE, at=(19, 30), rr=[WK + ";BYDAY=WE"])
FG("Blumen gießen alle 2 Tage", "Blumen gießen", TODAY, rr=["RRULE:FREQ=DAILY;INTERVAL=2"])
FG("Mathe-Nachhilfe dienstags und donnerstags 16 Uhr", "Mathe-Nachhilfe", TU_LATER, at=(16, 0), rr=[WK + ";BYDAY=TU,TH"])
FG("Monatsabschluss monatlich am letzten Freitag", "Monatsabschluss", ["2026-03-27", "2026-12-25", "2027-01-29"],
   rr=["RRULE:FREQ=MONTHLY;BYDAY=-1FR"])
FG("Putzfrau jeden zweiten Freitag 10 Uhr", "Putzfrau", FR, at=(10, 0), rr=[WK + ";INTERVAL=2;BYDAY=FR"])
FG("Müll raus jeden Dienstag bis 30.6.", "Müll raus", TU_LATER,
   rrs=[[WK + ";BYDAY=TU;UNTIL=20260630"], [WK + ";BYDAY=TU;UNTIL=20270630"], [WK + ";BYDAY=TU;UNTIL=20270630"]])
# Zones and places.
FG("Call mit New York 15 Uhr New Yorker Zeit morgen", "Call mit New York", TOMORROW, at=(15, 0), zone="America/New_York")
FG("Videokonferenz Montag 9 Uhr UTC", "Videokonferenz", MO, at=(9, 0), zone="UTC")
FG("Treffen im Café Central Freitag 15 Uhr", "Treffen", FR, at=(15, 0), loc="Café Central")
# Refusals.
FG("Termin irgendwann nächste Woche", "", ["reject:vagueDate"] * 3)
FG("Essen 14 Uhr abends", "", ["reject:conflict"] * 3)
FG("Party Samstag oder Sonntag", "", ["reject:conflict"] * 3)
FG("Arzt morgen 26 Uhr", "", ["reject:invalidTime"] * 3)
FG("Einkaufen gehen", "", R)

# A third held-out set (heldout-2026-12-05b), written by a session that had not read the misses of the sets
# above, from kinds in calendar apps' help pages (Todoist's recurring dates, Famundo's and GNOME California's quick
# add, Fantastical): `today@5p`, `8:30p`, `6ish`, slash and comma weekdays, `the 1st of every month`, `every 3rd
# Thursday`, holidays at the start or after `on`, holiday compounds, counts and codes in titles, zones, places,
# durations, refusals. Labelled by hand at the same three moments and committed before anything was run.
def NE(*args, **kw): P("heldout-2026-12-05b", "en", *args, **kw)
def NG(*args, **kw): P("heldout-2026-12-05b", "de", *args, **kw)


NEXT_DAY = ["2026-03-10", "2026-12-04", "2027-01-01"]  # today, but 2027-01-01 when minutes after 23:30 cross midnight
# Clock times and ranges.
NE("Haircut today@5p", "Haircut", TODAY, at=(17, 0), past=(False, True, True))
NE("Call insurance 8:30p tomorrow", "Call insurance", TOMORROW, at=(20, 30))
NE("Parent pickup 3:15 Wednesday", "Parent pickup", WE, at=(15, 15))
NE("Yoga class 6:30-7:45pm Thursday", "Yoga class", TH, at=(18, 30), to=(19, 45))
NE("Budget review 10-11:30 Monday", "Budget review", MO, at=(10, 0), to=(11, 30))
NE("Team retro 2:30 to 3:30 Friday", "Team retro", FR, at=(14, 30), to=(15, 30))
NE("Bake sale Saturday 7am-noon", "Bake sale", SA, at=(7, 0), to=(12, 0))
NE("Drinks with Sam 6ish Friday", "Drinks with Sam", FR_LATER, at=(18, 0))
NE("Call dad at 11:45", "Call dad", AT_DAYTIME, at=(11, 45))
NE("Standup at 9:05am", "Standup", AT_DAYTIME, at=(9, 5))
NE("Conference call 4pm-4:30pm tomorrow", "Conference call", TOMORROW, at=(16, 0), to=(16, 30))
NE("Movie night 7:30 Sunday", "Movie night", SU, at=(19, 30))
NE("Gym 5:45am every weekday", "Gym", ["2026-03-11", "2026-12-07", "2027-01-01"], at=(5, 45), rr=[WEEKDAYS])
# Parts of the day.
NE("Walk with Ellie this evening", "Walk with Ellie", TODAY, at=(19, 0), past=(False, False, True))
NE("Pay rent tomorrow morning", "Pay rent", TOMORROW, at=(9, 0))
NE("Grocery run Saturday afternoon", "Grocery run", SA, at=(15, 0))
NE("Call Priya at 9 tonight", "Call Priya", TODAY, at=(21, 0), past=(False, False, True))
NE("Read to kids at night", "Read to kids", AT_EVENING, at=(21, 0))
NE("Send invoices by end of day Friday", "Send invoices", FR, at=(17, 0))
NE("Team lunch Thursday at lunchtime", "Team lunch", TH, at=(12, 0))
# Dates.
NE("Dentist appointment on the 3rd at 2pm", "Dentist appointment", ["2026-04-03", "2027-01-03", "2027-01-03"], at=(14, 0))
NE("Mom's birthday May 17", "Mom's birthday", ["2026-05-17", "2027-05-17", "2027-05-17"])
NE("Passport appointment Jan 8 at 10:30am", "Passport appointment", ["2027-01-08"] * 3, at=(10, 30))
NE("Visit grandma 3/21", "Visit grandma", ["2026-03-21", "2027-03-21", "2027-03-21"])
NE("Graduation 2027-05-22 10am", "Graduation", ["2027-05-22"] * 3, at=(10, 0))
NE("Trip to Maine Aug 14-17", "Trip to Maine", ["2026-08-14", "2027-08-14", "2027-08-14"],
   last=["2026-08-17", "2027-08-17", "2027-08-17"])
NE("Camping trip Friday to Sunday", "Camping trip", FR_LATER, last=["2026-03-15", "2026-12-06", "2027-01-03"])
NE("Quarterly taxes due Sept 15th", "Quarterly taxes", ["2026-09-15", "2027-09-15", "2027-09-15"])
NE("Dinner at Luigi's December 23rd 7:30pm", "Dinner", ["2026-12-23", "2026-12-23", "2027-12-23"], at=(19, 30), loc="Luigi's")
NE("Pay credit card on the 25th", "Pay credit card", ["2026-03-25", "2026-12-25", "2027-01-25"])
NE("Seminar 12/10 at 3", "Seminar", ["2026-12-10", "2026-12-10", "2027-12-10"], at=(15, 0))
# Relative days and hours.
NE("Check on the roast in 45 minutes", "Check on the roast", NEXT_DAY, exact=[(9, 45), (18, 15), (0, 15)])
NE("Follow up with Kim in 2 days", "Follow up with Kim", ["2026-03-12", "2026-12-06", "2027-01-02"])
NE("Annual checkup in 1 year", "Annual checkup", ["2027-03-10", "2027-12-04", "2027-12-31"])
NE("Water plants day after tomorrow", "Water plants", ["2026-03-12", "2026-12-06", "2027-01-02"])
NE("Review PR next Wednesday 11am", "Review PR", WE, at=(11, 0))
NE("Team lunch next Friday", "Team lunch", FR)
NE("Call the bank in an hour", "Call the bank", NEXT_DAY, exact=[(10, 0), (18, 30), (0, 30)])
NE("Dentist in 3 weeks at 9am", "Dentist", ["2026-03-31", "2026-12-25", "2027-01-21"], at=(9, 0))
NE("Lunch with Bo Wednesday next week", "Lunch with Bo", ["2026-03-18", "2026-12-09", "2027-01-06"])
# Deadlines.
NE("Finish slides by Thursday noon", "Finish slides", TH, at=(12, 0))
NE("Library books due tomorrow", "Library books", TOMORROW)
NE("Renew registration no later than March 31", "Renew registration", ["2026-03-31", "2027-03-31", "2027-03-31"])
NE("Submit timesheet by 5pm", "Submit timesheet", AT_DAYTIME, at=(17, 0))
# Numbers that are not dates or times.
NE("Pick up 24 bagels Sunday 9am", "Pick up 24 bagels", SU, at=(9, 0))
NE("Call about invoice #2047 Monday", "Call about invoice #2047", MO)
NE("Meet in Conference Room 3B at 2", "Meet in Conference Room 3B", AT_DAYTIME, at=(14, 0))
NE("Install macOS 15.2 update tonight", "Install macOS 15.2 update", TODAY, at=(20, 0), past=(False, False, True))
NE("Run 10k Sunday 8am", "Run 10k", SU, at=(8, 0))
NE("Buy 2 lbs coffee tomorrow", "Buy 2 lbs coffee", TOMORROW)
NE("Order 6 pizzas for 20 people Friday 6pm", "Order 6 pizzas for 20 people", FR_LATER, at=(18, 0))
NE("Print 50 copies of agenda by 8am tomorrow", "Print 50 copies of agenda", TOMORROW, at=(8, 0))
NE("Flight AA 100 Monday 6:40am", "Flight AA 100", MO, at=(6, 40))
NE("Bus 42 downtown at 8:10", "Bus 42 downtown", AT_EARLY, at=(8, 10))
NE("Call 1-800-555-0199 about warranty Tuesday", "Call 1-800-555-0199 about warranty", TU_LATER)
NE("Top 10 list review Wed 4pm", "Top 10 list review", WE, at=(16, 0))
NE("Sprint 24 planning Monday 10am", "Sprint 24 planning", MO, at=(10, 0))
# Holidays.
NE("Fireworks on the Fourth of July 9pm", "Fireworks", ["2026-07-04", "2027-07-04", "2027-07-04"], at=(21, 0))
NE("Trick or treat on Halloween 5pm", "Trick or treat", ["2026-10-31", "2027-10-31", "2027-10-31"], at=(17, 0))
NE("Juneteenth cookout", "Juneteenth cookout", ["2026-06-19", "2027-06-19", "2027-06-19"])
NE("St. Patrick's Day parade 11am", "St. Patrick's Day parade", ["2026-03-17", "2027-03-17", "2027-03-17"], at=(11, 0))
NE("Xmas shopping on Christmas Eve", "Xmas shopping", ["2026-12-24", "2026-12-24", "2027-12-24"])
NE("Valentine's dinner 7pm", "Valentine's dinner", ["2027-02-14"] * 3, at=(19, 0))
NE("Labor Day picnic at the lake", "Labor Day picnic", ["2026-09-07", "2027-09-06", "2027-09-06"], loc="the lake")
NE("Buy Halloween candy Saturday", "Buy Halloween candy", SA)
NE("Mother's Day brunch 10:30", "Mother's Day brunch", ["2026-05-10", "2027-05-09", "2027-05-09"], at=(10, 30))
NE("Thanksgiving potluck 2pm", "Thanksgiving potluck", ["2026-11-26", "2027-11-25", "2027-11-25"], at=(14, 0))
# Repeats.
NE("Piano practice every Mon/Wed 4pm", "Piano practice", ["2026-03-11", "2026-12-07", "2027-01-04"], at=(16, 0),
   rr=[WK + ";BYDAY=MO,WE"])
NE("Trash out every Sunday night", "Trash out", SU, at=(21, 0), rr=[WK + ";BYDAY=SU"])
NE("Pay bills on the 1st of every month", "Pay bills", ["2026-04-01", "2027-01-01", "2027-01-01"],
   rr=["RRULE:FREQ=MONTHLY;BYMONTHDAY=1"])
NE("Book club every 3rd Thursday 7pm", "Book club", ["2026-03-19", "2026-12-17", "2027-01-21"], at=(19, 0),
   rr=["RRULE:FREQ=MONTHLY;BYDAY=3TH"])
NE("Retro every other Friday 3pm", "Retro", FR, at=(15, 0), rr=[WK + ";INTERVAL=2;BYDAY=FR"])
NE("Vitamins every day at 8am", "Vitamins", AT_EARLY, at=(8, 0), rr=["RRULE:FREQ=DAILY"])
NE("Anniversary every June 20", "Anniversary", ["2026-06-20", "2027-06-20", "2027-06-20"], rr=["RRULE:FREQ=YEARLY"])
NE("Spanish class Mondays and Wednesdays 6-7:30pm until May 27", "Spanish class", ["2026-03-11", "2026-12-07", "2027-01-04"],
   at=(18, 0), to=(19, 30), rrs=[[WK + ";BYDAY=MO,WE;UNTIL=20260528T035959Z"], [WK + ";BYDAY=MO,WE;UNTIL=20270528T035959Z"],
                                 [WK + ";BYDAY=MO,WE;UNTIL=20270528T035959Z"]])
NE("Swim lessons Tue/Thu at 4:30", "Swim lessons", TU_LATER, at=(16, 30), rr=[WK + ";BYDAY=TU,TH"])
NE("Standup every weekday at 9:30 starting Monday", "Standup", MO, at=(9, 30), rr=[WEEKDAYS])
NE("Newsletter monthly on the last Friday", "Newsletter", ["2026-03-27", "2026-12-25", "2027-01-29"],
   rr=["RRULE:FREQ=MONTHLY;BYDAY=-1FR"])
NE("Water lawn every 3 days at 6am", "Water lawn", AT_EARLY, at=(6, 0), rr=["RRULE:FREQ=DAILY;INTERVAL=3"])
NE("Lunch and learn every other Wednesday at noon", "Lunch and learn", WE, at=(12, 0), rr=[WK + ";INTERVAL=2;BYDAY=WE"])
NE("Tutoring every Tuesday and Thursday 3:30", "Tutoring", TU_LATER, at=(15, 30), rr=[WK + ";BYDAY=TU,TH"])
# Zones and places.
NE("Call with Tokyo team 9am JST Thursday", "Call with Tokyo team", TH, at=(9, 0), zone="Asia/Tokyo")
NE("Webinar 2pm PT tomorrow", "Webinar", TOMORROW, at=(14, 0), zone="America/Los_Angeles")
NE("Sync with Berlin office 4pm CET Monday", "Sync with Berlin office", MO, at=(16, 0), zone="Europe/Berlin")
NE("Coffee @ Blue Bottle 8am Saturday", "Coffee", SA, at=(8, 0), loc="Blue Bottle")
NE("Haircut at Supercuts Friday 4:15", "Haircut", FR, at=(16, 15), loc="Supercuts")
# Durations and all day.
NE("Study group Thursday 7pm for 2 hrs", "Study group", TH, at=(19, 0), dur=120)
NE("Massage Sunday 3pm 90 minutes", "Massage", SU, at=(15, 0), dur=90)
NE("Board games in 2 hours at Kate's for 90 minutes", "Board games", NEXT_DAY, exact=[(11, 0), (19, 30), (1, 30)], dur=90,
   loc="Kate's")
NE("Interview Monday 1:30pm 45 min", "Interview", MO, at=(13, 30), dur=45)
NE("Office closed all day Monday", "Office closed", MO)
NE("Conference Tuesday through Thursday", "Conference", TU_LATER, last=["2026-03-12", "2026-12-10", "2027-01-07"])
# Refusals.
NE("Pick up dry cleaning", "", R)
NE("Tomorrow 10am", "", ["reject:missingTitle"] * 3)
NE("Dinner Friday or Saturday 7pm", "", ["reject:conflict"] * 3)
NE("Catch up with Jo sometime this weekend", "", ["reject:vagueDate"] * 3)
NE("Call at 25:00 tomorrow", "", ["reject:invalidTime"] * 3)
NE("Doctor Feb 30 10am", "", ["reject:invalidDate"] * 3)
NE("Lunch tomorrow evening 1pm", "", ["reject:conflict"] * 3)
NE("Vacation next month", "", ["reject:vagueDate"] * 3)

# German.
NG("Zahnarzt Mittwoch 14:30", "Zahnarzt", WE, at=(14, 30))
NG("Friseur morgen um 11", "Friseur", TOMORROW, at=(11, 0))
NG("Elternsprechtag Donnerstag 16-18 Uhr", "Elternsprechtag", TH, at=(16, 0), to=(18, 0))
NG("Joggen morgen früh", "Joggen", TOMORROW, at=(8, 0))
NG("Mittagessen mit Oma Sonntag um halb 1", "Mittagessen mit Oma", SU, at=(12, 30))
NG("Kita-Fest Samstag 10 bis 14 Uhr", "Kita-Fest", SA, at=(10, 0), to=(14, 0))
NG("Telefonkonferenz 9:15 Uhr Montag", "Telefonkonferenz", MO, at=(9, 15))
NG("Theater Freitag 19:30", "Theater", FR_LATER, at=(19, 30))
NG("Laufen gehen heute Abend", "Laufen gehen", TODAY, at=(19, 0), past=(False, False, True))
NG("Wocheneinkauf Samstagvormittag", "Wocheneinkauf", SA, at=(10, 0))
NG("Nachhilfe Mittwochnachmittag", "Nachhilfe", WE, at=(15, 0))
NG("Mittagspause 12:30-13:15", "Mittagspause", AT_DAYTIME, at=(12, 30), to=(13, 15))
NG("Anruf bei der Bank Freitag 11:00", "Anruf bei der Bank", FR, at=(11, 0))
NG("Geburtstag Lisa am 14. Mai", "Geburtstag Lisa", ["2026-05-14", "2027-05-14", "2027-05-14"])
NG("Zahnarzt 3.4. 8:30", "Zahnarzt", ["2026-04-03", "2027-04-03", "2027-04-03"], at=(8, 30))
NG("Urlaub 27.7.-7.8.", "Urlaub", ["2026-07-27", "2027-07-27", "2027-07-27"], last=["2026-08-07", "2027-08-07", "2027-08-07"])
NG("Hochzeit von Tim und Anna 12.06.2027 14 Uhr", "Hochzeit von Tim und Anna", ["2027-06-12"] * 3, at=(14, 0))
NG("Arzttermin in 2 Wochen", "Arzttermin", ["2026-03-24", "2026-12-18", "2027-01-14"])
NG("Wäsche aufhängen in 30 Minuten", "Wäsche aufhängen", NEXT_DAY, exact=[(9, 30), (18, 0), (0, 0)])
NG("Kaffee mit Jana übermorgen um 3", "Kaffee mit Jana", ["2026-03-12", "2026-12-06", "2027-01-02"], at=(15, 0))
NG("Elternabend nächsten Dienstag 19:30", "Elternabend", TU, at=(19, 30))
NG("Rechnung bezahlen bis Montag", "Rechnung bezahlen", MO)
NG("Projektabgabe fällig am 20.1.", "Projektabgabe", ["2027-01-20"] * 3)
NG("Steuer spätestens am 31. Juli", "Steuer", ["2026-07-31", "2027-07-31", "2027-07-31"])
NG("3 Kisten Wasser holen Freitag", "3 Kisten Wasser holen", FR_LATER)
NG("3x Pizza bestellen Samstag 19 Uhr", "3x Pizza bestellen", SA, at=(19, 0))
NG("Raum 204 buchen Dienstag 10 Uhr", "Raum 204 buchen", TU_LATER, at=(10, 0))
NG("Update auf Version 2.4 Donnerstag", "Update auf Version 2.4", TH_ALLDAY)
NG("ICE 598 Montag 7:12", "ICE 598", MO, at=(7, 12))
NG("Zugfahrt nach Hamburg Sonntag 8:05 Uhr", "Zugfahrt nach Hamburg", SU, at=(8, 5))
NG("Weihnachtsmarkt am 2. Advent", "Weihnachtsmarkt", ["2026-12-06", "2026-12-06", "2027-12-05"])
NG("Heiligabend bei Oma 18 Uhr", "Heiligabend bei Oma", ["2026-12-24", "2026-12-24", "2027-12-24"], at=(18, 0))
NG("Osterbrunch am Ostersonntag 11 Uhr", "Osterbrunch", EASTER, at=(11, 0))
NG("Grillen am Tag der Arbeit", "Grillen", ["2026-05-01", "2027-05-01", "2027-05-01"])
NG("Neujahrsempfang am 8. Januar 18 Uhr", "Neujahrsempfang", ["2027-01-08"] * 3, at=(18, 0))
NG("Muttertagsbrunch 10 Uhr", "Muttertagsbrunch", ["2026-05-10", "2027-05-09", "2027-05-09"], at=(10, 0))
NG("Neujahrsspaziergang 14 Uhr", "Neujahrsspaziergang", ["2027-01-01"] * 3, at=(14, 0))
NG("Chorprobe jeden Donnerstag 20 Uhr", "Chorprobe", TH, at=(20, 0), rr=[WK + ";BYDAY=TH"])
NG("Sport Di/Do 18 Uhr", "Sport", TU_LATER, at=(18, 0), rr=[WK + ";BYDAY=TU,TH"])
NG("Müll rausbringen jeden zweiten Donnerstag", "Müll rausbringen", TH_ALLDAY, rr=[WK + ";INTERVAL=2;BYDAY=TH"])
NG("Tabletten täglich um 8 Uhr", "Tabletten", AT_EARLY, at=(8, 0), rr=["RRULE:FREQ=DAILY"])
NG("Teammeeting montags 9:30", "Teammeeting", MO, at=(9, 30), rr=[WK + ";BYDAY=MO"])
NG("Miete zahlen monatlich am 1.", "Miete zahlen", ["2026-04-01", "2027-01-01", "2027-01-01"], rr=["RRULE:FREQ=MONTHLY;BYMONTHDAY=1"])
NG("Yoga mittwochs 19 Uhr bis 24.6.", "Yoga", WE, at=(19, 0),
   rrs=[[WK + ";BYDAY=WE;UNTIL=20260624T215959Z"], [WK + ";BYDAY=WE;UNTIL=20270624T215959Z"], [WK + ";BYDAY=WE;UNTIL=20270624T215959Z"]])
NG("Call mit Boston 10 Uhr ET Freitag", "Call mit Boston", FR, at=(10, 0), zone="America/New_York")
NG("Treffen im Biergarten Samstag 16 Uhr", "Treffen", SA, at=(16, 0), loc="Biergarten")
NG("Workshop Mittwoch 9 Uhr für 3 Stunden", "Workshop", WE, at=(9, 0), dur=180)
NG("Fortbildung Montag ganztägig", "Fortbildung", MO)
NG("Fenster putzen", "", R)
NG("Treffen irgendwann am Wochenende", "", ["reject:vagueDate"] * 3)
NG("Arzt 31.4. 10 Uhr", "", ["reject:invalidDate"] * 3)
NG("morgen 9 Uhr", "", ["reject:missingTitle"] * 3)
NG("Kino Samstag oder Sonntag 20 Uhr", "", ["reject:conflict"] * 3)
NG("Besprechung morgen früh um 19 Uhr", "", ["reject:conflict"] * 3)

here = os.path.dirname(os.path.abspath(__file__))
for name, lines in OUT.items():
    with open(os.path.join(here, name + ".jsonl"), "w", encoding="utf-8") as f:
        for line in lines:
            f.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")
    print(f"{name}: {len(lines)} labelled phrase-moments")
