#!/usr/bin/env python3
"""Turn one hyperfine --export-json file into a markdown table with ratios.

hyperfine's own markdown export gives mean ± σ and a ratio against the fastest
command, which moves from run to run. The project states its targets as ratios
to fixed references (bfs 2.6.1, GNU find; see DESIGN.md), and the machine is
shared and noisy, so this table adds the median (robust against the odd run that
lost its core to a compiler) and divides every median by the median of one
chosen reference command.

Usage: report.py --title TITLE --reference NAME FILE.json
  NAME is a command name given to hyperfine with -n; if no command has it, the
  first command is the reference, and the column header says so.
"""

import argparse
import json
import sys


def milliseconds(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--title", required=True)
    parser.add_argument("--reference", required=True)
    parser.add_argument("json_file")
    args = parser.parse_args()

    with open(args.json_file, encoding="utf-8") as f:
        results = json.load(f)["results"]
    if not results:
        print(f"report.py: no results in {args.json_file}", file=sys.stderr)
        return 1

    reference = next((r for r in results if r["command"] == args.reference), results[0])
    reference_median = reference["median"]

    print(f"### {args.title}")
    print()
    print(f"| Command | Median [ms] | Mean ± σ [ms] | Min [ms] | User [ms] | System [ms] "
          f"| Runs | ×{reference['command']} |")
    print("|:---|---:|---:|---:|---:|---:|---:|---:|")
    for r in results:
        ratio = r["median"] / reference_median if reference_median > 0 else float("nan")
        stddev = r.get("stddev") or 0.0  # null when there was a single run
        print(f"| `{r['command']}` | {milliseconds(r['median'])} "
              f"| {milliseconds(r['mean'])} ± {milliseconds(stddev)} "
              f"| {milliseconds(r['min'])} | {milliseconds(r['user'])} "
              f"| {milliseconds(r['system'])} | {len(r['times'])} | {ratio:.2f} |")
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
