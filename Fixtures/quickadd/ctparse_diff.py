#!/usr/bin/env python3
"""Differential check of quick-add's date/time reading against ctparse (an independent parser).

Input (stdin): JSON lines written by QuickAddCorpus.ctparseRows (for QuickAddCtparseTests and
`calbridge-bench quick-add`), one per labelled phrase-moment:
  {"text", "lang", "group", "now" (local wall time, ISO, no offset), "label": [start, end], "ours": [start, end],
   "review"? (a reviewed disagreement recorded in the corpus: who was right and why)}
where start/end are local wall times "YYYY-MM-DDTHH:MM" (or "YYYY-MM-DD" all day) in the user's zone.
Output (stdout): one JSON object: totals, ctparse's exact rate, ours, the agreement rate (in all and per
group), and every disagreement. Only the date and time are compared (ctparse reads no titles, places or repeats); a
phrase counts as read exactly when its start is right, and its end too when the label is a range.
Needs no network: ctparse is installed by .ci/install-deps into .build/test-python.

ctparse takes about 17 ms of CPU a phrase-moment (80 s for the corpus on one core), and its answer depends only on the
text, the reference time and its version. So its answers are recorded (ctparse-answers.jsonl: a key hashed from the
text and the time, never the text) and read back:
  --answers FILE   use the recorded answers; ask ctparse itself for every row not recorded and, as a spot check,
                   for every eighth recorded row (chosen by its key): a recorded answer ctparse no longer gives is
                   reported as stale. A file recorded by another ctparse version is not used at all.
  --record FILE    ask ctparse for every row and write its answers to FILE.
"""
import argparse
import hashlib
import json
import sys
from datetime import datetime
from importlib.metadata import version

from ctparse import ctparse
from ctparse.types import Interval, Time


def text_of(t):
    """A ctparse Time as "YYYY-MM-DDTHH:MM" or "YYYY-MM-DD", None when it lacks a full date."""
    if t is None or t.year is None or t.month is None or t.day is None:
        return None
    day = f"{t.year:04d}-{t.month:02d}-{t.day:02d}"
    if t.hour is None:
        return day
    return f"{day}T{t.hour:02d}:{(t.minute or 0):02d}"


def reading(text, now):
    try:
        result = ctparse(text, ts=now, timeout=10)  # generous: a loaded CI machine must not change the count
    except Exception:
        return None, None
    if result is None:
        return None, None
    r = result.resolution
    if isinstance(r, Interval):
        return text_of(r.t_from), text_of(r.t_to)
    if isinstance(r, Time):
        return text_of(r), None
    return None, None


def right(reading_start, reading_end, label):
    start, end, is_range = label
    if reading_start != start:
        return False
    return not is_range or reading_end == end


def key_of(row):
    return hashlib.sha256(f"{row['text']}\x00{row['now']}".encode()).hexdigest()[:20]


def load_answers(path, ctparse_version):
    try:
        with open(path, encoding="utf-8") as f:
            lines = [json.loads(line) for line in f if line.strip()]
    except FileNotFoundError:
        return {}
    if not lines or lines[0].get("ctparse") != ctparse_version:
        return {}
    return {a["key"]: (a["start"], a["end"]) for a in lines[1:]}


def main():
    arguments = argparse.ArgumentParser()
    arguments.add_argument("--answers")
    arguments.add_argument("--record")
    options = arguments.parse_args()
    ctparse_version = version("ctparse")
    recorded = load_answers(options.answers, ctparse_version) if options.answers else {}
    fresh = {}
    counts = {"live": 0, "recorded": 0, "checked": 0}
    stale = []
    tallies = {}
    disagreements = []
    for line in sys.stdin:
        if not line.strip():
            continue
        row = json.loads(line)
        now = datetime.fromisoformat(row["now"])
        label = (row["label"][0], row["label"][1], row["range"])
        key = key_of(row)
        if key in recorded and not options.record:
            ct = recorded[key]
            counts["recorded"] += 1
            if int(key, 16) % 8 == 0:
                counts["checked"] += 1
                if reading(row["text"], now) != ct:
                    stale.append(row["text"])
        else:
            ct = reading(row["text"], now)
            counts["live"] += 1
        fresh[key] = ct
        ours = tuple(row["ours"])
        ct_ok = right(ct[0], ct[1], label)
        ours_ok = right(ours[0], ours[1], label)
        same = ct[0] == ours[0] and (not row["range"] or ct[1] == ours[1])
        for name in ("all", row.get("group", "")):
            t = tallies.setdefault(name, {"total": 0, "ctparseExact": 0, "oursExact": 0, "agree": 0})
            t["total"] += 1
            t["ctparseExact"] += ct_ok
            t["oursExact"] += ours_ok
            t["agree"] += same
        if not same:
            disagreement = {"text": row["text"], "lang": row["lang"], "group": row.get("group", ""), "now": row["now"],
                            "label": row["label"], "ours": row["ours"], "ctparse": list(ct),
                            "right": "both" if ct_ok and ours_ok else "calbridge" if ours_ok else "ctparse" if ct_ok else "neither"}
            if "review" in row:
                disagreement["review"] = row["review"]
            disagreements.append(disagreement)
    if options.record:
        with open(options.record, "w", encoding="utf-8") as f:
            f.write(json.dumps({"ctparse": ctparse_version}) + "\n")
            for key in sorted(fresh):
                f.write(json.dumps({"key": key, "start": fresh[key][0], "end": fresh[key][1]}) + "\n")
    report = dict(tallies.pop("all", {"total": 0, "ctparseExact": 0, "oursExact": 0, "agree": 0}))
    report["groups"] = tallies
    report["disagreements"] = disagreements
    report.update(counts)
    report["stale"] = stale
    json.dump(report, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
