#!/usr/bin/env python3
"""Turn hyperfine --export-json files into one markdown table with ratios.

hyperfine's own markdown export gives mean ± σ and a ratio against the fastest
command, which moves from run to run. The project states its targets as ratios
to fixed references (bfs 2.6.1, GNU find; see bench/RESULTS.md), and the machine is
shared and noisy, so this table adds the median (robust against the odd run that
lost its core to a compiler) and divides every median by the median of one
chosen reference command.

Usage: report.py --title TITLE --reference NAME [--reference NAME...] FILE.json...
  With one FILE, NAME is a command name given to hyperfine with -n; if no
  command has it, the first command is the reference, and the column header
  says so. With several FILEs (one hyperfine group each, e.g. one per search
  strategy) their rows form one table, and each row's ratio is against the
  reference of its own FILE: give one --reference for all FILEs, or one per FILE,
  in order.
"""

import argparse
import json
import sys


def milliseconds(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--title", required=True)
    parser.add_argument("--reference", required=True, action="append")
    parser.add_argument("json_files", nargs="+")
    args = parser.parse_args()

    if len(args.reference) not in (1, len(args.json_files)):
        parser.error("give one --reference, or one per FILE")
    references = args.reference * len(args.json_files) if len(args.reference) == 1 \
        else args.reference

    # (rows of one file, that file's reference result)
    groups = []
    for json_file, wanted in zip(args.json_files, references):
        with open(json_file, encoding="utf-8") as f:
            results = json.load(f)["results"]
        if not results:
            print(f"report.py: no results in {json_file}", file=sys.stderr)
            return 1
        reference = next((r for r in results if r["command"] == wanted), results[0])
        groups.append((results, reference))

    used = list(dict.fromkeys(reference["command"] for _, reference in groups))
    print(f"### {args.title}")
    print()
    if len(used) == 1:
        header = f"×{used[0]}"
    else:
        header = "×ref"
        print("Each ratio is against the reference of its row's group: "
              + ", ".join(f"`{name}`" for name in used) + ".")
        print()
    print(f"| Command | Median [ms] | Mean ± σ [ms] | Min [ms] | User [ms] | System [ms] "
          f"| Runs | {header} |")
    print("|:---|---:|---:|---:|---:|---:|---:|---:|")
    for results, reference in groups:
        reference_median = reference["median"]
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
