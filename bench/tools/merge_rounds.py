#!/usr/bin/env python3
"""Merge the hyperfine --export-json files of one group's rounds into one.

run.sh times a group in rounds (ROUNDS, default 5): each round runs every
command a few times, one command after the other, and the next round starts
over.  On a shared machine whose speed drifts over minutes, twenty runs of one
command and then twenty of the next measured each at a different moment: a
floor walker's median moved by 30% between two groups of the same day.  In
rounds, every command's runs are spread over the whole group, and the ratios
compare commands measured at the same moments.

Usage: merge_rounds.py OUT.json ROUND.json...
  Each result's times and exit codes are concatenated by command name, in the
  order of the first file; mean, stddev, median, min and max are recomputed from
  the times, and user and system are the means of the rounds' weighted by runs.
"""

import json
import statistics
import sys


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    out_path, round_paths = sys.argv[1], sys.argv[2:]
    merged = {}  # command -> merged result
    order = []
    for path in round_paths:
        with open(path, encoding="utf-8") as f:
            results = json.load(f)["results"]
        for r in results:
            name = r["command"]
            runs = len(r["times"])
            if name not in merged:
                merged[name] = dict(r, times=[], exit_codes=[], user=0.0, system=0.0)
                order.append(name)
            m = merged[name]
            m["user"] += r["user"] * runs
            m["system"] += r["system"] * runs
            m["times"] += r["times"]
            m["exit_codes"] += r.get("exit_codes", [])
    results = []
    for name in order:
        m = merged[name]
        times = m["times"]
        m["user"] /= len(times)
        m["system"] /= len(times)
        m["mean"] = statistics.fmean(times)
        m["stddev"] = statistics.stdev(times) if len(times) > 1 else None
        m["median"] = statistics.median(times)
        m["min"] = min(times)
        m["max"] = max(times)
        results.append(m)
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump({"results": results}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
