"""calbridge-bench ics's Python side: parse a file with icalendar and expand it with recurring-ical-events.

Arguments: FILE FROM TO RUNS (FROM and TO as YYYY-MM-DD, TO exclusive). Each run parses the file and lists
every occurrence in the window; the CPU time of this process around each run (time.process_time: no start-up,
no imports) is measured. Prints {"occurrences": N, "cpuSeconds": [...]}.
"""
import datetime
import json
import sys
import time

import icalendar
import recurring_ical_events


def main() -> None:
    path, start, stop, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    start = datetime.date.fromisoformat(start)
    stop = datetime.date.fromisoformat(stop)
    with open(path, "rb") as f:
        data = f.read()
    seconds = []
    count = 0
    for _ in range(runs):
        before = time.process_time()
        calendar = icalendar.Calendar.from_ical(data)
        occurrences = recurring_ical_events.of(calendar).between(start, stop)
        count = sum(1 for o in occurrences if str(o.get("STATUS", "")).upper() != "CANCELLED")
        seconds.append(time.process_time() - before)
    print(json.dumps({"occurrences": count, "cpuSeconds": seconds}))


if __name__ == "__main__":
    main()
