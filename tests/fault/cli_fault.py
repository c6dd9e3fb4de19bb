#!/usr/bin/env python3
"""cli_fault: ufind under memory pressure, through an LD_PRELOAD malloc shim.

For each backend, ufind runs once with the shim counting the allocations
it makes after main() starts (T), then once for each N in 1..T (or a
seeded sample when T is large) with the N-th allocation failing, and with
every allocation failing from the N-th on.  Each run must either

  - exit 0 with exactly the output of a run without failures (whose set
    of lines GNU find's output checks), and nothing on stderr, or
  - exit 1 with a message on stderr that names memory ("ufind: memory
    exhausted" or strerror(ENOMEM)), and print only whole lines of the
    full output, none twice; with -s (a deterministic order) a prefix of it;
    (without -s, the order of lines may differ from run to run)

and never die of a signal or hang.

    cli_fault.py --ufind PATH --shim PATH [--max-cases K] [--seed S]

The last line is "N passed, M failed".
"""

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile


def make_tree(root):
    """About 250 entries: three levels of three directories with four
    files each, a directory of long names, a chain, an empty directory,
    a dangling link."""
    os.mkdir(root)

    def level(path, depth):
        for f in range(4):
            open(os.path.join(path, f"f{f}"), "w").close()
        if depth == 3:
            return
        for d in range(3):
            sub = os.path.join(path, f"d{d}")
            os.mkdir(sub)
            level(sub, depth + 1)

    level(root, 0)
    wide = os.path.join(root, "wide")
    os.mkdir(wide)
    for i in range(40):
        open(os.path.join(wide, f"a_file_name_longer_than_sso_{i}"), "w").close()
    chain = os.path.join(root, "chain")
    os.mkdir(chain)
    for i in range(6):
        chain = os.path.join(chain, f"link_in_a_long_chain_{i}")
        os.mkdir(chain)
    os.mkdir(os.path.join(root, "empty"))
    os.symlink("nowhere", os.path.join(root, "dangling"))


def run(command, env, timeout=20):
    try:
        done = subprocess.run(command, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=timeout)
        return done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired as expired:
        return None, expired.stdout or b"", expired.stderr or b""


def check(result, reference, ordered):
    """Returns what is wrong with one run under failures, or None."""
    status, out, err = result
    if status is None:
        return "hung (timeout)"
    if status < 0:
        return f"killed by signal {-status}; stderr: {err[-300:]!r}"
    if status == 0:
        if out != reference if ordered else sorted(out.splitlines()) != sorted(reference.splitlines()):
            return f"exit 0 with other output ({len(out)} bytes, expected {len(reference)})"
        if err:
            return f"exit 0 with stderr {err[-300:]!r}"
        return None
    if status != 1:
        return f"exit status {status}; stderr: {err[-300:]!r}"
    if not err.startswith(b"ufind: ") or (b"memory" not in err and b"Cannot allocate" not in err):
        return f"exit 1 without a message about memory: {err[-300:]!r}"
    if out and not out.endswith(b"\n"):
        return "a partial line on stdout"
    if ordered:
        if not reference.startswith(out):
            return "stdout is not a prefix of the full output"
        return None
    lines = out.splitlines()
    expected = set(reference.splitlines())
    if len(set(lines)) != len(lines):
        return "a line printed twice"
    stray = [line for line in lines if line not in expected]
    if stray:
        return f"lines not in the full output: {stray[:3]!r}"
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ufind", required=True)
    parser.add_argument("--shim", required=True)
    parser.add_argument("--max-cases", type=int, default=150,
                        help="values of N per command, backend and mode")
    parser.add_argument("--seed", type=int, default=20261201)
    args = parser.parse_args()

    shim = os.path.abspath(args.shim)
    rng = random.Random(args.seed)
    print(f"seed {args.seed}, at most {args.max_cases} cases per command, backend and mode",
          flush=True)
    passed = failed = 0
    temp = tempfile.mkdtemp(prefix="ufind-fault-")
    try:
        tree = os.path.join(temp, "tree")
        make_tree(tree)
        count_file = os.path.join(temp, "count")
        find = subprocess.run(["find", tree], stdout=subprocess.PIPE, check=True).stdout
        commands = [
            ("-s", [args.ufind, "-s", tree], True),
            ("-type f -size", [args.ufind, tree, "-type", "f", "-size", "-1k"], False),
            ("-depth", [args.ufind, "-S", "dfs", tree, "-depth"], False),
        ]
        for backend in ["inline", "threads", "uring"]:
            for label, command, ordered in commands:
                base_env = dict(os.environ, IOQ_BACKEND=backend)
                base_env.pop("UFIND_FAULT_AT", None)
                status, reference, err = run(command, base_env)
                if status != 0 or err:
                    print(f"FAIL: {backend} {label}: without the shim: exit {status}, {err!r}")
                    failed += 1
                    continue
                if label == "-s" and sorted(reference.splitlines()) != sorted(find.splitlines()):
                    print(f"FAIL: {backend} {label}: output differs from find's")
                    failed += 1
                    continue
                env = dict(base_env, LD_PRELOAD=shim, UFIND_FAULT_COUNT_FILE=count_file,
                           UFIND_FAULT_AT="0")
                status, out, err = run(command, env)
                try:
                    with open(count_file) as f:
                        total = int(f.read())
                    os.unlink(count_file)
                except (OSError, ValueError):
                    total = 0
                if check((status, out, err), reference, ordered) or total <= 0:
                    print(f"FAIL: {backend} {label}: counting run: exit {status}, "
                          f"{total} allocations, {err[-300:]!r}")
                    failed += 1
                    continue
                if total <= args.max_cases:
                    cases = list(range(1, total + 1))
                else:
                    cases = sorted(set(range(1, 11)) | {total} |
                                   set(rng.sample(range(11, total), args.max_cases - 11)))
                tally = {"complete": 0, "error": 0, "bad": 0}
                for sticky in ["0", "1"]:
                    for at in cases:
                        run_env = dict(base_env, LD_PRELOAD=shim, UFIND_FAULT_AT=str(at),
                                       UFIND_FAULT_STICKY=sticky)
                        result = run(command, run_env)
                        problem = check(result, reference, ordered)
                        if problem:
                            failed += 1
                            tally["bad"] += 1
                            mode = " on" if sticky == "1" else ""
                            print(f"FAIL: {backend} {label}: allocation {at}{mode}: {problem}")
                        else:
                            passed += 1
                            tally["complete" if result[0] == 0 else "error"] += 1
                print(f"{backend:8} {label:16} {total:5} allocations: {tally['complete']} complete, "
                      f"{tally['error']} memory errors, {tally['bad']} bad", flush=True)
    finally:
        shutil.rmtree(temp, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
