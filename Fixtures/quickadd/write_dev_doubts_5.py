#!/usr/bin/env python3
"""Writes dev-doubts-5.jsonl: a fifth development set for quick-add, phrases written and labelled by hand.

Written on 2026-12-06 by a helper session that opened neither the parser, its tests and benches, nor any
held-out or doubts file (other phrase files were loaded by a script only to check that no phrase repeats one
of theirs). Labels are what the writer of each phrase means, as a person typing into a calendar app; where a
phrase leaves something open they follow docs/quick-add.md (default hours and durations, parts of the day,
deadlines, past times, a repeat's first occurrence); where a careful parser should refuse, the refusal.
A broad sample rather than a theme: mostly everyday appointments, errands and social plans written plainly,
plus deadlines, trips and multi-day events, all-day events, repeats (weekly, monthly by date and by weekday,
yearly, with ends and counts), times written in many ways, places, people, zones and a few refusals; dates
and times at the start, the middle and the end.

Moments (as moments-*.jsonl): Tuesday 2026-03-10 09:00, Friday 2026-12-04 17:30, Thursday 2026-12-31
23:30; English in America/New_York, German in Europe/Berlin. The helpers below (taken from
write_dev_doubts_4.py so that this file stands alone) only do calendar arithmetic for meanings stated by hand
in each line; the script never runs calbridge. Standard library only.
Run: python3 Fixtures/quickadd/write_dev_doubts_5.py
"""
import datetime as dt

from dev_set_labels import *  # noqa: F403 (the shared helpers and the LINES they collect)


# ---------------------------------------------------------------- English (America/New_York)
# appointments and errands, written plainly
E("Dentist appt thursday 10:15am", "Dentist appt", WD("thu", (10, 15)), at=(10, 15))
E("lunch w/ Priya & Omar tomorrow at noon", "lunch w/ Priya & Omar", PLUS(1), at=(12, 0))
E("call w/ insurance co monday at 11", "call w/ insurance co", WD("mon", (11, 0)), at=(11, 0))
E("Haircut @ Supercuts Sat 2:30pm", "Haircut", WD("sat", (14, 30)), at=(14, 30), loc="Supercuts")
E("Team sync 3:30 p.m. wednesday", "Team sync", WD("wed", (15, 30)), at=(15, 30))
E("Parent teacher conference Nov 19 4:15pm", "Parent teacher conference", MD(11, 19), at=(16, 15))
E("Coffee w/ Marcus @ Blue Door Cafe 8:30am fri", "Coffee w/ Marcus", WD("fri", (8, 30)), at=(8, 30), loc="Blue Door Cafe")
E("Pick up dry cleaning tmrw 5pm", "Pick up dry cleaning", PLUS(1), at=(17, 0))
E("Vet appointment for Biscuit 12/15 at 9:40", "Vet appointment for Biscuit", MD(12, 15), at=(9, 40))
E("Oil change + tire check saturday morning", "Oil change + tire check", WD("sat", (9, 0)), at=(9, 0))
E("Book club at Jen's house Thursday 7:30pm", "Book club", WD("thu", (19, 30)), at=(19, 30), loc="Jen's house")
E("Dinner w/ the Hendersons Saturday at 7", "Dinner w/ the Hendersons", WD("sat", (19, 0)), at=(19, 0))
E("Drop off Ella for soccer 9 am Saturday", "Drop off Ella for soccer", WD("sat", (9, 0)), at=(9, 0))
E("Mammogram 3/19 at 1:45", "Mammogram", MD(3, 19), at=(13, 45))
E("Blood work fasting 7:45am thurs", "Blood work fasting", WD("thu", (7, 45)), at=(7, 45))
E("Flu shot at CVS tomorrow afternoon", "Flu shot", PLUS(1), at=(15, 0), loc="CVS")
E("Ortho for Max tue 3:45", "Ortho for Max", WD("tue", (15, 45)), at=(15, 45))
E("Mtg w/ Legal re: contract 2pm tmw", "Mtg w/ Legal re: contract", PLUS(1), at=(14, 0))
E("Pick up prescription Walgreens tomorrow", "Pick up prescription Walgreens", PLUS(1))
E("Costco run Saturday morning w/ Dad", "Costco run w/ Dad", WD("sat", (9, 0)), at=(9, 0))
E("DMV appointment Wednesday, March 18, 2026 at 11:20", "DMV appointment", FIXED(2026, 3, 18), at=(11, 20))
E("Plumber coming between 8 and 10 tomorrow", "Plumber coming", PLUS(1), at=(8, 0), to=(10, 0))
E("Leave for airport 5am tmrw", "Leave for airport", PLUS(1), at=(5, 0))
E("Carpet cleaners 1-3pm Monday", "Carpet cleaners", WD("mon", (13, 0)), at=(13, 0), to=(15, 0))
E("Eye exam at LensCrafters Oct 6 10am", "Eye exam", MD(10, 6), at=(10, 0), loc="LensCrafters")
E("Get car washed Sunday", "Get car washed", WD("sun"))
E("Return library books wed 6pm", "Return library books", WD("wed", (18, 0)), at=(18, 0))
E("Call Dr. Nguyen's office tomorrow 9:30 AM", "Call Dr. Nguyen's office", PLUS(1), at=(9, 30))
E("Tire rotation at Firestone 8:00 a.m. next Thursday", "Tire rotation", NEXT("thu"), at=(8, 0), loc="Firestone")
E("Grooming appt for Luna friday 11:30", "Grooming appt for Luna", WD("fri", (11, 30)), at=(11, 30))

# meetings and work
E("Team sync-up Monday 9am in conf room A", "Team sync-up in conf room A", WD("mon", (9, 0)), at=(9, 0))
E("1:1 with manager every other Tuesday 2pm", "1:1 with manager", FIRST_WEEKLY(["tue"], (14, 0)), at=(14, 0),
  rr=[W(["tue"], ";INTERVAL=2")])
E("Sprint review 2-3:30 tomorrow", "Sprint review", PLUS(1), at=(14, 0), to=(15, 30))
E("Workshop 10-2 in room 3B fri", "Workshop in room 3B", WD("fri", (10, 0)), at=(10, 0), to=(14, 0))
E("Kickoff call around 10 tmrw", "Kickoff call", PLUS(1), at=(10, 0))
E("Lunch & learn 12-1 tue", "Lunch & learn", WD("tue", (12, 0)), at=(12, 0), to=(13, 0))
E("Conf call at 1330 wed", "Conf call", WD("wed", (13, 30)), at=(13, 30))
E("Room 512 team huddle 10am wed", "Room 512 team huddle", WD("wed", (10, 0)), at=(10, 0))
E("Fix ticket #4512 before standup tomorrow 9am", "Fix ticket #4512 before standup", PLUS(1), at=(9, 0))
E("Version 2.4 release Thursday", "Version 2.4 release", WD("thu"))
E("Team lunch this Friday 12:30", "Team lunch", THIS("fri"), at=(12, 30))
E("Board meeting the second Tuesday of every month 7pm", "Board meeting", FIRST_NTH_WEEKDAY(2, "tue", (19, 0)),
  at=(19, 0), rr=["RRULE:FREQ=MONTHLY;BYDAY=2TU"])
E("Submit payroll last Friday of every month", "Submit payroll", FIRST_NTH_WEEKDAY(-1, "fri"),
  rr=["RRULE:FREQ=MONTHLY;BYDAY=-1FR"])
E("Investor call 4:30pm EST mon", "Investor call", WD("mon", (16, 30)), at=(16, 30))
E("Interview w/ Acme 10:30 CT wed", "Interview w/ Acme", WD("wed", (10, 30)), at=(10, 30), zone="America/Chicago")
E("Product webinar 11am PT thurs", "Product webinar", WD("thu", (11, 0)), at=(11, 0), zone="America/Los_Angeles")
E("Call with London office 9am GMT tomorrow", "Call with London office", PLUS(1), at=(9, 0), zone="UTC")
E("Tokyo team sync 8am JST tmrw", "Tokyo team sync", PLUS(1), at=(8, 0), zone="Asia/Tokyo")
E("Call Berlin office 10:00 CET friday", "Call Berlin office", WD("fri", (10, 0)), at=(10, 0), zone="Europe/Berlin")
E("Vendor demo 2pm Pacific time on the 9th", "Vendor demo", NTH(9), at=(14, 0), zone="America/Los_Angeles")
E("Mumbai standup 9:30 IST mon", "Mumbai standup", WD("mon", (9, 30)), at=(9, 30), zone="Asia/Kolkata")
E("Perf review w/ Dana 3pm on the 22nd", "Perf review w/ Dana", NTH(22), at=(15, 0))
E("All hands 11:00-12:30 Jan 8", "All hands", MD(1, 8), at=(11, 0), to=(12, 30))
E("Quarterly planning offsite Jan 12-14", "Quarterly planning offsite", MD(1, 12), last=MD(1, 14))
E("Client dinner at Smith & Wollensky thurs 7:15pm", "Client dinner", WD("thu", (19, 15)), at=(19, 15),
  loc="Smith & Wollensky")

# deadlines
E("Expense report by EOD friday", "Expense report", WD("fri", (17, 0)), at=(17, 0))
E("Submit grant proposal no later than March 31, 5pm ET", "Submit grant proposal", MD(3, 31), at=(17, 0))
E("Car inspection due by the 20th", "Car inspection", NTH(20))
E("Quarterly taxes due 1/15", "Quarterly taxes", MD(1, 15))
E("Pay $65 speeding ticket online by 3/20", "Pay $65 speeding ticket online", MD(3, 20))
E("Rent due 12/1", "Rent", MD(12, 1))
E("Send deck to Ravi by 2pm tomorrow", "Send deck to Ravi", PLUS(1), at=(14, 0))
E("RSVP to Kim's shower by next Fri", "RSVP to Kim's shower", NEXT("fri"))
E("Library books due Thurs", "Library books", WD("thu"))
E("Submit timesheet by end of month", "Submit timesheet", MONTH_END())
E("Field trip permission slip due wed", "Field trip permission slip", WD("wed"))

# social plans
E("BBQ at Mike's ~4pm sunday", "BBQ", WD("sun", (16, 0)), at=(16, 0), loc="Mike's")
E("Happy hour 5ish thursday @ The Brass Tap", "Happy hour", WD("thu", (17, 0)), at=(17, 0), loc="The Brass Tap")
E("Brunch w/ college friends Sunday 11:30 at Sadie's", "Brunch w/ college friends", WD("sun", (11, 30)), at=(11, 30),
  loc="Sadie's")
E("Movie night at our place friday at 8", "Movie night", WD("fri", (20, 0)), at=(20, 0), loc="our place")
E("Drinks w/ Ben at 6:30 Thursday", "Drinks w/ Ben", WD("thu", (18, 30)), at=(18, 30))
E("Concert at MSG Nov 21 at 8", "Concert", MD(11, 21), at=(20, 0), loc="MSG")
E("Date night Sat 7:30", "Date night", WD("sat", (19, 30)), at=(19, 30))
E("Noon walk w/ Jess tmrw", "walk w/ Jess", PLUS(1), at=(12, 0))
E("Game at Fenway w/ Chris 7:10pm Aug 14", "Game w/ Chris", MD(8, 14), at=(19, 10), loc="Fenway")
E("Zoom w/ Grandma & Grandpa sunday 4", "Zoom w/ Grandma & Grandpa", WD("sun", (16, 0)), at=(16, 0))
E("Call grandma quarter to 5 sunday", "Call grandma", WD("sun", (16, 45)), at=(16, 45))
E("Parent coffee half past 8 tomorrow", "Parent coffee", PLUS(1), at=(8, 30))
E("Farmers market Sat from 8 to 11", "Farmers market", WD("sat", (8, 0)), at=(8, 0), to=(11, 0))
E("Office party from 4 to 7 on Dec 18", "Office party", MD(12, 18), at=(16, 0), to=(19, 0))
E("Open house 1420 Maple Ave sunday 1-3", "Open house 1420 Maple Ave", WD("sun", (13, 0)), at=(13, 0), to=(15, 0))
E("Watch Jets vs Bills 1pm Sunday", "Watch Jets vs Bills", WD("sun", (13, 0)), at=(13, 0))
E("Alumni game - class of 2015 - Saturday 3pm", "Alumni game - class of 2015", WD("sat", (15, 0)), at=(15, 0))
E("Order 3 pizzas for 12 people friday 6pm", "Order 3 pizzas for 12 people", WD("fri", (18, 0)), at=(18, 0))
E("Thanksgiving dinner at Aunt Carol's 3pm", "Thanksgiving dinner", HOLIDAY(THANKSGIVING), at=(15, 0),
  loc="Aunt Carol's")
E("Fireworks over the river on the Fourth of July 9:15pm", "Fireworks over the river", HOLIDAY(lambda y: dt.date(y, 7, 4)), at=(21, 15))
E("Bartending gig 9pm-2am saturday", "Bartending gig", WD("sat", (21, 0)), at=(21, 0), to=(2, 0), nde=True)
E("Garage sale last Saturday", "Garage sale", LAST("sat"))

# kids and school
E("Kids early dismissal 12:15 on Friday", "Kids early dismissal", WD("fri", (12, 15)), at=(12, 15))
E("Coach Tony's 6th grade practice Wed 4pm", "Coach Tony's 6th grade practice", WD("wed", (16, 0)), at=(16, 0))
E("Recital on the 18th at 6:30pm", "Recital", NTH(18), at=(18, 30))
E("Pick up Zoe from practice at 7:45 tonight", "Pick up Zoe from practice", TODAY(), at=(19, 45))
E("Babysitter 6:30-11 tonight", "Babysitter", TODAY(), at=(18, 30), to=(23, 0))
E("Science fair setup 7:30 AM Feb 5", "Science fair setup", MD(2, 5), at=(7, 30))
E("Snow day make-up class 2/27", "Snow day make-up class", MD(2, 27))

# trips and multi-day events, all day
E("Flight to Denver UA 1423 dec 20 6:45am", "Flight to Denver UA 1423", MD(12, 20), at=(6, 45))
E("Flight BA 178 JFK-LHR 12/19 7:30pm", "Flight BA 178 JFK-LHR", MD(12, 19), at=(19, 30))
E("Flight home 12/22 AA 2291 departs 3:05pm", "Flight home AA 2291 departs", MD(12, 22), at=(15, 5))
E("Pick up Aunt May at Newark arrivals 4:50pm Jan 3", "Pick up Aunt May", MD(1, 3), at=(16, 50), loc="Newark arrivals")
E("Meet at Terminal 4 gate 22 at 6:10am 12/21", "Meet", MD(12, 21), at=(6, 10), loc="Terminal 4 gate 22")
E("Weekend trip to Vermont Feb 6 - Feb 8", "Weekend trip to Vermont", MD(2, 6), last=MD(2, 8))
E("Conference in Austin 4/13 - 4/16", "Conference in Austin", MD(4, 13), last=MD(4, 16))
_s = MD(12, 23)
E("Out of office Dec 23 through Jan 2", "Out of office", _s, last=RANGE_END(_s, 1, 2))
_s = MD(12, 26)
E("Grandparents visiting Dec 26 to Jan 3", "Grandparents visiting", _s, last=RANGE_END(_s, 1, 3))
E("Road trip to Asheville 5/22-5/25", "Road trip to Asheville", MD(5, 22), last=MD(5, 25))
E("Camping at Assateague June 12-14", "Camping", MD(6, 12), last=MD(6, 14), loc="Assateague")
E("Ski trip Jan 22-25 2027", "Ski trip", FIXED(2027, 1, 22), last=FIXED(2027, 1, 25))
E("Vacation all day friday", "Vacation", WD("fri"))
E("Sarah's wedding Oct 10, 2027", "Sarah's wedding", FIXED(2027, 10, 10))
E("Jury duty 15 Dec 2027 8:30am", "Jury duty", FIXED(2027, 12, 15), at=(8, 30))
E("Mom's bday June 2", "Mom's bday", MD(6, 2))
E("Anniversary dinner at Rosa's 5/16 8pm", "Anniversary dinner", MD(5, 16), at=(20, 0), loc="Rosa's")

# relative dates
E("Dr. Patel follow-up in 2 weeks", "Dr. Patel follow-up", PLUS(14))
E("Renew passport in 3 days", "Renew passport", PLUS(3))
E("call the bank in 30 min", "call the bank", [None] * 3, exact=exact_plus(30))
E("Check on sourdough starter in 2 hours", "Check on sourdough starter", [None] * 3, exact=exact_plus(120))
E("Dentist cleaning in 6 months", "Dentist cleaning", PLUS_MONTHS(6))
E("Meet Sarah a week from Friday at 1pm", "Meet Sarah", SHIFT(WD("fri"), 7), at=(13, 0))
E("Tues after next - haircut 11am", "haircut", AFTERNEXT("tue"), at=(11, 0))
E("Day after tomorrow - pick up rental car at 10", "pick up rental car", PLUS(2), at=(10, 0))
E("dentist next tues @ 8am", "dentist", NEXT("tue"), at=(8, 0))
E("Hike Mt. Monadnock this Sat 7am", "Hike Mt. Monadnock", THIS("sat"), at=(7, 0))

# look-alikes
E("Call Verizon 1-800-922-0204 tomorrow morning", "Call Verizon 1-800-922-0204", PLUS(1), at=(9, 0))
E("Replace 2x4 boards in deck Saturday", "Replace 2x4 boards in deck", WD("sat"))
E("iOS 19.3 update testing Tue 3pm", "iOS 19.3 update testing", WD("tue", (15, 0)), at=(15, 0))

# shifts
E("Shift at Target 2-10pm sat", "Shift", WD("sat", (14, 0)), at=(14, 0), to=(22, 0), loc="Target")
E("Opening shift 5:30am tomorrow", "Opening shift", PLUS(1), at=(5, 30))
E("Late shift 4pm-midnight Sat", "Late shift", WD("sat", (16, 0)), at=(16, 0), to=(0, 0), nde=True)

# repeats
E("Soccer practice Tues/Thurs 5:30-7pm until May 28", "Soccer practice", ACROSS(["tue", "thu"], (17, 30)),
  at=(17, 30), to=(19, 0), rr=UNTIL_EACH(W(["tue", "thu"]), MD(5, 28), NY))
_f = FIRST_WEEKLY(["wed"], (16, 15))
E("Piano lessons every Wednesday at 4:15 for 10 weeks", "Piano lessons", _f, at=(16, 15),
  rr=lambda i: [W(["wed"]) + ";UNTIL=" + SPAN_UNTIL(_f, 70, NY)[i]])
E("Therapy weekly on Mondays 6pm 12 times", "Therapy", FIRST_WEEKLY(["mon"], (18, 0)), at=(18, 0),
  rr=[W(["mon"]) + ";COUNT=12"])
E("Standup M-F 9:15am", "Standup", FIRST_WEEKLY(WEEKDAYS, (9, 15)), at=(9, 15), rr=[W(WEEKDAYS)])
E("Trash night every Sunday 8pm", "Trash night", FIRST_WEEKLY(["sun"], (20, 0)), at=(20, 0), rr=[W(["sun"])])
E("6am gym MWF", "gym", FIRST_WEEKLY(["mon", "wed", "fri"], (6, 0)), at=(6, 0), rr=[W(["mon", "wed", "fri"])])
E("Aftercare pickup 5:45pm weekdays", "Aftercare pickup", FIRST_WEEKLY(WEEKDAYS, (17, 45)), at=(17, 45), rr=[W(WEEKDAYS)])
E("Swim lessons Saturdays 9-9:45am at the Y", "Swim lessons", FIRST_WEEKLY(["sat"], (9, 0)), at=(9, 0), to=(9, 45),
  rr=[W(["sat"])], loc="the Y")
E("Guitar lesson 5:00 PM Mondays", "Guitar lesson", FIRST_WEEKLY(["mon"], (17, 0)), at=(17, 0), rr=[W(["mon"])])
E("take allergy meds every evening", "take allergy meds", FIRST_DAILY((19, 0)), at=(19, 0), rr=["RRULE:FREQ=DAILY"])
E("Water the garden every 3 days", "Water the garden", TODAY(), rr=["RRULE:FREQ=DAILY;INTERVAL=3"])
E("pay rent 1st of each month", "pay rent", FIRST_MONTHDAY(1), rr=["RRULE:FREQ=MONTHLY;BYMONTHDAY=1"])
E("HOA meeting every 3 months on the 15th", "HOA meeting", FIRST_MONTHDAY(15),
  rr=["RRULE:FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=15"])
E("Book club monthly on the first Thursday 7pm", "Book club", FIRST_NTH_WEEKDAY(1, "thu", (19, 0)), at=(19, 0),
  rr=["RRULE:FREQ=MONTHLY;BYDAY=1TH"])
E("Volunteer at the food bank on the second Saturday of every month 9-12", "Volunteer",
  FIRST_NTH_WEEKDAY(2, "sat", (9, 0)), at=(9, 0), to=(12, 0), loc="the food bank", rr=["RRULE:FREQ=MONTHLY;BYDAY=2SA"])
E("Grandpa Joe birthday yearly sept 22", "Grandpa Joe birthday", MD(9, 22), rr=["RRULE:FREQ=YEARLY"])
E("Our anniversary - every year on 4/30", "Our anniversary", MD(4, 30), rr=["RRULE:FREQ=YEARLY"])
E("Run club Saturday 6:45am @ Central Park", "Run club", WD("sat", (6, 45)), at=(6, 45), loc="Central Park")

# what a careful parser refuses
E("On call this weekend", "", REJ("vagueDate"))
E("Team offsite sometime next week", "", REJ("vagueDate"))
E("Call mom tomorrow or Sunday", "", REJ("conflict"))
E("Meeting Feb 30 at 10", "", REJ("invalidDate"))
E("Dinner tomorrow morning at 8pm", "", REJ("conflict"))
E("tomorrow @ 3:15pm", "", REJ("missingTitle"))
E("Buy birthday card for Liz", "", REJ("nothingToSchedule"))
E("Yoga class tue & thu 7:30pm", "", REJ("conflict"))
E("Pick up kids at 3 or 3:30 Friday", "", REJ("conflict"))

# ---------------------------------------------------------------- German (Europe/Berlin)
# Termine und Besorgungen
G("Kieferorthopäde Do 14:30 mit Finn", "Kieferorthopäde mit Finn", WD("thu", (14, 30)), at=(14, 30))
G("Mittagessen mit Lena morgen um 12", "Mittagessen mit Lena", PLUS(1), at=(12, 0))
G("Friseur am Samstag um halb 11", "Friseur", WD("sat", (10, 30)), at=(10, 30))
G("Teammeeting Mittwoch 9:30 im Büro", "Teammeeting", WD("wed", (9, 30)), at=(9, 30), loc="Büro")
G("Kaffee mit Oma So 15 Uhr", "Kaffee mit Oma", WD("sun", (15, 0)), at=(15, 0))
G("Termin beim Hausarzt 17.3. um 8:15", "Termin beim Hausarzt", MD(3, 17), at=(8, 15))
G("Elterngespräch Klassenlehrerin Di 16:45", "Elterngespräch Klassenlehrerin", WD("tue", (16, 45)), at=(16, 45))
G("Kita geschlossen am 23.12.", "Kita geschlossen", MD(12, 23))
G("Kinderarzt U7 für Mia Montag 10:40", "Kinderarzt U7 für Mia", WD("mon", (10, 40)), at=(10, 40))
G("Arzttermin 9.4. 11:20 Uhr Praxis Dr. Weber", "Arzttermin Praxis Dr. Weber", MD(4, 9), at=(11, 20))
G("Impfung Kinderarzt nächsten Mittwoch 15:10", "Impfung Kinderarzt", NEXT("wed"), at=(15, 10))
G("Blutabnahme nüchtern Mo 7:30", "Blutabnahme nüchtern", WD("mon", (7, 30)), at=(7, 30))
G("Autowerkstatt Reifenwechsel übermorgen früh", "Autowerkstatt Reifenwechsel", PLUS(2), at=(8, 0))
G("Fahrradwerkstatt Dienstag vormittags", "Fahrradwerkstatt", WD("tue", (10, 0)), at=(10, 0))
G("viertel vor 10 Zahnarzt Dienstag", "Zahnarzt", WD("tue", (9, 45)), at=(9, 45))
G("Umzug helfen bei Kathrin Sa 9 Uhr", "Umzug helfen bei Kathrin", WD("sat", (9, 0)), at=(9, 0))
G("Handwerker Hauptstr. 12 Di 8-10 Uhr", "Handwerker Hauptstr. 12", WD("tue", (8, 0)), at=(8, 0), to=(10, 0))
G("Abholung Paket Packstation 104 heute bis 20 Uhr", "Abholung Paket Packstation 104", TODAY(), at=(20, 0))
G("Karten für Konzert abholen (24,50 €) Freitag", "Karten für Konzert abholen (24,50 €)", WD("fri"))
G("Bürgeramt Termin Ummeldung am Donnerstag, 8:05 Uhr", "Bürgeramt Termin Ummeldung", WD("thu", (8, 5)), at=(8, 5))
G("Steuerberater Unterlagen vorbeibringen Mi Nachmittag", "Steuerberater Unterlagen vorbeibringen",
  WD("wed", (15, 0)), at=(15, 0))
G("Tierarzt mit Bello um 17:15 am 2.2.", "Tierarzt mit Bello", MD(2, 2), at=(17, 15))

# Arbeit und Fristen
G("Angebot an Müller GmbH spätestens Freitag 12 Uhr", "Angebot an Müller GmbH", WD("fri", (12, 0)), at=(12, 0))
G("Kfz-Steuer fällig 31.7.", "Kfz-Steuer", MD(7, 31))
G("Hausarbeit abgeben bis 15.1.", "Hausarbeit abgeben", MD(1, 15))
G("Reisepass verlängern bis Ende Februar", "Reisepass verlängern", NEXT_MONTH_END(2))
G("Abgabe Bachelorarbeit 30.09.2027", "Abgabe Bachelorarbeit", FIXED(2027, 9, 30))
G("Besprechung Raum 2.14 um 10", "Besprechung Raum 2.14", BARE((10, 0)), at=(10, 0))
G("Release 3.2.1 am Montag", "Release 3.2.1", WD("mon"))
G("Ticket JIRA-2291 fertig bis Mi 12 Uhr", "Ticket JIRA-2291 fertig", WD("wed", (12, 0)), at=(12, 0))
G("Webinar 15 Uhr MEZ am 20.1.", "Webinar", MD(1, 20), at=(15, 0))
G("Call mit London 9:30 Londoner Zeit morgen", "Call mit London", PLUS(1), at=(9, 30), zone="Europe/London")
G("Do 10 Uhr New Yorker Zeit Videocall mit Kunde aus Boston", "Videocall mit Kunde aus Boston",
  WD("thu", (10, 0)), at=(10, 0), zone="America/New_York")
G("Spätschicht 14-22 Uhr Samstag", "Spätschicht", WD("sat", (14, 0)), at=(14, 0), to=(22, 0))
G("Nachtdienst Sonntag 21:45 bis 6:15", "Nachtdienst", WD("sun", (21, 45)), at=(21, 45), to=(6, 15), nde=True)
G("Frühdienst morgen ab 6", "Frühdienst", PLUS(1), at=(6, 0))
G("Jahresgespräch mit Chefin am 14. Januar von 10 bis 11:30", "Jahresgespräch mit Chefin", MD(1, 14), at=(10, 0),
  to=(11, 30))
G("Inventur ganztägig Sa", "Inventur", WD("sat"))
G("Quartalszahlen an Controlling bis Monatsende", "Quartalszahlen an Controlling", MONTH_END())

# Reisen, mehrtägig
G("Flug nach Mallorca LH 1234 am 2. Juli 6:40", "Flug nach Mallorca LH 1234", MD(7, 2), at=(6, 40))
G("Zug nach Hamburg ICE 578 Fr 7:12", "Zug nach Hamburg ICE 578", WD("fri", (7, 12)), at=(7, 12))
G("Zugfahrt Berlin-Köln 8:34 Uhr Gleis 7 morgen", "Zugfahrt Berlin-Köln Gleis 7", PLUS(1), at=(8, 34))
G("Urlaub Italien 1.-14. August", "Urlaub Italien", MD(8, 1), last=MD(8, 14))
G("Skiurlaub vom 20. bis 27. Februar", "Skiurlaub", MD(2, 20), last=MD(2, 27))
G("Messe in Frankfurt 10.-12.11.", "Messe", MD(11, 10), last=MD(11, 12), loc="Frankfurt")
G("Dienstreise München Mo-Mi nächste Woche", "Dienstreise München", NEXTWEEK("mon"), last=NEXTWEEK("wed"))
G("Kurztrip Amsterdam 27.3.-29.3.2027", "Kurztrip Amsterdam", FIXED(2027, 3, 27), last=FIXED(2027, 3, 29))

# Freunde und Familie
G("Geburtstag Papa 14. Mai", "Geburtstag Papa", MD(5, 14))
G("Abendessen bei Schmidts Samstag gegen 7", "Abendessen bei Schmidts", WD("sat", (19, 0)), at=(19, 0))
G("Kino mit Ben heute 20:15", "Kino mit Ben", TODAY(), at=(20, 15))
G("Grillen bei Jonas Sa ab 16 Uhr", "Grillen bei Jonas", WD("sat", (16, 0)), at=(16, 0))
G("Spieleabend bei uns Freitag 19:30", "Spieleabend bei uns", WD("fri", (19, 30)), at=(19, 30))
G("Treffen mit Tom gegen Mittag am Do", "Treffen mit Tom", WD("thu", (12, 0)), at=(12, 0))
G("Tennis mit Kai um 18 Uhr übermorgen", "Tennis mit Kai", PLUS(2), at=(18, 0))
G("Essen mit Kollegen so um eins morgen", "Essen mit Kollegen", PLUS(1), at=(13, 0))
G("Fr Abend Kneipe mit den Jungs", "Kneipe mit den Jungs", WD("fri", (19, 0)), at=(19, 0))
G("Sonntagvormittag Brunch bei Mama", "Brunch bei Mama", WD("sun", (10, 0)), at=(10, 0))
G("Morgen früh um 7 Joggen", "Joggen", PLUS(1), at=(7, 0))
G("heut abend 8 uhr Serienabend", "Serienabend", TODAY(), at=(20, 0))
G("Treffen Bahnhof dreiviertel 6 morgen", "Treffen Bahnhof", PLUS(1), at=(17, 45))
G("Anruf bei Tante Gisela zwanzig nach 4 Sonntag", "Anruf bei Tante Gisela", WD("sun", (16, 20)), at=(16, 20))
G("Mittwochnachmittag Kaffeeklatsch bei Ute", "Kaffeeklatsch bei Ute", WD("wed", (15, 0)), at=(15, 0))
G("Donnerstagabend Probe Theatergruppe 19:30", "Probe Theatergruppe", WD("thu", (19, 30)), at=(19, 30))
G("Nachbarschaftsfest Samstag ab 15 Uhr im Hof", "Nachbarschaftsfest", WD("sat", (15, 0)), at=(15, 0), loc="Hof")
G("Klassentreffen Abi 2006 am 12. Juni", "Klassentreffen Abi 2006", MD(6, 12))
G("Bundesliga 96 gegen St. Pauli Sa 15:30", "Bundesliga 96 gegen St. Pauli", WD("sat", (15, 30)), at=(15, 30))
G("Silvesterparty bei Lukas 21 Uhr", "Silvesterparty bei Lukas", HOLIDAY(lambda y: dt.date(y, 12, 31)), at=(21, 0))
G("Heiligabend bei Oma und Opa 16 Uhr", "Heiligabend bei Oma und Opa", HOLIDAY(lambda y: dt.date(y, 12, 24)),
  at=(16, 0))
G("Brettspiele mit Nachbarn @ Café Würfel Do 18 Uhr", "Brettspiele mit Nachbarn", WD("thu", (18, 0)), at=(18, 0),
  loc="Café Würfel")
G("Treffen mit Sabine im Eiscafé Venezia um 3", "Treffen mit Sabine", BARE((15, 0)), at=(15, 0), loc="Eiscafé Venezia")

# Kinder und Schule
G("Laternelaufen Kita Sonnenschein 11.11. 16:30", "Laternelaufen Kita Sonnenschein", MD(11, 11), at=(16, 30))
G("Elternabend Klasse 3b am Dienstag um halb acht", "Elternabend Klasse 3b", WD("tue", (19, 30)), at=(19, 30))
G("Einschulung Emma 4. September 2027 10 Uhr", "Einschulung Emma", FIXED(2027, 9, 4), at=(10, 0))
G("Zeugnisausgabe am Fr", "Zeugnisausgabe", WD("fri"))
G("Handball Turnier der E-Jugend Sonntag 9-15 Uhr", "Handball Turnier der E-Jugend", WD("sun", (9, 0)), at=(9, 0),
  to=(15, 0))
G("Schulfest am 19. Juni 14 bis 18 Uhr", "Schulfest", MD(6, 19), at=(14, 0), to=(18, 0))

# relative Daten
G("Zahnreinigung in 3 Wochen", "Zahnreinigung", PLUS(21))
G("Rückruf Versicherung in einer Stunde", "Rückruf Versicherung", [None] * 3, exact=exact_plus(60))
G("Wäsche aufhängen in 45 Minuten", "Wäsche aufhängen", [None] * 3, exact=exact_plus(45))
G("Kontrolltermin in zwei Wochen 9 Uhr", "Kontrolltermin", PLUS(14), at=(9, 0))
G("in 4 Tagen Paket zurückschicken", "Paket zurückschicken", PLUS(4))

# Wiederholungen
G("Fußball Training dienstags und donnerstags 17:30", "Fußball Training", ACROSS(["tue", "thu"], (17, 30)),
  at=(17, 30), rr=[W(["tue", "thu"])])
G("Chor jeden Mittwoch 19:30 im Gemeindehaus", "Chor", FIRST_WEEKLY(["wed"], (19, 30)), at=(19, 30),
  rr=[W(["wed"])], loc="Gemeindehaus")
G("Hochzeitstag jährlich am 21.6.", "Hochzeitstag", MD(6, 21), rr=["RRULE:FREQ=YEARLY"])
G("Lisas Geburtstag jedes Jahr am 3. Oktober", "Lisas Geburtstag", MD(10, 3), rr=["RRULE:FREQ=YEARLY"])
G("Jahrestag mit Sven jährlich 8. März", "Jahrestag mit Sven", MD(3, 8), rr=["RRULE:FREQ=YEARLY"])
G("Miete an Vermieter überweisen monatlich am 1.", "Miete an Vermieter überweisen", FIRST_MONTHDAY(1), rr=["RRULE:FREQ=MONTHLY;BYMONTHDAY=1"])
G("Müllabfuhr Gelbe Tonne alle 2 Wochen Mittwoch", "Müllabfuhr Gelbe Tonne", FIRST_WEEKLY(["wed"]),
  rr=[W(["wed"], ";INTERVAL=2")])
G("Yoga im Studio Lotus montags 18:30", "Yoga", FIRST_WEEKLY(["mon"], (18, 30)), at=(18, 30), rr=[W(["mon"])],
  loc="Studio Lotus")
G("Schwimmkurs Paul 8 mal samstags 9:15", "Schwimmkurs Paul", FIRST_WEEKLY(["sat"], (9, 15)), at=(9, 15),
  rr=[W(["sat"]) + ";COUNT=8"])
G("Physio montags und mittwochs 7:30 bis 22.4.", "Physio", ACROSS(["mon", "wed"], (7, 30)), at=(7, 30),
  rr=UNTIL_EACH(W(["mon", "wed"]), MD(4, 22), BER))
G("Stammtisch jeden ersten Freitag im Monat um 8", "Stammtisch", FIRST_NTH_WEEKDAY(1, "fri", (20, 0)), at=(20, 0),
  rr=["RRULE:FREQ=MONTHLY;BYDAY=1FR"])
G("Betriebsversammlung am letzten Donnerstag im Monat 13 Uhr", "Betriebsversammlung",
  FIRST_NTH_WEEKDAY(-1, "thu", (13, 0)), at=(13, 0), rr=["RRULE:FREQ=MONTHLY;BYDAY=-1TH"])
G("Blumen gießen alle 4 Tage", "Blumen gießen", TODAY(), rr=["RRULE:FREQ=DAILY;INTERVAL=4"])
_s = FIRST_WEEKLY(["mon"], (15, 0))
G("Mathe Nachhilfe Leon montags 15-16 Uhr bis 26.6.", "Mathe Nachhilfe Leon", _s, at=(15, 0), to=(16, 0),
  rr=UNTIL_EACH(W(["mon"]), MD(6, 26), BER))
G("Gitarrenunterricht 10x donnerstags 17 Uhr", "Gitarrenunterricht", FIRST_WEEKLY(["thu"], (17, 0)), at=(17, 0),
  rr=[W(["thu"]) + ";COUNT=10"])
_r = FIRST_WEEKLY(["tue"], (18, 0))
G("Rückengymnastik jeden Di 18 Uhr für 8 Wochen", "Rückengymnastik", _r, at=(18, 0),
  rr=lambda i: [W(["tue"]) + ";UNTIL=" + SPAN_UNTIL(_r, 56, BER)[i]])
G("Laufgruppe jeden Samstag 8 Uhr @ Maschsee", "Laufgruppe", FIRST_WEEKLY(["sat"], (8, 0)), at=(8, 0),
  rr=[W(["sat"])], loc="Maschsee")
G("Teamrunde werktags 8:45", "Teamrunde", FIRST_WEEKLY(WEEKDAYS, (8, 45)), at=(8, 45), rr=[W(WEEKDAYS)])
G("Oma besuchen jeden zweiten Sonntag 14 Uhr", "Oma besuchen", FIRST_WEEKLY(["sun"], (14, 0)), at=(14, 0),
  rr=[W(["sun"], ";INTERVAL=2")])
G("Tabletten nehmen jeden Abend", "Tabletten nehmen", FIRST_DAILY((19, 0)), at=(19, 0), rr=["RRULE:FREQ=DAILY"])

# was ein sorgfältiger Parser ablehnt
G("Treffen mit Anna irgendwann nächste Woche", "", REJ("vagueDate"))
G("Kaffee um 15 oder 16 Uhr morgen", "", REJ("conflict"))
G("Konzert am 31.4. 20 Uhr", "", REJ("invalidDate"))
G("Weihnachtsfeier Firma 18 Uhr", "", REJ("vagueDate"))
G("morgen um 10", "", REJ("missingTitle"))
G("Wohnung putzen", "", REJ("nothingToSchedule"))
G("Umzug im Sommer", "", NOT_A_DAY)


if __name__ == "__main__":
    write("dev-doubts-5")
