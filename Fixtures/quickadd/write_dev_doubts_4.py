#!/usr/bin/env python3
"""Writes dev-doubts-4.jsonl: a fourth development set for quick-add, phrases written and labelled by hand.

Written on 2026-12-06 by a helper session that opened neither the parser, its tests and benches, nor any
held-out or doubts file (other files were loaded by a script only to check that no phrase repeats one of
theirs). Labels are what the writer of each phrase means; where a phrase leaves something open, they follow
docs/quick-add.md (default hours, parts of the day, deadlines, past times, repeats' first occurrences).
The phrases are written as different people type them: a nurse on shifts, a student, a parent, a
traveller across zones, a small-business owner, a sports club organiser, a German Handwerker and Verein;
SMS shorthand, times and dates before the title, numbers in titles, lines copied from e-mails.

Moments (as moments-*.jsonl): Tuesday 2026-03-10 09:00, Friday 2026-12-04 17:30, Thursday 2026-12-31
23:30; English in America/New_York, German in Europe/Berlin. The helpers below only do calendar
arithmetic for meanings stated by hand in each line (the next Friday, today plus 3 days, the first
occurrence of a weekly rule); the script never runs calbridge. Standard library only.
Run: python3 Fixtures/quickadd/write_dev_doubts_4.py
"""
import datetime as dt

from dev_set_labels import *  # noqa: F403 (the shared helpers and the LINES they collect)


# ---------------------------------------------------------------- English (America/New_York)
# a nurse on shifts
E("night shift 7p-7a sat", "night shift", WD("sat", (19, 0)), at=(19, 0), to=(7, 0), nde=True)
E("Charge nurse mtg 0730 thurs", "Charge nurse mtg", WD("thu", (7, 30)), at=(7, 30))
E("12hr day shift tmrw 7a-7:30p", "12hr day shift", PLUS(1), at=(7, 0), to=(19, 30))
E("BLS recert class Jan 14 0800-1200 @ St. Luke's", "BLS recert class", MD(1, 14), at=(8, 0), to=(12, 0), loc="St. Luke's")
E("swap shift w/ Dana - Wed 3p-11p", "swap shift w/ Dana", WD("wed", (15, 0)), at=(15, 0), to=(23, 0))
E("Nights Fri Sat Sun 7pm-7am", "", REJ("conflict"))
E("Flu shot clinic 2nd floor conf rm B 1-4 tomorrow", "Flu shot clinic 2nd floor conf rm B", PLUS(1), at=(13, 0), to=(16, 0))
_f = FIRST_NTH_WEEKDAY(3, "wed", (14, 30))
E("unit staff meeting every 3rd wed 1430", "unit staff meeting", _f, at=(14, 30), rr=["RRULE:FREQ=MONTHLY;BYDAY=3WE"])
E("Orientation for new grads 3/23 8:30-4:30", "Orientation for new grads", MD(3, 23), at=(8, 30), to=(16, 30))
E("pick up scrubs from cleaners b4 6", "pick up scrubs from cleaners", BARE((18, 0)), at=(18, 0))
E("Post-call nap 8am-1pm sun", "Post-call nap", WD("sun", (8, 0)), at=(8, 0), to=(13, 0))

# a student
E("CHEM 101 midterm thurs 10:10-11:25 rm 204", "CHEM 101 midterm rm 204", WD("thu", (10, 10)), at=(10, 10), to=(11, 25))
E("office hrs w/ Prof Kim 2:30 tues", "office hrs w/ Prof Kim", WD("tue", (14, 30)), at=(14, 30))
E("Essay 2 due sun 11:59pm", "Essay 2", WD("sun", (23, 59)), at=(23, 59))
E("study group @ library 7-9pm mon", "study group", WD("mon", (19, 0)), at=(19, 0), to=(21, 0), loc="library")
E("Bio lab report due 4/2", "Bio lab report", MD(4, 2))
E("ECON 2010 final Dec 15 8-10am", "ECON 2010 final", MD(12, 15), at=(8, 0), to=(10, 0))
E("tutoring 4ish mon/wed", "tutoring", ACROSS(["mon", "wed"], (16, 0)), at=(16, 0), rr=[W(["mon", "wed"])])
E("Spring break Mar 14-22", "Spring break", MD(3, 14), last=MD(3, 22))
E("Calc quiz ch. 7 friday", "Calc quiz ch. 7", WD("fri"))
E("Thesis draft to advisor by 3/31 5pm", "Thesis draft to advisor", MD(3, 31), at=(17, 0))
_f = ACROSS(["tue", "thu"], (12, 30))
E("TA section every tues & thurs 12:30-1:20 until 5/1", "TA section", _f, at=(12, 30), to=(13, 20),
  rr=lambda i: [W_UNTIL(["tue", "thu"], MD(5, 1)[i], NY)])
E("Move out of dorm by noon 5/9", "Move out of dorm", MD(5, 9), at=(12, 0))
E("GRE test 8am Sat Apr 18 @ Prometric", "GRE test", [dt.date(2026, 4, 18), "reject:conflict|invalidDate", "reject:conflict|invalidDate"], at=(8, 0), loc="Prometric")

# a parent
E("Emma soccer practice tues/thurs 5:30-7", "Emma soccer practice", ACROSS(["tue", "thu"], (17, 30)), at=(17, 30), to=(19, 0), rr=[W(["tue", "thu"])])
E("half day - pick up kids 12:15 wed", "half day - pick up kids", WD("wed", (12, 15)), at=(12, 15))
E("Jake dentist appt 3:40 thurs", "Jake dentist appt", WD("thu", (15, 40)), at=(15, 40))
E("PTA mtg 6:30 tmrw in the cafeteria", "PTA mtg in the cafeteria", PLUS(1), at=(18, 30))
E("Lily bday party @ Bounce Zone sat 2-4", "Lily bday party", WD("sat", (14, 0)), at=(14, 0), to=(16, 0), loc="Bounce Zone")
E("Book fair volunteer 12/9 10-1", "Book fair volunteer", MD(12, 9), at=(10, 0), to=(13, 0))
E("no school - teacher workday fri", "no school - teacher workday", WD("fri"))
E("Picture day 3/19 wear blue shirt", "Picture day wear blue shirt", MD(3, 19))
E("Mia piano recital 4pm Sunday at First Baptist", "Mia piano recital", WD("sun", (16, 0)), at=(16, 0), loc="First Baptist")
_f = FIRST_WEEKLY(["sat"], (9, 15))
E("swim lessons every sat 9:15 for 6 wks", "swim lessons", _f, at=(9, 15), rr=lambda i: [W(["sat"]) + ";UNTIL=" + SPAN_UNTIL(_f, 42, NY)[i]])
E("Carpool - my turn M/W 7:40am", "Carpool - my turn", ACROSS(["mon", "wed"], (7, 40)), at=(7, 40), rr=[W(["mon", "wed"])])
E("Parent teacher conferences Nov 19", "Parent teacher conferences", MD(11, 19))
E("Ben's 8th birthday May 3", "Ben's 8th birthday", MD(5, 3))
E("Noah allergist 10:45 a week from monday", "Noah allergist", [d + dt.timedelta(days=7) for d in NEXT("mon")], at=(10, 45))
E("Field trip $12 + sack lunch thurs", "Field trip $12 + sack lunch", WD("thu"))
E("kids to grandma's 5:30 fri, back sun", "", REJ("conflict"))

# a traveller
E("Flight UA 837 SFO-NRT Mar 28 11:25am PT", "Flight UA 837 SFO-NRT", MD(3, 28), at=(11, 25), zone="America/Los_Angeles")
E("Land NRT 3:10pm JST Mar 29", "Land NRT", MD(3, 29), at=(15, 10), zone="Asia/Tokyo")
E("train to Boston 7:05a tmrw Amtrak 2151", "train to Boston Amtrak 2151", PLUS(1), at=(7, 5))
E("Hotel check-in Fri, Dec 18 3pm", "Hotel check-in", [dt.date(2026, 12, 18), dt.date(2026, 12, 18), "reject:conflict|invalidDate"], at=(15, 0))
E("Red-eye LAX-JFK 10:40pm PT sun", "Red-eye LAX-JFK", WD("sun"), at=(22, 40), zone="America/Los_Angeles")
E("Call w/ Sydney team 4pm AEDT mon", "Call w/ Sydney team", WD("mon"), at=(16, 0), zone="Australia/Sydney")
E("Re: sync Thu 2-3pm ET", "Re: sync", WD("thu", (14, 0)), at=(14, 0), to=(15, 0))
E("Fwd: Quarterly review - Tuesday, Jan 12, 10:00 AM - 11:30 AM (EST)", "Fwd: Quarterly review", FIXED(2027, 1, 12), at=(10, 0), to=(11, 30))
E("Uber to airport 4:45am", "Uber to airport", BARE((4, 45)), at=(4, 45))
E("Eurostar London-Paris 8:01 GMT 22/12", "Eurostar London-Paris", MD(12, 22), at=(8, 1), zone="UTC")
E("Conf in Denver 3/16-3/19", "Conf in Denver", MD(3, 16), last=MD(3, 19))
E("Pick up rental car @ MCO 1:30p wed", "Pick up rental car", WD("wed", (13, 30)), at=(13, 30), loc="MCO")
E("Passport renewal appt 9:20am 1/8/27", "Passport renewal appt", FIXED(2027, 1, 8), at=(9, 20))
E("Shuttle to hotel 5:50pm HST tmrw", "Shuttle to hotel", PLUS(1), at=(17, 50), zone="Pacific/Honolulu")
E("Call home 7pm London time sat", "Call home", WD("sat"), at=(19, 0), zone="Europe/London")

# a small-business owner
E("Invoice #2043 due 12/20", "Invoice #2043", MD(12, 20))
E("Client call - Acme Corp 11:30 ET tmrw", "Client call - Acme Corp", PLUS(1), at=(11, 30))
E("Quarterly sales tax due Jan 20", "Quarterly sales tax", MD(1, 20))
E("Pay 1099 contractors by the 31st", "Pay 1099 contractors", NTH(31))
E("Send quote to Mrs. Patel $1,250 by wed", "Send quote to Mrs. Patel $1,250", WD("wed"))
E("Inventory count sat 6am-noon", "Inventory count", WD("sat", (6, 0)), at=(6, 0), to=(12, 0))
E("call supplier re order 5531 @ 2", "call supplier re order 5531", BARE((14, 0)), at=(14, 0))
E("Bookkeeper 1st mon of every month 10am", "Bookkeeper", FIRST_NTH_WEEKDAY(1, "mon", (10, 0)), at=(10, 0), rr=["RRULE:FREQ=MONTHLY;BYDAY=1MO"])
E("Renew business license by 6/30", "Renew business license", MD(6, 30))
E("Zoom w/ Brightline 3:15pm Thu", "Zoom w/ Brightline", WD("thu", (15, 15)), at=(15, 15))
E("Payroll every other Friday", "Payroll", FIRST_WEEKLY(["fri"]), rr=[W(["fri"], ";INTERVAL=2")])
E("Estimated taxes Q1 due 4/15", "Estimated taxes Q1", MD(4, 15))
E("Lunch mtg w/ investor 12:30 at The Capital Grille fri", "Lunch mtg w/ investor", WD("fri", (12, 30)), at=(12, 30), loc="The Capital Grille")
E("Follow up on PO 88-1102 EOD tmrw", "Follow up on PO 88-1102", PLUS(1), at=(17, 0))
E("Shop closed 12/24-12/26", "Shop closed", MD(12, 24), last=MD(12, 26))

# a sports club organiser
E("U10 practice field 3 tues 5:30", "U10 practice field 3", WD("tue", (17, 30)), at=(17, 30))
E("Game vs Hawks @ Field 2 sat 10am", "Game vs Hawks", WD("sat", (10, 0)), at=(10, 0), loc="Field 2")
E("Ref meeting 7pm wed at clubhouse", "Ref meeting", WD("wed", (19, 0)), at=(19, 0), loc="clubhouse")
E("Tournament Apr 11-12", "Tournament", MD(4, 11), last=MD(4, 12))
E("Pick up jerseys (24) from printer thu", "Pick up jerseys (24) from printer", WD("thu"))
E("Final score 3-2 recap email sun 8pm", "Final score 3-2 recap email", WD("sun", (20, 0)), at=(20, 0))
E("Registration closes 3/1 11:59pm", "Registration closes", MD(3, 1), at=(23, 59))
E("Coaches mtg every other mon 7pm", "Coaches mtg", FIRST_WEEKLY(["mon"], (19, 0)), at=(19, 0), rr=[W(["mon"], ";INTERVAL=2")])
E("5k fun run sun 8am", "5k fun run", WD("sun", (8, 0)), at=(8, 0))
E("Batting cage 6-7pm thurs", "Batting cage", WD("thu", (18, 0)), at=(18, 0), to=(19, 0))
E("Snack duty - Team 4 - sat 9am", "Snack duty - Team 4", WD("sat", (9, 0)), at=(9, 0))

# SMS shorthand, times and dates first
E("tmrw 3 dentist", "dentist", PLUS(1), at=(15, 0))
E("fri 8pm dinner w/ sam", "dinner w/ sam", WD("fri", (20, 0)), at=(20, 0))
E("10am mon - 1:1 w/ Priya", "1:1 w/ Priya", WD("mon", (10, 0)), at=(10, 0))
E("2:30 haircut", "haircut", BARE((14, 30)), at=(14, 30))
E("wed 7:15 am spin class", "spin class", WD("wed", (7, 15)), at=(7, 15))
E("12/18 office holiday party 6pm", "office holiday party", MD(12, 18), at=(18, 0))
E("Jan 9 - Kate's wedding", "Kate's wedding", MD(1, 9))
E("noon tmrw lunch w/ mom", "lunch w/ mom", PLUS(1), at=(12, 0))
E("8:45 pt appt mon", "pt appt", WD("mon", (8, 45)), at=(8, 45))
E("mtg w/ HR 9:30 am tues rm 4B", "mtg w/ HR rm 4B", WD("tue", (9, 30)), at=(9, 30))
E("call mom sun", "call mom", WD("sun"))
E("oil change sat morning", "oil change", WD("sat", (9, 0)), at=(9, 0))
E("drinks @ Hank's thurs 6", "drinks", WD("thu", (18, 0)), at=(18, 0), loc="Hank's")
E("dr appt 4/7 @ 3:20", "dr appt", MD(4, 7), at=(15, 20))
E("tmr 6a run w/ Jess", "run w/ Jess", PLUS(1), at=(6, 0))
E("brunch @ 11 sun w/ the girls", "brunch w/ the girls", WD("sun", (11, 0)), at=(11, 0))
E("appt w/ Dr. Lee 2moro 11:15", "appt w/ Dr. Lee", PLUS(1), at=(11, 15))
E("mtg 4 the budget 3pm wed", "mtg 4 the budget", WD("wed", (15, 0)), at=(15, 0))
E("Reminder: car registration expires 8/31", "Reminder: car registration expires", MD(8, 31))
E("RSVP'd: Holiday party Fri Dec 11 6-9pm", "RSVP'd: Holiday party", [dt.date(2026, 12, 11), dt.date(2026, 12, 11), "reject:conflict|invalidDate"], at=(18, 0), to=(21, 0))

# look-alikes
E("Deploy v3.12.1 to prod thu 6pm", "Deploy v3.12.1 to prod", WD("thu", (18, 0)), at=(18, 0))
E("Ticket JIRA-4471 review 2pm tmrw", "Ticket JIRA-4471 review", PLUS(1), at=(14, 0))
E("Return 2 library books by 3/14", "Return 2 library books", MD(3, 14))
E("Call 212-555-0187 re: refund mon 10am", "Call 212-555-0187 re: refund", WD("mon", (10, 0)), at=(10, 0))
E("Pick up prescription $15 copay 5pm", "Pick up prescription $15 copay", BARE((17, 0)), at=(17, 0))
E("Open house 1402 Elm St sun 1-3", "Open house 1402 Elm St", WD("sun", (13, 0)), at=(13, 0), to=(15, 0))
E("Super Bowl LXI party 6:30pm Feb 14 2027", "Super Bowl LXI party", FIXED(2027, 2, 14), at=(18, 30))
E("Reunion class of 2016 Jun 20", "Reunion class of 2016", MD(6, 20))
E("Gate B22 board 6:40am fri", "Gate B22 board", WD("fri", (6, 40)), at=(6, 40))
E("1st period chem test wed", "1st period chem test", WD("wed"))
E("Room 310 review session 4-5:30 tues", "Room 310 review session", WD("tue", (16, 0)), at=(16, 0), to=(17, 30))
E("Buy 2026 tax software tmrw", "Buy 2026 tax software", PLUS(1))
E("Watch Apollo 11 doc 9pm sat", "Watch Apollo 11 doc", WD("sat", (21, 0)), at=(21, 0))
E("Dinner 4 people @ 7:45 Tues", "Dinner 4 people", WD("tue", (19, 45)), at=(19, 45))
E("Bake 3 dozen cookies for bake sale thurs night", "Bake 3 dozen cookies for bake sale", WD("thu", (21, 0)), at=(21, 0))
E("Return Costco TV (model 55U8) by the 20th", "Return Costco TV (model 55U8)", NTH(20))

# ranges across noon and midnight, approximate times
E("Open mic 10pm-1am sat @ Blue Door", "Open mic", WD("sat", (22, 0)), at=(22, 0), to=(1, 0), nde=True, loc="Blue Door")
E("Workshop 10:30-1:30 thurs", "Workshop", WD("thu", (10, 30)), at=(10, 30), to=(13, 30))
E("New Year's Eve gala 9pm-2am", "New Year's Eve gala", FIXED(2026, 12, 31), at=(21, 0), to=(2, 0), nde=True)
E("Volunteer at shelter 11-2 sat", "Volunteer", WD("sat", (11, 0)), at=(11, 0), to=(14, 0), loc="shelter")
E("call Grandma around 4 sun", "call Grandma", WD("sun", (16, 0)), at=(16, 0))
E("coffee w/ Lena 10ish tmrw", "coffee w/ Lena", PLUS(1), at=(10, 0))
E("pickup ~5:15 from daycare", "pickup from daycare", BARE((17, 15)), at=(17, 15))

# next / this / after next, date forms, relative dates
E("next tues 9:30 dentist cleaning", "dentist cleaning", NEXT("tue"), at=(9, 30))
E("this sat yard sale 7am", "yard sale", THIS("sat"), at=(7, 0))
E("Fri after next - team offsite", "team offsite", AFTERNEXT("fri"))
E("wed next week 2pm vendor demo", "vendor demo", NEXTWEEK("wed"), at=(14, 0))
E("Dec 15 2027 - lease ends", "lease ends", FIXED(2027, 12, 15))
E("the 22nd, 3pm - closing on house", "closing on house", NTH(22), at=(15, 0))
E("15 Jan 2027 jury duty 8:30am", "jury duty", FIXED(2027, 1, 15), at=(8, 30))
E("Anniversary dinner Apr. 3rd 7pm", "Anniversary dinner", MD(4, 3), at=(19, 0))
E("Follow-up visit in 10 days", "Follow-up visit", PLUS(10))
E("Suture removal in 2 weeks 9am", "Suture removal", PLUS(14), at=(9, 0))
E("call back in 45 min", "call back", PLUS(0), exact=exact_plus(45))

# zones
E("Standup 9:30am CT weekdays", "Standup", [dt.date(2026, 3, 10), dt.date(2026, 12, 7), dt.date(2027, 1, 1)], at=(9, 30), zone="America/Chicago", rr=[W(WEEKDAYS)])
E("Webinar 1pm MT Dec 10", "Webinar", MD(12, 10), at=(13, 0), zone="America/Denver")
E("Interview w/ Berlin office 15:00 CET thu", "Interview w/ Berlin office", [dt.date(2026, 3, 12), dt.date(2026, 12, 10), dt.date(2027, 1, 7)], at=(15, 0), zone="Europe/Berlin")

# repeats with ends and counts
E("Meds 8a/8p daily", "", REJ("conflict"))
_f = FIRST_DAILY((19, 0))
E("PT exercises every day 7pm for 2 weeks", "PT exercises", _f, at=(19, 0), rr=lambda i: ["RRULE:FREQ=DAILY;UNTIL=" + SPAN_UNTIL(_f, 14, NY)[i]])
E("Allergy shots every mon 5:30pm x8", "Allergy shots", FIRST_WEEKLY(["mon"], (17, 30)), at=(17, 30), rr=[W(["mon"]) + ";COUNT=8"])
E("Guitar lessons weekly on thurs 4:30 until Jun 4", "Guitar lessons", FIRST_WEEKLY(["thu"], (16, 30)), at=(16, 30),
  rr=lambda i: [W_UNTIL(["thu"], MD(6, 4)[i], NY)])
E("Book club every last thurs 7:30pm", "Book club", FIRST_NTH_WEEKDAY(-1, "thu", (19, 30)), at=(19, 30), rr=["RRULE:FREQ=MONTHLY;BYDAY=-1TH"])

# what a careful parser refuses
E("Dentist tues or wed 2pm", "", REJ("conflict"))
E("Quarterly review sometime in Q2", "", NOT_A_DAY)
E("Team dinner next weekend", "", REJ("vagueDate"))
E("BBQ 4th of July weekend", "", REJ("vagueDate"))
E("Mtg 2/30 10am", "", REJ("invalidDate"))
E("Shift 7:75am sat", "", REJ("invalidTime"))
E("tmrw 9am", "", REJ("missingTitle"))
E("Lunch tomorrow morning 1pm", "", REJ("conflict"))
E("Call Tokyo 9am JST 10am EST", "", REJ("conflict"))

# ---------------------------------------------------------------- German (Europe/Berlin)
# ein Handwerker
G("Fliesen legen bei Fam. Schulz Mo 7 Uhr", "Fliesen legen bei Fam. Schulz", WD("mon", (7, 0)), at=(7, 0))
G("Aufmaß Küche Hr. Becker Do 14:30", "Aufmaß Küche Hr. Becker", WD("thu", (14, 30)), at=(14, 30))
G("Angebot 2025-117 an Fr. Yilmaz raus bis Fr", "Angebot 2025-117 an Fr. Yilmaz raus", WD("fri"))
G("Material abholen Baumarkt 7.30 Uhr morgen", "Material abholen Baumarkt", PLUS(1), at=(7, 30))
G("Heizungswartung Müllerstr. 12 übermorgen 8-10", "Heizungswartung Müllerstr. 12", PLUS(2), at=(8, 0), to=(10, 0))
G("Rechnung Nr. 4471 fällig 15.1.", "Rechnung Nr. 4471", MD(1, 15))
G("Gesellenprüfung 22.-23. Juni", "Gesellenprüfung", MD(6, 22), last=MD(6, 23))
G("Kundentermin Fa. Krüger GmbH um halb 10", "Kundentermin Fa. Krüger GmbH", BARE((9, 30)), at=(9, 30))
G("Dachrinne reinigen Sa vormittags", "Dachrinne reinigen", WD("sat", (10, 0)), at=(10, 0))
G("Lieferung Fenster KW 12", "", NOT_A_DAY)
G("Baubesprechung jeden Mi 7:00 Uhr auf der Baustelle", "Baubesprechung auf der Baustelle", FIRST_WEEKLY(["wed"], (7, 0)), at=(7, 0), rr=[W(["wed"])])
G("Werkzeug zurück an Hilti spätestens 20.12.", "Werkzeug zurück an Hilti", MD(12, 20))
G("Ölwechsel Transporter B-HW 4711 Sa 8 Uhr", "Ölwechsel Transporter B-HW 4711", WD("sat", (8, 0)), at=(8, 0))
G("Estrich trocknen lassen, weiter in 3 Wochen", "Estrich trocknen lassen, weiter", PLUS(21))
G("Rueckruf Frau Klein 0221 123456 gegen 11", "Rueckruf Frau Klein 0221 123456", BARE((11, 0)), at=(11, 0))
G("7:00 Baustelle Hauptstr 5 Gerüst abbauen Mo", "Baustelle Hauptstr 5 Gerüst abbauen", WD("mon", (7, 0)), at=(7, 0))

# ein Verein
G("Jahreshauptversammlung TSV 1860 am 27.3. um 19:30 im Vereinsheim", "Jahreshauptversammlung TSV 1860", MD(3, 27), at=(19, 30), loc="Vereinsheim")
G("Vorstandssitzung jeden 1. Montag im Monat 20 Uhr", "Vorstandssitzung", FIRST_NTH_WEEKDAY(1, "mon", (20, 0)), at=(20, 0), rr=["RRULE:FREQ=MONTHLY;BYDAY=1MO"])
G("Training C-Jugend Di+Do 17-18:30 Uhr", "Training C-Jugend", ACROSS(["tue", "thu"], (17, 0)), at=(17, 0), to=(18, 30), rr=[W(["tue", "thu"])])
G("Heimspiel gg. SV Werder II Sa 15:30", "Heimspiel gg. SV Werder II", WD("sat", (15, 30)), at=(15, 30))
G("Mitgliedsbeiträge einziehen bis Ende Januar", "Mitgliedsbeiträge einziehen", FIXED(2027, 1, 31))
G("Sommerfest Verein 4.7. ab 14 Uhr", "Sommerfest Verein", MD(7, 4), at=(14, 0))
G("Platzwart Dienst Samstag 8 bis 12", "Platzwart Dienst", WD("sat", (8, 0)), at=(8, 0), to=(12, 0))
G("Kassenprüfung bei Heinz um 18 Uhr am Donnerstag", "Kassenprüfung bei Heinz", WD("thu", (18, 0)), at=(18, 0))
G("Chorprobe mittwochs 19.30 Uhr bis 24.6.", "Chorprobe", FIRST_WEEKLY(["wed"], (19, 30)), at=(19, 30),
  rr=lambda i: [W_UNTIL(["wed"], MD(6, 24)[i], BER)])
G("Vereinsausflug nach Rüdesheim 12. September", "Vereinsausflug nach Rüdesheim", MD(9, 12))
G("Skatabend Do 19 Uhr", "Skatabend", WD("thu", (19, 0)), at=(19, 0))
G("Trikots waschen – bin dran nächste Woche", "", REJ("vagueDate"))
G("Schiri-Lehrgang 3 Tage ab 9.1.", "Schiri-Lehrgang", MD(1, 9), last=MD(1, 11))
G("Arbeitseinsatz Vereinsgelände Sa 9-13 Uhr, Handschuhe mitbringen", "Arbeitseinsatz Vereinsgelände, Handschuhe mitbringen", WD("sat", (9, 0)), at=(9, 0), to=(13, 0))
G("Jugendturnier 2027 Anmeldung bis 1.2.", "Jugendturnier 2027 Anmeldung", MD(2, 1))

# Pflege
G("Frühdienst morgen 6-14 Uhr", "Frühdienst", PLUS(1), at=(6, 0), to=(14, 0))
G("Nachtdienst Sa 21:45 bis So 6:15", "Nachtdienst", WD("sat", (21, 45)), at=(21, 45), to=(6, 15), nde=True)
G("Spätdienst 13:30–22 Uhr Mi", "Spätdienst", WD("wed", (13, 30)), at=(13, 30), to=(22, 0))
G("Dienstplan Januar abgeben bis 15.12.", "Dienstplan Januar abgeben", MD(12, 15))
G("Fortbildung Wundmanagement 9.–10. Februar", "Fortbildung Wundmanagement", MD(2, 9), last=MD(2, 10))
G("Teambesprechung Station 4 um 14h", "Teambesprechung Station 4", BARE((14, 0)), at=(14, 0))
G("Dienst tauschen mit Steffi 24.12. Spätdienst statt Frühdienst", "Dienst tauschen mit Steffi Spätdienst statt Frühdienst", MD(12, 24))

# Eltern und Schule
G("Elternsprechtag Fr 15-18 Uhr", "Elternsprechtag", WD("fri", (15, 0)), at=(15, 0), to=(18, 0))
G("Laterne laufen Kita Sonnenschein 11.11. um 17 Uhr", "Laterne laufen Kita Sonnenschein", MD(11, 11), at=(17, 0))
G("Mia Schwimmkurs samstags 9:15 10 mal", "Mia Schwimmkurs", FIRST_WEEKLY(["sat"], (9, 15)), at=(9, 15), rr=[W(["sat"]) + ";COUNT=10"])
G("Zahnarzt Leon Mi 14:20", "Zahnarzt Leon", WD("wed", (14, 20)), at=(14, 20))
G("Ausflugsgeld 7,50 € mitgeben bis Mo", "Ausflugsgeld 7,50 € mitgeben", WD("mon"))
G("Kindergeburtstag Paul am Sa von 15 bis 18 Uhr", "Kindergeburtstag Paul", WD("sat", (15, 0)), at=(15, 0), to=(18, 0))
G("Zeugnisse gibt's am 29.1.", "Zeugnisse gibt's", MD(1, 29))
G("U9 Untersuchung Kinderarzt 8:40 Do", "U9 Untersuchung Kinderarzt", WD("thu", (8, 40)), at=(8, 40))
G("Schulanmeldung Grundschule bis spätestens 20. Februar", "Schulanmeldung Grundschule", MD(2, 20))
G("Hort abholen heute 16 Uhr", "Hort abholen", TODAY(), at=(16, 0))
G("Turnbeutel nicht vergessen!! morgen", "Turnbeutel nicht vergessen!!", PLUS(1))

# Studium
G("Klausur Analysis II 18.2. 10-12 Uhr HS 3", "Klausur Analysis II HS 3", MD(2, 18), at=(10, 0), to=(12, 0))
G("Abgabe Hausarbeit fällig 31.3. 23:59", "Abgabe Hausarbeit", MD(3, 31), at=(23, 59))
G("Lerngruppe Stat im Raum 2.107 Di 16 Uhr", "Lerngruppe Stat", WD("tue", (16, 0)), at=(16, 0), loc="Raum 2.107")
G("Sprechstunde Prof. Weber Do 11-12", "Sprechstunde Prof. Weber", WD("thu", (11, 0)), at=(11, 0), to=(12, 0))
G("Vorlesung Makro jeden Mo 8:15-9:45 bis 10.7.", "Vorlesung Makro", FIRST_WEEKLY(["mon"], (8, 15)), at=(8, 15), to=(9, 45),
  rr=lambda i: [W_UNTIL(["mon"], MD(7, 10)[i], BER)])
G("BAföG Antrag bis Monatsende", "BAföG Antrag", [dt.date(2026, 3, 31), dt.date(2026, 12, 31), dt.date(2026, 12, 31)])

# Reisen
G("Flug LH 400 FRA–JFK 13:05 am 14.12.", "Flug LH 400 FRA–JFK", MD(12, 14), at=(13, 5))
G("ICE 1023 Köln ab 6:47 Fr", "ICE 1023 Köln", WD("fri", (6, 47)), at=(6, 47))
G("Telko mit NYC 15 Uhr New Yorker Zeit Di", "Telko mit NYC", [dt.date(2026, 3, 10), dt.date(2026, 12, 8), dt.date(2027, 1, 5)], at=(15, 0), zone="America/New_York")
G("Call Singapur 9 Uhr SGT morgen", "Call Singapur", PLUS(1), at=(9, 0), zone="Asia/Singapore")
G("Rückflug Mallorca 22.4. 21:40 Uhr", "Rückflug Mallorca", MD(4, 22), at=(21, 40))
G("Hotel Check-out 11 Uhr übermorgen", "Hotel Check-out", PLUS(2), at=(11, 0))
G("Zug nach München in 2 Wochen", "Zug nach München", PLUS(14))
G("Mietwagen zurückgeben 10:00 MESZ 3.8.", "Mietwagen zurückgeben", MD(8, 3), at=(10, 0))
G("Call mit Chicago 9 Uhr CST Fr", "Call mit Chicago", [dt.date(2026, 3, 13), dt.date(2026, 12, 11), dt.date(2027, 1, 1)], at=(9, 0), zone="America/Chicago")
G("Webinar 17 Uhr MEZ am 14.1.", "Webinar", MD(1, 14), at=(17, 0))

# umgangssprachlich, Zeit und Datum zuerst
G("morgen 10 Friseur", "Friseur", PLUS(1), at=(10, 0))
G("Fr 19 Uhr Essen bei Anna", "Essen bei Anna", WD("fri", (19, 0)), at=(19, 0))
G("halb 8 Frühstück mit Opa", "Frühstück mit Opa", BARE((7, 30)), at=(7, 30))
G("Do gegen 6 Grillen bei Tom", "Grillen bei Tom", WD("thu", (18, 0)), at=(18, 0))
G("Kaffee mit Jana so gegen 4 morgen", "Kaffee mit Jana", PLUS(1), at=(16, 0))
G("Arzttermin nächsten Di um 8:20", "Arzttermin", NEXT("tue"), at=(8, 20))
G("diesen Sa Flohmarkt ab 7", "Flohmarkt", THIS("sat"), at=(7, 0))
G("Oma anrufen Sonntagnachmittag", "Oma anrufen", WD("sun", (15, 0)), at=(15, 0))
G("Steuerberater um viertel nach 2 am Mittwoch", "Steuerberater", WD("wed", (14, 15)), at=(14, 15))
G("Handwerker kommt zw. 8 und 12 morgen", "Handwerker kommt", PLUS(1), at=(8, 0), to=(12, 0))
G("Friseur Dienstag 17 Uhr 30", "Friseur", WD("tue", (17, 30)), at=(17, 30))
G("Paket zur Post bis morgen Mittag", "Paket zur Post", PLUS(1), at=(12, 0))
G("Elternabend 4b Mi um 8", "Elternabend 4b", WD("wed", (20, 0)), at=(20, 0))
G("Laufen gehen in der Frueh Sa", "Laufen gehen", WD("sat", (8, 0)), at=(8, 0))
G("Besprechung übernächsten Montag 10 Uhr", "Besprechung", AFTERNEXT("mon"), at=(10, 0))
G("Termin Bürgeramt 3.2.27 8:50", "Termin Bürgeramt", FIXED(2027, 2, 3), at=(8, 50))
G("Grillabend Kleingartenverein am 15. Juni 18 Uhr", "Grillabend Kleingartenverein", MD(6, 15), at=(18, 0))
G("Müll raus jeden 2. Do", "Müll raus", FIRST_WEEKLY(["thu"]), rr=[W(["thu"], ";INTERVAL=2")])
G("Einweihung Praxis Dr. Öztürk 19.9. 16 Uhr", "Einweihung Praxis Dr. Öztürk", MD(9, 19), at=(16, 0))
G("Abschlussfahrt 10a 15.-19.6.", "Abschlussfahrt 10a", MD(6, 15), last=MD(6, 19))
G("Mittwoch nächster Woche Mittagessen mit Jens 12:30", "Mittagessen mit Jens", NEXTWEEK("wed"), at=(12, 30))
G("Yoga im Studio Om 3x die Woche", "", NOT_A_DAY)

# was ein sorgfältiger Parser ablehnt
G("Zahnarzt Mo oder Di 9 Uhr", "", REJ("conflict"))
G("Grillen irgendwann im Sommer", "", NOT_A_DAY)
G("Vereinsfeier 31.11. 19 Uhr", "", REJ("invalidDate"))
G("Probe morgen früh 21 Uhr", "", REJ("conflict"))
G("nächsten Donnerstag um 18:45", "", REJ("missingTitle"))
G("Schicht 25:30 Uhr Sa", "", REJ("invalidTime"))
G("Umzug Anfang März", "", NOT_A_DAY)
G("Spieleabend am Wochenende 19 Uhr", "", REJ("vagueDate"))
G("Training montags 18 Uhr bis 30.2.", "", REJ("invalidDate"))


if __name__ == "__main__":
    write("dev-doubts-4")
