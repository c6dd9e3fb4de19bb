#!/usr/bin/env python3
"""ufind walks whole trees with few descriptors, and lends none to children.

Limits (RLIMIT_NOFILE, as `ulimit -n N` sets it, in the child only):

  * 16: GNU find walks a 300-deep chain and a wide tree whole.  ufind must
    print the same paths (sorted), with nothing on stderr, exit 0, under
    every strategy and backend, pre-order and with -depth.
  * 10: GNU find 4.9 fails on the deep chain ("Too many open files" four
    levels down; it keeps a descriptor per level); ufind must still walk it
    whole, so its output is compared with find's without a limit.  The
    cases say which find result they compare with.

-exec children: a command run by -exec gets stdin, stdout and stderr and
nothing else of ufind's (no directory being read ahead, no io_uring ring,
no eventfd): `ls /proc/self/fd` run by ufind must list what it lists when
run by find (0, 1, 2 and ls's own descriptor), in a walk wide enough to
have directories open ahead when the child starts.

Usage: fd_limits.py --ufind PATH [-v] [--filter SUBSTR]
"""

from __future__ import annotations

import os
import resource
import sys

# No __pycache__ in the source tree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import safety_common as common  # noqa: E402


def build(scratch: str) -> None:
    path = os.path.join(scratch, "deep")
    for level in range(300):
        path = os.path.join(path, f"d{level:03d}")
        os.makedirs(path)
        with open(os.path.join(path, "file"), "wb"):
            pass
    wide = os.path.join(scratch, "wide")
    for d in range(200):
        for s in range(3):
            os.makedirs(os.path.join(wide, f"d{d:03d}", f"s{s}"))
        for f in range(3):
            with open(os.path.join(wide, f"d{d:03d}", f"f{f}"), "wb"):
                pass


def limit(n: int):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (n, n))
    return apply


def run_tests(begun: common.Start, scratch: str) -> None:
    ufind, report, name_filter = begun.ufind, begun.report, begun.filter
    build(scratch)
    for tree in ("deep", "wide"):
        for order in ([], ["-depth"]):
            args = [tree] + order
            unlimited = common.run([common.FIND] + args, cwd=scratch)
            for n in (16, 10):
                find = common.run([common.FIND] + args, cwd=scratch, preexec=limit(n))
                find_whole = find.status == 0 and find.stdout == unlimited.stdout
                if n == 16 and not find_whole:
                    report.check(f"find_walks_{tree}_with_16_descriptors (oracle)",
                                 [f"find: status {find.status}, "
                                  f"{common.escape(find.stderr)[:200]}"])
                    continue
                oracle = "like_find" if find_whole else "where_find_fails"
                name = (f"ulimit_{n}_{tree}{'_depth' if order else ''}"
                        f"_walked_whole_{oracle}")
                if name_filter not in name:
                    continue
                if not find_whole and report.verbose:
                    report.note(f"find with {n} descriptors on {' '.join(args)}: status "
                                f"{find.status}, {common.escape(find.stderr)[:120]}")
                expected = sorted(unlimited.stdout.split(b"\n"))
                # -j8 as well at 10: eight io_uring workers used to hold a
                # ring descriptor each, which left the walk too few.
                workers = ([], ["-j8"]) if n == 10 else ([],)
                for strategy, backend in common.COMBINATIONS:
                    for jobs in workers:
                        outcome = common.run(common.ufind_argv(ufind, strategy, jobs + args),
                                             cwd=scratch, preexec=limit(n),
                                             env=common.base_env(IOQ_BACKEND=backend))
                        problems = []
                        if outcome.status != 0:
                            problems.append(f"exit status {outcome.status}")
                        if outcome.stderr:
                            problems.append(f"stderr: {common.escape(outcome.stderr)[:300]}")
                        got = sorted(outcome.stdout.split(b"\n"))
                        if got != expected:
                            problems.append(f"{len(got) - 1} paths printed, find printed "
                                            f"{len(expected) - 1} (or other paths)")
                        report.check(f"{name} [{strategy} {backend}{' ' if jobs else ''}"
                                     f"{' '.join(jobs)}]", problems)

    # What an -exec child inherits.
    args = ["wide", "-maxdepth", "2", "-name", "s1", "-exec", "ls", "/proc/self/fd", ";"]
    name = "exec_child_inherits_no_walk_descriptors"
    if name_filter in name:
        find = common.run([common.FIND] + args, cwd=scratch)
        find_fds = set(find.stdout.split())
        for strategy, backend in common.COMBINATIONS:
            outcome = common.run(common.ufind_argv(ufind, strategy, args), cwd=scratch,
                                 env=common.base_env(IOQ_BACKEND=backend))
            fds = set(outcome.stdout.split())
            problems = []
            if fds != find_fds:
                problems.append(f"children saw descriptors {sorted(fds)}; "
                                f"under find {sorted(find_fds)}")
            if outcome.status != find.status:
                problems.append(f"exit status {outcome.status}, find {find.status}")
            report.check(f"{name} [{strategy} {backend}]", problems)


def main() -> int:
    return common.main_in_scratch("ufind-fd-limits-", run_tests)


if __name__ == "__main__":
    sys.exit(main())
