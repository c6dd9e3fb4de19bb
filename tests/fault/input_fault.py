#!/usr/bin/env python3
"""input_fault: ufind never acts on input it could not read whole.

The inputs that decide what ufind acts on are read through an LD_PRELOAD
shim (read_shim.c) that returns them a few bytes at a time and fails the
second read with EIO, so that what came before the failure is a name cut
short: `victim/` of `victim/target/sub/x`.  Each case runs a destructive
command and checks that ufind exits 1 with find's "read error" message (or,
for -ok, takes the failure as "no") and that nothing under victim/ is gone.

    input_fault.py --ufind PATH --shim PATH

The last line is "N passed, M failed".
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

LISTED = "victim/target/sub/x"


def make_victim(parent):
    """victim/target/sub/x and a few files beside it, every one of which
    must survive."""
    paths = [LISTED, "victim/keep", "victim/target/keep", "victim/target/sub/keep"]
    for rel in paths:
        path = os.path.join(parent, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write("precious\n")
    return paths


def run_case(name, ufind, shim, argv, stdin_data, expect_error):
    parent = tempfile.mkdtemp(prefix="ufind-input-fault-")
    try:
        paths = make_victim(parent)
        watched = os.path.join(parent, "input")
        with open(watched, "wb") as f:
            f.write(stdin_data)
        argv = [a.replace("INPUT", watched) for a in argv]
        env = dict(os.environ, LD_PRELOAD=shim, LC_ALL="C",
                   UFIND_READ_FAULT_PATH=os.path.realpath(watched),
                   UFIND_READ_FAULT_AT="2", UFIND_READ_CHUNK="7")
        if not expect_error:
            env["UFIND_READ_CHUNK"] = "1"
        with open(watched, "rb") as stdin:
            proc = subprocess.run([ufind] + argv, cwd=parent, env=env, stdin=stdin,
                                  capture_output=True, timeout=60)
        problems = []
        gone = [p for p in paths if not os.path.exists(os.path.join(parent, p))]
        if gone:
            problems.append(f"removed: {gone}")
        stderr = proc.stderr.decode(errors="replace")
        if expect_error:
            if proc.returncode != 1:
                problems.append(f"exit status {proc.returncode}, expected 1")
            if "read error: Input/output error" not in stderr:
                problems.append(f"no read error reported: {stderr!r}")
            if proc.stdout:
                problems.append(f"printed {proc.stdout!r}")
        elif proc.returncode != 0:
            problems.append(f"exit status {proc.returncode}, expected 0: {stderr!r}")
        if problems:
            print(f"FAIL {name}: ufind {' '.join(argv)}")
            for p in problems:
                print("    " + p)
            return False
        print(f"ok   {name}")
        return True
    finally:
        shutil.rmtree(parent, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ufind", required=True)
    parser.add_argument("--shim", required=True)
    args = parser.parse_args()
    ufind = os.path.abspath(args.ufind)
    shim = os.path.abspath(args.shim)
    listed = LISTED.encode() + b"\0"
    cases = [
        ("files0_from_read_error_deletes_nothing",
         ["-files0-from", "INPUT", "-delete"], listed, True),
        ("files0_from_stdin_read_error_deletes_nothing",
         ["-files0-from", "-", "-delete"], listed, True),
        ("files0_from_read_error_runs_nothing",
         ["-files0-from", "INPUT", "-exec", "rm", "-rf", "{}", "+"], listed, True),
        # 'y' then EIO before the end of the line: the answer was never read.
        ("ok_answer_read_error_means_no",
         [LISTED, "-ok", "rm", "{}", ";"], b"y\n", False),
        ("okdir_answer_read_error_means_no",
         [LISTED, "-okdir", "rm", "{}", ";"], b"y\n", False),
    ]
    passed = failed = 0
    for name, argv, data, expect_error in cases:
        if run_case(name, ufind, shim, argv, data, expect_error):
            passed += 1
        else:
            failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
