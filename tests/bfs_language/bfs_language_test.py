#!/usr/bin/env python3
"""bfs's extensions to the find language, as ufind speaks them.

GNU find has none of these words, so there is no oracle to compare with:
each case builds a small tree, runs ufind and checks the exact lines,
the exit status and whether anything went to stderr, against what bfs's
manual says the word means.  Output is compared sorted unless the case
asks for the order.

Prints "N passed, M failed" last; exits 1 if anything failed.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

UFIND = None
passed = 0
failed = 0


def run(args, cwd):
    result = subprocess.run([UFIND, *args], cwd=cwd, stdin=subprocess.DEVNULL,
                            capture_output=True)
    return (result.returncode, result.stdout.decode(errors="surrogateescape"),
            result.stderr.decode(errors="surrogateescape"))


def check(name, args, cwd, lines=None, status=0, stderr=None, ordered=False):
    """stderr: None ignores it, False wants it empty, True wants something."""
    global passed, failed
    code, out, err = run(args, cwd)
    problems = []
    if code != status:
        problems.append(f"exit status {code}, expected {status}")
    if lines is not None:
        got = out.splitlines()
        if not ordered:
            got, lines = sorted(got), sorted(lines)
        if got != lines:
            problems.append(f"printed {got}, expected {lines}")
    if stderr is False and err:
        problems.append(f"stderr not empty: {err!r}")
    if stderr is True and not err:
        problems.append("nothing on stderr")
    if problems:
        failed += 1
        print(f"FAIL {name}: {'; '.join(problems)}")
    else:
        passed += 1


def build_tree(top):
    """t/ with hidden names, two files named foo, a hard link, a symlink,
    and a directory loop through a link (loop/back -> .)."""
    t = os.path.join(top, "t")
    for d in ["t", "t/.hdir", "t/d", "t/d/e", "t/d/e/foo", "t/loop"]:
        os.makedirs(os.path.join(top, d))
    for f in ["t/a", "t/.hid", "t/.hdir/x", "t/d/foo", "t/d/e/foo/bar", "t/sp ace"]:
        open(os.path.join(top, f), "w").close()
    os.link(os.path.join(t, "a"), os.path.join(t, "hard"))
    os.symlink("a", os.path.join(t, "link"))
    os.symlink(".", os.path.join(t, "loop", "back"))
    old = os.path.join(t, "old")
    open(old, "w").close()
    os.utime(old, (946684800, 946684800))  # 2000-01-01
    return t


ALL = ["t", "t/.hdir", "t/.hdir/x", "t/.hid", "t/a", "t/d", "t/d/e", "t/d/e/foo",
       "t/d/e/foo/bar", "t/d/foo", "t/hard", "t/link", "t/loop", "t/loop/back", "t/old",
       "t/sp ace"]


def without(*gone):
    return [p for p in ALL if not any(p == g or p.startswith(g + "/") for g in gone)]


def exclude_cases(top):
    check("exclude_skips_matches_and_their_contents", ["t", "-exclude", "-name", "foo"], top,
          without("t/d/foo", "t/d/e/foo"))
    check("exclude_applies_above_mindepth", ["t", "-mindepth", "3", "-exclude", "-name", "foo"],
          top, [])
    check("exclude_takes_a_parenthesised_expression",
          ["t", "-exclude", "(", "-name", "foo", "-o", "-name", "loop", ")"], top,
          without("t/d/foo", "t/d/e/foo", "t/loop"))
    check("exclude_under_depth_skips_what_is_below_a_match",
          ["t", "-depth", "-exclude", "-name", "foo"], top, without("t/d/foo", "t/d/e/foo"))
    check("exclude_under_depth_tests_the_starting_point_first",
          ["t/d", "-depth", "-exclude", "-path", "t/d"], top, [])
    check("exclude_under_depth_refuses_metadata_tests",
          ["t", "-depth", "-exclude", "-size", "0"], top, [], status=1, stderr=True)
    check("exclude_within_exclude_is_an_error",
          ["t", "-exclude", "-exclude", "-name", "foo"], top, [], status=1, stderr=True)
    check("exclude_refuses_an_action", ["t", "-exclude", "-print"], top, [], status=1,
          stderr=True)
    check("exclude_of_a_path_walks_it_and_warns", ["-warn", "-exclude", "t", "-name", "foo"],
          top, without("t/d/foo", "t/d/e/foo"), stderr=True)


def hidden_cases(top):
    check("hidden_matches_dot_names", ["t", "-hidden"], top, ["t/.hdir", "t/.hid"])
    check("hidden_is_false_for_dot_and_dot_dot", [".", "./.", "t/..", "-maxdepth", "0",
                                                  "-hidden"], top, [])
    check("nohidden_skips_hidden_subtrees", ["t", "-nohidden"], top,
          without("t/.hdir", "t/.hid"))
    check("nohidden_under_depth_skips_hidden_subtrees", ["t", "-depth", "-nohidden"], top,
          without("t/.hdir", "t/.hid"))


def unique_cases(top):
    check("unique_skips_a_hard_link_seen", ["t/a", "t/link", "t/hard", "-unique"], top,
          ["t/a", "t/link"])
    check("unique_under_L_skips_a_symlink_seen", ["-L", "t/a", "t/link", "t/hard", "-unique"],
          top, ["t/a"])
    check("unique_under_L_ends_loops_quietly", ["-L", "t/loop", "-unique"], top,
          ["t/loop"], stderr=False)


def noerror_cases(top):
    check("without_noerror_a_loop_is_an_error", ["-L", "t/loop"], top, None, status=1,
          stderr=True)
    check("noerror_silences_errors", ["-L", "t/loop", "-noerror", "-nowarn"], top,
          ["t/loop"], stderr=False)
    check("noerror_with_warn_counts_them", ["-L", "t/loop", "-noerror", "-warn"], top,
          ["t/loop"], stderr=True)


def limit_cases(top):
    check("limit_stops_after_n_results",
          ["-s", "t", "-maxdepth", "1", "-type", "f", "-print", "-limit", "2"], top,
          ["t/.hid", "t/a"], ordered=True)
    check("limit_zero_is_an_error", ["t", "-print", "-limit", "0"], top, [], status=1,
          stderr=True)
    check("limit_wants_an_explicit_action", ["t", "-type", "f", "-limit", "1"], top, [],
          status=1, stderr=True)


def depth_cases(top):
    check("depth_n_tests_the_depth", ["t", "-depth", "3"], top,
          ["t/d/e/foo"])
    check("depth_plus_n_tests_deeper", ["t", "-depth", "+2"], top, ["t/d/e/foo", "t/d/e/foo/bar"])
    # Followed by no number, -depth is still find's option: the starting
    # point comes last.
    check("depth_alone_is_still_post_order", ["t/d", "-depth", "-print", "-name", "d", "-quit"],
          top, ["t/d/e/foo/bar", "t/d/e/foo", "t/d/e", "t/d/foo", "t/d"])


def exit_cases(top):
    check("exit_ends_with_its_status", ["t", "-name", "a", "-exit", "3", "-o", "-false"], top,
          [], status=3)
    check("exit_without_status_is_zero", ["t", "-maxdepth", "0", "-exit"], top, [], status=0)


def time_cases(top):
    check("since_is_newermt", ["t", "-maxdepth", "1", "-type", "f", "-since", "2010-01-01"],
          top, ["t/.hid", "t/a", "t/hard", "t/sp ace"])
    check("msince_is_since", ["t/old", "t/a", "-msince", "2010-01-01"], top, ["t/a"])
    check("mnewer_is_newer", ["t/old", "t/a", "-mnewer", "t/old"], top, ["t/a"])
    check("asince_reads_access_time", ["t/old", "-asince", "2010-01-01"], top, [])
    code, out, _ = run(["t/a", "-printf", "%B@"], top)
    if code == 0 and out and not out.startswith("-"):
        check("Bmin_reads_birth_time", ["t/a", "t/old", "-Bmin", "-60"], top, ["t/a", "t/old"])
        # Born now, so after t/old's modification time (2000) though t/old
        # itself was born now too.
        check("Bnewer_compares_with_the_modification_time", ["t/a", "-Bnewer", "t/old"], top,
              ["t/a"])
        check("Bsince_reads_birth_time", ["t/a", "-Bsince", "2010-01-01"], top, ["t/a"])


def action_cases(top):
    check("printx_escapes_for_xargs", ["t/sp ace", "-printx"], top, ["t/sp\\ ace"])
    victim = os.path.join(top, "t", "victim")
    open(victim, "w").close()
    check("rm_deletes", ["t/victim", "-rm"], top, [])
    global passed, failed
    if os.path.exists(victim):
        failed += 1
        print("FAIL rm_deletes: t/victim is still there")
    else:
        passed += 1


def flag_cases(top):
    links = ["t/link", "t/loop/back"]
    check("H_after_the_expression", ["t/link", "-type", "l", "-H"], top, [])
    check("P_among_the_expression", ["-L", "t", "-P", "-type", "l"], top, links)
    check("flags_group_with_an_attached_argument", ["-PDstat", "t", "-type", "l"], top, links)
    check("flags_group_with_a_separate_argument", ["-PD", "stat", "t", "-type", "l"], top,
          links)
    check("debug_flags_of_bfs_are_known", ["-D", "cost,opt,tree", "t", "-maxdepth", "0"], top,
          ["t"], stderr=False)
    check("j0_is_an_error", ["-j0", "t"], top, [], status=1, stderr=True)
    check("Ofast_is_a_level", ["-Ofast", "t", "-maxdepth", "0"], top, ["t"], stderr=False)
    check("O9_warns_and_goes_on", ["-warn", "-O9", "-maxdepth", "0"], os.path.join(top, "t"),
          ["."], stderr=True)
    check("E_is_extended_regex", ["-E", "t", "-regex", "t/(a|old)"], top, ["t/a", "t/old"])
    check("X_skips_names_xargs_misreads", ["-X", "t", "-maxdepth", "1", "-name", "*a*"], top,
          ["t/a", "t/hard"], status=1, stderr=True)
    check("x_is_xdev", ["-x", "t", "-maxdepth", "0"], top, ["t"])
    os.mkdir(os.path.join(top, "-dash"))
    check("f_names_a_starting_point", ["-f", "-dash"], top, ["-dash"])
    os.rmdir(os.path.join(top, "-dash"))


def attribute_cases(top):
    d = os.path.join(top, "attrs")
    os.mkdir(d)
    for name in ["plain", "noted", "holes", "acl"]:
        open(os.path.join(d, name), "w").close()
    os.truncate(os.path.join(d, "holes"), 1 << 20)
    check("sparse_finds_holes", ["attrs", "-type", "f", "-sparse"], top, ["attrs/holes"])
    try:
        os.setxattr(os.path.join(d, "noted"), "user.note", b"1")
    except OSError:
        print("skip: no user extended attributes here")
    else:
        check("xattr_finds_attributes", ["attrs", "-type", "f", "-xattr", "-name", "no*"],
              top, ["attrs/noted"])
        check("xattrname_finds_that_attribute", ["attrs", "-xattrname", "user.note"], top,
              ["attrs/noted"])
        check("xattrname_of_another_is_false", ["attrs", "-xattrname", "user.other"], top, [])
    setfacl = shutil.which("setfacl")
    if setfacl and subprocess.run([setfacl, "-m", "u:nobody:r", os.path.join(d, "acl")],
                                  capture_output=True).returncode == 0:
        check("acl_finds_an_extended_acl", ["attrs", "-acl"], top, ["attrs/acl"])
    chattr = shutil.which("chattr")
    if chattr and subprocess.run([chattr, "+d", os.path.join(d, "plain")],
                                 capture_output=True).returncode == 0:
        check("flags_all_of_finds_nodump", ["attrs", "-flags", "-d"], top, ["attrs/plain"])
        check("flags_any_of_finds_nodump", ["attrs", "-type", "f", "-flags", "+di", "-name", "p*"],
              top, ["attrs/plain"])
    check("flags_refuses_an_unknown_letter", ["attrs", "-flags", "z"], top, [], status=1,
          stderr=True)
    check("capable_is_false_without_capabilities", ["attrs", "-capable"], top, [],
          stderr=False)


def main():
    global UFIND
    parser = argparse.ArgumentParser()
    parser.add_argument("--ufind", required=True)
    UFIND = os.path.abspath(parser.parse_args().ufind)
    top = tempfile.mkdtemp(prefix="ufind-bfs-language-")
    try:
        build_tree(top)
        for cases in (exclude_cases, hidden_cases, unique_cases, noerror_cases, limit_cases,
                      depth_cases, exit_cases, time_cases, action_cases, flag_cases,
                      attribute_cases):
            cases(top)
    finally:
        shutil.rmtree(top)
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
