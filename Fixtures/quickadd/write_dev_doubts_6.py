#!/usr/bin/env python3
"""Writes dev-doubts-6.jsonl: a sixth development set for quick-add, phrases written and labelled by hand.

Written on 2026-12-06 by a helper session that opened neither the parser, its tests and benches, nor any
held-out or doubts file (other phrase files were loaded by a script only to check, case-insensitively, that no
phrase repeats one of theirs). Labels are what the writer of each phrase means, as a person typing into a
calendar app; where a phrase leaves something open they follow docs/quick-add.md (default hours and durations,
parts of the day, deadlines, past times, a repeat's first occurrence); where the docs or a careful parser
refuse, the refusal. Written as a held-out set would be: everyday meetings, errands, appointments, travel,
deadlines, birthdays, classes, sports, shifts and repeats as people type them, and about 40% harder kinds
(approximate and bare hours, ranges across noon and midnight, look-alikes such as versions, tickets, rooms,
prices, scores, phone numbers, addresses, flight and train numbers, deadlines, next/this/last weekdays, dates
in several forms, parts of the day, zones, repeats with ends and counts, German colloquial forms, holidays).

Moments (as moments-*.jsonl): Tuesday 2026-03-10 09:00, Friday 2026-12-04 17:30, Thursday 2026-12-31
23:30; English in America/New_York, German in Europe/Berlin. The helpers below (taken from
write_dev_doubts_5.py so that this file stands alone) only do calendar arithmetic for meanings stated by hand
in each line; the script never runs calbridge. Standard library only.
Run: python3 Fixtures/quickadd/write_dev_doubts_6.py
"""
import datetime as dt

from dev_set_labels import *  # noqa: F403 (the shared helpers and the LINES they collect)


def EASTER(y):
    a, b, c = y % 19, y // 100, y % 100
    d, e = b // 4, b % 4
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = c // 4, c % 4
    l = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * l) // 451
    month = (h + l - 7 * m + 114) // 31
    day = (h + l - 7 * m + 114) % 31 + 1
    return dt.date(y, month, day)


def NTH_WD_OF(y, month, n, wd):
    """the n-th (n=-1: last) weekday wd (0=Monday) of a month"""
    if n == -1:
        d = dt.date(y + (month == 12), month % 12 + 1, 1) - dt.timedelta(days=1)
        while d.weekday() != wd:
            d -= dt.timedelta(days=1)
        return d
    d = dt.date(y, month, 1)
    while d.weekday() != wd:
        d += dt.timedelta(days=1)
    return d + dt.timedelta(weeks=n - 1)


# ---------------------------------------------------------------- English (America/New_York)
# meetings and work
E("skip-level w/ Raj thurs 11:30", "skip-level w/ Raj", WD("thu", (11, 30)), at=(11, 30))
E("Sprint retro tomorrow 4-5", "Sprint retro", PLUS(1), at=(16, 0), to=(17, 0))
E("Interview candidate (backend) Monday 10:30-11:15am", "Interview candidate (backend)", WD("mon", (10, 30)),
  at=(10, 30), to=(11, 15))
E("All hands 12/17 1pm", "All hands", MD(12, 17), at=(13, 0))
E("Vendor demo 2pm PT tmrw", "Vendor demo", PLUS(1), at=(14, 0), zone="America/Los_Angeles")
E("Call w/ Berlin team 9am CET monday", "Call w/ Berlin team", WD("mon"), at=(9, 0), zone="Europe/Berlin")
E("Release v2.4.1 go/no-go fri 3pm", "Release v2.4.1 go/no-go", WD("fri", (15, 0)), at=(15, 0))
E("Postmortem INC-4471 tmrw 11am", "Postmortem INC-4471", PLUS(1), at=(11, 0))
E("Budget review w/ CFO next Tuesday at 9", "Budget review w/ CFO", NEXT("tue"), at=(9, 0))
E("Offsite planning, Thursday 1-4:30", "Offsite planning", WD("thu", (13, 0)), at=(13, 0), to=(16, 30))
E("Present Q4 numbers to leadership Dec 15 @ 10", "Present Q4 numbers to leadership", MD(12, 15), at=(10, 0))
E("Team lunch @ Chipotle friday noon", "Team lunch", WD("fri", (12, 0)), at=(12, 0), loc="Chipotle")
E("quarterly board prep wed 2-3:30 in conf rm 4B", "quarterly board prep in conf rm 4B", WD("wed", (14, 0)),
  at=(14, 0), to=(15, 30))
E("Triage PAY-208 and PAY-211 thurs 2pm", "Triage PAY-208 and PAY-211", WD("thu", (14, 0)), at=(14, 0))
E("Focus time tmrw 11:30-12:30", "Focus time", PLUS(1), at=(11, 30), to=(12, 30))

# deadlines
E("Submit expense report by Friday", "Submit expense report", WD("fri"))
E("Grant application due 1/15 5pm", "Grant application", MD(1, 15), at=(17, 0))
E("Timesheets due EOD tomorrow", "Timesheets", PLUS(1), at=(17, 0))
E("Final paper due the 20th by 11:59pm", "Final paper", NTH(20), at=(23, 59))
E("Pay Con Ed bill by 12/22", "Pay Con Ed bill", MD(12, 22))
E("Renew passport no later than Feb 28", "Renew passport", MD(2, 28))
E("RSVP to Kim's wedding before April 1", "RSVP to Kim's wedding", MD(4, 1))
E("Tax docs to accountant by end of February", "Tax docs to accountant", NEXT_MONTH_END(2))
E("Cancel Hulu before the 14th", "Cancel Hulu", NTH(14))
E("Venmo Jess $42.50 for concert tix by fri", "Venmo Jess $42.50 for concert tix", WD("fri"))
E("Car rental return Hertz by 10am Monday", "Car rental return Hertz", WD("mon", (10, 0)), at=(10, 0))
E("iOS 19.1 update test plan due 12/9", "iOS 19.1 update test plan", MD(12, 9))
E("Quarterly estimated tax due on the 15th", "Quarterly estimated tax", NTH(15))
E("Return Amazon pkg at UPS store b4 6", "Return Amazon pkg", BARE((18, 0)), at=(18, 0), loc="UPS store")

# appointments and medical
E("Derm appt 2:20 wed", "Derm appt", WD("wed", (14, 20)), at=(14, 20))
E("Eye exam @ LensCrafters Sat 10:40a", "Eye exam", WD("sat", (10, 40)), at=(10, 40), loc="LensCrafters")
E("annual physical w dr. patel 3/24 8:15", "annual physical w dr. patel", MD(3, 24), at=(8, 15))
E("Allergy shot 4:45 tmrw", "Allergy shot", PLUS(1), at=(16, 45))
E("Therapy session tuesday 6:30pm", "Therapy session", WD("tue", (18, 30)), at=(18, 30))
E("Kids' dentist cleaning Dec 22 at 2", "Kids' dentist cleaning", MD(12, 22), at=(14, 0))
E("Call Dr Lee's office 212-555-0198 tmrw morning", "Call Dr Lee's office 212-555-0198", PLUS(1), at=(9, 0))
E("MRI left shoulder 1/6 7:10am - no food after midnight", "MRI left shoulder - no food after midnight", MD(1, 6),
  at=(7, 10))

# kids and school
E("Early dismissal 12:30 wed", "Early dismissal", WD("wed", (12, 30)), at=(12, 30))
E("Science fair setup thurs 3:15-4", "Science fair setup", WD("thu", (15, 15)), at=(15, 15), to=(16, 0))
E("Picture day!! Oct 6", "Picture day!!", MD(10, 6))
E("pick up Noah from robotics 5:45", "pick up Noah from robotics", BARE((17, 45)), at=(17, 45))
E("No school - teacher workday 1/19", "No school - teacher workday", MD(1, 19))
_sb = MD(3, 30)
E("Spring break 3/30-4/3", "Spring break", _sb, last=RANGE_END(_sb, 4, 3))
E("Lily's recital sat 2pm @ Lincoln HS auditorium", "Lily's recital", WD("sat", (14, 0)), at=(14, 0),
  loc="Lincoln HS auditorium")
E("field trip form + $12 due thurs", "field trip form + $12", WD("thu"))
E("Ref U10 game sat 11", "Ref U10 game", WD("sat", (11, 0)), at=(11, 0))

# travel
E("Flight UA 1549 LGA-CLT tmrw 3:25pm", "Flight UA 1549 LGA-CLT", PLUS(1), at=(15, 25))
E("Amtrak 171 to DC Friday 6:05am", "Amtrak 171 to DC", WD("fri", (6, 5)), at=(6, 5))
E("Hotel check-in @ Marriott Downtown 12/18 3pm", "Hotel check-in", MD(12, 18), at=(15, 0), loc="Marriott Downtown")
_sk = MD(1, 15)
E("Ski trip Jan 15-18", "Ski trip", _sk, last=RANGE_END(_sk, 1, 18))
E("Drive to Boston Sat morning", "Drive to Boston", WD("sat", (9, 0)), at=(9, 0))
E("Overnight bus to Montreal dec 20 11:15pm", "Overnight bus to Montreal", MD(12, 20), at=(23, 15))
E("Uber to JFK 5:15am Sunday", "Uber to JFK", WD("sun", (5, 15)), at=(5, 15))
E("Delta 2287 to ATL 12/23 6:50am", "Delta 2287 to ATL", MD(12, 23), at=(6, 50))
E("NJ Transit 3867 at 7:12 from Princeton Jct tmrw", "NJ Transit 3867 from Princeton Jct", PLUS(1), at=(7, 12))

# birthdays and anniversaries
E("Mom's bday 4/2", "Mom's bday", MD(4, 2))
E("Grandpa turns 90!! party sun 1pm", "Grandpa turns 90!! party", WD("sun", (13, 0)), at=(13, 0))
E("Jake's birthday every year on June 9", "Jake's birthday", MD(6, 9), rr=["RRULE:FREQ=YEARLY"])
E("Anniversary dinner @ Le Bernardin 3/21 8:30", "Anniversary dinner", MD(3, 21), at=(20, 30), loc="Le Bernardin")

# classes
_p = FIRST_WEEKLY(["wed"], (18, 30))
E("Pottery class every Wed 6:30-8:30pm through Feb 24", "Pottery class", _p, at=(18, 30), to=(20, 30),
  rr=UNTIL_EACH(W(["wed"]), MD(2, 24), NY))
E("Spanish tutoring Thursdays 4pm x6", "Spanish tutoring", FIRST_WEEKLY(["thu"], (16, 0)), at=(16, 0),
  rr=[W(["thu"]) + ";COUNT=6"])
E("STAT 301 midterm Oct 14 9:30am in Rm 112", "STAT 301 midterm in Rm 112", MD(10, 14), at=(9, 30))
_sw = FIRST_WEEKLY(["sat"], (9, 0))
E("Swim lessons every sat 9-9:45 for 8 weeks", "Swim lessons", _sw, at=(9, 0), to=(9, 45),
  rr=lambda i: [W(["sat"]) + ";UNTIL=" + SPAN_UNTIL(_sw, 56, NY)[i]])
E("Lecture: History of 1848 revolutions Mon 10:10am", "Lecture: History of 1848 revolutions", WD("mon", (10, 10)),
  at=(10, 10))

# sports
E("Rec league bball game 8:40pm thurs @ YMCA", "Rec league bball game", WD("thu", (20, 40)), at=(20, 40), loc="YMCA")
E("Watch Jets vs Pats 1pm sun", "Watch Jets vs Pats", WD("sun", (13, 0)), at=(13, 0))
E("Tee time 7:52 sat @ Bethpage Black", "Tee time", WD("sat", (7, 52)), at=(7, 52), loc="Bethpage Black")
E("Half marathon Sunday 7am @ Prospect Park", "Half marathon", WD("sun", (7, 0)), at=(7, 0), loc="Prospect Park")
E("Pickleball w/ the guys tmrw 6-8pm", "Pickleball w/ the guys", PLUS(1), at=(18, 0), to=(20, 0))
E("Team pizza after 3-1 win sat 6pm", "Team pizza after 3-1 win", WD("sat", (18, 0)), at=(18, 0))

# social plans
E("Drinks w/ old roommates @ McSorley's thurs 7ish", "Drinks w/ old roommates", WD("thu", (19, 0)), at=(19, 0),
  loc="McSorley's")
E("Housewarming at Tara's Sat 4-9pm", "Housewarming", WD("sat", (16, 0)), at=(16, 0), to=(21, 0), loc="Tara's")
E("Game night at our place fri 8", "Game night", WD("fri", (20, 0)), at=(20, 0), loc="our place")
E("Brunch w/ Sophie Sun 11:30", "Brunch w/ Sophie", WD("sun", (11, 30)), at=(11, 30))
E("Wine tasting 12/12 6-8", "Wine tasting", MD(12, 12), at=(18, 0), to=(20, 0))
E("Phoebe Bridgers concert @ MSG 3/28 8pm", "Phoebe Bridgers concert", MD(3, 28), at=(20, 0), loc="MSG")
E("Late dinner w/ clients 9:30 thurs", "Late dinner w/ clients", WD("thu", (21, 30)), at=(21, 30))
E("Call grandma tonight around 8", "Call grandma", TODAY(), at=(20, 0))
E("Dinner this Friday 8pm w/ the Parks", "Dinner w/ the Parks", THIS("fri"), at=(20, 0))

# errands
E("Costco run sat morning", "Costco run", WD("sat", (9, 0)), at=(9, 0))
E("Get snow tires put on Nov 3 at 8", "Get snow tires put on", MD(11, 3), at=(8, 0))
E("Pick up cake from Carvel 11/25 noon", "Pick up cake from Carvel", MD(11, 25), at=(12, 0))
E("drop off donations at Goodwill this sat", "drop off donations", THIS("sat"), loc="Goodwill")
E("Call plumber around 10", "Call plumber", BARE((10, 0)), at=(10, 0))
E("Meet contractor at the house ~2:30 tmrw", "Meet contractor", PLUS(1), at=(14, 30), loc="the house")
E("Pick up keys at 245 W 54th St 4pm fri", "Pick up keys", WD("fri", (16, 0)), at=(16, 0), loc="245 W 54th St")
E("Replace furnace filter 16x25x1 sat", "Replace furnace filter 16x25x1", WD("sat"))
E("Apt 4C walkthrough w/ landlord Thursday 5:15", "Apt 4C walkthrough w/ landlord", WD("thu", (17, 15)), at=(17, 15))
E("Shred day at town hall sat 9-noon", "Shred day", WD("sat", (9, 0)), at=(9, 0), to=(12, 0), loc="town hall")
E("Moving truck 8-12 saturday", "Moving truck", WD("sat", (8, 0)), at=(8, 0), to=(12, 0))
E("Call re: order #55812 tmrw 10am", "Call re: order #55812", PLUS(1), at=(10, 0))

# shifts, ranges across noon and midnight
E("Inventory count 10pm-2am sat", "Inventory count", WD("sat", (22, 0)), at=(22, 0), to=(2, 0), nde=True)
E("Overnight shift 11p-7a thurs", "Overnight shift", WD("thu", (23, 0)), at=(23, 0), to=(7, 0), nde=True)
E("Brunch 11-1 sun", "Brunch", WD("sun", (11, 0)), at=(11, 0), to=(13, 0))
E("Open house 15 Mar 2027 1-3", "Open house", FIXED(2027, 3, 15), at=(13, 0), to=(15, 0))
E("Landscaper coming Apr. 7th 8-10", "Landscaper coming", MD(4, 7), at=(8, 0), to=(10, 0))
E("Room 3104 booked for study group wed 7-9pm", "Room 3104 booked for study group", WD("wed", (19, 0)),
  at=(19, 0), to=(21, 0))

# look-alikes in titles
E("Upgrade to Postgres 16.2 tonight 11pm", "Upgrade to Postgres 16.2", TODAY(), at=(23, 0))
E("Watch 1917 w/ dad sun night", "Watch 1917 w/ dad", WD("sun", (21, 0)), at=(21, 0))

# next / this / last, relative dates
E("Haircut next Thursday 12:15", "Haircut", NEXT("thu"), at=(12, 15))
E("Expense lunch w/ client last Wednesday", "Expense lunch w/ client", LAST("wed"))
E("Carpool Wednesday next week 7:40", "Carpool", NEXTWEEK("wed"), at=(7, 40))
E("Quarterly check-in 2 weeks from Monday", "Quarterly check-in", SHIFT(WD("mon"), 14))
E("Follow up w/ recruiter in 10 days", "Follow up w/ recruiter", PLUS(10))
E("Vet recheck in 3 weeks", "Vet recheck", PLUS(21))
E("Rotate tires in 6 months", "Rotate tires", PLUS_MONTHS(6))
E("Jury duty Mon, Jan 11", "Jury duty", MD(1, 11))
E("Closing on the house 2027-02-05 10:00", "Closing on the house", FIXED(2027, 2, 5), at=(10, 0))
E("Kickoff call the 3rd @ 1pm", "Kickoff call", NTH(3), at=(13, 0))

# zones
E("Standup w/ Bangalore 9:30pm IST sun", "Standup w/ Bangalore", WD("sun"), at=(21, 30), zone="Asia/Kolkata")
E("Interview w/ Seattle startup 1pm Pacific Wed", "Interview w/ Seattle startup", WD("wed"), at=(13, 0),
  zone="America/Los_Angeles")
E("Sync w/ Chicago office 3pm Central tmrw", "Sync w/ Chicago office", PLUS(1), at=(15, 0), zone="America/Chicago")

# holidays
E("Fourth of July BBQ at the Millers' 4pm", "Fourth of July BBQ", HOLIDAY(lambda y: dt.date(y, 7, 4)), at=(16, 0),
  loc="the Millers'")
E("Thanksgiving dinner at Aunt Rose's 3pm", "Thanksgiving dinner", HOLIDAY(THANKSGIVING), at=(15, 0),
  loc="Aunt Rose's")
E("Memorial Day parade 10am", "Memorial Day parade", HOLIDAY(lambda y: NTH_WD_OF(y, 5, -1, 0)), at=(10, 0))
E("Labor Day cookout 2pm", "Labor Day cookout", HOLIDAY(lambda y: NTH_WD_OF(y, 9, 1, 0)), at=(14, 0))
E("Halloween - trick-or-treating w/ the twins 5:30pm", "Halloween - trick-or-treating w/ the twins",
  HOLIDAY(lambda y: dt.date(y, 10, 31)), at=(17, 30))
E("MLK Day office closed", "MLK Day office closed", HOLIDAY(lambda y: NTH_WD_OF(y, 1, 3, 0)))

# repeats with ends and counts
E("Take out recycling every other Thursday night", "Take out recycling", FIRST_WEEKLY(["thu"], (21, 0)), at=(21, 0),
  rr=[W(["thu"], ";INTERVAL=2")])
E("Pay rent 1st of every month", "Pay rent", FIRST_MONTHDAY(1), rr=["RRULE:FREQ=MONTHLY;BYMONTHDAY=1"])
_c = FIRST_WEEKLY(["tue"], (19, 15))
E("Choir rehearsal Tuesdays 7:15pm until May 26", "Choir rehearsal", _c, at=(19, 15),
  rr=UNTIL_EACH(W(["tue"]), MD(5, 26), NY))
E("Allergy shots weekly on Mondays 4:30 x10", "Allergy shots", FIRST_WEEKLY(["mon"], (16, 30)), at=(16, 30),
  rr=[W(["mon"]) + ";COUNT=10"])
E("Lunch & learn 2nd Wed monthly noon", "Lunch & learn", FIRST_NTH_WEEKDAY(2, "wed", (12, 0)), at=(12, 0),
  rr=["RRULE:FREQ=MONTHLY;BYDAY=2WE"])
E("Standup M-F 9:15 starting Jan 4", "Standup", FIRST_WEEKLY(WEEKDAYS, (9, 15), start=MD(1, 4)), at=(9, 15),
  rr=[W(WEEKDAYS)])
E("Trash night every Sunday & Wednesday 8pm", "Trash night", FIRST_WEEKLY(["wed", "sun"], (20, 0)), at=(20, 0),
  rr=[W(["wed", "sun"])])
_v = BARE((8, 0))
E("Daily vitamin 8am for 30 days", "Daily vitamin", _v, at=(8, 0),
  rr=lambda i: ["RRULE:FREQ=DAILY;UNTIL=" + SPAN_UNTIL(_v, 30, NY)[i]])

# what a careful parser refuses
E("Coffee w/ Jen Tues or Wed morning", "", REJ("conflict"))
E("Dentist tomorrow morning at 7pm", "", REJ("conflict"))
E("Catch up with Mike sometime next week", "", REJ("vagueDate"))
E("Leaf peeping trip end of October", "", REJ("vagueDate"))
E("Rehearsal dinner Feb 30 6pm", "", REJ("invalidDate"))
E("tmrw 10am", "", REJ("missingTitle"))
E("Road trip over Presidents Day weekend", "", REJ("vagueDate"))
E("Secret Santa gift exchange sometime before the holidays", "", REJ("vagueDate"))
E("Buy 2 tickets for Hamilton", "", REJ("nothingToSchedule"))
E("Pick up Ava at 3:15 or 3:45 fri", "", REJ("conflict"))

# ---------------------------------------------------------------- German (Europe/Berlin)
# Termine und Besorgungen
G("Zahnarzttermin Do 14:20", "Zahnarzttermin", WD("thu", (14, 20)), at=(14, 20))
G("Haare schneiden lassen Sa um 10", "Haare schneiden lassen", WD("sat", (10, 0)), at=(10, 0))
G("Elterngespräch Klassenlehrerin Mi 16.15 Uhr", "Elterngespräch Klassenlehrerin", WD("wed", (16, 15)), at=(16, 15))
G("Impftermin Hausarzt 12.1. 8:40", "Impftermin Hausarzt", MD(1, 12), at=(8, 40))
G("Blutabnahme nüchtern morgen 7:15", "Blutabnahme nüchtern", PLUS(1), at=(7, 15))
G("Kinderarzt U7 Lea 3.2. 10:15", "Kinderarzt U7 Lea", MD(2, 3), at=(10, 15))
G("Mietwagen abholen Flughafen 14 Uhr übermorgen", "Mietwagen abholen Flughafen", PLUS(2), at=(14, 0))
G("Reifenwechsel Werkstatt 9.4. um 8", "Reifenwechsel Werkstatt", MD(4, 9), at=(8, 0))
G("Lieferung zwischen 10 und 14 Uhr morgen", "Lieferung", PLUS(1), at=(10, 0), to=(14, 0))
G("Handwerker kommt zw. 8 und 12 Uhr am Do", "Handwerker kommt", WD("thu", (8, 0)), at=(8, 0), to=(12, 0))
G("Ableser Heizung Mo 7-13 Uhr", "Ableser Heizung", WD("mon", (7, 0)), at=(7, 0), to=(13, 0))
G("Mama am Bahnhof abholen Gleis 7 um 23:40", "Mama am Bahnhof abholen Gleis 7", BARE((23, 40)), at=(23, 40))
G("Anruf Versicherung ca. 11 Uhr Montag", "Anruf Versicherung", WD("mon", (11, 0)), at=(11, 0))
G("Umzugshelfer kommen 8 Uhr, Sa", "Umzugshelfer kommen", WD("sat", (8, 0)), at=(8, 0))
G("Zahnarzt um 15 Uhr am 15.", "Zahnarzt", NTH(15), at=(15, 0))
G("Wohnungsbesichtigung Lindenstr. 23 2. OG Mi 17 Uhr", "Wohnungsbesichtigung Lindenstr. 23 2. OG",
  WD("wed", (17, 0)), at=(17, 0))

# Fristen
G("Steuerberater Unterlagen bringen bis 31.5.", "Steuerberater Unterlagen bringen", MD(5, 31))
G("Hausarbeit abgeben spätestens Freitag 12 Uhr", "Hausarbeit abgeben", WD("fri", (12, 0)), at=(12, 0))
G("Rechnung Nr. 2026-114 bezahlen bis 18.12.", "Rechnung Nr. 2026-114 bezahlen", MD(12, 18))
G("Abgabe Bachelorarbeit fällig 15. Dezember", "Abgabe Bachelorarbeit", MD(12, 15))
G("Bewerbung abschicken spätestens übermorgen", "Bewerbung abschicken", PLUS(2))
G("Paket bei Packstation 128 abholen bis morgen", "Paket bei Packstation 128 abholen", PLUS(1))
G("Nebenkostenabrechnung prüfen bis zum 20.", "Nebenkostenabrechnung prüfen", NTH(20))
G("Auto TÜV bis Ende April", "Auto TÜV", NEXT_MONTH_END(4))
G("Lohnsteuer fällig 10.1.2027", "Lohnsteuer", FIXED(2027, 1, 10))
G("Projektabgabe KW 3 Freitag", "Projektabgabe", FIXED(2027, 1, 22))

# Reisen
G("Flug LH 1234 nach München morgen 6:35", "Flug LH 1234 nach München", PLUS(1), at=(6, 35))
G("ICE 597 Köln-Berlin Mo 7:13", "ICE 597 Köln-Berlin", WD("mon", (7, 13)), at=(7, 13))
G("Bahn RE 4 um 7:48 morgen", "Bahn RE 4", PLUS(1), at=(7, 48))
G("Hotel einchecken am 22.12. ab 15 Uhr", "Hotel einchecken", MD(12, 22), at=(15, 0))
_ski = MD(1, 2)
G("Skiurlaub 2.-9.1.", "Skiurlaub", _ski, last=RANGE_END(_ski, 1, 9))
_dr = MD(4, 14)
G("Dienstreise Hamburg 14.-16.4.", "Dienstreise Hamburg", _dr, last=RANGE_END(_dr, 4, 16))
_me = MD(3, 3)
G("Messe Frankfurt vom 3. bis 5. März", "Messe Frankfurt", _me, last=RANGE_END(_me, 3, 5))
G("Klassenfahrt Mo-Fr nächste Woche", "Klassenfahrt", NEXTWEEK("mon"), last=NEXTWEEK("fri"))

# Geburtstage
G("Omas 80. Geburtstag 14. Februar", "Omas 80. Geburtstag", MD(2, 14))
G("Geburtstag Papa jedes Jahr 9.11.", "Geburtstag Papa", MD(11, 9), rr=["RRULE:FREQ=YEARLY"])
G("Hochzeitstag 12. Juni", "Hochzeitstag", MD(6, 12))
G("Kindergeburtstag Emma Sa 15-18 Uhr", "Kindergeburtstag Emma", WD("sat", (15, 0)), at=(15, 0), to=(18, 0))
G("Abiball 26.6.2027 19 Uhr", "Abiball", FIXED(2027, 6, 26), at=(19, 0))

# Kurse, Schule, Sport
G("VHS Spanisch A2 dienstags 18:30-20 Uhr", "VHS Spanisch A2", FIRST_WEEKLY(["tue"], (18, 30)), at=(18, 30),
  to=(20, 0), rr=[W(["tue"])])
G("Fahrstunde Do 7:30", "Fahrstunde", WD("thu", (7, 30)), at=(7, 30))
G("Schwimmkurs Kinder ab 9.1. samstags 10 Uhr, 10 Termine", "Schwimmkurs Kinder",
  FIRST_WEEKLY(["sat"], (10, 0), start=MD(1, 9)), at=(10, 0), rr=[W(["sat"]) + ";COUNT=10"])
G("Elternabend 3b Dienstag 19:30", "Elternabend 3b", WD("tue", (19, 30)), at=(19, 30))
G("Martinsumzug Grundschule 11.11. 17:30", "Martinsumzug Grundschule", MD(11, 11), at=(17, 30))
G("Zeugnisausgabe Fr 29.1.", "Zeugnisausgabe", MD(1, 29))
G("Sprechstunde Prof. Weber Do 13.15-14.45 Uhr", "Sprechstunde Prof. Weber", WD("thu", (13, 15)), at=(13, 15),
  to=(14, 45))
G("Seminar in Raum 2.14 Do 9:15", "Seminar", WD("thu", (9, 15)), at=(9, 15), loc="Raum 2.14")
G("Handball Punktspiel So 11 Uhr @ Sporthalle Nord", "Handball Punktspiel", WD("sun", (11, 0)), at=(11, 0),
  loc="Sporthalle Nord")
G("Tennis mit Jonas morgen um halb 6", "Tennis mit Jonas", PLUS(1), at=(17, 30))
G("Yoga Mi abends", "Yoga", WD("wed", (19, 0)), at=(19, 0))
G("Flohmarkt So 8-14 Uhr", "Flohmarkt", WD("sun", (8, 0)), at=(8, 0), to=(14, 0))

# Schichten
G("Frühschicht Sa 6-14 Uhr", "Frühschicht", WD("sat", (6, 0)), at=(6, 0), to=(14, 0))
G("Spätdienst morgen 14-22", "Spätdienst", PLUS(1), at=(14, 0), to=(22, 0))
G("Nachtdienst Fr 21:45 bis Sa 6:15", "Nachtdienst", WD("fri", (21, 45)), at=(21, 45), to=(6, 15), nde=True)
G("Inventur Lager 22-2 Uhr Samstag", "Inventur Lager", WD("sat", (22, 0)), at=(22, 0), to=(2, 0), nde=True)

# Treffen, umgangssprachlich
G("Geschäftsessen mit Kunden gegen 8 Do", "Geschäftsessen mit Kunden", WD("thu", (20, 0)), at=(20, 0))
G("Kaffee mit Lena so gegen 3 morgen", "Kaffee mit Lena", PLUS(1), at=(15, 0))
G("Mittagessen mit Ben Mi 12:30 im Brauhaus", "Mittagessen mit Ben", WD("wed", (12, 30)), at=(12, 30), loc="Brauhaus")
G("Konzert Reihe 12 Platz 7 Sa 20 Uhr", "Konzert Reihe 12 Platz 7", WD("sat", (20, 0)), at=(20, 0))
G("Stammtisch im Goldenen Hirsch Do um 8", "Stammtisch", WD("thu", (20, 0)), at=(20, 0), loc="Goldenen Hirsch")
G("Grillabend bei Müllers Sa ab 18 Uhr", "Grillabend bei Müllers", WD("sat", (18, 0)), at=(18, 0))
G("Spieleabend Freitag um 7", "Spieleabend", WD("fri", (19, 0)), at=(19, 0))
G("Kino heut abend um 8 mit Lisa", "Kino mit Lisa", TODAY(), at=(20, 0))
G("Treffen mit Sven Samstag so um 11", "Treffen mit Sven", WD("sat", (11, 0)), at=(11, 0))
G("Oma anrufen morgen Nachmittag", "Oma anrufen", PLUS(1), at=(15, 0))
G("Brötchen holen Sonntagmorgen", "Brötchen holen", WD("sun", (9, 0)), at=(9, 0))
G("Sauna Donnerstagabend", "Sauna", WD("thu", (19, 0)), at=(19, 0))
G("Feierabendbier mit Kollegen Fr ab 17 Uhr", "Feierabendbier mit Kollegen", WD("fri", (17, 0)), at=(17, 0))
G("Zahnarzt viertel nach 4 morgen", "Zahnarzt", PLUS(1), at=(16, 15))
G("Kinder abholen Kita um dreiviertel 3", "Kinder abholen Kita", BARE((14, 45)), at=(14, 45))
G("Vereinsfeier TSV am 12. Dezember 19 Uhr", "Vereinsfeier TSV", MD(12, 12), at=(19, 0))
G("Radtour 1. Mai", "Radtour", MD(5, 1))

# nächste/diese Woche, relativ
G("Kontrolle beim Orthopäden in 3 Wochen", "Kontrolle beim Orthopäden", PLUS(21))
G("Probezeitgespräch in 6 Monaten", "Probezeitgespräch", PLUS_MONTHS(6))
G("Jour fixe nächsten Di 10 Uhr", "Jour fixe", NEXT("tue"), at=(10, 0))
G("Präsentation diesen Freitag 14 Uhr", "Präsentation", THIS("fri"), at=(14, 0))
G("Team-Event übernächsten Freitag", "Team-Event", AFTERNEXT("fri"))
G("Kundentermin Mittwoch nächste Woche 11 Uhr", "Kundentermin", NEXTWEEK("wed"), at=(11, 0))
G("Arzttermin in 10 Tagen um 9", "Arzttermin", PLUS(10), at=(9, 0))

# Zonen
G("Telko mit US-Team 16 Uhr MEZ morgen", "Telko mit US-Team", PLUS(1), at=(16, 0))
G("Call mit Kalifornien 9 Uhr PT Do", "Call mit Kalifornien", WD("thu", (9, 0)), at=(9, 0),
  zone="America/Los_Angeles")
G("Webinar 10 Uhr Londoner Zeit übermorgen", "Webinar", PLUS(2), at=(10, 0), zone="Europe/London")

# Feiertage
G("Am 2. Weihnachtstag Essen bei Oma 12 Uhr", "Essen bei Oma", HOLIDAY(lambda y: dt.date(y, 12, 26)), at=(12, 0))
G("Rosenmontagszug 11:11 Uhr", "Rosenmontagszug", HOLIDAY(lambda y: EASTER(y) - dt.timedelta(days=48)), at=(11, 11))
G("Ostermontag Radtour mit Familie", "Ostermontag Radtour mit Familie", HOLIDAY(lambda y: EASTER(y) + dt.timedelta(days=1)))
G("Muttertag Mama anrufen 10 Uhr", "Muttertag Mama anrufen", HOLIDAY(lambda y: NTH_WD_OF(y, 5, 2, 6)), at=(10, 0))
G("Tag der Deutschen Einheit Wanderung Harz", "Tag der Deutschen Einheit Wanderung Harz",
  HOLIDAY(lambda y: dt.date(y, 10, 3)))
G("Gottesdienst Heiligabend 16:30", "", REJ("vagueDate"))

# Wiederholungen
G("Biotonne alle zwei Wochen donnerstags", "Biotonne", FIRST_WEEKLY(["thu"]), rr=[W(["thu"], ";INTERVAL=2")])
G("Chorprobe mittwochs 19:30 bis Ende Juni", "Chorprobe", FIRST_WEEKLY(["wed"], (19, 30)), at=(19, 30),
  rr=UNTIL_EACH(W(["wed"]), NEXT_MONTH_END(6), BER))
G("Zumba jeden Montag und Donnerstag 18 Uhr", "Zumba", FIRST_WEEKLY(["mon", "thu"], (18, 0)), at=(18, 0),
  rr=[W(["mon", "thu"])])
G("Kegelclub jeden 3. Freitag 20 Uhr", "Kegelclub", FIRST_NTH_WEEKDAY(3, "fri", (20, 0)), at=(20, 0),
  rr=["RRULE:FREQ=MONTHLY;BYDAY=3FR"])
G("Kita Elternbeirat 1. Mittwoch im Monat 20 Uhr", "Kita Elternbeirat", FIRST_NTH_WEEKDAY(1, "wed", (20, 0)),
  at=(20, 0), rr=["RRULE:FREQ=MONTHLY;BYDAY=1WE"])

# Ablehnungen
G("Zahnarzt nächsten Monat", "", REJ("vagueDate"))
G("Grillen Sa oder So", "", REJ("conflict"))
G("Elternsprechtag 30.2. 15 Uhr", "", REJ("invalidDate"))
G("morgen früh", "", REJ("missingTitle"))
G("Urlaub Pfingsten", "", REJ("vagueDate"))
G("Frühstück mit Tina heute abend 8 Uhr", "", REJ("conflict"))


if __name__ == "__main__":
    write("dev-doubts-6")
