#!/usr/bin/env python3
"""The terminal and script interface of ufind, checked against real tools.

- Colors: each name ufind colors must be byte for byte what
  `ls --color=always -d NAME` prints for the same file and LS_COLORS
  (setuid, setgid, executable, sticky and other-writable directories,
  extension rules in either case, broken links, ln=target, ec, mh), but
  where bfs 4.1, the reference for -color, parts from ls 9.1: a name in
  the directories' color joins them in one span, "fi=00" prints no codes,
  an extension given in two cases with two colors is case-sensitive.
  Rules of bfs's that ls has no word for (no= for plain files, zeros as
  "unset", escapes in lc/rc/ec, a spec that cannot be read) are checked
  against the bytes bfs prints.
- Hostile names under colors: quoted $'...' between the color codes, as
  bfs does, so that no escape sequence of a name reaches the terminal.
- When colors apply: a terminal (a pseudo-terminal from script(1)) gets
  them unless NO_COLOR or -nocolor; a pipe never does unless -color.
- Escaping: on a terminal, names with control characters print as GNU find
  prints them (both run under script(1)); to a pipe they pass untouched.
- -json/-fjson: every line parses as JSON and every field agrees with
  os.lstat/os.stat, the user and group databases and readlink, for a tree of
  odd names (newline, quotes, backslash, invalid UTF-8, non-ASCII).
- -status: a pseudo-terminal shows the status line and has it erased at the
  end; a pipe gets nothing; SIGUSR1 prints one line whatever stderr is.
- Errors point at the word with a caret and suggest the word meant;
  warnings for contradictions; --stats counts errors by errno.

Prints "N passed, M failed" last; exits 1 if anything failed.
"""

import argparse
import base64
import datetime
import decimal
import grp
import json
import os
import pwd
import re
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time

UFIND = None
FIND = shutil.which("find")
LS = shutil.which("ls")
passed = 0
failed = 0


def check(name, condition, detail=""):
    global passed, failed
    if condition:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {name}" + (f": {detail}" if detail else ""))


def run(args, env=None, cwd=None, stdin=subprocess.DEVNULL, user=None):
    full_env = dict(os.environ)
    full_env.pop("NO_COLOR", None)
    full_env.setdefault("TERM", "xterm")
    full_env.update(env or {})
    return subprocess.run(args, capture_output=True, env=full_env, cwd=cwd, stdin=stdin,
                          user=user)


def run_on_terminal(command, env=None, cwd=None):
    """Runs a shell command line with stdout and stderr on a pseudo-terminal
    (script(1)); returns what the terminal received, with the terminal's
    \\r\\n turned back into \\n."""
    full_env = dict(os.environ)
    full_env.pop("NO_COLOR", None)
    full_env["TERM"] = "xterm"
    full_env.update(env or {})
    result = subprocess.run(["script", "-qec", command, "/dev/null"], capture_output=True,
                            env=full_env, cwd=cwd, stdin=subprocess.DEVNULL)
    return result.stdout.replace(b"\r\n", b"\n")


# --------------------------------------------------------------- colors

def build_color_tree(root):
    os.mkdir(root)
    def touch(name, mode=0o644):
        path = os.path.join(root, name)
        with open(path, "w"):
            pass
        os.chmod(path, mode)
    touch("plain")
    touch("archive.tar")
    touch("ARCHIVE.TGZ")
    touch("notes.Md")
    touch("run.sh", 0o755)
    touch("setuid", 0o4755)
    touch("setgid", 0o2755)
    touch("linked")
    os.link(os.path.join(root, "linked"), os.path.join(root, "linked2"))
    for name, mode in [("dir", 0o755), ("sticky", 0o1755), ("otherw", 0o757),
                       ("tmp", 0o1777)]:
        os.mkdir(os.path.join(root, name))
        os.chmod(os.path.join(root, name), mode)
    os.symlink("dir", os.path.join(root, "to-dir"))
    os.symlink("run.sh", os.path.join(root, "to-exec"))
    os.symlink("nowhere", os.path.join(root, "broken"))
    os.mkfifo(os.path.join(root, "fifo"))


COLOR_SPECS = {
    "builtin defaults": None,
    "dircolors": None,  # filled from `dircolors -b` below
    "custom": "di=01;33:ln=target:or=01;05;31:ex=35:*.md=04:*.tar=01;31:*.TAR=07:mh=44:ec=\\e[0m",
    "orphan only": "ln=36:or=31:pi=\\033[33:fi=00:no=0",
}


# Where bfs parts from ls 9.1 on this tree, what bfs prints for the name.
BFS_NOT_LS = {
    # *.tar and *.TAR with two colors: each matches its own case only.
    ("custom", "archive.tar"): b"\033[01;31marchive.tar\033[0m",
}


def ls_colored(directory, name, env):
    out = run([LS, "--color=always", "-d", "--", name], env=env, cwd=directory).stdout
    out = out.removesuffix(b"\n")
    # ls sends one reset before the first colored name of its run.
    for start in (b"\033[0m", b"\033[m"):
        if out.startswith(start):
            return out[len(start):]
    return out


def test_colors(tmp):
    root = os.path.join(tmp, "colors")
    build_color_tree(root)
    dircolors = subprocess.run(["dircolors", "-b"], capture_output=True, text=True).stdout
    match = re.search(r"LS_COLORS='([^']*)'", dircolors)
    COLOR_SPECS["dircolors"] = match.group(1) if match else ""
    names = sorted(os.listdir(root))
    for label, spec in COLOR_SPECS.items():
        env = {"LS_COLORS": spec} if spec is not None else {}
        if spec is None:
            env_unset = dict(os.environ)
            env_unset.pop("LS_COLORS", None)
        result = run([UFIND, "-s", ".", "-mindepth", "1", "-color"], cwd=root,
                     env=env if spec is not None else {"LS_COLORS": ""})
        lines = result.stdout.split(b"\n")[:-1]
        check(f"colors[{label}]: one line per entry", len(lines) == len(names),
              f"{len(lines)} lines for {len(names)} entries")
        # The directory part: "./" in the directory color ("di"), joined
        # by the name when it has the same color.
        for name, line in zip(names, lines):
            di = re.search(r"(?:^|:)di=([^:]*)", spec or "")
            di_sequence = di.group(1) if di else "01;34"
            end = b"\033[0m"
            start = b"\033[" + di_sequence.encode() + b"m"
            theirs = ls_colored(root, name, env if spec is not None else {"LS_COLORS": ""})
            theirs = BFS_NOT_LS.get((label, name), theirs)
            if theirs == b"\033[00m" + name.encode() + end:
                theirs = name.encode()  # "fi=00": bfs writes no codes at all
            if theirs == start + name.encode() + end:
                expected = start + b"./" + name.encode() + end
            else:
                expected = start + b"./" + end + theirs
            check(f"colors[{label}] {name}: as bfs (ls where they agree)", line == expected,
                  f"ufind {line!r} expected {expected!r}")


# (LS_COLORS, file made by the setup, what -color prints for it)
BFS_COLOR_RULES = [
    ("no=01;92:", "plain", b"\033[01;34m./\033[0m\033[01;92mplain\033[0m"),
    ("fi=01;91:no=01;92:", "plain", b"\033[01;34m./\033[0m\033[01;91mplain\033[0m"),
    ("fi=0:no=01;92:", "plain", b"\033[01;34m./\033[0mplain"),
    ("st=00:", "sticky", b"\033[01;34m./sticky\033[0m"),
    ("st=00:tw=00:ow=00:", "tmp", b"\033[01;34m./tmp\033[0m"),
    ("lc=\\e[:rc=\\155\\::ec=^[\\x5B\\x6d:*.tar=01:", "archive.tar",
     b"\033[01;34m:./\033[m\033[01m:archive.tar\033[m"),
    ("*.tar=01;31:*.TAR=01;32:", "ARCHIVE.TAR", b"\033[01;34m./\033[0m\033[01;32mARCHIVE.TAR\033[0m"),
    ("*.gz=01;33:*.tar.gz=01;31:", "x.TAR.GZ", b"\033[01;34m./\033[0m\033[01;31mx.TAR.GZ\033[0m"),
    ("*.tar.gz=01;31:*.gz=01;33:", "x.tar.gz", b"\033[01;34m./\033[0m\033[01;33mx.tar.gz\033[0m"),
    ("*.txt=01", "\033[1m.txt", b"\033[01;34m./\033[0m\033[01m$'\\e[1m.txt'\033[0m"),
    ("", "\033]0;title\007", b"\033[01;34m./\033[0m$'\\e]0;title\\a'"),
    ("", "tab\there", b"\033[01;34m./\033[0mtab\there"),
    ("", "esc\033dir/", b"\033[01;34m$'./esc\\edir'\033[0m"),
    ("", "esc\033dir/x\033", b"\033[01;34m$'./esc\\edir/'\033[0m$'x\\e'"),
]


def test_color_quotes_printf_names(tmp):
    root = os.path.join(tmp, "hostile")
    os.mkdir(root)
    name = b"t\033]0;pwned\007"
    with open(os.path.join(root.encode(), name), "w"):
        pass
    line = run([UFIND, ".", "-mindepth", "1", "-color", "-printf", "%f|%p\\n"], cwd=root).stdout
    check("-printf under -color: names $'...'-quoted", line == b"$'t\\e]0;pwned\\a'|$'./t\\e]0;pwned\\a'\n",
          repr(line))
    # Without -color a pipe gets the bytes, exactly as find writes them.
    for expression in (["-print"], ["-printf", "%f|%p|%h\\n"]):
        mine = run([UFIND, ".", "-mindepth", "1"] + expression, cwd=root).stdout
        theirs = run([FIND, ".", "-mindepth", "1"] + expression, cwd=root).stdout
        check(f"{expression[0]} to a pipe byte for byte as find", mine == theirs and name in mine,
              f"ufind {mine!r} find {theirs!r}")


def test_bfs_color_rules(tmp):
    for index, (spec, name, expected) in enumerate(BFS_COLOR_RULES):
        root = os.path.join(tmp, f"rule{index}")
        os.mkdir(root)
        directory, _, leaf = name.rpartition("/")
        if directory:
            os.mkdir(os.path.join(root, directory))
        if name.endswith("/"):
            name = directory
        elif name in ("sticky", "tmp"):
            os.mkdir(os.path.join(root, name))
            os.chmod(os.path.join(root, name), 0o1755 if name == "sticky" else 0o1777)
        else:
            with open(os.path.join(root, name), "w"):
                pass
        result = run([UFIND, "./" + name, "-color"], cwd=root, env={"LS_COLORS": spec})
        line = result.stdout.removesuffix(b"\n")
        check(f"bfs color rule {spec!r} on {name!r}", line == expected,
              f"ufind {line!r} expected {expected!r}")
    root = os.path.join(tmp, "rule-bfs-colors")
    os.mkdir(root)
    with open(os.path.join(root, "a.txt"), "w"):
        pass
    line = run([UFIND, "./a.txt", "-color"], cwd=root,
               env={"LS_COLORS": "*.txt=01:", "BFS_COLORS": "*.txt=02:"}).stdout
    check("BFS_COLORS overrides LS_COLORS", line == b"\033[01;34m./\033[0m\033[02ma.txt\033[0m\n",
          repr(line))
    result = run([UFIND, root, "-color"], env={"LS_COLORS": "*"})
    check("an unreadable LS_COLORS is refused", result.returncode == 1 and not result.stdout
          and b"LS_COLORS" in result.stderr, repr(result))


def test_color_choice(tmp):
    root = os.path.join(tmp, "choice")
    os.makedirs(os.path.join(root, "d"))
    quoted = shlex.quote(UFIND)
    escape = b"\033["
    on_tty = run_on_terminal(f"{quoted} {root} -maxdepth 1")
    check("colors on by default on a terminal", escape in on_tty, repr(on_tty))
    no_color = run_on_terminal(f"{quoted} {root} -maxdepth 1", env={"NO_COLOR": "1"})
    check("NO_COLOR turns colors off on a terminal", escape not in no_color, repr(no_color))
    dumb = run_on_terminal(f"{quoted} {root} -maxdepth 1", env={"TERM": "dumb"})
    check("TERM=dumb turns colors off", escape not in dumb, repr(dumb))
    nocolor = run_on_terminal(f"{quoted} {root} -maxdepth 1 -nocolor")
    check("-nocolor turns colors off on a terminal", escape not in nocolor, repr(nocolor))
    piped = run([UFIND, root, "-maxdepth", "1"]).stdout
    check("no colors on a pipe", escape not in piped, repr(piped))
    forced = run([UFIND, root, "-maxdepth", "1", "-color"], env={"NO_COLOR": "1"}).stdout
    check("-color colors a pipe, NO_COLOR or not", escape in forced, repr(forced))
    fprint = os.path.join(tmp, "fprint.txt")
    run([UFIND, root, "-maxdepth", "1", "-color", "-fprint", fprint, "-print0"])
    with open(fprint, "rb") as f:
        check("-color leaves -fprint files alone", escape not in f.read())
    error = run_on_terminal(f"{quoted} {root} -nmae x")
    check("errors colored on a terminal", b"\033[1;31mufind:" in error, repr(error))
    error = run_on_terminal(f"{quoted} {root} -nmae x", env={"NO_COLOR": "1"})
    check("NO_COLOR: errors not colored", escape not in error, repr(error))


# ------------------------------------------------------------- escaping

ODD_NAMES = [b"tab\there", b"new\nline", b"esc\033]0;title\007", b"bell\007", b"del\177",
             b"caf\xc3\xa9", b"bad\xffbyte", b"cut\xc3", b"plain", b"sp ace"]


def test_terminal_escaping(tmp):
    root = os.path.join(tmp, "odd")
    os.mkdir(root)
    for name in ODD_NAMES:
        with open(os.path.join(root.encode(), name), "w"):
            pass
    for expression in (["-print"], ["-printf", "%p|%f|%h|%P\\n"], ["-ls"]):
        words = " ".join(shlex.quote(w) for w in expression)
        # LC_ALL=C.UTF-8 for both: what is printable depends on the locale.
        ufind_out = run_on_terminal(f"LC_ALL=C.UTF-8 {shlex.quote(UFIND)} {root} -mindepth 1 "
                                    f"-nocolor {words}")
        find_out = run_on_terminal(f"LC_ALL=C.UTF-8 {FIND} {root} -mindepth 1 {words}")
        if expression == ["-ls"]:
            # Dates and owner columns agree already (tests/differential);
            # here only the names matter.
            ufind_out = b"\n".join(l.split(b" ")[-1] for l in ufind_out.split(b"\n"))
            find_out = b"\n".join(l.split(b" ")[-1] for l in find_out.split(b"\n"))
        check(f"terminal escaping of {expression[0]} as find",
              sorted(ufind_out.split(b"\n")) == sorted(find_out.split(b"\n")),
              f"ufind {sorted(ufind_out.split(chr(10).encode()))!r} "
              f"find {sorted(find_out.split(chr(10).encode()))!r}")
    raw = run([UFIND, root, "-mindepth", "1", "-print0"]).stdout.split(b"\0")[:-1]
    expected = sorted(os.path.join(root.encode(), n) for n in ODD_NAMES)
    check("names pass untouched to a pipe", sorted(raw) == expected, repr(raw))
    shown = run_on_terminal(f"{shlex.quote(UFIND)} {root} -mindepth 1 -nocolor")
    check("no escape sequence of a name reaches the terminal", b"\033]0;" not in shown
          and b"\007" not in shown, repr(shown))


# ----------------------------------------------------------------- JSON

JSON_NAMES = [b"plain.txt", b"new\nline", b'quo"te', b"back\\slash", b"bad\xffname",
              b"caf\xc3\xa9", b"ctl\x01char", b"\xe2\x82\xacuro"]


def decimal_epoch(ns):
    return decimal.Decimal(ns) / decimal.Decimal(10**9)


def check_metadata(label, record, st):
    check(f"{label}: size", record["size"] == st.st_size)
    check(f"{label}: blocks", record["blocks"] == st.st_blocks)
    check(f"{label}: mode", record["mode"] == format(stat.S_IMODE(st.st_mode), "04o"),
          f"{record['mode']} vs {stat.S_IMODE(st.st_mode):o}")
    check(f"{label}: perms", record["perms"] == stat.filemode(st.st_mode),
          f"{record['perms']} vs {stat.filemode(st.st_mode)}")
    check(f"{label}: uid/gid", (record["uid"], record["gid"]) == (st.st_uid, st.st_gid))
    try:
        user = pwd.getpwuid(st.st_uid).pw_name
    except KeyError:
        user = None
    try:
        group = grp.getgrgid(st.st_gid).gr_name
    except KeyError:
        group = None
    check(f"{label}: user/group names", (record["user"], record["group"]) == (user, group))
    check(f"{label}: links", record["links"] == st.st_nlink)
    check(f"{label}: inode", record["inode"] == st.st_ino)
    check(f"{label}: device",
          record["device"] == f"{os.major(st.st_dev)}:{os.minor(st.st_dev)}")
    times = [("mtime", st.st_mtime_ns), ("ctime", st.st_ctime_ns)]
    # Reading a directory or a link (the walk itself) may update its atime
    # after ufind looked: compare atime for the others only.
    if not stat.S_ISDIR(st.st_mode) and not stat.S_ISLNK(st.st_mode):
        times.append(("atime", st.st_atime_ns))
    for field, ns in times:
        epoch = record[field + "_epoch"]
        check(f"{label}: {field}_epoch exact", epoch == decimal_epoch(ns),
              f"{epoch} vs {decimal_epoch(ns)}")
        when = datetime.datetime.fromisoformat(record[field])
        check(f"{label}: {field} ISO 8601 is the same instant",
              abs(when.timestamp() - ns / 1e9) < 1e-5, f"{record[field]} vs {ns}")
        nanos = re.search(r"\.(\d{9})[+-]\d\d:\d\d$", record[field])
        check(f"{label}: {field} keeps nanoseconds",
              nanos is not None and int(nanos.group(1)) == ns % 10**9, record[field])
    check(f"{label}: btime present or null", "btime" in record and "btime_epoch" in record)


def test_json(tmp):
    root = os.path.join(tmp, "json")
    os.mkdir(root)
    rootb = root.encode()
    for name in JSON_NAMES:
        with open(os.path.join(rootb, name), "wb") as f:
            f.write(b"x" * (len(name) * 100))
    os.mkdir(os.path.join(root, "sub"))
    os.symlink(b"bad\xffname", os.path.join(rootb, b"link-to-bad"))
    os.symlink("nowhere", os.path.join(root, "broken"))
    os.mkfifo(os.path.join(root, "fifo"))
    os.link(os.path.join(root, "plain.txt"), os.path.join(root, "hard"))
    result = run([UFIND, root, "-json"])
    check("-json exits 0", result.returncode == 0, result.stderr.decode(errors="replace"))
    lines = result.stdout.split(b"\n")
    check("-json ends with a newline", lines[-1] == b"")
    records = []
    for line in lines[:-1]:
        try:
            # Decimal: a double cannot hold nanoseconds since the epoch.
            records.append(json.loads(line, parse_float=decimal.Decimal))
        except ValueError as error:
            check("-json line parses", False, f"{line!r}: {error}")
    expected_count = 1 + len(JSON_NAMES) + 5
    check("-json: one object per entry", len(records) == expected_count,
          f"{len(records)} vs {expected_count}")
    seen = set()
    for record in records:
        raw_path = (base64.b64decode(record["path_b64"]) if "path_b64" in record
                    else record["path"].encode())
        raw_name = (base64.b64decode(record["name_b64"]) if "name_b64" in record
                    else record["name"].encode())
        label = f"json {raw_path!r}"
        seen.add(raw_path)
        check(f"{label}: name is the last component", raw_path.endswith(raw_name))
        try:
            raw_path.decode("utf-8")
            valid = True
        except UnicodeDecodeError:
            valid = False
        check(f"{label}: _b64 exactly when not UTF-8", ("path_b64" in record) == (not valid))
        if not valid:
            check(f"{label}: U+FFFD stands for bad bytes", "\ufffd" in record["path"])
        st = os.lstat(raw_path)
        check(f"{label}: depth", record["depth"] == (0 if raw_path == rootb else 1))
        kinds = {stat.S_IFREG: "file", stat.S_IFDIR: "directory", stat.S_IFLNK: "symlink",
                 stat.S_IFIFO: "fifo"}
        check(f"{label}: type", record["type"] == kinds[stat.S_IFMT(st.st_mode)],
              record["type"])
        check_metadata(label, record, st)
        if stat.S_ISLNK(st.st_mode):
            target = os.readlink(raw_path)
            got = (base64.b64decode(record["target_b64"]) if "target_b64" in record
                   else record["target"].encode())
            check(f"{label}: target", got == target, f"{got!r} vs {target!r}")
        else:
            check(f"{label}: no target for a non-link", "target" not in record)
    check("-json: every entry once", len(seen) == len(records))
    # -L: metadata of the target, as every other test sees it under -L.
    followed = [json.loads(l) for l in run([UFIND, "-L", root, "-name", "link-to-bad",
                                            "-json"]).stdout.splitlines()]
    check("-L -json describes the target", len(followed) == 1 and
          followed[0]["type"] == "file" and
          followed[0]["size"] == os.stat(os.path.join(rootb, b"link-to-bad")).st_size)
    out_file = os.path.join(tmp, "out.jsonl")
    both = run([UFIND, "-s", root, "-fjson", out_file, "-json"])
    with open(out_file, "rb") as f:
        into_file = f.read()
    check("-fjson writes the same objects as -json", into_file == both.stdout and
          len(into_file.splitlines()) == expected_count,
          f"{len(into_file)} vs {len(both.stdout)} bytes")
    # Metadata that cannot be read: the entry is still there, with "error".
    # Needs an unprivileged user (root reads anything): run as nobody.
    if os.geteuid() == 0:
        locked = os.path.join(tmp, "locked")
        os.mkdir(locked)
        with open(os.path.join(locked, "inside"), "w"):
            pass
        os.chmod(locked, 0o444)  # listable, but nothing in it can be stat-ed
        # The test's own directories only (mkdtemp makes them 0700).
        for directory in (tmp, os.path.dirname(tmp)):
            os.chmod(directory, 0o755)
        # As nobody, a sanitizer build may not reach the suppression file
        # CI names (in a directory only root reads): leaks are not the
        # point of this run.
        denied = run([UFIND, locked, "-json"], user=65534,
                     env={"LSAN_OPTIONS": "", "ASAN_OPTIONS": "detect_leaks=0"})
        os.chmod(locked, 0o755)
        objects = [json.loads(line) for line in denied.stdout.splitlines()]
        inside = [o for o in objects if o["name"] == "inside"]
        check("-json: an entry whose metadata cannot be read carries the error",
              len(inside) == 1 and inside[0].get("error") == "Permission denied" and
              "size" not in inside[0] and inside[0]["type"] == "file", repr(objects))
        check("-json: the error is reported on stderr too, exit 1",
              b"Permission denied" in denied.stderr and denied.returncode == 1)
    # jq, where installed, reads it too.
    if shutil.which("jq"):
        jq = subprocess.run(["jq", "-c", ".name"], input=result.stdout, capture_output=True)
        check("jq reads -json output", jq.returncode == 0, jq.stderr.decode())


# --------------------------------------------------------------- status

def build_wide_tree(root, directories=40, files=60):
    os.mkdir(root)
    for d in range(directories):
        sub = os.path.join(root, f"d{d}")
        os.mkdir(sub)
        for f in range(files):
            with open(os.path.join(sub, f"f{f}"), "w"):
                pass


def test_status(tmp):
    root = os.path.join(tmp, "wide")
    build_wide_tree(root)
    # A walk slow enough to be seen: one -exec per directory.
    command = (f"{shlex.quote(UFIND)} {root} -status -type d -exec sleep 0.02 ';' "
               f"2>&1 >/dev/null")
    shown = run_on_terminal(command)
    check("-status shows entries on a terminal", b"entries" in shown and b"dirs" in shown,
          repr(shown[:200]))
    check("-status redraws in place", shown.count(b"\r\033[K") >= 2, repr(shown[:200]))
    check("-status erases its line at the end", shown.endswith(b"\r\033[K"),
          repr(shown[-80:]))
    piped = run([UFIND, root, "-status", "-type", "d", "-exec", "sleep", "0.02", ";"])
    check("-status says nothing when stderr is not a terminal", piped.stderr == b"",
          repr(piped.stderr[:200]))
    # Paths printed to the same terminal never share the status line.
    both = run_on_terminal(f"{shlex.quote(UFIND)} {root} -nocolor -status -type d "
                           f"-exec sleep 0.02 ';' -print")
    for line in both.split(b"\n"):
        text = line.split(b"\r\033[K")[-1]
        if text.startswith(root.encode()):
            check("-status: a path is a line of its own", b"entries" not in text, repr(line))
    # SIGUSR1: one line, whatever stderr is.
    process = subprocess.Popen([UFIND, root, "-type", "d", "-exec", "sleep", "0.05", ";"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(0.5)
    process.send_signal(signal.SIGUSR1)
    _, err = process.communicate(timeout=60)
    check("SIGUSR1 prints a status line", b"entries" in err and err.endswith(b"\n"),
          repr(err))
    check("SIGUSR1 does not end the walk", process.returncode == 0, str(process.returncode))


# ------------------------------------------------------ errors, warnings

def test_errors(tmp):
    typos = {"-nmae": "-name", "-maxdept": "-maxdepth", "-tpye": "-type", "-prnt": "-print",
             "--name": "-name", "-exex": "-exec", "-mtiem": "-mtime"}
    for typo, meant in typos.items():
        result = run([UFIND, tmp, typo, "x"])
        err = result.stderr.decode()
        check(f"{typo}: exit status 1, nothing on stdout",
              result.returncode == 1 and result.stdout == b"")
        check(f"{typo}: suggests {meant}", f"did you mean `{meant}'?" in err, err)
        lines = err.split("\n")
        # The caret line starts where the word does in the line above it.
        if len(lines) >= 3:
            column = lines[1].find(" " + typo + " ") + 1
            check(f"{typo}: caret under the word", lines[2].find("^") == column,
                  repr(lines[1:3]))
    result = run([UFIND, tmp, "-zzzzqqq"])
    check("no suggestion when nothing is close", "did you mean" not in result.stderr.decode())
    result = run([UFIND, tmp, "-size", "+3x"])
    err = result.stderr.decode().split("\n")
    check("an error in an argument points at the argument",
          len(err) >= 3 and err[2].find("^~~") == err[1].find("+3x"), repr(err))
    result = run([UFIND, tmp, "-warn", "-type", "f", "-type", "d", "-print"])
    check("-type f -type d: warned", b"never both true" in result.stderr, repr(result.stderr))
    result = run([UFIND, tmp, "-nowarn", "-type", "f", "-type", "d"])
    check("-nowarn: no warning", result.stderr == b"", repr(result.stderr))
    result = run([UFIND, tmp, "-warn", "-maxdepth", "1", "-mindepth", "2"])
    check("-mindepth past -maxdepth: warned", b"no entry is visited" in result.stderr)
    result = run([UFIND, os.path.join(tmp, "missing-1"), os.path.join(tmp, "missing-2"),
                  "--stats"])
    check("--stats counts errors by errno",
          b"2 errors (2 No such file or directory)" in result.stderr, repr(result.stderr))
    check("--stats keeps the exit status", result.returncode == 1)
    result = run([UFIND, "--stats", tmp, "-false"])
    check("--stats before the paths", result.returncode == 0 and
          b"backend=" in result.stderr, repr(result.stderr))
    # Leaf directories, which workers close as soon as they are read: without
    # metadata in the expression not one of them costs a statx, only the
    # starting point does.
    tree = os.path.join(tmp, "leaves")
    for i in range(6):
        os.makedirs(os.path.join(tree, f"d{i}", "leaf"))
        open(os.path.join(tree, f"d{i}", "leaf", "f"), "w").close()
    for expression in (["-false"], ["-name", "f", "-print"], ["-type", "d"]):
        result = run([UFIND, "--stats", tree] + expression)
        check(f"{' '.join(expression)}: no statx but the starting point's",
              result.returncode == 0 and b" statx=1 " in result.stderr, repr(result.stderr))
    # A search that ends in its first directory reads starts no thread or
    # ring, whatever the strategy: -S ids and eds read the starting point
    # once a round, so the name below turns up in their third read.
    shallow = os.path.join(tmp, "shallow")
    for name in ("a", "b", "c", "d", "e"):
        os.makedirs(os.path.join(shallow, name, "deeper", "deepest"))
        open(os.path.join(shallow, name, "target"), "w").close()
    for strategy in ("hybrid", "bfs", "dfs", "ids", "eds"):
        result = run([UFIND, "--stats", "-S", strategy, shallow, "-name", "target", "-print",
                      "-quit"])
        check(f"-S {strategy}: a search ending in its first reads starts no worker",
              result.returncode == 0 and result.stdout.count(b"\n") == 1 and
              b" workers_started=0 " in result.stderr, repr(result.stderr))
    # Metadata of every entry: the workers fetch it as they read each
    # directory, which they then close, and nothing more is asked.
    result = run([UFIND, "--stats", tree, "-size", "-1k"])
    check("-size: one statx per entry (19), none per directory",
          result.returncode == 0 and b" statx=19 " in result.stderr, repr(result.stderr))


# Command lines find refuses, and ufind's first line of stderr for them
# must be find's (the program's name aside), with find's exit status, in
# the C locale and in a UTF-8 one, where find quotes the words it names
# ‘so’ (gnulib's quote()) in some messages and `so' in others.  Left out
# on purpose: -links and -inum without an argument (find says "invalid
# argument `-links' to `-links'", ufind that the argument is missing),
# -newerB* (find 4.9 here cannot read birth times; ufind can), -S (ufind's).
REFUSED_COMMAND_LINES = [
    ["-maxdepth", "x"], ["-mindepth", "-1"], ["-maxdepth", "1\n"],
    ["-perm", "999"], ["-perm", "u+q"], ["-perm", "-"], ["-perm", "/"],
    ["-perm", "bad\nmode\x01"], ["-perm", "mod\u00e9"],
    ["-size", "5X"], ["-size", "x"], ["-type", "q"], ["-type", "f,"],
    ["-regextype", "foo"], ["-regex", "["], ["-iregex", "\\("], ["-regex", "\\)"],
    ["-user", "nosuchuser"], ["-group", "nosuchgroup"], ["-uid", "x"],
    ["-mtime", "+x"], ["-mmin", "x"], ["-newermt", "notadate"], ["-newerqt", "x"],
    ["-newer", "nonexist"], ["-samefile", "nonexist"],
    ["-exec", "echo"], ["-exec", "echo", "x{}", "+"], ["-execdir", "echo", "{}", "x{}", "+"],
    ["-exec", "echo", "{}", "{}", "+"], ["-ok"], ["-name"], ["-fstype"],
    ["(", "-print"], ["-print", ")"], ["!"], ["-o", "-print"], ["-print", "x"],
    ["-fprint", "/nonexistent/x"],
]


# Command lines find runs with a warning: all of stderr must be find's.
WARNED_COMMAND_LINES = [
    ["-warn", "-name", "a/b"], ["-warn", "-iname", "a/b"], ["-nowarn", "-name", "a/b"],
    ["-path", "d/"], ["-ipath", "d/"], ["-wholename", "d/"], ["-iwholename", "d/"],
    ["-nowarn", "-ipath", "d/"],
]


def expect_find_messages(tmp, cases, refusals):
    """Refusals: the first line of stderr, and find must say something;
    otherwise all of stderr, which may be empty."""
    for locale in ("C", "C.UTF-8"):
        env = {"LC_ALL": locale}
        for args in cases:
            want = run([FIND] + args, env=env, cwd=tmp)
            got = run([UFIND] + args, env=env, cwd=tmp)
            # Without the program's name ("/usr/bin/find: ", "ufind: ").
            want_lines, got_lines = ([line.split(b": ", 1)[-1] for line in out.split(b"\n")]
                                     for out in (want.stderr, got.stderr))
            if refusals:
                want_lines, got_lines = want_lines[:1], got_lines[:1]
            label = f"LC_ALL={locale} {shlex.join(args)}"
            check(f"{label}: find's message",
                  want_lines == got_lines and (bool(want.stderr) or not refusals),
                  f"find {want_lines!r}, ufind {got_lines!r}")
            check(f"{label}: find's status", want.returncode == got.returncode,
                  f"find {want.returncode}, ufind {got.returncode}")


def test_refusals_match_find(tmp):
    os.mkdir(os.path.join(tmp, "d"))
    cases = [["d"] + words for words in REFUSED_COMMAND_LINES]
    cases += [["-D", "foo", "d", "-quit"], ["d", "-files0-from", "x"],
              ["-files0-from", "nonexist"]]
    expect_find_messages(tmp, cases, refusals=True)


def test_warnings_match_find(tmp):
    os.mkdir(os.path.join(tmp, "d"))
    expect_find_messages(tmp, [["d"] + words for words in WARNED_COMMAND_LINES],
                         refusals=False)


# -------------------------------------------------------------- prompts

def test_prompts(tmp):
    """-ok and -okdir ask about the file by its path, as find does, though
    -okdir's command gets ./NAME; the answers come from stdin."""
    os.makedirs(os.path.join(tmp, "d1", "d2"))
    for action in ("-ok", "-okdir"):
        args = ["d1/d2", "-maxdepth", "0", action, "echo", "{}", ";"]
        want = subprocess.run([FIND] + args, capture_output=True, cwd=tmp, input=b"y\n")
        got = subprocess.run([UFIND] + args, capture_output=True, cwd=tmp, input=b"y\n")
        check(f"{action}: find's prompt", got.stderr == want.stderr,
              f"find {want.stderr!r}, ufind {got.stderr!r}")
        check(f"{action}: the command ran as under find",
              got.stdout == want.stdout and got.returncode == want.returncode == 0,
              f"find {want.stdout!r}, ufind {got.stdout!r}")


def main():
    global UFIND
    parser = argparse.ArgumentParser()
    parser.add_argument("--ufind", required=True)
    UFIND = os.path.abspath(parser.parse_args().ufind)
    with tempfile.TemporaryDirectory(prefix="ufind-ux-") as tmp:
        for test in (test_colors, test_bfs_color_rules, test_color_quotes_printf_names,
                     test_color_choice,
                     test_terminal_escaping, test_json,
                     test_status, test_errors, test_refusals_match_find,
                     test_warnings_match_find, test_prompts):
            directory = os.path.join(tmp, test.__name__)
            os.mkdir(directory)
            test(directory)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
