"""RFC 5545 occurrences by python-dateutil, the independent oracle of RecurrenceAgreementTests.

Reads one JSON object a line on stdin: {"id", "dtstart" (YYYYMMDD), "rrule" (without "RRULE:"),
"last" (YYYYMMDD, inclusive), "limit"}. Writes {"id", "dates": [YYYYMMDD...]} a line, in the same order.
All-day series: the dates are the occurrences.
"""
import json
import sys
from datetime import datetime

from dateutil.rrule import rrulestr


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        case = json.loads(line)
        start = datetime.strptime(case["dtstart"], "%Y%m%d")
        last = datetime.strptime(case["last"], "%Y%m%d")
        rule = rrulestr(case["rrule"], dtstart=start)
        dates = []
        for occurrence in rule:
            if occurrence > last or len(dates) >= case["limit"]:
                break
            dates.append(occurrence.strftime("%Y%m%d"))
        sys.stdout.write(json.dumps({"id": case["id"], "dates": dates}) + "\n")


if __name__ == "__main__":
    main()
