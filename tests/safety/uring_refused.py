#!/usr/bin/env python3
"""ufind falls back to threads, with the same output, when io_uring is refused.

no_uring (beside this file) runs ufind under a seccomp filter that makes
io_uring_setup fail with EPERM (Docker's default profile,
kernel.io_uring_disabled=2) or ENOSYS (a kernel without io_uring).  For each
errno, each strategy and each way of asking for the backend (automatic, and
IOQ_BACKEND=uring, which must fall back rather than fail), on a tree with
enough directories that the walk starts its workers:

  * exit status 0 and no message but the -D stats line;
  * `-D stats` says backend=threads and workers_started=1;
  * stdout equals ufind's with IOQ_BACKEND=threads and, sorted, GNU find's.

Without the filter, the same runs must say backend=io_uring where the
machine allows io_uring (otherwise a note says the fallback is all this
machine can show).

Usage: uring_refused.py --ufind PATH --no-uring PATH [-v]
"""

from __future__ import annotations

import argparse
import os
import sys

# No __pycache__ in the source tree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import safety_common as common  # noqa: E402

COMMANDS = [
    ["tree"],
    ["tree", "-name", "*1*", "-printf", "%p %y %s\\n"],
    ["tree", "-type", "f", "-size", "-1k", "-newer", "tree/d0/f0", "-o", "-type", "d",
     "-empty"],
]


def build_tree(tree: str) -> None:
    for d in range(30):
        for s in range(4):
            os.makedirs(os.path.join(tree, f"d{d}", f"s{s}"))
            for f in range(3):
                with open(os.path.join(tree, f"d{d}", f"s{s}", f"f{f}"), "wb") as out:
                    out.write(b"x" * (f * 700))
        with open(os.path.join(tree, f"d{d}", "f0"), "wb"):
            pass


def stats_of(stderr: bytes) -> dict[str, str]:
    """The key=value fields of -D stats' line that has them."""
    for line in stderr.decode(errors="replace").split("\n"):
        if "stats:" in line and "backend=" in line:
            return dict(field.split("=", 1) for field in line.split() if "=" in field)
    return {}


def without_stats(stderr: bytes) -> bytes:
    return b"\n".join(line for line in stderr.split(b"\n")
                      if not line.startswith(b"ufind: stats:") and line)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ufind", required=True)
    parser.add_argument("--no-uring", required=True)
    parser.add_argument("-v", action="store_true")
    options = parser.parse_args()
    ufind = os.path.abspath(options.ufind)
    launcher = os.path.abspath(options.no_uring)
    report = common.Report(verbose=options.v)

    # Does the filter work here at all?  77 from the launcher: no seccomp.
    probe = common.run([launcher, "EPERM", "true"])
    if probe.status == 77:
        print(f"skip: {probe.stderr.decode().strip()}")
        return 77
    if probe.status != 0:
        print(f"FAIL the launcher does not refuse io_uring: {probe.stderr!r}")
        return 1

    with common.scratch_dir("ufind-uring-refused-") as scratch:
        build_tree(os.path.join(scratch, "tree"))
        for command in COMMANDS:
            find = common.run([common.FIND] + command, cwd=scratch)
            find_sorted = sorted(find.stdout.split(b"\n"))
            for strategy in common.STRATEGIES:
                # -s: an order that does not depend on timing, so that the
                # output can be compared byte for byte with the threads run.
                argv = common.ufind_argv(ufind, strategy, ["-s", "-D", "stats"] + command)
                threads = common.run(argv, cwd=scratch,
                                     env=common.base_env(IOQ_BACKEND="threads"))
                # Unfiltered, automatic: io_uring where the machine allows it.
                free = common.run(argv, cwd=scratch)
                backend = stats_of(free.stderr).get("backend")
                if backend != "io_uring" and strategy == "bfs" and command is COMMANDS[0]:
                    report.note(f"without the filter the backend is {backend}: this machine "
                                "refuses io_uring anyway")
                for error in ("EPERM", "ENOSYS"):
                    for asked in ("auto", "uring"):
                        env = common.base_env()
                        if asked == "uring":
                            env["IOQ_BACKEND"] = "uring"
                        outcome = common.run([launcher, error] + argv, cwd=scratch, env=env)
                        problems = []
                        if outcome.status != 0:
                            problems.append(f"exit status {outcome.status}")
                        stats = stats_of(outcome.stderr)
                        if stats.get("backend") != "threads":
                            problems.append(f"-D stats says backend={stats.get('backend')}")
                        if stats.get("workers_started") != "1":
                            problems.append("no worker started: the fallback was not exercised"
                                            f" ({stats.get('workers_started')})")
                        if without_stats(outcome.stderr):
                            problems.append(f"stderr: {common.escape(outcome.stderr)[:300]}")
                        if outcome.stdout != threads.stdout:
                            problems.append("stdout differs from IOQ_BACKEND=threads")
                        if sorted(outcome.stdout.split(b"\n")) != find_sorted:
                            problems.append("stdout differs from GNU find's (sorted)")
                        name = (f"uring_refused_{error.lower()}_falls_back_to_threads "
                                f"[{asked} {strategy}] {' '.join(command[1:])}")
                        report.check(name, problems)
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
