"""What the safety tests share: running ufind and GNU find, copying and
comparing trees, and reporting.

The safety suite protects what a find must never get wrong even when
everything else goes wrong: what -delete leaves, what -exec hands to its
command, what happens on a signal, with few descriptors, under valgrind and
without io_uring.  GNU find is the oracle wherever it shares the behaviour.

    tree template --copy--> copy for find ----> find ARGS   --+
                 \--copy--> copy for each  ---> ufind -S s  --+--> snapshot
                            strategy x backend  ARGS            of each copy,
                                                                 stdout, stderr,
                                                                 status compared

A snapshot is the sorted list of (relative path, type, content) of every
entry under a directory, read with lstat (links are not followed): for a
regular file its bytes, for a link its target, for a directory its mode.
Both programs run with LC_ALL=C (GNU find quotes names in messages with
'...' there, as ufind does) and stdin from /dev/null.

Messages are compared as well as statuses: "find: " and "ufind: " at the
start of a line are the same, and the lines of stderr, sorted, must be
equal; the indented lines ufind adds under a command-line error (the
command line, a caret under the culprit) are left out.

Only the Python 3.11 standard library is used.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field

STRATEGIES = ("hybrid", "bfs", "dfs", "ids", "eds")
BACKENDS = ("uring", "threads", "inline")
COMBINATIONS = tuple((s, b) for s in STRATEGIES for b in BACKENDS)

# GNU find by absolute path: some cases run with a PATH it is not on.
FIND = shutil.which("find") or "/usr/bin/find"

# A hang is a failure; each run here takes milliseconds.
RUN_TIMEOUT = 30


def base_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("POSIXLY_CORRECT", None)
    env.pop("IOQ_BACKEND", None)
    env["LC_ALL"] = "C"
    env["TZ"] = "UTC"
    env.update(extra)
    return env


def default_signals() -> None:
    """preexec_fn: the child starts with SIGINT and SIGPIPE at their defaults,
    whatever the test runner ignores (a shell's background job ignores
    SIGINT; Python ignores SIGPIPE)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)


@dataclass
class Outcome:
    status: int
    stdout: bytes
    stderr: bytes


def run(argv: list[str], cwd: str | None = None, env: dict[str, str] | None = None,
        preexec=None, timeout: float = RUN_TIMEOUT) -> Outcome:
    def start() -> None:
        default_signals()
        if preexec:
            preexec()
    p = subprocess.run(argv, cwd=cwd, env=env if env is not None else base_env(),
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=timeout, preexec_fn=start)
    return Outcome(p.returncode, p.stdout, p.stderr)


def ufind_argv(ufind: str, strategy: str | None, args: list[str]) -> list[str]:
    return [ufind] + (["-S", strategy] if strategy else []) + args


def normalise_messages(stderr: bytes) -> list[bytes]:
    """stderr as sorted lines, the program's name made neutral."""
    lines = []
    for line in stderr.split(b"\n"):
        # ufind follows a command-line error with the command line and a
        # caret under the culprit, indented; find has no such lines.
        if not line or line.startswith(b"  "):
            continue
        for prefix in (b"ufind: ", b"find: ", b"/usr/bin/find: "):
            if line.startswith(prefix):
                line = b"PROGRAM: " + line[len(prefix):]
                break
        lines.append(line)
    return sorted(lines)


def snapshot(top: str) -> list[tuple[str, str, bytes]]:
    """Every entry under top (top itself excluded), without following links."""
    entries = []

    def visit(directory: str, relative: str) -> None:
        try:
            names = sorted(os.listdir(directory))
        except OSError as error:
            entries.append((relative, "unreadable", str(error.errno).encode()))
            return
        for name in names:
            path = os.path.join(directory, name)
            rel = os.path.join(relative, name) if relative else name
            st = os.lstat(path)
            if stat.S_ISLNK(st.st_mode):
                entries.append((rel, "l", os.readlink(path).encode()))
            elif stat.S_ISDIR(st.st_mode):
                entries.append((rel, "d", oct(stat.S_IMODE(st.st_mode)).encode()))
                visit(path, rel)
            elif stat.S_ISREG(st.st_mode):
                with open(path, "rb") as f:
                    entries.append((rel, "f", f.read()))
            else:
                entries.append((rel, "other", oct(stat.S_IFMT(st.st_mode)).encode()))

    visit(top, "")
    return entries


def copy_tree(source: str, destination: str) -> None:
    shutil.copytree(source, destination, symlinks=True)


def make_writable(top: str) -> None:
    """Gives back write and search permission everywhere, so that rmtree works."""
    for directory, dirs, _ in os.walk(top):
        for name in dirs:
            path = os.path.join(directory, name)
            if not os.path.islink(path):
                os.chmod(path, 0o755)
    if os.path.isdir(top):
        os.chmod(top, 0o755)


def remove_tree(top: str) -> None:
    if os.path.lexists(top):
        make_writable(top)
        shutil.rmtree(top)


def main_in_scratch(prefix: str, run_tests) -> int:
    """The main() of a safety test: run_tests(start, scratch) with the
    command line parsed and a scratch directory (see scratch_dir); exits
    77 (skipped) without GNU find."""
    begun = start()
    if begun is None:
        return 77
    with scratch_dir(prefix) as scratch:
        run_tests(begun, scratch)
    return begun.report.finish()


@contextlib.contextmanager
def scratch_dir(prefix: str):
    """A temporary directory for a test's trees, removed afterwards even
    where the test made parts of it unreadable."""
    top = tempfile.mkdtemp(prefix=prefix)
    try:
        yield top
    finally:
        remove_tree(top)


def escape(data: bytes | str) -> str:
    if isinstance(data, str):
        data = data.encode()
    return repr(data)[2:-1]


@dataclass
class Report:
    """Counts cases; prints one FAIL line per failure with its reasons and
    ends with 'N passed, M failed'.  Exit status 1 if any failed."""
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    verbose: bool = False
    notes: list[str] = field(default_factory=list)

    def check(self, name: str, problems: list[str]) -> bool:
        if problems:
            self.failed += 1
            print(f"FAIL {name}")
            for problem in problems:
                for line in problem.splitlines():
                    print(f"    {line}")
        else:
            self.passed += 1
            if self.verbose:
                print(f"pass {name}")
        sys.stdout.flush()
        return not problems

    def skip(self, name: str, reason: str) -> None:
        self.skipped += 1
        print(f"skip {name}: {reason}")

    def note(self, text: str) -> None:
        print(f"note: {text}")

    def finish(self) -> int:
        print(f"{self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0


def diff_snapshots(expected: list, actual: list, limit: int = 12) -> list[str]:
    exp = {(p, t): c for p, t, c in expected}
    act = {(p, t): c for p, t, c in actual}
    out = []
    for key in sorted(set(exp) | set(act)):
        if key not in act:
            out.append(f"only in find's tree: {escape(key[0])} ({key[1]})")
        elif key not in exp:
            out.append(f"only in ufind's tree: {escape(key[0])} ({key[1]})")
        elif exp[key] != act[key]:
            out.append(f"content differs: {escape(key[0])}")
        if len(out) >= limit:
            out.append("...")
            break
    return out


def has_find_oracle() -> bool:
    try:
        out = subprocess.run([FIND, "--version"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL).stdout
    except OSError:
        return False
    return b"GNU findutils" in out


@dataclass
class Start:
    """What every safety test begins with: its command line (--ufind,
    --filter, -v), ufind's absolute path and a Report."""
    ufind: str
    filter: str
    report: Report


def start() -> Start | None:
    """Parses the command line every safety test takes; None when GNU find,
    the oracle, is missing (the test then exits 77: skipped)."""
    import argparse
    parser = argparse.ArgumentParser()
    parser.add_argument("--ufind", required=True)
    parser.add_argument("--filter", default="")
    parser.add_argument("-v", action="store_true")
    options = parser.parse_args()
    if not has_find_oracle():
        print("GNU find is missing: nothing to compare with")
        return None
    return Start(os.path.abspath(options.ufind), options.filter, Report(verbose=options.v))
