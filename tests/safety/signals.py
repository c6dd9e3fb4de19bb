#!/usr/bin/env python3
"""A signal ends ufind as it ends GNU find: at once, with no batch run late.

GNU find does not catch SIGINT or SIGTERM: it dies from the signal (a shell
reports status 128+N), pending `-exec ... {} +` batches are dropped, and a
child it was waiting for is not signalled by find.  A child therefore dies
with find only when the signal goes to the whole process group, as a
terminal's ^C sends it; a signal sent to find alone leaves the running child
to finish on its own, after which nothing else starts.

Each scenario runs GNU find, then ufind under every strategy and backend,
in a new session (its own process group), with SIGINT at its default
disposition (a shell's background jobs and Python ignore some signals, and
a child inherits that).  The commands log to a file, so what ran and when
can be checked:

  pending_batch      -exec LOG {} + -exec sleep MARK ;  signalled while the
                     first sleep runs: the batch has entries pending
  during_batch       -exec sh -c 'LOG; sleep MARK' {} + over thousands of
                     long names: signalled while the first of several
                     batches runs

and for each, the signal sent to the program alone (kill -INT pid; also
-TERM for pending_batch), or to its process group (killpg, as ^C does).

What must hold, for find and for ufind alike:
  * the program is killed by the signal (returncode -N; a shell sees 128+N);
  * no batch runs after the signal: the log holds what it held before
    (pending_batch: nothing; during_batch: the one batch already running),
    checked again after the running child has finished;
  * to the group: no process of the group survives (the sleep is gone);
  * to the program alone: the running child is left as find leaves it: it
    lives on, and is then ended by this test, by its pid.

Usage: signals.py --ufind PATH [-v] [--filter SUBSTR]
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

# No __pycache__ in the source tree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import safety_common as common  # noqa: E402


def processes_with(marker: bytes) -> list[int]:
    """Pids whose command line contains marker (an argument of sleep)."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if marker in f.read().split(b"\0"):
                    found.append(int(pid))
        except OSError:
            continue
    return found


def group_members(pgid: int) -> list[int]:
    members = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        # pid (comm) state ppid pgrp ...: comm may hold spaces and parens.
        fields = stat[stat.rindex(b")") + 2:].split()
        if int(fields[2]) == pgid and fields[0] != b"Z":
            members.append(int(pid))
    return members


def wait_for(predicate, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return predicate()


def read(path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return b""


class Scenario:
    def __init__(self, scratch: str, report: common.Report):
        self.scratch = scratch
        self.report = report
        self.log = os.path.join(scratch, "log")
        self.tree = os.path.join(scratch, "tree")
        # Enough directories that the walk starts its workers (and io_uring
        # rings) before the first child runs.
        for d in range(60):
            os.makedirs(os.path.join(self.tree, f"d{d:02d}", "sub"))
            for f in range(4):
                open(os.path.join(self.tree, f"d{d:02d}", f"f{f}"), "w").close()
        self.many = os.path.join(scratch, "many")
        os.makedirs(self.many)
        for i in range(2000):
            open(os.path.join(self.many, f"{i:05d}-" + "n" * 230), "w").close()

    def run_one(self, argv: list[str], marker: bytes, sig: int, to_group: bool,
                env: dict, logged_before: int) -> list[str]:
        """Starts argv, waits for the child carrying marker, signals, checks."""
        if os.path.exists(self.log):
            os.unlink(self.log)
        problems = []
        proc = subprocess.Popen(argv, cwd=self.scratch, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                start_new_session=True, preexec_fn=common.default_signals)
        children: list[int] = []

        def running_children() -> list[int]:
            # The program's own argv may hold the marker too.
            return [pid for pid in processes_with(marker) if pid != proc.pid]
        try:
            if not wait_for(lambda: bool(running_children()), 10):
                proc.kill()
                proc.wait()
                return [f"the child never started; stderr: {proc.stderr.read()[:300]!r}"]
            children = running_children()
            if to_group:
                os.killpg(proc.pid, sig)
            else:
                os.kill(proc.pid, sig)
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                problems.append("still running 5 s after the signal")
                proc.kill()
                proc.wait()
            if proc.returncode != -sig:
                problems.append(f"returncode {proc.returncode}, not killed by signal {sig} "
                                f"(a shell would see {128 + sig})")
            if to_group:
                if not wait_for(lambda: not group_members(proc.pid), 3):
                    problems.append(f"processes of the group left: {group_members(proc.pid)}")
            else:
                still = [pid for pid in children if pid in running_children()]
                if not still:
                    problems.append("the running child died with the program: find leaves it")
                # Let it finish now, as it would have, by its pid.
                for pid in still:
                    os.kill(pid, signal.SIGTERM)
                wait_for(lambda: not running_children(), 3)
            # Anything started after the signal has had time to log by now.
            time.sleep(0.05)
            batches = [line for line in read(self.log).split(b"\n") if line]
            if len(batches) != logged_before:
                problems.append(f"{len(batches)} batch(es) ran, expected {logged_before}: "
                                "a batch ran after the signal" if len(batches) > logged_before
                                else f"{len(batches)} batch(es) logged, expected {logged_before}")
        finally:
            for pid in running_children():
                if pid in children:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        return problems

    def compare(self, name: str, make_argv, sig: int, to_group: bool,
                logged_before: int, ufind: str, combinations) -> None:
        def marker_and_argv(prefix: list[str]) -> tuple[bytes, list[str]]:
            # A sleep duration no other process has: how the child is found.
            mark = f"{random.randint(100, 999)}.{random.randint(10**5, 10**6 - 1)}"
            return mark.encode(), make_argv(prefix, mark)

        marker, argv = marker_and_argv([common.FIND])
        problems = self.run_one(argv, marker, sig, to_group, common.base_env(), logged_before)
        if problems:
            self.report.check(name + " (oracle: find)", problems)
            return
        for strategy, backend in combinations:
            marker, argv = marker_and_argv(common.ufind_argv(ufind, strategy, []))
            problems = self.run_one(argv, marker, sig, to_group,
                                    common.base_env(IOQ_BACKEND=backend), logged_before)
            self.report.check(f"{name} [{strategy} {backend}]", problems)


def run_tests(begun: common.Start, scratch: str) -> None:
    ufind, report, name_filter = begun.ufind, begun.report, begun.filter
    s = Scenario(scratch, report)
    log_batch = f'printf "%s\\n" "$#" >> {s.log}'

    def pending_batch(prefix: list[str], mark: str) -> list[str]:
        return prefix + ["tree", "-exec", "sh", "-c", log_batch, "sh", "{}", "+",
                         "-exec", "sleep", mark, ";"]

    def during_batch(prefix: list[str], mark: str) -> list[str]:
        return prefix + ["many", "-type", "f", "-exec", "sh", "-c",
                         log_batch + f"; exec sleep {mark}", "sh", "{}", "+"]

    every = common.COMBINATIONS
    per_backend = [("bfs", b) for b in common.BACKENDS]
    scenarios = [
        ("sigint_to_group_with_pending_batch", pending_batch, signal.SIGINT, True, 0, every),
        ("sigint_to_program_with_pending_batch", pending_batch, signal.SIGINT, False, 0,
         every),
        ("sigterm_to_program_with_pending_batch", pending_batch, signal.SIGTERM, False, 0,
         per_backend),
        ("sigint_to_group_during_batch", during_batch, signal.SIGINT, True, 1, per_backend),
        ("sigint_to_program_during_batch_starts_no_other", during_batch, signal.SIGINT,
         False, 1, per_backend),
    ]
    for name, make_argv, sig, to_group, before, combinations in scenarios:
        if name_filter in name:
            s.compare(name, make_argv, sig, to_group, before, ufind, combinations)


def main() -> int:
    return common.main_in_scratch("ufind-signals-", run_tests)


if __name__ == "__main__":
    sys.exit(main())
