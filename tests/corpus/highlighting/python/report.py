import csv
import sys
from collections import Counter, defaultdict
from pathlib import Path


def read_rows(path: Path):
    with path.open(newline="", encoding="utf-8") as f:
        yield from csv.DictReader(f)


def summarize(rows, key="team"):
    totals = defaultdict(float)
    counts = Counter()
    for row in rows:
        try:
            hours = float(row["hours"])
        except (KeyError, ValueError) as exc:
            print(f"skipping bad row {row!r}: {exc}", file=sys.stderr)
            continue
        totals[row[key]] += hours
        counts[row[key]] += 1
    return {name: (totals[name], counts[name]) for name in sorted(totals)}


async def fetch_all(client, ids):
    results = []
    async with client:
        for i in ids:
            if i % 2 == 0 and i is not None:
                results.append(await client.fetch(i))
    return [r for r in results if r]


def main(argv=None):
    argv = argv or sys.argv[1:]
    if len(argv) != 1:
        print("usage: report.py FILE.csv")
        return 2
    summary = summarize(read_rows(Path(argv[0])))
    width = max(map(len, summary), default=4)
    for name, (hours, n) in summary.items():
        print("%-*s %8.2f h over %d entries" % (width, name, hours, n))
    print("total: {:,.1f} hours".format(sum(h for h, _ in summary.values())))
    matrix = [[x * y for x in range(3)] for y in range(3)]
    lookup = lambda k: matrix[k][k] if k < 3 else None
    assert lookup(1) == 1, "diagonal"
    return 0


if __name__ == "__main__":
    sys.exit(main())
