"""Differential cases for the whole find language (GitHub issue 4).

A data module for differential.py: `CASES` is a list of dicts

    {"name": str,              # unique, says what behaviour it protects
     "args": [...],            # argv after the program name; "ROOT" alone or
                               # as the prefix "ROOT/..." is the tree's path
     "error": bool,            # optional: a command-line error (status 1,
                               # empty stdout, a message on stderr)
     "print0": bool,           # optional: records are NUL-separated
     "tree_after": bool,       # optional: the command changes the tree
     "stdin": bytes,           # optional: what the programs read on stdin
                               # (answers to -ok); default /dev/null
     "stdin_file": str,        # optional: stdin from this file ("ROOT/...")
     "same_stderr": bool}      # optional: stderr must be find's, word for
                               # word, with "ufind: " for "find: "

and `build_extra(root)` adds to the suite's base tree (built by
differential.build_tree) what these cases need, under ROOT/meta, ROOT/perm,
ROOT/times, ROOT/own, ROOT/rx and ROOT/del.  Call it right after build_tree.

How the runner treats the flags:

* Every case runs from the tree's parent directory, with LC_ALL=C and TZ=UTC
  in the environment (TZ fixes what %t, %T+ and -ls print), and stdin from
  /dev/null unless "stdin" is given.
* Sorted stdout records, exit status and stderr emptiness are compared as
  for the main suite.
* "tree_after": True marks cases that delete files or whose -exec commands
  change the tree.  The runner must NOT run them on the shared tree: for each
  program it copies the whole tree (shutil.copytree(tree, COPY, symlinks=True)
  followed by copying the mode and times of every entry, i.e. copy2, and the
  fifo/socket/devices recreated or skipped consistently for both copies),
  substitutes COPY for ROOT in args, runs the program, then records
  `find COPY -printf '%P %y %s\\n' | sort` (GNU find, always) and compares
  those listings as well as stdout (with COPY replaced by a fixed token in
  both outputs) and the exit status.  Both copies are removed afterwards.
  The reference runner used while writing these cases, which does all this,
  is run_language_cases() below.

Times: files under ROOT/times get fixed timestamps (os.utime) relative to the
moment build_extra runs, half a unit away from every boundary the cases test,
so that the few seconds between runs cannot move a file across a boundary.
Absolute times (2001-02-03 04:05:06 UTC and so on) are used for printing.

Deliberate differences from GNU find that the cases avoid:
* birth times (-newerBt, %B): GNU find 4.9 uses stat(), has no birth time and
  refuses -newerXB; ufind reads it with statx.  Not compared.
* --help and --version print ufind's own text.  Not compared.
* -O4 and above: GNU accepts any level (as 3); ufind refuses them, as
  tests/unit/parse_test.cpp requires.  Not compared.
* -ls's owner column: GNU widens it by one for the rest of the run after
  printing an owner without a name; ufind does the same, but which lines
  come after depends on walk order.  Cases list named and unnamed owners
  separately.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import tempfile
import time

# ----------------------------------------------------------------------------
# The extra tree
# ----------------------------------------------------------------------------

FIXED = 981173106          # 2001-02-03 04:05:06 UTC
FIXED_ACCESS = 1000000000  # 2001-09-09 01:46:40 UTC
DAY = 86400


def build_extra(root: str) -> None:
    def path(rel: str) -> str:
        return os.path.join(root, rel)

    def write(rel: str, data: bytes = b"", mode: int | None = None) -> None:
        os.makedirs(os.path.dirname(path(rel)), exist_ok=True)
        with open(path(rel), "wb") as f:
            f.write(data)
        if mode is not None:
            os.chmod(path(rel), mode)

    # Sizes: every -size boundary of every unit.
    for size in (0, 1, 2, 3, 511, 512, 513, 1023, 1024, 1025, 4096,
                 1024 * 1024 - 1, 1024 * 1024, 1024 * 1024 + 1):
        write(f"meta/size_{size}", b"x" * size)
    # Sparse: 3 MiB apparent, one block written.
    with open(path("meta/sparse"), "wb") as f:
        f.truncate(3 * 1024 * 1024)
        f.seek(1024 * 1024)
        f.write(b"data")
    os.makedirs(path("meta/empty_dir"))
    os.makedirs(path("meta/full_dir/inner"))
    write("meta/full_dir/inner/file", b"content")
    # A link whose target goes through a regular file (ENOTDIR): as broken
    # as one whose target is missing, except under -L, where it is an error.
    write("notdir/file")
    os.symlink("file/x", path("notdir/through_file"))
    # Hard links: three names for one inode.
    write("meta/hl_one", b"linked")
    os.link(path("meta/hl_one"), path("meta/hl_two"))
    os.link(path("meta/hl_one"), path("meta/full_dir/hl_three"))
    # Links whose targets -lname and %l look at.
    os.symlink("size_1", path("meta/ln_to_size1"))
    os.symlink("../meta/full_dir", path("meta/ln_to_dir"))
    os.symlink("does/not/EXIST", path("meta/ln_dangling"))
    os.symlink("/absolute/Target.txt", path("meta/ln_absolute"))
    os.symlink("hl_one", path("meta/ln_to_hl"))
    os.mkfifo(path("meta/fifo"))

    # Permission bits: one file or directory per interesting mode.
    perm_files = {
        "f000": 0o000, "f111": 0o111, "f222": 0o222, "f444": 0o444,
        "f600": 0o600, "f640": 0o640, "f644": 0o644, "f664": 0o664,
        "f666": 0o666, "f700": 0o700, "f711": 0o711, "f750": 0o750,
        "f755": 0o755, "f777": 0o777, "f4755": 0o4755, "f2755": 0o2755,
        "f1755": 0o1755, "f6777": 0o6777, "f4644": 0o4644, "f2644": 0o2644,
        "f7000": 0o7000, "f070": 0o070, "f007": 0o007, "f100": 0o100,
    }
    for name, mode in perm_files.items():
        write(f"perm/{name}", name.encode())
        os.chmod(path(f"perm/{name}"), mode)
    for name, mode in {"d755": 0o755, "d700": 0o700, "d1777": 0o1777,
                       "d2775": 0o2775, "d644": 0o644, "d000": 0o000}.items():
        os.makedirs(path(f"perm/{name}"))
        os.chmod(path(f"perm/{name}"), mode)

    # Owners: ids with and without names (root may chown anything).
    write("own/root_file", b"r")
    write("own/daemon_file", b"d")
    write("own/nobody_file", b"n")
    write("own/nouser_file", b"u")
    write("own/nogroup_file", b"g")
    write("own/neither_file", b"x")
    try:
        os.chown(path("own/daemon_file"), 1, 1)
        os.chown(path("own/nobody_file"), 65534, 65534)
        os.chown(path("own/nouser_file"), 12345, 0)
        os.chown(path("own/nogroup_file"), 0, 54321)
        os.chown(path("own/neither_file"), 23456, 65432)
    except PermissionError:
        pass

    # Times: (name, mtime, atime) relative to now, mid-unit; and absolute.
    now = time.time()
    relative = {
        "t_30s": 30, "t_90s": 90, "t_5m30": 330, "t_59m30": 3570,
        "t_1h30": 5400, "t_12h": 12 * 3600, "t_1d12h": 1.5 * DAY,
        "t_2d12h": 2.5 * DAY, "t_3d12h": 3.5 * DAY, "t_10d12h": 10.5 * DAY,
        "t_400d": 400.5 * DAY,
    }
    for name, age in relative.items():
        write(f"times/{name}", name.encode())
        # Access later than modification by half the age: -atime and -mtime
        # see different ages.
        os.utime(path(f"times/{name}"), (now - age / 2, now - age))
    write("times/t_future", b"future")
    os.utime(path("times/t_future"), (now + 2.5 * DAY, now + 2.5 * DAY))
    write("times/fixed", b"fixed")
    os.utime(path("times/fixed"), ns=(FIXED_ACCESS * 10**9 + 123456789,
                                      FIXED * 10**9 + 987654321))
    write("times/fixed_whole", b"w")
    os.utime(path("times/fixed_whole"), (FIXED_ACCESS, FIXED))
    write("times/y1999", b"old")
    os.utime(path("times/y1999"), (915148800, 915148800))  # 1999-01-01
    write("times/y2020", b"newer")
    os.utime(path("times/y2020"), (1590000000, 1590000000))  # 2020-05-20
    write("times/reference", b"ref")
    os.utime(path("times/reference"), (now - 2 * DAY, now - 2 * DAY))
    os.symlink("reference", path("times/ref_link"))
    os.utime(path("times/ref_link"), (now - 5 * DAY, now - 5 * DAY),
             follow_symlinks=False)
    # -used: access after change by 0.5 and 1.5 days (change is now).
    write("times/used_half", b"u")
    os.utime(path("times/used_half"), (now + 0.5 * DAY, now - DAY))
    write("times/used_1d12", b"u")
    os.utime(path("times/used_1d12"), (now + 1.5 * DAY, now - DAY))

    # Regex material: names each dialect treats differently.
    for name in ("abc", "abbbc", "ac", "a+c", "a{2}c", "aac", "a|c", "(ac)",
                 "ABC", "a.c", "a\nc", "x1.txt", "x22.txt", "README"):
        write(f"rx/{name}", b"r")

    # Trees for -delete and -exec cases that change things.
    for rel in ("del/keep.txt", "del/drop.tmp", "del/sub/a.tmp", "del/sub/b.txt",
                "del/sub/deeper/c.tmp", "del/only_tmp/x.tmp",
                "del/with space.tmp", "del/sub2/file"):
        write(rel, rel.encode())
    os.makedirs(path("del/empty_one"))
    os.makedirs(path("del/empty_two/empty_three"))

    # Fix the times of the directories last, after their contents.
    for rel in ("meta/empty_dir", "meta/full_dir/inner", "meta/full_dir"):
        os.utime(path(rel), (FIXED_ACCESS, FIXED))


# ----------------------------------------------------------------------------
# Cases
# ----------------------------------------------------------------------------

CASES: list[dict] = []


def case(name: str, *args: str, **flags) -> None:
    entry = {"name": name, "args": list(args)}
    entry.update(flags)
    CASES.append(entry)


def err(name: str, *args: str) -> None:
    case(name, *args, error=True)


# A width or precision above INT_MAX: find's printf fails with EOVERFLOW for
# every file, naming the output, and exits 1; the rest of the format prints.
case("printf_width_overflow_is_an_error", "ROOT/a", "-printf", "<%2147483648p>\n",
     same_stderr=True)
case("printf_precision_overflow_is_an_error", "ROOT/a", "-printf", "%.2147483648p\n",
     same_stderr=True)
case("fprintf_width_overflow_names_the_file", "ROOT/a", "-fprintf", "/dev/null",
     "%2147483648p\n", same_stderr=True)

# -size counts find can hold however many bytes they make (issue 37), and
# -mtime and the other age tests take inf, as find does (issue 39).
for value in ("9223372036854775807", "18446744073709551615"):
    for unit in ("", "c", "k", "G"):
        for sign in ("", "+", "-"):
            case(f"size_huge_{sign or 'eq'}{value[:4]}{unit}", "ROOT/meta", "-size",
                 sign + value + unit)
err("size_beyond_uintmax", "ROOT/meta", "-size", "18446744073709551616")
for test in ("-mtime", "-atime", "-ctime", "-mmin", "-amin", "-cmin", "-used"):
    for amount in ("inf", "+inf", "-inf", "-infinity", "+INF"):
        case(f"age_infinite_{test[1:]}_{amount}", "ROOT/times", test, amount)
err("age_out_of_range", "ROOT/times", "-mtime", "1e400")

# -size: every unit, sign and boundary.
for unit in ("", "c", "w", "b", "k", "M", "G"):
    for value in ("0", "1", "2", "3", "511", "512", "513", "1024"):
        for sign in ("", "+", "-"):
            if unit in ("M", "G") and value not in ("0", "1", "2", "3"):
                continue
            arg = f"{sign}{value}{unit}"
            label = {"": "eq", "+": "gt", "-": "lt"}[sign]
            case(f"size_{label}_{value}{unit or 'blocks'}", "ROOT/meta", "-size", arg)
case("size_whole_tree_nonzero", "ROOT", "-size", "+0c")
case("size_sparse_file_by_apparent_size", "ROOT/meta", "-size", "+2M")
case("size_with_blank_after_sign", "ROOT/meta", "-size", "+ 1k")
err("size_invalid_unit", "ROOT", "-size", "3q")
err("size_not_a_number", "ROOT", "-size", "x")
err("size_fraction", "ROOT", "-size", "1.5k")
err("size_empty_argument", "ROOT", "-size", "")
err("size_sign_only", "ROOT", "-size", "+")
err("size_overflow", "ROOT", "-size", "99999999999999999999")
err("size_missing_argument", "ROOT", "-size")

# -empty
case("empty_files_and_dirs", "ROOT", "-empty")
case("empty_negated", "ROOT/meta", "!", "-empty")
case("empty_type_d", "ROOT", "-type", "d", "-empty")
case("empty_follow_links", "-L", "ROOT/meta", "-empty")
case("empty_on_special_files", "ROOT/special", "-empty")

# -links -inum -samefile
for arg in ("1", "2", "3", "+1", "-2", "+2", "-1", "0"):
    case(f"links_{arg}", "ROOT/meta", "-links", arg)
case("links_whole_tree_hard_links", "ROOT", "-type", "f", "-links", "+1")
err("links_invalid", "ROOT", "-links", "x")
err("links_trailing_garbage", "ROOT", "-links", "1x")
err("inum_invalid", "ROOT", "-inum", "-x")
case("samefile_finds_hard_links", "ROOT", "-samefile", "ROOT/meta/hl_one")
case("samefile_base_tree_hard_links", "ROOT", "-samefile", "ROOT/hard/orig.txt")
case("samefile_symlink_reference_not_followed", "ROOT/meta", "-samefile", "ROOT/meta/ln_to_hl")
case("samefile_symlink_reference_followed_with_L", "-L", "ROOT/meta", "-samefile",
     "ROOT/meta/ln_to_hl")
case("samefile_directory", "ROOT", "-samefile", "ROOT/meta/full_dir")
err("samefile_missing_reference", "ROOT", "-samefile", "ROOT/nope")
case("inum_of_reference_via_printf_roundtrip", "ROOT/meta", "-links", "3", "-printf", "%n %f\n")

# -perm
for mode in ("644", "755", "600", "4755", "0", "000", "7000", "1777", "2775", "0644",
             "u=rw,g=r,o=r", "u=rwx,go=rx", "a=r", "u=rw", "ug=rw,o=", "a+x", "u+s",
             "g+s", "+t", "o=t", "u=rwx,g=rx,o=rx,u+s", "ugo=rwx", "a=rwx,+s,+t", "="):
    for prefix in ("", "-", "/"):
        label = {"": "exact", "-": "all", "/": "any"}[prefix]
        case(f"perm_{label}_{mode}", "ROOT/perm", "-perm", prefix + mode)
for mode in ("u+x", "g+w", "o+r", "u=rX", "a+X", "go-w", "u=g", "g=u", "o=u",
             "u+r,g+w,o+x", "u=rw,go=u", "a-rwx", "ug+rw-x", "u=rwx,g=u-w"):
    case(f"perm_all_symbolic_{mode}", "ROOT/perm", "-perm", "-" + mode)
    case(f"perm_any_symbolic_{mode}", "ROOT/perm", "-perm", "/" + mode)
case("perm_any_zero_matches_everything", "ROOT/perm", "-perm", "/000")
case("perm_all_zero_matches_everything", "ROOT/perm", "-perm", "-000")
case("perm_plus_is_symbolic_now", "ROOT/perm", "-perm", "+x")
case("perm_whole_tree_setuid", "ROOT", "-perm", "/6000")
case("perm_directories_X", "ROOT/perm", "-type", "d", "-perm", "-a+X")
for bad in ("999", "u+q", "-", "/", "", "8", "u", "a=r,", ",a=r", "07777777", "x+r"):
    err(f"perm_invalid_{bad or 'empty'}", "ROOT", "-perm", bad)

# -user -group -uid -gid -nouser -nogroup
case("user_root", "ROOT/own", "-user", "root")
case("user_daemon", "ROOT/own", "-user", "daemon")
case("user_by_number", "ROOT/own", "-user", "1")
case("user_unknown_number", "ROOT/own", "-user", "12345")
# A numeric id is at most INT_MAX, however many digits (find: ERANGE).
for test in ("-user", "-group"):
    case(f"{test[1:]}_id_int_max", "ROOT/own", test, "2147483647")
    case(f"{test[1:]}_id_leading_zeros", "ROOT/own", test, "0000000000000000000000000001")
    for id in ("2147483648", "4294967295", "18446744073709551616", "9" * 30):
        err(f"{test[1:]}_id_out_of_range_{id[:12]}", "ROOT/own", test, id)
case("group_root", "ROOT/own", "-group", "root")
case("group_nogroup", "ROOT/own", "-group", "nogroup")
case("group_by_number", "ROOT/own", "-group", "54321")
for arg in ("0", "1", "+0", "-1", "+1000", "-65535", "12345", "65534"):
    case(f"uid_{arg}", "ROOT/own", "-uid", arg)
    case(f"gid_{arg}", "ROOT/own", "-gid", arg)
case("nouser", "ROOT/own", "-nouser")
case("nogroup", "ROOT/own", "-nogroup")
case("nouser_or_nogroup", "ROOT/own", "-nouser", "-o", "-nogroup")
case("nouser_whole_tree", "ROOT", "-nouser")
err("user_unknown_name", "ROOT", "-user", "no_such_user_xyz")
err("user_empty", "ROOT", "-user", "")
err("group_unknown_name", "ROOT", "-group", "no_such_group_xyz")
err("group_empty", "ROOT", "-group", "")
err("uid_invalid", "ROOT", "-uid", "root")
err("gid_invalid", "ROOT", "-gid", "1.5")

# -readable -writable -executable (root: read/write anything, execute x bits)
case("readable", "ROOT/perm", "-readable")
case("writable", "ROOT/perm", "-writable")
case("executable", "ROOT/perm", "-executable")
case("not_executable_files", "ROOT/perm", "-type", "f", "!", "-executable")
case("executable_dirs_whole_tree", "ROOT", "-type", "d", "-executable")
case("readable_dangling_link", "ROOT/meta", "-name", "ln_*", "-readable")

# Time tests: whole units, signs, fractions, -daystart.
for test in ("-mmin", "-amin", "-cmin"):
    for arg in ("1", "2", "-1", "+1", "-6", "+5", "5", "60", "-60", "+59", "-90", "+90",
                "0", "-0", "+0", "1.5", "-2.5"):
        case(f"time{test}_{arg}", "ROOT/times", "-type", "f", test, arg)
for test in ("-mtime", "-atime", "-ctime"):
    for arg in ("0", "1", "2", "3", "10", "-1", "-2", "-3", "+0", "+1", "+2", "+3", "+10",
                "-0", "1.5", "+1.5", "-1.5", "400", "+399"):
        case(f"time{test}_{arg}", "ROOT/times", "-type", "f", test, arg)
for arg in ("0", "1", "2", "-1", "-2", "+0", "+1", "+2"):
    case(f"daystart_mtime_{arg}", "ROOT/times", "-type", "f", "-daystart", "-mtime", arg)
case("daystart_only_affects_later_tests", "ROOT/times", "-type", "f", "-mtime", "1",
     "-daystart", "-o", "-mtime", "1")
case("daystart_twice", "ROOT/times", "-daystart", "-daystart", "-mtime", "-1")
case("mtime_future_file", "ROOT/times", "-mtime", "-1", "-name", "t_future")
err("mtime_invalid", "ROOT", "-mtime", "x")
err("mtime_trailing_garbage", "ROOT", "-mtime", "1x")
err("mmin_empty", "ROOT", "-mmin", "")
for arg in ("0", "1", "2", "-1", "-2", "+0", "+1", "-0"):
    case(f"used_{arg}", "ROOT/times", "-type", "f", "-used", arg)
err("used_invalid", "ROOT", "-used", "x")

# -newer family
case("newer_file", "ROOT/times", "-newer", "ROOT/times/reference")
case("anewer_file", "ROOT/times", "-anewer", "ROOT/times/reference")
case("cnewer_file", "ROOT/times", "-cnewer", "ROOT/times/reference")
case("newer_negated", "ROOT/times", "!", "-newer", "ROOT/times/reference")
case("newer_symlink_reference_P", "ROOT/times", "-newer", "ROOT/times/ref_link")
case("newer_symlink_reference_H", "-H", "ROOT/times", "-newer", "ROOT/times/ref_link")
case("newer_symlink_reference_L", "-L", "ROOT/times", "-newer", "ROOT/times/ref_link")
# A broken link as the reference under -H and -L: the link itself, as for
# a starting point (find's lstat fallback), not an error.
for option in ("-H", "-L"):
    for test in ("-newer", "-anewer", "-cnewer", "-newermm", "-newerca"):
        case(f"dangling_reference{test}{option}", option, "ROOT/times", test,
             "ROOT/meta/ln_dangling")
    case(f"dangling_reference-samefile{option}", option, "ROOT/meta", "-samefile",
         "ROOT/meta/ln_dangling")
case("dangling_reference-newer-follow", "ROOT/times", "-follow", "-newer", "ROOT/meta/ln_dangling")
for x in "acm":
    for y in "acm":
        case(f"newer{x}{y}", "ROOT/times", f"-newer{x}{y}", "ROOT/times/reference")
for date in ("2000-01-01", "2001-02-03", "2001-02-03 04:05", "2001-02-03 04:05:06",
             "2001-02-03 04:05:07", "2001-02-03T04:05:06", "@981173106", "@981173107",
             "@0", "2020-05-20 18:40", "2030-01-01", "1999-01-01 00:00:00",
             "2001-02-03 04:05:06.5", "@981173106.9"):
    case(f"newermt_{date}", "ROOT/times", "-newermt", date)
    case(f"newerat_{date}", "ROOT/times", "-newerat", date)
case("newerct_now_minus_day", "ROOT/times", "-newerct", "2000-01-01")
case("not_newermt_range", "ROOT/times", "-newermt", "1999-06-01", "!", "-newermt", "2021-01-01")
# Relative dates and month names (cli/values/relative_date.cpp).  Counted from each
# program's start, so the boundaries move between the two runs: each is hours
# from every file's time, except that "yesterday" falls just after the used_*
# files (changed a day before the tree was built), on the same side for both.
for date in ("yesterday", "tomorrow", "3 days ago", "1 week ago", "last month",
             "1 year ago", "2 hours ago", "Jan 1 2000", "May 20, 2020 18:40",
             "1-Jan-1999", "Feb 3 2001 04:05:06", "2001-02-02 04:05:06 1 day"):
    case(f"newermt_{date}", "ROOT/times", "-newermt", date)
    case(f"newerat_{date}", "ROOT/times", "-newerat", date)
err("newermt_number_after_month_is_the_year", "ROOT", "-newermt", "31 Jan 13:00")
err("newermt_ago_after_yesterday", "ROOT", "-newermt", "yesterday ago")
err("newermt_garbage", "ROOT", "-newermt", "garbage")
err("newermt_bad_day", "ROOT", "-newermt", "2001-02-30")
err("newer_missing_reference", "ROOT", "-newer", "ROOT/nope")
err("newerXY_bad_letters", "ROOT", "-newerxy", "ROOT")
err("newertm_is_invalid", "ROOT", "-newertm", "ROOT")
err("newer_missing_argument", "ROOT", "-newer")

# Paths and link names.
case("ipath", "ROOT", "-ipath", "*/SUB/*")
case("wholename", "ROOT", "-wholename", "*/sub/*")
case("iwholename", "ROOT", "-iwholename", "*/A/B/*.C")
case("ipath_starting_point", "ROOT/a", "-ipath", "*/A")
case("lname", "ROOT", "-lname", "*a1*")
case("lname_star_matches_all_links", "ROOT", "-lname", "*")
case("ilname", "ROOT/meta", "-ilname", "*exist")
case("lname_absolute", "ROOT/meta", "-lname", "/*")
case("lname_follow_only_broken", "-L", "ROOT/meta", "-lname", "*")
case("lname_not_on_files", "ROOT/meta", "-lname", "size*")

# -regex and -regextype.
REGEXES = ["ROOT/rx/ab*c", ".*/a.c", ".*/a\\+c", ".*/a+c", ".*/a{2}c", ".*/a\\{2\\}c",
           ".*/a|c", ".*/a\\|c", ".*/(ac)", ".*/\\(ac\\)", ".*/[[:upper:]]+",
           ".*/x[0-9]+\\.txt", ".*/x[0-9]\\+\\.txt", ".*/a.?c", ".*/a\\?c", ".*rx",
           "rx", ".*/a\\(b\\)*c", ".*/a(b)*c", ".*/a\\wc", ".*/a\\Wc", ".*/a\nc", ".*/a.c$",
           "^.*/abc", ".*/x[[:digit:]]{2}\\.txt"]
TYPES = ["emacs", "posix-basic", "posix-extended", "posix-egrep", "posix-awk", "grep",
         "egrep", "findutils-default", "ed", "sed", "gnu-awk", "awk", "posix-minimal-basic"]
for index, rx in enumerate(REGEXES):
    case(f"regex_default_{index}", "ROOT/rx", "-regex", rx)
    case(f"iregex_default_{index}", "ROOT/rx", "-iregex", rx.replace("ab", "AB"))
    for kind in TYPES:
        case(f"regex_{kind}_{index}", "ROOT/rx", "-regextype", kind, "-regex", rx)
case("regex_is_anchored_whole_path", "ROOT", "-regex", "abc")
case("regex_matches_across_slashes", "ROOT", "-regex", ".*/b/.*\\.c")
case("regextype_applies_to_later_only", "ROOT/rx", "-regex", ".*/a+c", "-o",
     "-regextype", "posix-extended", "-regex", ".*/a+c")
err("regextype_unknown", "ROOT", "-regextype", "perl")
err("regex_missing_argument", "ROOT", "-regex")
err("regex_invalid_posix_extended", "ROOT", "-regextype", "posix-extended", "-regex", "(")
err("regex_invalid_bracket", "ROOT", "-regex", "[")

# -fstype, -context
case("fstype_of_tree", "ROOT", "-maxdepth", "0", "-printf", "%F\n")
case("fstype_nonexistent_type", "ROOT", "-fstype", "nosuchfs")
case("fstype_matches_printf", "ROOT/a", "-fstype", "ext4", "-o", "-fstype", "tmpfs",
     "-o", "-fstype", "overlay", "-o", "-fstype", "xfs", "-o", "-fstype", "btrfs")
err("context_unsupported", "ROOT", "-context", "x")

# -printf directives and flags.
FIELDS = ["%p", "%f", "%h", "%P", "%H", "%d", "%D", "%s", "%b", "%k", "%m", "%M", "%l",
          "%y", "%Y", "%i", "%n", "%u", "%g", "%U", "%G", "%S", "%F"]
for field in FIELDS:
    case(f"printf_{field[1]}", "ROOT", "-printf", field + "\\n")
    case(f"printf_{field[1]}_flags", "ROOT/meta", "-printf",
         f"[{field[0]}-12{field[1]}|{field[0]}12{field[1]}|{field[0]}.3{field[1]}|"
         f"{field[0]}05{field[1]}|{field[0]}+6{field[1]}|{field[0]} 4{field[1]}|"
         f"{field[0]}#8{field[1]}]\\n")
for timefield in "act":
    case(f"printf_{timefield}_fixed", "ROOT/times", "-name", "fixed*", "-printf",
         f"%{timefield}\\n")
for letter in "aAbBcCdDeFgGhHIjklmMnprRsStTuUVwWxXyYzZ@+":
    case(f"printf_T{letter}", "ROOT/times", "-name", "fixed*", "-printf",
         f"%T{letter}|%A{letter}\\n")
case("printf_time_flags", "ROOT/times", "-name", "fixed", "-printf", "[%-30T+|%12TY|%.4t]\\n")
case("printf_escapes", "ROOT/a", "-maxdepth", "0", "-printf",
     "\\a\\b\\f\\r\\v\\t\\\\|\\0|\\101\\1012\\7|%%\\n")
case("printf_stop_escape", "ROOT/a", "-maxdepth", "0", "-printf", "%f\\c ignored %p\\n")
case("printf_stop_escape_ends_only_this_record", "ROOT/a", "ROOT/e", "-maxdepth", "0",
     "-printf", "%f\\c ignored\\n", "-printf", "\\n")
case("printf_unknown_escape_warns", "ROOT/a", "-maxdepth", "0", "-printf", "\\q\\n")
case("printf_unknown_directive_warns", "ROOT/a", "-maxdepth", "0", "-printf", "%q %*\\n")
case("printf_trailing_backslash_warns", "ROOT/a", "-maxdepth", "0", "-printf", "x\\")
case("printf_time_without_letter_warns", "ROOT/a", "-maxdepth", "0", "-printf", "%T")
case("printf_nul_separated", "ROOT/names", "-printf", "%f\\0", print0=True)
case("printf_no_newline_at_end", "ROOT/a", "-maxdepth", "0", "-printf", "%p")
case("printf_depth_and_relative", "ROOT/a", "-printf", "%d %P\\n")
case("printf_several_starting_points", "ROOT/a", "ROOT/sub", "ROOT/e", "-printf", "%H|%P\\n")
case("printf_starting_point_trailing_slash", "ROOT/sub/", "-printf", "%H|%P|%h|%f\\n")
# Several trailing slashes: %f and -execdir's {} keep one, as gnulib's
# base_name does.
for suffix, label in (("//", "two"), ("///", "three")):
    case(f"printf_f_starting_point_{label}_slashes", f"ROOT/sub{suffix}", "-maxdepth", "0",
         "-printf", "%f|%p\\n")
    case(f"execdir_starting_point_{label}_slashes", f"ROOT/sub{suffix}", "-maxdepth", "0",
         "-execdir", "echo", "{}", ";")
case("printf_mindepth_starting_points", "ROOT/a", "ROOT/e", "-mindepth", "1",
     "-printf", "%H %P\\n")
# %h, %f and %p of starting points with trailing slashes: find keeps all
# but one slash of a one-character name's (".//" has %h "./").
case("printf_h_f_p_one_character_starting_points_with_slashes", ".", "./", ".//", "..",
     "..//", "/", "//", "///", "-maxdepth", "0", "-printf", "[%h][%f][%p]\\n")
case("printf_h_f_p_starting_points_with_slashes", "ROOT/", "ROOT//", "ROOT/a/", "ROOT/a//",
     "ROOT/a/.//", "-maxdepth", "0", "-printf", "[%h][%f][%p][%P]\\n")
case("printf_h_f_p_below_starting_points_with_slashes", "ROOT/a//", "ROOT/a/.//",
     "-maxdepth", "1", "-printf", "[%h][%f][%p][%P]\\n")
case("printf_follow_types", "-L", "ROOT/links", "-printf", "%y %Y %p\\n")
case("printf_type_letters", "ROOT", "-printf", "%y%Y %p\\n")
case("printf_link_targets", "ROOT/meta", "-printf", "%p -> %l\\n")
case("printf_sparseness", "ROOT/meta", "-type", "f", "-name", "s*", "-printf", "%S %s %f\\n")
case("printf_perm_modes", "ROOT/perm", "-printf", "%m %#m %M %f\\n")
case("printf_owners", "ROOT/own", "-printf", "%u %g %U %G %f\\n")
case("printf_names_with_odd_bytes", "ROOT/names", "-printf", "[%f]\\n")
case("printf_relative_dot", "ROOT", "-maxdepth", "1", "-printf", "%h/%f\\n")
err("printf_reserved_directive", "ROOT", "-printf", "%{")
err("printf_reserved_bracket", "ROOT", "-printf", "%[")
err("printf_percent_at_end", "ROOT", "-printf", "abc%")
err("printf_missing_format", "ROOT", "-printf")
case("printf_selinux_context_fails", "ROOT/a", "-maxdepth", "0", "-printf", "%Z\\n")

# -fprint -fprint0 -fprintf -ls -fls: the file's contents are checked by
# printing them after the run (the same path for both programs).
case("fprint_to_dev_stdout", "ROOT/a", "-fprint", "/dev/stdout")
case("fprint0_to_dev_stdout", "ROOT/a", "-fprint0", "/dev/stdout", print0=True)
case("fprintf_to_dev_stdout", "ROOT/a", "-fprintf", "/dev/stdout", "%f %s\\n")
case("fprint_to_file_prints_nothing", "ROOT/a", "-fprint", "ROOT/../fprint_out.txt")
case("fprint_and_print_mixed", "ROOT/a", "-fprint", "/dev/stdout", "-print")
case("fprint_same_file_twice_shared", "ROOT/sub", "-fprint", "/dev/stdout",
     "-fprint", "/dev/stdout")
case("fls_to_dev_stdout", "ROOT/meta", "-fls", "/dev/stdout")
err("fprint_unwritable", "ROOT", "-fprint", "ROOT/nope/x")
err("fprint_missing_argument", "ROOT", "-fprint")
err("fprintf_missing_format", "ROOT", "-fprintf", "/dev/stdout")
case("ls_meta", "ROOT/meta", "-ls")
case("ls_perm", "ROOT/perm", "-ls")
# Owners with names only: after an owner without a name GNU widens the owner
# column for the rest of the run, so what follows depends on walk order.
case("ls_own_named", "ROOT/own", "!", "-nouser", "-ls")
case("ls_own_unnamed_only", "ROOT/own", "-nouser", "-ls")
case("ls_times", "ROOT/times", "-ls")
case("ls_links_and_specials", "ROOT/links", "ROOT/special", "-ls")
case("ls_odd_names", "ROOT/names", "-ls")
case("ls_is_an_action", "ROOT/meta", "-name", "size_1*", "-ls")

# -exec and -execdir (no change to the tree).
case("exec_echo_each", "ROOT/a", "-exec", "echo", "{}", ";")
case("exec_placeholder_inside_words", "ROOT/a", "-exec", "echo", "x{}y", "{}{}", ";")
case("exec_result_is_command_status", "ROOT/a", "-exec", "test", "-d", "{}", ";", "-print")
case("exec_false_prints_nothing_status_0", "ROOT/a", "-exec", "false", ";", "-print")
case("exec_batch_one_line_per_file", "ROOT/a", "-exec", "printf", "%s\\n", "{}", "+")
case("exec_batch_whole_tree", "ROOT", "-exec", "printf", "[%s]\\n", "{}", "+")
case("exec_batch_failure_sets_status", "ROOT/a", "-exec", "false", "{}", "+")
case("exec_batch_is_true", "ROOT/a", "-exec", "true", "{}", "+", "-print")
case("exec_missing_command_reports", "ROOT/a", "-maxdepth", "0", "-exec",
     "no_such_command_xyz", "{}", ";")
case("exec_missing_command_batch_status_1", "ROOT/a", "-maxdepth", "0", "-exec",
     "no_such_command_xyz", "{}", "+")
case("exec_output_order_after_print", "ROOT/a/b/c", "-print", "-exec", "echo", "run", "{}", ";")
case("exec_with_quit", "ROOT/a", "-maxdepth", "0", "-exec", "printf", "%s\\n", "{}", "+", "-quit")
case("exec_plus_literal_argument", "ROOT/a", "-maxdepth", "0", "-exec", "echo", "+", ";")
case("exec_killed_by_signal", "ROOT/a", "-maxdepth", "0", "-exec", "sh", "-c", "kill -9 $$", ";")
case("execdir_each", "ROOT/a", "-execdir", "echo", "{}", ";")
case("execdir_pwd", "ROOT/a/b", "-type", "f", "-execdir", "pwd", ";")
case("execdir_batch_per_directory", "ROOT/a", "-execdir", "printf", "%s\\n", "{}", "+")
case("execdir_starting_point_trailing_slash", "ROOT/a/", "-maxdepth", "0",
     "-execdir", "echo", "{}", ";")
case("execdir_sh_sees_directory", "ROOT/sub", "-name", "*.txt", "-execdir", "sh", "-c",
     "echo \"$(basename \"$PWD\")\" \"$1\"", "sh", "{}", ";")
err("exec_missing_terminator", "ROOT", "-exec", "echo", "{}")
err("exec_missing_command", "ROOT", "-exec", ";")
err("exec_plus_not_after_placeholder", "ROOT", "-exec", "echo", "{}", "x", "+")
err("execdir_two_placeholders_batch", "ROOT", "-execdir", "echo", "{}", "{}", "+")
err("exec_two_placeholders_batch", "ROOT", "-exec", "echo", "{}", "{}", "+")
err("ok_has_no_batch_form", "ROOT", "-ok", "echo", "{}", "+")
err("exec_nothing", "ROOT", "-exec")
for action in ("-exec", "-execdir", "-ok", "-okdir"):
    case(f"{action[1:]}_only_terminator_is_invalid_argument", "ROOT", action, ";",
         error=True, same_stderr=True)
case("unbalanced_open_paren_words", "ROOT", "(", "-print", error=True, same_stderr=True)
# find's printf flags are "-+ #"; a 0 starts the width.
case("printf_zero_before_plus_is_unknown_directive", "ROOT/a", "-printf", "%0+10s\n",
     same_stderr=True)
case("printf_zero_after_minus_is_unknown_directive", "ROOT/a", "-printf", "[%-010s|%00-5s]\n",
     same_stderr=True)

# -ok and -okdir, answers from stdin.
case("ok_yes", "ROOT/a/b/c", "-ok", "echo", "ran", "{}", ";", stdin=b"y\nyes\nY\ny\ny\ny\ny\nyy\ny\n")
case("ok_no", "ROOT/a/b/c", "-ok", "echo", "ran", "{}", ";", stdin=b"n\nno\nN\n\n\n\n\n")
case("ok_eof_means_no", "ROOT/a/b/c", "-ok", "echo", "ran", "{}", ";")
case("ok_result_drives_print", "ROOT/a/b/c", "-maxdepth", "0", "-ok", "true", ";", "-print",
     stdin=b"y\n")
case("okdir_yes", "ROOT/a/b/c", "-maxdepth", "0", "-okdir", "pwd", ";", stdin=b"y\n")
err("files0_from_stdin_with_ok", "-files0-from", "-", "-ok", "echo", ";")

# -delete and -exec that change the tree.
case("delete_tmp_files", "ROOT/del", "-name", "*.tmp", "-delete", tree_after=True)
case("delete_whole_subtree", "ROOT/del/sub", "-delete", tree_after=True)
case("delete_empty_dirs", "ROOT/del", "-type", "d", "-empty", "-delete", tree_after=True)
case("delete_prints_with_print", "ROOT/del", "-name", "*.tmp", "-delete", "-print",
     tree_after=True)
case("delete_nonempty_dir_fails", "ROOT/del", "-name", "sub", "-delete", tree_after=True)
case("delete_with_explicit_depth_and_prune", "ROOT/del", "-depth", "-name", "sub", "-prune",
     "-o", "-name", "*.tmp", "-delete", tree_after=True)
case("delete_false_branch_keeps", "ROOT/del", "-false", "-delete", tree_after=True)
case("delete_everything", "ROOT/del", "-mindepth", "1", "-delete", tree_after=True)
err("delete_with_prune_refused", "ROOT/del", "-name", "sub", "-prune", "-o", "-delete")
case("exec_rm_batch", "ROOT/del", "-name", "*.txt", "-exec", "rm", "{}", "+", tree_after=True)
case("exec_touch_each", "ROOT/del/sub", "-type", "d", "-exec", "touch", "{}/new", ";",
     tree_after=True)
case("execdir_rm", "ROOT/del", "-name", "*.tmp", "-execdir", "rm", "{}", ";", tree_after=True)
case("execdir_mkdir", "ROOT/del", "-type", "d", "-name", "sub*", "-execdir", "mkdir",
     "{}.copy", ";", tree_after=True)

# -files0-from
case("files0_from_file", "-files0-from", "ROOT/../files0.list")
case("files0_from_with_expression", "-files0-from", "ROOT/../files0.list", "-name", "*.c")
case("files0_from_missing_file", "-files0-from", "ROOT/../no_such_list")
err("files0_from_with_starting_point", "ROOT", "-files0-from", "ROOT/../files0.list")
case("files0_from_stdin", "-files0-from", "-", "-maxdepth", "1",
     stdin=b"ROOT/a\0ROOT/e\0")
case("files0_from_empty_entry_reported", "-files0-from", "-", "-maxdepth", "0",
     stdin=b"ROOT/a\0\0ROOT/e\0")
case("files0_from_empty_input", "-files0-from", "-", stdin=b"")
case("files0_from_directory_is_a_read_error", "-files0-from", "ROOT", "-print",
     same_stderr=True)
case("files0_from_stdin_directory_is_a_read_error", "-files0-from", "-",
     stdin_file="ROOT", same_stderr=True)
case("files0_from_proc_mem_is_a_read_error", "-files0-from", "/proc/self/mem",
     same_stderr=True)
case("files0_from_stray_paren_is_a_name", "-files0-from", "-", "-maxdepth", "0",
     stdin=b"ROOT/a\0)\0", same_stderr=True)
case("files0_from_stdin_empty_name_is_standard_input", "-files0-from", "-",
     stdin=b"\0ROOT/a\0", same_stderr=True)
case("files0_from_same_file_as_ok_answers_refused", "-files0-from", "ROOT/../files0.list",
     "-ok", "echo", ";", stdin_file="ROOT/../files0.list", same_stderr=True)

# Options after tests, -O levels, argument errors.
case("options_after_test_warn_on_tty", "ROOT/a", "-name", "x", "-depth", tty=True)
case("xdev_after_test_warns_on_tty", "ROOT/a", "-type", "f", "-xdev", tty=True)
case("d_option_deprecated_on_tty", "ROOT/a", "-d", tty=True)
case("options_after_test_silent_without_tty", "ROOT/a", "-name", "x", "-depth")
case("daystart_after_test_no_warning", "ROOT/a", "-name", "x", "-daystart", tty=True)
case("regextype_after_test_no_warning", "ROOT/a", "-name", "x", "-regextype", "emacs", tty=True)
for level in ("0", "1", "2", "3"):
    case(f"optimisation_level_O{level}", f"-O{level}", "ROOT/a", "-name", "*.c")
# Constants the optimiser folds away (cli/command/optimise.hpp): what runs must not change.
for level in ("0", "1"):
    case(f"constant_false_or_print_O{level}", f"-O{level}", "ROOT", "-false", "-o", "-print")
    case(f"constant_true_or_print_prints_nothing_O{level}", f"-O{level}", "ROOT", "-true", "-o",
         "-print")
    case(f"constant_not_true_or_name_O{level}", f"-O{level}", "ROOT", "!", "-true", "-o",
         "-name", "*.c", "-print")
    case(f"constant_name_comma_print_O{level}", f"-O{level}", "ROOT", "-maxdepth", "2",
         "-name", "*.c", ",", "-print")
    case(f"constant_quit_and_true_or_print_O{level}", f"-O{level}", "ROOT", "-quit", "-a",
         "-true", "-o", "-print")
    case(f"constant_print_and_false_or_print0_O{level}", f"-O{level}", "ROOT/a", "-print",
         "-false", "-o", "-printf", "%p!\\n")
    case(f"constant_name_false_delete_keeps_all_O{level}", f"-O{level}", "ROOT/del", "-name",
         "*", "-false", "-delete", tree_after=True)
    case(f"constant_exec_false_or_true_print_O{level}", f"-O{level}", "ROOT/a", "-exec",
         "false", ";", "-o", "-true", "-print")
err("optimisation_level_missing", "-O", "ROOT")
err("optimisation_level_not_a_number", "-Ox", "ROOT")
err("optimisation_level_trailing_garbage", "-O3x", "ROOT")

# Metadata seen through links: -H on starting points, -L everywhere.
for mode in ("-P", "-H", "-L"):
    for start in ("ROOT/meta/ln_to_size1", "ROOT/meta/ln_to_dir", "ROOT/meta/ln_dangling",
                  "ROOT/links"):
        label = start.rsplit("/", 1)[1]
        case(f"follow{mode}_size_{label}", mode, start, "-size", "-2c")
        case(f"follow{mode}_printf_{label}", mode, start, "-printf", "%y %Y %s %n %m %p\\n")
        case(f"follow{mode}_perm_{label}", mode, start, "-perm", "-444")
        case(f"follow{mode}_empty_{label}", mode, start, "-empty")
        case(f"follow{mode}_ls_{label}", mode, start, "-maxdepth", "1", "-ls")
# A link whose target goes through a regular file, and (links/) loops.
case("xtype_l_lists_link_through_file", "ROOT/notdir", "-xtype", "l")
case("xtype_f_link_through_file_no_error", "ROOT/notdir", "-xtype", "f")
case("printf_Y_link_through_file_is_N", "ROOT/notdir", "-printf", "%Y %p\\n")
case("L_type_l_link_through_file_is_an_error", "-L", "ROOT/notdir", "-type", "l")
case("L_printf_Y_link_through_file", "-L", "ROOT/notdir", "-printf", "%Y %p\\n")
case("L_xtype_l_link_through_file", "-L", "ROOT/notdir", "-xtype", "l")
for mode in ("-P", "-H", "-L"):
    case(f"starting_point_link_through_file{mode}", mode, "ROOT/notdir/through_file",
         "-printf", "%y %Y %p\\n")
case("printf_Y_loops_are_L", "ROOT/links", "-printf", "%Y %p\\n")
case("xtype_l_loops_are_errors", "ROOT/links", "-xtype", "l")
case("follow_L_loop_with_size", "-L", "ROOT/links", "-size", "+0")
case("follow_L_newer_in_links", "-L", "ROOT/links", "-newer", "ROOT/top.c")
case("depth_order_with_printf", "ROOT/a", "-depth", "-printf", "%d %p\\n")
case("combined_metadata_tests", "ROOT", "-type", "f", "-size", "-2k", "-perm", "-444",
     "-user", "root", "-links", "1", "-newermt", "2000-01-01")
case("combined_or_printf", "ROOT/meta", "(", "-size", "+1k", "-printf", "big %f\\n", ")",
     "-o", "(", "-empty", "-printf", "empty %f\\n", ")")
case("comma_with_two_printfs", "ROOT/meta", "-printf", "a %f\\n", ",", "-printf", "b %f\\n")
case("not_of_action_printf", "ROOT/a", "!", "-printf", "%f\\n")


# ----------------------------------------------------------------------------
# A runner for these cases (used while writing them; differential.py can
# import it, or do the same)
# ----------------------------------------------------------------------------

def _prepare_parent(parent: str) -> None:
    tree = os.path.join(parent, "tree")
    with open(os.path.join(parent, "files0.list"), "wb") as f:
        f.write(f"{tree}/a\0{tree}/sub/dir\0{tree}/top.c\0".encode())


def _substitute(args: list[str], tree: str) -> list[str]:
    out = []
    for a in args:
        if a == "ROOT":
            out.append(tree)
        elif a.startswith("ROOT/"):
            out.append(tree + a[4:])
        else:
            out.append(a)
    return out


def _copy_tree(src: str, dst: str) -> None:
    shutil.copytree(src, dst, symlinks=True, copy_function=shutil.copy2,
                    ignore=shutil.ignore_patterns("fifo", "sock", "chardev", "blockdev",
                                                  "locked"))


def _listing(find: str, tree: str, env: dict) -> bytes:
    out = subprocess.run([find, tree, "-printf", "%P %y %s\\n"], env=env,
                         capture_output=True).stdout
    return b"\n".join(sorted(out.split(b"\n")))


# Tests whose answer moves with the clock: a case using one is run again
# once if the two programs disagree (see run_language_cases).
RELATIVE_TIME_TESTS = {"-amin", "-atime", "-cmin", "-ctime", "-mmin", "-mtime", "-used"}


def run_language_cases(ufind: str, find: str = "find", name_filter: str = "",
                       verbose: bool = False,
                       ufind_options: list[str] | None = None) -> tuple[int, int]:
    """Builds the trees, runs every case with both programs, prints FAIL lines;
    returns (passed, failed)."""
    import differential  # the main suite: its tree and comparison rules

    env = dict(os.environ, LC_ALL="C", TZ="UTC")
    env.pop("POSIXLY_CORRECT", None)
    parent = tempfile.mkdtemp(prefix="ufind-lang-")
    tree = os.path.join(parent, "tree")
    os.mkdir(tree)
    differential.build_tree(tree)
    build_extra(tree)
    _prepare_parent(parent)
    tty_primary, tty_secondary = os.openpty()
    passed = failed = 0
    try:
        def run_both(c):
            results = []
            for program in (find, ufind):
                stdin_data = c.get("stdin")
                root = tree
                if c.get("tree_after"):
                    root = os.path.join(parent, "copy")
                    _copy_tree(tree, root)
                args = _substitute(c["args"], root)
                if stdin_data is not None:
                    stdin_data = stdin_data.replace(b"ROOT", root.encode())
                kwargs = {}
                if c.get("tty"):
                    kwargs["stdin"] = tty_secondary
                elif c.get("stdin_file"):
                    # os.open: a directory too, which Python's open() refuses.
                    stdin_fd = os.open(_substitute([c["stdin_file"]], root)[0], os.O_RDONLY)
                    kwargs["stdin"] = stdin_fd
                elif stdin_data is None:
                    kwargs["stdin"] = subprocess.DEVNULL
                else:
                    kwargs["input"] = stdin_data
                options = (ufind_options or []) if program == ufind else []
                proc = subprocess.run([program] + options + args, cwd=parent, env=env,
                                      capture_output=True, timeout=20, **kwargs)
                if c.get("stdin_file"):
                    os.close(stdin_fd)
                after = b""
                if c.get("tree_after"):
                    after = _listing(find, root, env)
                    shutil.rmtree(root)
                out = proc.stdout.replace(root.encode(), b"ROOT")
                sep = b"\0" if c.get("print0") else b"\n"
                results.append((sorted(out.split(sep)), proc.returncode,
                                bool(proc.stderr), after, proc.stderr))
            f, u = results
            problems = []
            if f[0] != u[0]:
                only_find = sorted(set(f[0]) - set(u[0]))[:12]
                only_ufind = sorted(set(u[0]) - set(f[0]))[:12]
                problems.append(f"stdout differs:\n  only find:  {only_find}\n"
                                f"  only ufind: {only_ufind}")
            if f[1] != u[1]:
                problems.append(f"status find {f[1]} ufind {u[1]}")
            if f[2] != u[2]:
                problems.append(f"stderr find {f[4][:300]!r} ufind {u[4][:300]!r}")
            if f[3] != u[3]:
                problems.append("tree after differs")
            if c.get("same_stderr"):
                # find's words, with only the program's name told apart (and
                # the blank line find 4.9 adds after some messages).
                theirs = f[4].replace(b"find: ", b"ufind: ").replace(tree.encode(), b"ROOT").rstrip()
                # ufind's excerpt of a command-line error is indented; find has none.
                ours = b"\n".join(line for line in u[4].split(b"\n")
                                  if not line.startswith(b"  "))
                ours = ours.replace(tree.encode(), b"ROOT").rstrip()
                if theirs != ours:
                    problems.append(f"stderr text find {theirs[:300]!r} ufind {ours[:300]!r}")
            if c.get("error") and (f[1] != 1 or u[1] != 1):
                problems.append("error case without status 1")
            return problems

        for c in CASES:
            if name_filter and name_filter not in c["name"]:
                continue
            problems = run_both(c)
            if problems and RELATIVE_TIME_TESTS.intersection(c["args"]):
                # A file's age can cross a unit boundary between the two
                # programs' runs (t_90s is accessed 45 s before the tree is
                # done: 15 s from -amin's minute), more likely the slower
                # the run, as under AddressSanitizer.  Crossed once, both
                # agree the next time; a real difference stays.
                problems = run_both(c)
            if problems:
                failed += 1
                print(f"FAIL {c['name']}: {c['args']}")
                for p in problems:
                    print("    " + p)
            else:
                passed += 1
                if verbose:
                    print(f"ok   {c['name']}")
    finally:
        os.close(tty_primary)
        os.close(tty_secondary)
        differential.remove_tree(parent)
    print(f"{passed} passed, {failed} failed")
    return passed, failed


_names = [c["name"] for c in CASES]
assert len(_names) == len(set(_names)), "duplicate case names"

if __name__ == "__main__":
    import argparse
    import sys
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser()
    parser.add_argument("--ufind", required=True)
    parser.add_argument("--find", default="find")
    parser.add_argument("--filter", default="")
    parser.add_argument("-v", action="store_true")
    parser.add_argument("--optimisation", choices=("0", "1", "2", "3"),
                        help="run ufind with -O LEVEL (find gets the arguments alone)")
    opts = parser.parse_args()
    options = [f"-O{opts.optimisation}"] if opts.optimisation else []
    _, bad = run_language_cases(os.path.abspath(opts.ufind), opts.find, opts.filter, opts.v,
                                options)
    sys.exit(1 if bad else 0)
