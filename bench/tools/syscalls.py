#!/usr/bin/env python3
"""Turn `strace -f -c` summaries into a markdown table of system calls per directory.

Usage: syscalls.py --title TITLE --dirs N [--row LABEL STRACE_FILE RING_FILE]...
  STRACE_FILE is what `strace -f -c -o STRACE_FILE CMD` wrote; RING_FILE is
  `perf script` output of `perf record -e io_uring:io_uring_submit_req CMD` (one
  line per request submitted to an io_uring), or `-` when perf could not count.

Every count is divided by N, the directories of the walked tree, so a walker
making exactly the floor's calls shows openat 1, close 1, getdents64 about 2
(one call that fills the buffer, one that returns 0). Requests submitted through
an io_uring are no system calls, so strace does not see them: the last column
counts them by opcode, per directory, and a ring walker's openat and close
columns are the share it made directly.
"""

import argparse
import collections
import re
import sys

# (column header, system calls summed into it)
COLUMNS = [
    ("openat", ("openat", "open", "openat2")),
    ("getdents64", ("getdents64", "getdents")),
    ("close", ("close",)),
    ("statx / newfstatat / fstat", ("statx", "newfstatat", "fstat", "lstat", "stat")),
    ("io_uring_enter", ("io_uring_enter",)),
    ("futex", ("futex",)),
]


def strace_counts(path: str) -> collections.Counter:
    """Calls per system call from a `strace -c` table (the total line left out)."""
    counts = collections.Counter()
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.split()
            # % time, seconds, usecs/call, calls, [errors,] syscall
            if len(fields) < 5 or not fields[3].isdigit() or fields[-1] == "total":
                continue
            counts[fields[-1]] += int(fields[3])
    return counts


def ring_counts(path: str) -> collections.Counter:
    counts = collections.Counter()
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.search(r"opcode (\w+)", line)
            if m:
                counts[m.group(1)] += 1
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--title", required=True)
    parser.add_argument("--dirs", required=True, type=int)
    parser.add_argument("--row", nargs=3, action="append", default=[],
                        metavar=("LABEL", "STRACE_FILE", "RING_FILE"))
    args = parser.parse_args()
    if args.dirs <= 0:
        parser.error("--dirs must be positive")

    def per_dir(n: int) -> str:
        return f"{n / args.dirs:.2f}"

    print(f"### {args.title}")
    print()
    headers = ["Command"] + [h for h, _ in COLUMNS] + ["other", "all", "io_uring requests"]
    print("| " + " | ".join(headers) + " |")
    print("|:---|" + "---:|" * (len(headers) - 2) + ":---|")
    for label, strace_file, ring_file in args.row:
        counts = strace_counts(strace_file)
        if not counts:
            print(f"syscalls.py: no strace summary in {strace_file}", file=sys.stderr)
            return 1
        cells = [f"`{label}`"]
        listed = 0
        for _, calls in COLUMNS:
            n = sum(counts[c] for c in calls)
            listed += n
            cells.append(per_dir(n))
        total = sum(counts.values())
        cells += [per_dir(total - listed), per_dir(total)]
        if ring_file == "-":
            cells.append("n/a")
        else:
            ring = ring_counts(ring_file)
            cells.append(", ".join(f"{op} {per_dir(n)}" for op, n in ring.most_common()) or "none")
        print("| " + " | ".join(cells) + " |")
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
