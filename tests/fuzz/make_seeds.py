#!/usr/bin/env python3
"""Writes the seed corpora and dictionaries of the fuzz targets.

    tests/differential/*.py cases --> corpus/parse/seed-<case>   (argv, NUL after each)
                                  --> corpus/printf/seed-NN-...  (-printf formats)
                                  --> corpus/date/seed-NN-...    (-newerXt dates)
                                  --> corpus/perm/seed-NN-...    (-perm modes)
    cli/command/primary_names.cpp words   --> dict/parse.dict            (libFuzzer -dict=)
    the lists below               --> dict/{printf,date,perm}.dict
    call sequences below          --> corpus/walk_api/seed-*, dict/walk_api.dict

Seeds are real command lines, so that the fuzzer starts from what people
type; a few hand-written ones add corners the suite does not reach (huge
widths, daylight saving gaps, copies between classes).  Existing seed-*
files are replaced; crash-* files (inputs that once crashed, kept as
regression tests) are never touched.

"ROOT" in a case becomes "t" (a relative path), and a file name given to an
-f... action loses its directories: fuzz_parse skips inputs whose -fprint
file has a '/' (see fuzz_parse.cpp).

Usage: python3 tests/fuzz/make_seeds.py
"""

from __future__ import annotations

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "differential"))

import cases_language  # noqa: E402
import differential  # noqa: E402

EXTRA_PARSE = [
    ["--help"], ["-version"], ["-D", "help,stats,bogus", "-O3", "-S", "dfs", "-j2", "-s", "."],
    ["-O0", "-H", "--", ".", "-fprint", "out", "-fprint0", "out", "-fls", "out2"],
    [".", "-fprintf", "out", "%p %s\\n", "-o", "-fprint", "/dev/stderr"],
    ["(", "(", "!", "-name", "a", ")", ",", "-not", "(", "-true", ")", ")"],
    ["-files0-from", "-", "-ok", "echo", "{}", ";"],
    [".", "-execdir", "sh", "-c", "x", "{}", "+"], [".", "-exec", "{}", ";"],
    [".", "-delete", "-prune"], [".", "-depth", "-delete", "-prune"],
    [".", "-regextype", "posix-extended", "-regex", ".*/(a|b){2,3}$", "-iregex", "[[:alpha:]]+"],
    [".", "-newermt", "2024-02-29 12:00 UTC", "-newerat", "@1.5", "-newerBt", "2001-01-01"],
    [".", "-perm", "-u=rwx,g=u-w", "-o", "-perm", "/+X", "-size", "+3k", "-links", "-2"],
    [".", "-printf", "%-10.3p|%+05d|%TY-%Tm-%Td %TH:%TM:%TS|%Y %l\\0\\c"],
    [".", "-maxdepth", "2147483648"], [".", "-mindepth", "-1"], [".", "-j", "0"],
    [".", "-type", "f,d,l,", "-xtype", "D"], [".", "-user", "root", "-group", "0", "-uid", "+0"],
    [".", "-amin", "-1.5", "-mtime", "+2", "-used", "3", "-daystart", "-cmin", "1e3"],
    [".", "-fstype", "ext4", "-inum", "12", "-samefile", ".", "-newer", "."],
    [".", "-name", "[", "-iname", "*\\", "-path", "x/", "-lname", "?*", "-ilname", "*"],
    [".", ")", "("], [".", "!"], [".", "-o"], [".", "-a", "-print"], [".", ","],
    [".", "-warn", "-name", "a/b", "-maxdepth", "1", "-d", "-nowarn"],
    [".", "-ignore_readdir_race", "-noleaf", "-xdev", "-mount", "-follow", "-quit"],
]

EXTRA_PRINTF = [
    "%99999999999p", "%2147483648d", "%.2147483648p", "%-+ #010.5d|%#o|%+.3m", "%A", "%Ak%",
    "%5.2S %-9s %09k", "\\777\\0\\08\\c", "%.0p%.p%0p", "%h\\n%H\\n%P\\n%f\\n", "%TE%TO%T%%",
    "%B+ %Bk %BB %C@", "%Z%Y%y%F%D", "%", "\\", "%{%}",
]

EXTRA_DATE = [
    "@-1.5", "@-0.000000001", "@999999999999999999", "@1.1234567891234",
    "2024-02-29 UTC", "2023-02-29", "2023-03-26 02:30", "2023-10-29 02:30",
    "  2024-01-31t13:45:10,25 Z  ", "2024-1-3 1:05", "9999-12-31 23:59:60 UTC",
    "0000-01-01", "1969-12-31 23:59:59.999999999 GMT", "2024-01-31 13:45:10 UT",
    "2024-01-31T24:00", "2024-12-31 23:59:60",
]

EXTRA_PERM = [
    "u=g,g=o", "g+X,u+x,u-g", "a+X", "+X", "=X", "-=X", "/u=s", "o-t", "ugoa+rwxXst",
    "0007777", "10000", "u+r,,g+w", "u", "+", "a=rw-x+X,go=u,o-w", "7777",
]


# Tokens the mutator inserts whole (libFuzzer's -dict): directives, escapes,
# zone names, mode letters.  The parser's come from cli/command/primary_names.cpp.
DICT_PRINTF = ["%" + c for c in "abcdfghiklmnpstuyDFGHMPSUYZ%"] + [
    "%A", "%B", "%C", "%T", "%T@", "%T+", "%Tk", "%-", "%+", "%#", "%0", "%.",
    "\\n", "\\0", "\\c", "\\\\", "\\101",
]
DICT_DATE = ["@", "-", ":", ".", ",", " ", "T", "Z", "UTC", "GMT", "UT", "2024", "12", "31",
             "23:59:60", "1970-01-01", "@-"]
DICT_PERM = ["u", "g", "o", "a", "=", "+", "-", ",", "r", "w", "x", "X", "s", "t", "/", "ug",
             "rwx", "u=g", "go=u", "7777", "0644"]
LEADING_WORDS = ["-newermt", "-newerBt", "-neweraa", "-H", "-L", "-P", "-D", "-O0", "-O3", "-S",
                 "-j", "-s", "--", "(", ")", "!", ",", "-o", "-a", "-or", "-and", "-not", "{}",
                 ";", "+"]


def substitute(args: list[str]) -> list[str]:
    out = []
    for i, arg in enumerate(args):
        if arg.startswith("ROOT"):
            arg = "t" + arg[4:]
        if (i > 0 and args[i - 1].startswith("-f") and "/" in arg
                and arg not in ("/dev/stdout", "/dev/stderr")):
            arg = arg.rsplit("/", 1)[1] or "out"
        out.append(arg)
    return out


def all_cases() -> list[tuple[str, bool, list[str]]]:
    """(name, is an error case, argv) of every case of the suite."""
    cases = [(c.name, c.error, list(c.argv)) for c in differential.all_cases()]
    cases += [(c["name"], bool(c.get("error")), list(c["args"])) for c in cases_language.CASES]
    return cases


def label(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_")[:24] or "x"


def write_corpus(name: str, seeds: list[tuple[str, bytes]]) -> None:
    directory = os.path.join(HERE, "corpus", name)
    os.makedirs(directory, exist_ok=True)
    for old in os.listdir(directory):
        if old.startswith("seed-"):
            os.unlink(os.path.join(directory, old))
    for seed_name, data in seeds:
        with open(os.path.join(directory, "seed-" + seed_name), "wb") as f:
            f.write(data)
    print(f"{name}: {len(seeds)} seeds")


def write_dict(name: str, words: list[str]) -> None:
    directory = os.path.join(HERE, "dict")
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, name + ".dict"), "w") as f:
        f.write("# Written by make_seeds.py.\n")
        for word in dict.fromkeys(words):
            escaped = "".join(c if c.isprintable() and c < "\x80" and c not in '"\\' else f"\\x{ord(c):02x}"
                              for c in word)
            f.write(f'"{escaped}"\n')


# walk_api: 8 bytes of options (roots, strategy, backend and workers,
# depths, flags, symlinks, stat_mask and read_ahead, open), then pairs of
# (call, argument) as fuzz_walk_api.cpp reads them.
WALK_BACKENDS = {"inline": 0x03, "threads": 0x20, "uring": 0x25}
NEXT, BATCH, STAT, ENTRY_AT, PRUNE, STOP, GET_STATS, NAMES, NO_ENTRY = 0, 2, 3, 4, 5, 6, 7, 8, 9
WALK_CALLS = {
    "end-then-stat": [(NEXT, 1)] * 20 + [(STAT, 0), (STAT, 1), (ENTRY_AT, 0), (NEXT, 1),
                                         (NO_ENTRY, 0)],
    "before-first": [(STAT, 0), (ENTRY_AT, 0), (PRUNE, 0), (NEXT, 1), (STAT, 1),
                     (ENTRY_AT, 0), (PRUNE, 0), (NEXT, 1)],
    "stop-then-stat": [(NEXT, 1)] * 3 + [(STOP, 0), (STAT, 0), (ENTRY_AT, 0), (NEXT, 1),
                                         (STOP, 0), (BATCH, 4)],
    "short-batch": [(BATCH, 4)] * 6 + [(STAT, 0), (ENTRY_AT, 0), (BATCH, 20)],
    "nulls": [(NEXT, 0), (BATCH, 8), (BATCH, 0), (STAT, 4), (STAT, 16), (STAT, 2),
              (ENTRY_AT, 1), (ENTRY_AT, 2), (ENTRY_AT, 4), (PRUNE, 1), (STOP, 4),
              (GET_STATS, 1), (GET_STATS, 2), (NAMES, 0xff), (NEXT, 1)],
}


def walk_api_seeds() -> list[tuple[str, bytes]]:
    seeds = []
    for backend, backend_byte in WALK_BACKENDS.items():
        for calls_name, calls in WALK_CALLS.items():
            for post_order in (0, 1):
                options = bytes([1, 4, backend_byte, 9, post_order, 0, 0, 0])
                body = bytes(b for call in calls for b in call)
                order = "-depth" if post_order else ""
                seeds.append((f"{backend}-{calls_name}{order}", options + body))
    return seeds


def numbered(values: list[str]) -> list[tuple[str, bytes]]:
    return [(f"{i:02d}-{label(v)}", v.encode()) for i, v in enumerate(v for v in values if v)]


def argv_bytes(args: list[str]) -> bytes:
    return b"".join(a.encode() + b"\0" for a in args)


def main() -> None:
    cases = all_cases()

    # parse: greedily, the case that adds the most words not yet seen
    # (primaries, options, operators) until none adds any, then the first
    # error case of ten families: every primary and option the suite
    # uses in a few dozen seeds.
    def words(args: list[str]) -> set[str]:
        # -O0..-O3 count as one word, and so do the nine -newerXY.
        found = set()
        for a in args:
            if re.fullmatch(r"--?[A-Za-z][A-Za-z0-9_-]*", a) or a in ("(", ")", "!", ","):
                found.add(re.sub(r"^-newer[a-zA-Z]{2}$", "-newerXY", re.sub(r"^-O.*", "-O", a)))
        return found

    picked: list[tuple[str, list[str]]] = []
    seen: set[str] = set()
    while True:
        best = max(cases, key=lambda c: len(words(c[2]) - seen))
        if not words(best[2]) - seen:
            break
        seen |= words(best[2])
        picked.append((best[0], best[2]))
    errors_per_family: dict[str, int] = {}
    for name, error, args in cases:
        family = name.split("_")[0]
        if (error and (name, args) not in picked and family not in errors_per_family
                and len(errors_per_family) < 10):
            errors_per_family[family] = 1
            picked.append((name, args))
    parse_seeds = [(label(name)[:48], argv_bytes(substitute(args))) for name, args in picked]
    parse_seeds += [(f"extra-{i:02d}", argv_bytes(a)) for i, a in enumerate(EXTRA_PARSE)]
    write_corpus("parse", parse_seeds)

    formats, dates, perms = [], [], []
    for _, _, args in cases:
        for i, arg in enumerate(args[:-1]):
            if arg == "-printf":
                formats.append(args[i + 1])
            elif arg == "-fprintf" and i + 2 < len(args):
                formats.append(args[i + 2])
            elif arg.startswith("-newer") and arg.endswith("t"):
                dates.append(args[i + 1])
            elif arg == "-perm":
                perms.append(args[i + 1])

    # printf: every format but most of the near-identical flag and time
    # letter variants (one directive family each).
    seen_families: dict[str, int] = {}
    chosen = []
    for text in dict.fromkeys(formats):
        family = "flags" if text.startswith("[%-12") else "time" if text.startswith("%T") else text
        seen_families[family] = seen_families.get(family, 0) + 1
        if seen_families[family] <= 4:
            chosen.append(text)
    write_corpus("printf", numbered(chosen + EXTRA_PRINTF))

    write_corpus("date", numbered(list(dict.fromkeys(dates + EXTRA_DATE))))

    # perm: each mode once without its '-' or '/' (the fuzzer adds those
    # within seconds), a few with them.
    bodies = [p[1:] if p[:1] in ("-", "/") else p for p in perms]
    prefixed = [p for p in dict.fromkeys(perms) if p[:1] in ("-", "/")][:8]
    write_corpus("perm", numbered(list(dict.fromkeys(bodies + prefixed + EXTRA_PERM))))


    # parse: each word as a whole argument (NUL-terminated, as the target
    # splits its input).
    with open(os.path.join(HERE, "..", "..", "cli", "command", "primary_names.cpp")) as f:
        names = re.findall(r'\{"(-[^"]+)"', f.read())
    write_dict("parse", [w + "\0" for w in names + LEADING_WORDS])
    write_dict("printf", DICT_PRINTF)
    write_dict("date", DICT_DATE)
    write_dict("perm", DICT_PERM)
    write_corpus("walk_api", walk_api_seeds())
    write_dict("walk_api", ["".join(chr(b) for b in call) for calls in WALK_CALLS.values()
                            for call in calls])


if __name__ == "__main__":
    main()
