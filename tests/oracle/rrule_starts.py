"""Independent oracle for nodecast's recurrence engine: python-dateutil's rrule.

Reads lines `RRULE|T|START` (T and START in seconds: the evaluation instant and the window's
start time of day) and prints, per line, the next 10 window starts >= T as epoch seconds, with the
recurrence anchored at DTSTART 1970-01-01 (the change-management proposal's anchor)."""
import datetime
import itertools
import sys

from dateutil.rrule import rrulestr

EPOCH = datetime.datetime(1970, 1, 1)


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        rule_text, t, start = line.split("|")
        t, start = int(t), int(start)
        rule = rrulestr(rule_text, dtstart=EPOCH)
        first = EPOCH + datetime.timedelta(seconds=t - start)
        starts = [
            int((d - EPOCH).total_seconds()) + start
            for d in itertools.islice(rule.xafter(first, inc=True), 10)
        ]
        print(" ".join(str(s) for s in starts), flush=False)


if __name__ == "__main__":
    main()
