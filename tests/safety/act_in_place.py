#!/usr/bin/env python3
"""-delete and -execdir act on the directory the walk read, not on a path.

- Beyond PATH_MAX: a chain of directories whose paths grow past 4,096 bytes.
  `-execdir ls {} ;` runs in the deepest one and `-depth -delete` removes the
  whole chain, as GNU find does (it works through directory descriptors).
- Looking at files beyond PATH_MAX: -empty, -readable, -writable,
  -executable, -lname, %l, -ls and the metadata of post-order visits
  (-depth) work there as in find, and `-type d -empty -delete` removes an
  empty chain whole.
- A directory swapped for a symbolic link while the walk is inside it: an
  -exec on an earlier entry (names are sorted with -s) moves the directory
  away and puts a link to an outside directory at its name.  -delete of the
  next entry must remove the file in the directory that was read, never the
  file of the same name behind the link; -execdir must run there too.  (GNU
  find, which holds the directory open, does the same; it is not run here
  because its order inside a directory is the directory's own.)

Every case runs ufind under each strategy and backend, on its own copy.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile

from safety_common import (BACKENDS, STRATEGIES, Report, base_env, remove_tree, run,
                           ufind_argv)

LONG_NAME = "d" * 200


def build_long_chain(top: str, levels: int = 24, bottom: bool = True) -> str:
    """A chain of 200-byte names, deeper than PATH_MAX; returns the last
    directory's path relative to top (built with openat, as mkdir -p on the
    whole path would fail).  At the bottom (unless not bottom): a file
    "leaf", an empty directory "hollow", a link "lnk" to "target-text"."""
    os.mkdir(top)
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    for _ in range(levels):
        os.mkdir(LONG_NAME, dir_fd=fd)
        child = os.open(LONG_NAME, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = child
    if bottom:
        with open(os.open("leaf", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd), "w") as f:
            f.write("deep")
        os.mkdir("hollow", dir_fd=fd)
        os.symlink("target-text", "lnk", dir_fd=fd)
    os.close(fd)
    return "/".join([LONG_NAME] * levels)


def chain_exists(top: str) -> bool:
    return os.path.isdir(top) and os.listdir(top) != []


def remove_long_chain(top: str) -> None:
    # shutil.rmtree works through directory descriptors on Linux: it
    # removes what no path can name (the chain is writable throughout).
    shutil.rmtree(top, ignore_errors=True)


def test_long_paths(ufind: str, tmp: str, report: Report) -> None:
    env = base_env()
    for label, argv_tail in (("execdir", ["-name", "leaf", "-execdir", "cat", "{}", ";"]),
                             ("execdir+", ["-name", "leaf", "-execdir", "cat", "{}", "+"])):
        top = os.path.join(tmp, "chain-find")
        build_long_chain(top)
        expected = run(["find", top] + argv_tail, env=env)
        remove_long_chain(top)
        for strategy in STRATEGIES:
            for backend in BACKENDS:
                top = os.path.join(tmp, f"chain-{strategy}-{backend}")
                build_long_chain(top)
                got = run(ufind_argv(ufind, strategy, [top] + argv_tail),
                          env=base_env(IOQ_BACKEND=backend))
                problems = []
                if expected.stdout != b"deep" or expected.status != 0:
                    problems.append(f"find itself: {expected.status} {expected.stderr!r}")
                if got.stdout != expected.stdout or got.status != expected.status:
                    problems.append(f"ufind printed {got.stdout!r}, status {got.status}, "
                                    f"stderr {got.stderr[:300]!r}")
                report.check(f"-{label} beyond PATH_MAX ({strategy}, {backend})", problems)
                remove_long_chain(top)
    top = os.path.join(tmp, "chain-find")
    build_long_chain(top)
    expected = run(["find", top, "-mindepth", "1", "-delete"], env=env)
    find_left = chain_exists(top)
    remove_long_chain(top)
    for strategy in STRATEGIES:
        for backend in BACKENDS:
            top = os.path.join(tmp, f"chain-{strategy}-{backend}")
            build_long_chain(top)
            got = run(ufind_argv(ufind, strategy, [top, "-mindepth", "1", "-delete"]),
                      env=base_env(IOQ_BACKEND=backend))
            problems = []
            if find_left or expected.status != 0:
                problems.append(f"find itself left the chain: {expected.stderr[:200]!r}")
            if chain_exists(top) or got.status != 0:
                problems.append(f"ufind left the chain, status {got.status}, "
                                f"stderr {got.stderr[:300]!r}")
            report.check(f"-delete beyond PATH_MAX ({strategy}, {backend})", problems)
            remove_long_chain(top)


# What looks at the files themselves, by path in find: past PATH_MAX ufind
# goes through the directory the walk read.
LOOKING_CASES = (
    ["-empty"], ["-readable"], ["-writable"], ["-executable"], ["-lname", "target*"],
    ["-printf", "%y %l|\n"], ["-ls"], ["-depth", "-printf", "%s %m %y %p\n"],
    ["-depth", "-perm", "-0"], ["-depth", "-ls"],
)


def test_looking_beyond_path_max(ufind: str, tmp: str, report: Report) -> None:
    top = os.path.join(tmp, "chain-looked-at")
    build_long_chain(top)
    for tail in LOOKING_CASES:
        expected = run(["find", top] + tail)
        want = sorted(expected.stdout.split(b"\n"))
        for strategy in STRATEGIES:
            for backend in BACKENDS:
                got = run(ufind_argv(ufind, strategy, [top] + tail),
                          env=base_env(IOQ_BACKEND=backend))
                problems = []
                if expected.status != 0 or expected.stderr:
                    problems.append(f"find itself: {expected.status} {expected.stderr[:200]!r}")
                if sorted(got.stdout.split(b"\n")) != want:
                    problems.append(f"ufind printed {len(got.stdout.splitlines())} lines, "
                                    f"find {len(expected.stdout.splitlines())}")
                if got.status != expected.status or got.stderr:
                    problems.append(f"ufind status {got.status}, stderr {got.stderr[:300]!r}")
                report.check(f"{' '.join(tail)} beyond PATH_MAX ({strategy}, {backend})",
                             problems)
    remove_long_chain(top)
    # The common way to prune empty directories, on a chain of nothing else.
    tail = ["-type", "d", "-empty", "-delete"]
    top = os.path.join(tmp, "chain-find")
    build_long_chain(top, bottom=False)
    expected = run(["find", top] + tail)
    find_left = os.path.lexists(top)
    remove_long_chain(top)
    for strategy in STRATEGIES:
        for backend in BACKENDS:
            top = os.path.join(tmp, f"chain-{strategy}-{backend}")
            build_long_chain(top, bottom=False)
            got = run(ufind_argv(ufind, strategy, [top] + tail),
                      env=base_env(IOQ_BACKEND=backend))
            problems = []
            if find_left or expected.status != 0:
                problems.append(f"find itself left the chain: {expected.stderr[:200]!r}")
            if os.path.lexists(top) or got.status != 0:
                problems.append(f"ufind left {'the chain' if chain_exists(top) else 'its top'}"
                                f", status {got.status}, stderr {got.stderr[:300]!r}")
            report.check(f"-type d -empty -delete beyond PATH_MAX ({strategy}, {backend})",
                         problems)
            remove_long_chain(top)


SWAP = ("mv tree/a tree/a.moved && ln -s ../outside tree/a")


def build_swap_world(world: str) -> None:
    os.makedirs(os.path.join(world, "tree", "a"))
    os.makedirs(os.path.join(world, "outside"))
    for directory in ("tree/a", "outside"):
        for name in ("trigger", "victim"):
            with open(os.path.join(world, directory, name), "w") as f:
                f.write(directory)


def test_swapped_directory(ufind: str, tmp: str, report: Report) -> None:
    # -s: "trigger" comes before "victim" in every strategy.  The swap runs
    # from -exec on "trigger"; "victim" is then deleted (or listed) through
    # what the walk holds.
    cases = {
        "-delete": ["(", "-name", "trigger", "-exec", "sh", "-c", SWAP, ";", ")", ",",
                    "(", "-name", "victim", "-delete", ")"],
        "-execdir": ["(", "-name", "trigger", "-exec", "sh", "-c", SWAP, ";", ")", ",",
                     "(", "-name", "victim", "-execdir", "rm", "{}", ";", ")"],
    }
    for label, expression in cases.items():
        for strategy in STRATEGIES:
            for backend in BACKENDS:
                world = os.path.join(tmp, f"swap-{strategy}-{backend}")
                build_swap_world(world)
                got = run(ufind_argv(ufind, strategy, ["-s", "tree"]) + expression, cwd=world,
                          env=base_env(IOQ_BACKEND=backend))
                problems = []
                if not os.path.islink(os.path.join(world, "tree", "a")):
                    problems.append("the swap did not happen (the test is broken)")
                if not os.path.exists(os.path.join(world, "outside", "victim")):
                    problems.append("the file behind the swapped-in link was removed")
                if os.path.exists(os.path.join(world, "tree", "a.moved", "victim")):
                    problems.append("the file in the directory the walk read is still there")
                if got.status != 0:
                    problems.append(f"status {got.status}: {got.stderr[:300]!r}")
                report.check(f"{label} after a directory became a link ({strategy}, "
                             f"{backend})", problems)
                remove_tree(world)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ufind", required=True)
    parser.add_argument("-v", "--verbose", action="store_true")
    opts = parser.parse_args()
    ufind = os.path.abspath(opts.ufind)
    report = Report(verbose=opts.verbose)
    with tempfile.TemporaryDirectory(prefix="ufind-in-place-") as tmp:
        test_long_paths(ufind, tmp, report)
        test_looking_beyond_path_max(ufind, tmp, report)
        test_swapped_directory(ufind, tmp, report)
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
