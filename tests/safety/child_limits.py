#!/usr/bin/env python3
"""Commands run by -exec and friends get the process limits find gives them.

RLIMIT_NOFILE: a walk raises its soft descriptor limit to the hard limit
for itself; the commands must start with the soft limit ufind started with,
as find's do (a program using select() breaks above FD_SETSIZE).  Under
`ulimit -Sn 64` (hard limit left high), `sh -c 'ulimit -Sn'` run by -exec,
-exec +, -execdir, -execdir +, -ok and -okdir must print 64, as under find.

RLIMIT_NPROC: threads count against the same per-user allowance as
processes, so the walk's worker threads must leave room for the commands.
As nobody (the limit does not bind real root) under `ulimit -u 4`, `-exec
true` on a tree wide enough to start workers must run every command with
nothing on stderr and exit 0, as find does, with -j3 and -j8 asked for and
by default, on every backend.  Skipped when not run as root (another user's
own processes would count against the allowance).

Usage: child_limits.py --ufind PATH [-v] [--filter SUBSTR]
"""

from __future__ import annotations

import os
import resource
import sys

# No __pycache__ in the source tree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import safety_common as common  # noqa: E402

NOBODY = 65534
SOFT_DESCRIPTORS = 64
PROCESSES = 4

SHOW_LIMIT = ["sh", "-c", "ulimit -Sn"]
SPAWNING_ACTIONS = {
    "exec": ["-exec"] + SHOW_LIMIT + [";"],
    "exec_batch": ["-exec"] + SHOW_LIMIT + ["{}", "+"],
    "execdir": ["-execdir"] + SHOW_LIMIT + [";"],
    "execdir_batch": ["-execdir"] + SHOW_LIMIT + ["{}", "+"],
    "ok": ["-ok"] + SHOW_LIMIT + [";"],
    "okdir": ["-okdir"] + SHOW_LIMIT + [";"],
}


def build(scratch: str) -> None:
    os.chmod(scratch, 0o755)
    for d in range(40):
        os.makedirs(os.path.join(scratch, "wide", f"d{d:02d}", "sub"))
        with open(os.path.join(scratch, "wide", f"d{d:02d}", "file"), "wb"):
            pass


def soft_descriptor_limit() -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (SOFT_DESCRIPTORS, hard))


def as_nobody_with_few_processes() -> None:
    os.setgroups([])
    os.setgid(NOBODY)
    os.setuid(NOBODY)
    resource.setrlimit(resource.RLIMIT_NPROC, (PROCESSES, PROCESSES))


def run_with_answers(argv: list[str], cwd: str, env: dict[str, str],
                     answers: bytes) -> common.Outcome:
    import subprocess
    p = subprocess.run(argv, cwd=cwd, env=env, input=answers, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=common.RUN_TIMEOUT,
                       preexec_fn=lambda: (common.default_signals(), soft_descriptor_limit()))
    return common.Outcome(p.returncode, p.stdout, p.stderr)


def check_descriptor_limits(begun: common.Start, scratch: str) -> None:
    ufind, report = begun.ufind, begun.report
    if resource.getrlimit(resource.RLIMIT_NOFILE)[1] <= SOFT_DESCRIPTORS:
        report.skip("children_get_the_starting_descriptor_limit",
                    f"hard RLIMIT_NOFILE is not above {SOFT_DESCRIPTORS}")
        return
    args = ["wide", "-name", "d0*", "-prune"]
    for label, action in SPAWNING_ACTIONS.items():
        name = f"{label}_child_gets_the_starting_descriptor_limit"
        if begun.filter not in name:
            continue
        answers = b"y\n" * 20
        env = common.base_env(IOQ_INLINE_DIRECTORIES="4")
        find = run_with_answers([common.FIND] + args + action, scratch, env, answers)
        for backend in common.BACKENDS:
            env = common.base_env(IOQ_INLINE_DIRECTORIES="4", IOQ_BACKEND=backend)
            outcome = run_with_answers([ufind] + args + action, scratch, env, answers)
            problems = []
            # Sets: how -execdir + splits its batches is not the question.
            if set(outcome.stdout.split()) != set(find.stdout.split()):
                problems.append(f"children printed {sorted(set(outcome.stdout.split()))}, "
                                f"under find {sorted(set(find.stdout.split()))}")
            if outcome.status != find.status:
                problems.append(f"exit status {outcome.status}, find {find.status}")
            report.check(f"{name} [{backend}]", problems)


def check_process_limit(begun: common.Start, scratch: str) -> None:
    ufind, report = begun.ufind, begun.report
    name = "exec_runs_every_command_under_a_tight_process_limit"
    if begun.filter not in name:
        return
    if os.geteuid() != 0:
        report.skip(name, "needs root to run as nobody")
        return
    args = ["wide", "-name", "file", "-exec", "true", ";", "-print"]
    find = common.run([common.FIND] + args, cwd=scratch, preexec=as_nobody_with_few_processes)
    expected = sorted(find.stdout.split(b"\n"))
    if find.status != 0 or len(expected) != 41:
        report.check(f"{name} (oracle)", [f"find: status {find.status}, "
                                          f"{common.escape(find.stderr)[:200]}"])
        return
    for backend in common.BACKENDS:
        for jobs in ([], ["-j3"], ["-j8"]):
            env = common.base_env(IOQ_INLINE_DIRECTORIES="4", IOQ_BACKEND=backend)
            outcome = common.run([ufind] + jobs + args, cwd=scratch, env=env,
                                 preexec=as_nobody_with_few_processes)
            problems = []
            if outcome.status != 0:
                problems.append(f"exit status {outcome.status}")
            if outcome.stderr:
                problems.append(f"stderr: {common.escape(outcome.stderr)[:300]}")
            if sorted(outcome.stdout.split(b"\n")) != expected:
                problems.append("commands failed: other paths printed than find's")
            report.check(f"{name} [{backend}{' ' if jobs else ''}{' '.join(jobs)}]", problems)


def run_tests(begun: common.Start, scratch: str) -> None:
    build(scratch)
    check_descriptor_limits(begun, scratch)
    check_process_limit(begun, scratch)


def main() -> int:
    return common.main_in_scratch("ufind-child-limits-", run_tests)


if __name__ == "__main__":
    sys.exit(main())
