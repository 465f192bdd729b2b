"""Calendar arithmetic shared by the fourth to sixth development sets' writers (write_dev_doubts_4.py, _5, _6).

The helpers only compute meanings the writers state by hand in each line (the next Friday, today plus 3 days, the
first occurrence of a weekly rule) at the three reference moments of moments-*.jsonl; nothing runs calbridge.
Standard library only. `write(name)` writes the lines collected so far to NAME.jsonl beside this file.
"""
import datetime as dt
import json
import os
from zoneinfo import ZoneInfo

ZONES = {"en": "America/New_York", "de": "Europe/Berlin"}
NOWS = [dt.datetime(2026, 3, 10, 9, 0), dt.datetime(2026, 12, 4, 17, 30), dt.datetime(2026, 12, 31, 23, 30)]
DAYS = {"mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6}
LINES = []
PHRASES = []


def today(i):
    return NOWS[i].date()


def passed(i, d, at):
    """A time `at` on day d is already past at moment i (all-day events today are not past)."""
    if at is None:
        return d < today(i)
    return dt.datetime(d.year, d.month, d.day, *at) < NOWS[i]


# --- calendar arithmetic for meanings written below (one list of 3 dates per phrase) ---

def TODAY(at=None):
    return [today(i) for i in range(3)]


def PLUS(n):
    return [today(i) + dt.timedelta(days=n) for i in range(3)]


def BARE(at):
    """a time with no date: today, or tomorrow once its time has passed"""
    return [today(i) if not passed(i, today(i), at) else today(i) + dt.timedelta(days=1) for i in range(3)]


def _weekday_from(name, first, skip=lambda i, d: False):
    """At each moment, the first day named `name` on or after first(i) that `skip` does not rule out."""
    out = []
    for i in range(3):
        d = first(i)
        while d.weekday() != DAYS[name] or skip(i, d):
            d += dt.timedelta(days=1)
        out.append(d)
    return out


def WD(name, at=None):
    """a bare weekday: the next one, today counts unless its time has passed"""
    return _weekday_from(name, today, lambda i, d: passed(i, d, at))


def NEXT(name):
    """`next Monday`: the first Monday after today"""
    return _weekday_from(name, lambda i: today(i) + dt.timedelta(days=1))


def THIS(name):
    """`this Friday`: this week's Friday from today on (kept even if past)"""
    return _weekday_from(name, today)


def NEXTWEEK(name, weeks=1):
    """`Tuesday next week`: that day of the next calendar week (Monday to Sunday)"""
    out = []
    for i in range(3):
        monday = today(i) - dt.timedelta(days=today(i).weekday()) + dt.timedelta(weeks=weeks)
        out.append(monday + dt.timedelta(days=DAYS[name]))
    return out


def AFTERNEXT(name):
    return [d + dt.timedelta(days=7) for d in NEXT(name)]


def LAST(name):
    """`last Friday`: the latest Friday before today"""
    out = []
    for i in range(3):
        d = today(i) - dt.timedelta(days=1)
        while d.weekday() != DAYS[name]:
            d -= dt.timedelta(days=1)
        out.append(d)
    return out


def MD(month, day):
    """a date without a year: the first such date on or after today"""
    out = []
    for i in range(3):
        d = dt.date(today(i).year, month, day)
        if d < today(i):
            d = dt.date(today(i).year + 1, month, day)
        out.append(d)
    return out


def NTH(day):
    """`the 15th`: the next 15th on or after today"""
    out = []
    for i in range(3):
        d = today(i)
        while d.day != day:
            d += dt.timedelta(days=1)
        out.append(d)
    return out


def FIXED(y, m, d):
    return [dt.date(y, m, d)] * 3


def REJ(code):
    return ["reject:" + code] * 3


def FIRST_WEEKLY(names, at=None, start=None):
    """the first occurrence of a weekly rule: the first matching day on or after the start (or today, and
    today only if its time has not passed)"""
    out = []
    for i in range(3):
        d = start[i] if start else today(i)
        while d.weekday() not in [DAYS[n] for n in names] or (start is None and passed(i, d, at)):
            d += dt.timedelta(days=1)
        out.append(d)
    return out


def FIRST_DAILY(at=None):
    return BARE(at)


def FIRST_MONTHDAY(day, at=None):
    out = []
    for i in range(3):
        d = today(i)
        while d.day != day or passed(i, d, at):
            d += dt.timedelta(days=1)
        out.append(d)
    return out


def FIRST_NTH_WEEKDAY(n, name, at=None):
    """the next n-th (n=-1: last) such weekday of a month on or after today"""
    out = []
    for i in range(3):
        d = today(i)
        while True:
            if d.weekday() == DAYS[name] and not passed(i, d, at):
                k = (d.day - 1) // 7 + 1
                last = (d + dt.timedelta(days=7)).month != d.month
                if (n == -1 and last) or k == n:
                    break
            d += dt.timedelta(days=1)
        out.append(d)
    return out


BYDAY = {"mon": "MO", "tue": "TU", "wed": "WE", "thu": "TH", "fri": "FR", "sat": "SA", "sun": "SU"}
WEEKDAYS = ["mon", "tue", "wed", "thu", "fri"]


def until(d, zone, all_day):
    if all_day:
        return d.strftime("%Y%m%d")
    local = dt.datetime(d.year, d.month, d.day, 23, 59, 59, tzinfo=ZoneInfo(zone))
    return local.astimezone(dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def iso(d, hm, zone):
    return dt.datetime(d.year, d.month, d.day, hm[0], hm[1], tzinfo=ZoneInfo(zone)).isoformat()


def X(lang, text, title, days, at=None, to=None, dur=60, nde=False, loc=None, rr=None, zone=None, last=None,
      exact=None, allday_last=None):
    """days: one date (or "reject:CODE") per moment; at: (h, m) or None for all day; to: wall end (nde: on the
    next day); rr: a list of RRULE lines, or a function of the moment index giving them; exact: a function of
    the moment index giving the start as a wall datetime (relative hours); last: last day of an all-day range."""
    user_zone = ZONES[lang]
    ev_zone = zone or user_zone
    PHRASES.append((lang, text))
    for i in range(3):
        now = NOWS[i].replace(tzinfo=ZoneInfo(user_zone))
        line = {"text": text, "now": now.isoformat(), "tz": user_zone, "lang": lang, "moment": i}
        day = days[i]
        if isinstance(day, str) and day.startswith("reject:"):
            line["reject"] = day[7:]
            LINES.append(line)
            continue
        rules = rr(i) if callable(rr) else list(rr or [])
        if exact is not None:
            s = exact(i)
            start = s.replace(tzinfo=ZoneInfo(ev_zone))
            end = start + dt.timedelta(minutes=dur)
            e = {"start": start.isoformat(), "end": end.isoformat(), "allDay": False}
            past = False
        elif at is None:
            lastday = last[i] if last else day
            e = {"start": day.isoformat(), "end": (lastday + dt.timedelta(days=1)).isoformat(), "allDay": True}
            past = day < today(i)
        else:
            start = iso(day, at, ev_zone)
            if to is not None:
                end = iso(day + dt.timedelta(days=1) if nde else day, to, ev_zone)
            else:
                end = (dt.datetime.fromisoformat(start) + dt.timedelta(minutes=dur)).isoformat()
            e = {"start": start, "end": end, "allDay": False}
            past = dt.datetime.fromisoformat(start) < now
        line["expect"] = {"title": title, "start": e["start"], "end": e["end"], "allDay": e["allDay"],
                          "timeZone": ev_zone, "location": loc, "recurrence": rules, "past": past}
        LINES.append(line)


def E(*a, **k):
    X("en", *a, **k)


def G(*a, **k):
    X("de", *a, **k)


def W(names, extra=""):
    return "RRULE:FREQ=WEEKLY" + extra + ";BYDAY=" + ",".join(BYDAY[n] for n in names)


def W_UNTIL(names, d, zone, all_day=False, extra=""):
    return W(names, extra) + ";UNTIL=" + until(d, zone, all_day)


NY, BER = "America/New_York", "Europe/Berlin"


def ACROSS(names, at):
    return FIRST_WEEKLY(names, at)


def SPAN_UNTIL(first, days_span, zone, all_day=False):
    return [until(first[i] + dt.timedelta(days=days_span - 1), zone, all_day) for i in range(3)]


def exact_plus(minutes):
    return lambda i: NOWS[i] + dt.timedelta(minutes=minutes)


NOT_A_DAY = REJ("nothingToSchedule|vagueDate")



def MONTH_END():
    """`by end of month`: the last day of this month"""
    out = []
    for i in range(3):
        d = today(i)
        nxt = dt.date(d.year + (d.month == 12), d.month % 12 + 1, 1)
        out.append(nxt - dt.timedelta(days=1))
    return out


def NEXT_MONTH_END(month):
    """`bis Ende Februar`: the last day of that month, the next one"""
    out = []
    for i in range(3):
        y = today(i).year
        while True:
            nxt = dt.date(y + (month == 12), month % 12 + 1, 1)
            d = nxt - dt.timedelta(days=1)
            if d >= today(i):
                break
            y += 1
        out.append(d)
    return out


def PLUS_MONTHS(n):
    """`in 6 months`: the same day of the month, clamped to the month's last day"""
    out = []
    for i in range(3):
        d = today(i)
        m = d.month - 1 + n
        y, m = d.year + m // 12, m % 12 + 1
        day = d.day
        while True:
            try:
                out.append(dt.date(y, m, day))
                break
            except ValueError:
                day -= 1
    return out


def RANGE_END(starts, month, day):
    """the end of a range of days: the first such date on or after the start"""
    out = []
    for s in starts:
        d = dt.date(s.year, month, day)
        if d < s:
            d = dt.date(s.year + 1, month, day)
        out.append(d)
    return out


def SHIFT(days, n):
    return [d + dt.timedelta(days=n) for d in days]


def HOLIDAY(fn):
    """a holiday: the next one on or after today; fn(year) gives its date"""
    out = []
    for i in range(3):
        d = fn(today(i).year)
        if d < today(i):
            d = fn(today(i).year + 1)
        out.append(d)
    return out


def THANKSGIVING(y):
    d = dt.date(y, 11, 1)
    while d.weekday() != 3:
        d += dt.timedelta(days=1)
    return d + dt.timedelta(weeks=3)


def UNTIL_EACH(rule, days, zone, all_day=False):
    """a rule ending on a date that may differ per moment"""
    return lambda i: [rule + ";UNTIL=" + until(days[i], zone, all_day)]


def RULE_EACH(rule_of_day):
    return lambda i: [rule_of_day(i)]


def write(name):
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, f"{name}.jsonl"), "w", encoding="utf-8") as f:
        for line in LINES:
            f.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")
    en = sum(1 for lang, _ in PHRASES if lang == "en")
    print(f"{name}.jsonl: {len(PHRASES)} phrases ({en} English, {len(PHRASES) - en} German), {len(LINES)} lines")
