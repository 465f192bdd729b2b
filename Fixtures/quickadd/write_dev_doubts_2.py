#!/usr/bin/env python3
"""Writes dev-doubts-2.jsonl: the second development set for quick-add's doubts (docs/quick-add.md, "Doubts").

New phrases of the kinds people type into calendar apps, written and labelled by hand, to find kinds of silent
mistake the first set (write_dev_doubts.py) does not show: approximate times ("9ish", "gegen 9", "ca. 15 Uhr",
"~5:30"), an hour at the end of a place ("at the gym 6"), hours written as words ("at seven", "um acht", "halb
sieben"), shorthand ("tmr", "tonite", "w/", "M-F", "Mo-Fr"), "14h", "dreiviertel 10", durations in short units
("2 hrs", "45 mins"), spans of a month ("Ende März"), counts and chapters in titles. Same three reference moments and
zones as the first set; a label is what the writer means, not what the parser does. Run:
python3 Fixtures/quickadd/write_dev_doubts_2.py
"""
import datetime as dt

import write_dev_doubts as base
from write_dev_doubts import MOMENTS, TOMORROW, WK, E, G, nxt, on, soonest, MO, TU, WE, TH, FR, SA, SU

# The first set's phrases were collected when it was imported; this set starts empty.
base.LINES.clear()

TODAY = [now.date().isoformat() for now in MOMENTS]
WEEKDAYS = WK + ";BYDAY=MO,TU,WE,TH,FR"


def days_later(n):
    return [(now.date() + dt.timedelta(days=n)).isoformat() for now in MOMENTS]


def next_weekday_at(at):
    """The next Monday to Friday whose time `at` is still ahead, per moment (a weekday repeat's first day)."""
    out = []
    for now in MOMENTS:
        day = now.date()
        while day.isoweekday() > 5 or (day == now.date() and (at[0], at[1]) <= (now.hour, now.minute)):
            day += dt.timedelta(days=1)
        out.append(day.isoformat())
    return out


def next_third():
    """The next 3rd of a month on or after each moment's date."""
    out = []
    for now in MOMENTS:
        d = now.date()
        d = dt.date(d.year, d.month, 3) if d.day <= 3 else dt.date(d.year + (d.month == 12), d.month % 12 + 1, 3)
        out.append(d.isoformat())
    return out


# English.
E("Coffee with Dana 9ish tomorrow", "Coffee with Dana", TOMORROW, at=(9, 0))
E("Call the plumber around 10 Thursday", "Call the plumber", nxt(TH, (10, 0)), at=(10, 0))
E("Drinks with the team Friday 6-ish", "Drinks with the team", nxt(FR, (18, 0)), at=(18, 0))
E("Pickup from daycare ~5:45", "Pickup from daycare", soonest((17, 45)), at=(17, 45))
E("Team dinner Thursday 7ish", "Team dinner", nxt(TH, (19, 0)), at=(19, 0))
E("Call Ben at 2:30ish", "Call Ben", soonest((14, 30)), at=(14, 30))
E("Lunch w/ Ana noonish Friday", "Lunch w/ Ana", nxt(FR, (12, 0)), at=(12, 0))
E("Call insurance around noon", "Call insurance", soonest((12, 0)), at=(12, 0))
E("Meet Liz at the gym 6 tomorrow", "Meet Liz", TOMORROW, at=(18, 0), loc="the gym")
E("Brunch at Cafe Rose 11 Sunday", "Brunch", nxt(SU, (11, 0)), at=(11, 0), loc="Cafe Rose")
E("Poker at Dave's 8 Friday", "Poker", nxt(FR, (20, 0)), at=(20, 0), loc="Dave's")
E("Game night @ Ben's 8", "Game night", soonest((20, 0)), at=(20, 0), loc="Ben's")
E("Dinner at Nopa 7:30 Saturday", "Dinner", nxt(SA, (19, 30)), at=(19, 30), loc="Nopa")
E("Dinner 7 at Luigi's", "Dinner", soonest((19, 0)), at=(19, 0), loc="Luigi's")
E("Meet Chris at the pub at 9 Friday", "Meet Chris", nxt(FR, (21, 0)), at=(21, 0), loc="the pub")
E("Lunch 12:30 at Chipotle w/ Raj", "Lunch w/ Raj", soonest((12, 30)), at=(12, 30), loc="Chipotle")
E("Call Sam tmr 3pm", "Call Sam", TOMORROW, at=(15, 0))
E("Movie tonite 9:40", "Movie", TODAY, at=(21, 40))
E("Team lunch tmrw at noon", "Team lunch", TOMORROW, at=(12, 0))
E("Parent call at three tomorrow", "Parent call", TOMORROW, at=(15, 0))
E("Dinner at seven Friday", "Dinner", nxt(FR, (19, 0)), at=(19, 0))
E("Lunch at one with Kim tomorrow", "Lunch with Kim", TOMORROW, at=(13, 0))
E("Standup 9:30 M-F", "Standup", next_weekday_at((9, 30)), at=(9, 30), rr=[WEEKDAYS])
E("Haircut Thurs 4:15", "Haircut", nxt(TH, (16, 15)), at=(16, 15))
E("Vacation Dec 21 - Jan 4", "Vacation", on(12, 21), last=["2027-01-04", "2027-01-04", "2028-01-04"])
E("Pay credit card bill on the 25th", "Pay credit card bill", ["2026-03-25", "2026-12-25", "2027-01-25"])
E("Yoga Tuesdays 6:30", "Yoga", nxt(TU, (18, 30)), at=(18, 30), rr=[WK + ";BYDAY=TU"])
E("Morning jog 6:15", "Morning jog", soonest((6, 15)), at=(6, 15))
E("Dinner reservation 8:15 tonight", "Dinner reservation", TODAY, at=(20, 15))
E("Call Grandma Sunday afternoon around 2", "Call Grandma", nxt(SU, (14, 0)), at=(14, 0))
E("Follow-up visit 2 weeks from today", "Follow-up visit", days_later(14))
E("Review PR in the afternoon", "Review PR", soonest((15, 0)), at=(15, 0))
E("Bday party for Mia Sat 2-4", "Bday party for Mia", nxt(SA, (14, 0)), at=(14, 0), to=(16, 0))
E("Meeting w/ landlord noon Wed", "Meeting w/ landlord", nxt(WE, (12, 0)), at=(12, 0))
E("Return Amazon package by 12/15", "Return Amazon package", on(12, 15))
E("Book flights for 2 by Jan 10", "Book flights for 2", on(1, 10))
E("Reading group ch. 5-7 Wednesday 6pm", "Reading group ch. 5-7", nxt(WE, (18, 0)), at=(18, 0))
E("Sprint planning 2 hrs Monday 10am", "Sprint planning", nxt(MO, (10, 0)), at=(10, 0), to=(12, 0))
E("Interview 45 mins tomorrow 11am", "Interview", TOMORROW, at=(11, 0), dur=45)
E("Dentist @ 2:30 wed", "Dentist", nxt(WE, (14, 30)), at=(14, 30))
E("Lunch 1 tomorrow", "Lunch", TOMORROW, at=(13, 0))
E("Flight BA 287 departs 4:50pm Mon", "Flight BA 287 departs", nxt(MO, (16, 50)), at=(16, 50))
E("Tennis 8 am Sat", "Tennis", nxt(SA, (8, 0)), at=(8, 0))
E("Car inspection due 3/31", "Car inspection", on(3, 31))

# German.
G("Kaffee mit Jana gegen 9 morgen", "Kaffee mit Jana", TOMORROW, at=(9, 0))
G("Treffen mit Paul ca. 15 Uhr Freitag", "Treffen mit Paul", nxt(FR, (15, 0)), at=(15, 0))
G("Grillen bei Tom Samstag so gegen 6", "Grillen bei Tom", nxt(SA, (18, 0)), at=(18, 0))
G("Fußball gucken heute Abend gegen 9", "Fußball gucken", TODAY, at=(21, 0))
G("Oma anrufen gegen halb 5", "Oma anrufen", soonest((16, 30)), at=(16, 30))
G("Mittagessen ca. 12", "Mittagessen", soonest((12, 0)), at=(12, 0))
G("Essen gehen mit Kollegen Do. ca. 12:30", "Essen gehen mit Kollegen", nxt(TH, (12, 30)), at=(12, 30))
G("Sport im Fitnessstudio 7 morgen", "Sport", TOMORROW, at=(19, 0), loc="Fitnessstudio")
G("Treffen im Café Central 10 morgen", "Treffen", TOMORROW, at=(10, 0), loc="Café Central")
G("Abendessen um acht im Restaurant Adler", "Abendessen", soonest((20, 0)), at=(20, 0), loc="Restaurant Adler")
G("Essen bei Oma Sonntag um eins", "Essen bei Oma", nxt(SU, (13, 0)), at=(13, 0))
G("Meeting um neun morgen", "Meeting", TOMORROW, at=(9, 0))
G("Sport um halb sieben", "Sport", soonest((18, 30)), at=(18, 30))
G("Zahnarzt um dreiviertel 10", "Zahnarzt", soonest((9, 45)), at=(9, 45))
G("Meeting 14h Donnerstag", "Meeting", nxt(TH, (14, 0)), at=(14, 0))
G("Telko 9:30h morgen", "Telko", TOMORROW, at=(9, 30))
G("Mittagspause 12-13h", "Mittagspause", soonest((12, 0)), at=(12, 0), to=(13, 0))
G("Frühschicht Mo-Fr 6 Uhr", "Frühschicht", next_weekday_at((6, 0)), at=(6, 0), rr=[WEEKDAYS])
G("Abgabe Hausarbeit Ende März", "Abgabe Hausarbeit", on(3, 31))
# "kommenden Dienstag" said on a Tuesday is next week's.
G("Steuerberater am kommenden Dienstag 11 Uhr", "Steuerberater", ["2026-03-17", "2026-12-08", "2027-01-05"], at=(11, 0))
G("Arzttermin übermorgen 10:15", "Arzttermin", days_later(2), at=(10, 15))
G("Team-Frühstück Freitag halb 9", "Team-Frühstück", nxt(FR, (8, 30)), at=(8, 30))
G("Chorprobe mittwochs 19.30 Uhr", "Chorprobe", nxt(WE, (19, 30)), at=(19, 30), rr=[WK + ";BYDAY=WE"])
G("Laufen Di+Do 6:30", "Laufen", ["2026-03-12", "2026-12-08", "2027-01-05"], at=(6, 30), rr=[WK + ";BYDAY=TU,TH"])
G("Reifenwechsel in 2 Wochen", "Reifenwechsel", days_later(14))
G("Zahnarzttermin in zwei Wochen", "Zahnarzttermin", days_later(14))
G("Kinderarzt Do. 15:45", "Kinderarzt", nxt(TH, (15, 45)), at=(15, 45))
G("Fahrschule morgen 17-18.30 Uhr", "Fahrschule", TOMORROW, at=(17, 0), to=(18, 30))
G("Konzert in der Philharmonie 20 Uhr am 19.12.", "Konzert", on(12, 19), at=(20, 0), loc="der Philharmonie")
G("Frisör Sa. 9", "Frisör", nxt(SA, (9, 0)), at=(9, 0))
G("Mittagessen mit Chef 12 Uhr 30 morgen", "Mittagessen mit Chef", TOMORROW, at=(12, 30))
G("Spieleabend bei Max um 7", "Spieleabend bei Max", soonest((19, 0)), at=(19, 0))
G("Zugfahrt nach Hamburg morgen 6.12 Uhr", "Zugfahrt nach Hamburg", TOMORROW, at=(6, 12))
G("Weinprobe Freitagabend 19 Uhr", "Weinprobe", nxt(FR, (19, 0)), at=(19, 0))
G("Kaffeeklatsch Sonntag 15-17 Uhr", "Kaffeeklatsch", nxt(SU, (15, 0)), at=(15, 0), to=(17, 0))
G("Termin beim Amt am 3. um 10", "Termin beim Amt", next_third(), at=(10, 0))
G("Müll rausstellen Mittwoch Abend", "Müll rausstellen", nxt(WE, (19, 0)), at=(19, 0))
G("Kino heute um 8", "Kino", TODAY, at=(20, 0))
G("Besuch bei Oma in 3 Tagen um 15 Uhr", "Besuch bei Oma", days_later(3), at=(15, 0))
G("Stammtisch jeden ersten Freitag im Monat 19 Uhr", "Stammtisch", ["2026-04-03", "2026-12-04", "2027-01-01"], at=(19, 0),
  rr=["RRULE:FREQ=MONTHLY;BYDAY=1FR"])
G("Abendessen mit Eltern So 18:30", "Abendessen mit Eltern", nxt(SU, (18, 30)), at=(18, 30))
G("Lieferung zwischen 8 und 12 Uhr morgen", "Lieferung", TOMORROW, at=(8, 0), to=(12, 0))
G("Putzfrau kommt jeden zweiten Dienstag", "Putzfrau kommt", nxt(TU), rr=[WK + ";INTERVAL=2;BYDAY=TU"])
G("Treffen gegen Mittag", "Treffen", soonest((12, 0)), at=(12, 0))
G("Flohmarkt Samstag früh", "Flohmarkt", nxt(SA, (8, 0)), at=(8, 0))

if __name__ == "__main__":
    base.write("dev-doubts-2.jsonl", base.LINES)
