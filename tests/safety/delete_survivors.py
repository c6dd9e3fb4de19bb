#!/usr/bin/env python3
"""-delete leaves what it must: ufind against GNU find on identical trees.

Each case runs GNU find once and ufind under every strategy and backend (12
runs), each on its own copy of one world:

    world/
      tree/        what the commands walk: *.tmp (often selected) beside
                   *.txt (never), a deep chain for -maxdepth/-mindepth,
                   a directory to prune, empty directories, names with
                   newlines, leading dashes, spaces, quotes, $(...), ;rm,
                   links to a directory and a file outside the tree, a
                   dangling link, a link inside the tree
      outside/     what the links point to; under -P nothing in it may go

After each run the whole world is read back (paths, types, file contents,
link targets, directory modes): ufind's world must equal find's, and both
must still hold the case's must-survive entries.  Stdout (sorted records),
stderr (sorted lines, program names made neutral) and the exit status must
equal find's too, so a -delete on a non-empty directory must report
"cannot delete 'X': Directory not empty" and exit 1 as find does.

Where a case prints what it deletes (-delete -print0), ufind's order is
checked as well: a directory is printed, hence removed, only after
everything printed below it.

GNU's rules the cases follow: -delete turns on -depth, under which -prune
does nothing, so find refuses -prune beside -delete unless -depth is given
explicitly ("The -delete action automatically turns on -depth, but -prune
does nothing when -depth is in effect...", status 1, nothing deleted); with
an explicit -depth a "pruned" directory's contents are still visited and
deleted, only the directory itself is spared.  Under -L find follows links
while deleting: the contents of a linked directory outside the tree go, and
the link itself fails with "Not a directory".  ufind must do the same.

The read-only case (a directory without write permission) runs both
programs as an unprivileged user when the suite runs as root, since root
ignores permission bits; it is skipped when that is not possible.

Usage: delete_survivors.py --ufind PATH [-v] [--filter SUBSTR]
"""

from __future__ import annotations

import os
import sys

# No __pycache__ in the source tree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import safety_common as common  # noqa: E402

# Files with names a careless implementation would split, expand or take
# for options.  Each comes as NAME.tmp (selected by -name '*.tmp') and
# NAME.txt (never selected).
ODD_STEMS = [
    "new\nline", "-rf", "--help", "-", "with space", " leading space",
    "quote'single", 'quote"double', "back\\slash", "$(touch pwned)", ";rm -rf x",
    "`touch pwned`", "star*", "tab\there", "ends with newline\n",
]


def build_world(world: str) -> None:
    def write(rel: str, data: bytes | None = None) -> None:
        path = os.path.join(world, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data if data is not None else rel.encode())

    for rel in ("tree/keep.txt", "tree/drop.tmp", "tree/sub/a.tmp", "tree/sub/b.txt",
                "tree/sub/deeper/c.tmp", "tree/sub/deeper/d.txt",
                "tree/chain/l2/l3/l4/l5/deep.tmp", "tree/chain/l2/l3/l4/l5/deep.txt",
                "tree/chain/l2/mid.tmp", "tree/chain/top.tmp",
                "tree/prune_me/x.tmp", "tree/prune_me/x.txt", "tree/prune_me/inner/y.tmp",
                "tree/only_tmp/z.tmp",
                "outside/of.tmp", "outside/of.txt", "outside/od/x.tmp", "outside/od/y.txt"):
        write(rel)
    for stem in ODD_STEMS:
        write(f"tree/odd/{stem}.tmp")
        write(f"tree/odd/{stem}.txt")
    write("tree/-dashdir/inside.tmp")
    write("tree/dir\nwith newline/inside.tmp")
    for rel in ("tree/empty", "tree/empty2/empty3"):
        os.makedirs(os.path.join(world, rel))
    links = {
        "tree/link_out.tmp": "../outside",       # selected by *.tmp: the link goes
        "tree/link_out_keep": "../outside",      # never selected
        "tree/link_file.tmp": "../outside/of.tmp",
        "tree/sub/link_up.tmp": "../../outside/od",
        "tree/dangling.tmp": "does/not/exist",
        "tree/link_in": "sub",
    }
    for rel, target in links.items():
        os.symlink(target, os.path.join(world, rel))


OUTSIDE = ["outside", "outside/of.tmp", "outside/of.txt", "outside/od",
           "outside/od/x.tmp", "outside/od/y.txt"]
TXT = ["tree/keep.txt", "tree/sub/b.txt", "tree/sub/deeper/d.txt",
       "tree/chain/l2/l3/l4/l5/deep.txt", "tree/prune_me/x.txt",
       ] + [f"tree/odd/{s}.txt" for s in ODD_STEMS]


class Case:
    def __init__(self, name: str, args: list[str], survive: list[str], *,
                 gone: list[str] | tuple = (), cwd: str = "", order: bool = False,
                 unprivileged: bool = False, setup=None):
        self.name = name
        self.args = args
        self.survive = survive    # world-relative paths that must remain
        self.gone = list(gone)    # and that must have been deleted (by find too)
        self.cwd = cwd            # world-relative working directory
        self.order = order        # -print0 output in deletion order: check it
        self.unprivileged = unprivileged
        self.setup = setup        # called with the world before the copies


def make_read_only(world: str) -> None:
    os.makedirs(os.path.join(world, "tree/ro/inner"))
    for rel in ("tree/ro/locked.tmp", "tree/ro/inner/free.tmp"):
        with open(os.path.join(world, rel), "wb") as f:
            f.write(b"r")
    os.chmod(os.path.join(world, "tree/ro"), 0o555)


def single_links(world: str) -> None:
    """Every directory reachable by one path only, even under -L."""
    for rel in ("tree/link_in", "tree/link_out_keep", "tree/sub/link_up.tmp"):
        os.unlink(os.path.join(world, rel))


def reached_twice(world: str) -> None:
    """tree/sub reachable as tree/sub and tree/link_in, nothing else twice."""
    for rel in ("tree/link_out.tmp", "tree/link_out_keep", "tree/sub/link_up.tmp",
                "tree/link_file.tmp"):
        os.unlink(os.path.join(world, rel))


def control_character_names(world: str) -> None:
    for name in ("dir\x1b[31mred", "dir'quote", "dir\ttab", "dir\\backslash"):
        os.makedirs(os.path.join(world, "tree", name))
        with open(os.path.join(world, "tree", name, "inside"), "wb") as f:
            f.write(b"x")


CASES = [
    Case("delete_keeps_unselected_files", ["tree", "-name", "*.tmp", "-delete"],
         OUTSIDE + TXT + ["tree/link_out_keep", "tree/link_in", "tree/sub", "tree/odd"],
         gone=["tree/drop.tmp", "tree/link_out.tmp", "tree/odd/-rf.tmp",
               "tree/odd/new\nline.tmp", "tree/odd/$(touch pwned).tmp"]),
    Case("delete_selected_link_removes_link_not_target",
         ["tree", "-type", "l", "-name", "link_out.tmp", "-delete"],
         OUTSIDE + ["tree/link_out_keep", "tree/link_file.tmp"], gone=["tree/link_out.tmp"]),
    Case("delete_whole_tree_physical_spares_link_targets", ["tree", "-delete"],
         OUTSIDE, gone=["tree"]),
    Case("delete_with_trailing_slash_root", ["tree/", "-name", "*.tmp", "-delete"],
         OUTSIDE + TXT),
    Case("delete_from_dot_keeps_dot", [".", "-delete"], OUTSIDE + ["tree"], cwd="tree"),
    Case("delete_pruned_with_explicit_depth",
         ["tree", "-depth", "-name", "prune_me", "-prune", "-o", "-name", "*.tmp", "-delete"],
         OUTSIDE + ["tree/prune_me", "tree/prune_me/x.txt"]),
    Case("delete_with_prune_without_depth_refused",
         ["tree", "-name", "prune_me", "-prune", "-o", "-delete"],
         OUTSIDE + TXT + ["tree/prune_me/x.tmp", "tree/drop.tmp"]),
    Case("delete_with_prune_after_delete_refused",
         ["tree", "-delete", "-name", "prune_me", "-prune"],
         OUTSIDE + TXT + ["tree/prune_me/x.tmp", "tree/drop.tmp"]),
    Case("delete_spares_entries_beyond_maxdepth",
         ["tree", "-maxdepth", "2", "-name", "*.tmp", "-delete"],
         OUTSIDE + TXT + ["tree/chain/l2/mid.tmp", "tree/chain/l2/l3/l4/l5/deep.tmp",
                          "tree/sub/deeper/c.tmp"],
         gone=["tree/drop.tmp", "tree/chain/top.tmp"]),
    Case("delete_spares_entries_above_mindepth",
         ["tree", "-mindepth", "3", "-name", "*.tmp", "-delete"],
         OUTSIDE + TXT + ["tree/drop.tmp", "tree/chain/top.tmp", "tree/sub/a.tmp"],
         gone=["tree/chain/l2/mid.tmp", "tree/sub/deeper/c.tmp"]),
    Case("delete_depth_window_reports_non_empty_directories",
         ["tree", "-mindepth", "2", "-maxdepth", "3", "-delete"],
         OUTSIDE + ["tree/keep.txt", "tree/chain/l2/l3", "tree/chain/l2/l3/l4/l5/deep.txt"]),
    Case("delete_non_empty_directory_reports_error", ["tree", "-name", "sub", "-delete"],
         OUTSIDE + ["tree/sub", "tree/sub/b.txt"]),
    Case("delete_prints_contents_before_directory",
         ["tree", "!", "-name", "*.txt", "-delete", "-print0"],
         OUTSIDE + TXT, order=True),
    Case("delete_everything_prints_in_post_order",
         ["tree", "-mindepth", "1", "-delete", "-print0"], OUTSIDE + ["tree"], order=True),
    Case("delete_empty_directories_only", ["tree", "-type", "d", "-empty", "-delete"],
         OUTSIDE + TXT, gone=["tree/empty", "tree/empty2"]),
    Case("delete_dangling_links_by_xtype", ["tree", "-xtype", "l", "-delete"],
         OUTSIDE + ["tree/link_out.tmp", "tree/link_in"], gone=["tree/dangling.tmp"]),
    Case("delete_names_with_leading_dash", ["tree", "-name", "-*", "-delete"],
         OUTSIDE + ["tree/odd/new\nline.tmp", "tree/-dashdir", "tree/-dashdir/inside.tmp"],
         gone=["tree/odd/-rf.tmp", "tree/odd/-"]),
    Case("delete_names_with_newlines", ["tree", "-type", "f", "-name", "*\n*", "-delete"],
         OUTSIDE + ["tree/odd/-rf.tmp", "tree/dir\nwith newline"],
         gone=["tree/odd/new\nline.tmp", "tree/odd/new\nline.txt"]),
    Case("delete_names_with_quotes_and_shell_syntax",
         ["tree", "(", "-name", "*'*", "-o", "-name", "*$(*", "-o", "-name", "*;*",
          "-o", "-name", "*`*", ")", "-delete"],
         OUTSIDE + ["tree/odd/quote\"double.tmp", "tree/odd/with space.tmp"],
         gone=["tree/odd/quote'single.txt", "tree/odd/$(touch pwned).tmp",
               "tree/odd/;rm -rf x.txt"]),
    # -L follows links while deleting, as find does: the link to outside/
    # makes find delete outside's *.tmp files, then fail on the link itself
    # ("Not a directory").  Dangerous but find's behaviour; ufind must agree.
    # Each directory is reachable by one path only here (see the next case).
    Case("delete_logical_follows_links_like_find", ["-L", "tree", "-name", "*.tmp", "-delete"],
         ["outside/of.txt", "outside/od/y.txt"] + TXT,
         gone=["outside/of.tmp", "outside/od/x.tmp"], setup=single_links),
    Case("delete_logical_whole_tree_like_find", ["-L", "tree", "-delete"], ["outside"],
         setup=single_links),
    # A directory reached twice under -L (tree/sub, and tree/link_in -> sub):
    # find reads link_in after deleting sub's *.tmp, finds them gone and
    # exits 0.  The entries must not be reported as missing when the second
    # visit lists them.
    Case("delete_logical_directory_reached_twice_like_find",
         ["-L", "tree", "-name", "*.tmp", "-delete"], TXT, setup=reached_twice),
    # The same with -ignore_readdir_race, under which find's -delete treats
    # a file gone before its unlink as deleted (ENOENT is no error).
    Case("delete_vanished_entry_silent_under_ignore_readdir_race",
         ["-L", "tree", "-ignore_readdir_race", "-name", "*.tmp", "-delete"], TXT,
         setup=reached_twice),
    # Names are quoted in messages as find quotes them (C locale): control
    # characters escaped, so that a name cannot end a line or send escape
    # sequences to the terminal.
    Case("delete_error_messages_quote_names_like_find",
         ["tree", "-name", "dir*", "-delete"], ["tree/dir\nwith newline/inside.tmp"],
         setup=control_character_names),
    Case("delete_root_link_followed_by_H", ["-H", "tree/link_out_keep", "-name", "*.tmp",
                                            "-delete"], ["outside/of.txt"] + TXT),
    Case("delete_root_link_not_followed_by_P", ["tree/link_out_keep", "-delete"],
         OUTSIDE, gone=["tree/link_out_keep"]),
    Case("delete_read_only_directory_reports_and_exits_1",
         ["tree", "-name", "*.tmp", "-delete"],
         OUTSIDE + TXT + ["tree/ro/locked.tmp"], gone=["tree/ro/inner/free.tmp", "tree/drop.tmp"],
         unprivileged=True, setup=make_read_only),
]


def check_post_order(stdout: bytes) -> list[str]:
    """Every printed directory comes after everything printed below it."""
    records = [r for r in stdout.split(b"\0") if r]
    position = {r: i for i, r in enumerate(records)}
    problems = []
    for record in records:
        parent = record
        while b"/" in parent:
            parent = parent.rsplit(b"/", 1)[0]
            if parent in position and position[parent] < position[record]:
                problems.append(f"{common.escape(parent)} deleted before "
                                f"{common.escape(record)}")
    return problems[:5]


UNPRIVILEGED = 65534


def drop_privileges() -> None:
    os.setgroups([])
    os.setgid(UNPRIVILEGED)
    os.setuid(UNPRIVILEGED)


def chown_tree(top: str, uid: int) -> None:
    os.lchown(top, uid, uid)
    for directory, dirs, files in os.walk(top):
        for name in dirs + files:
            os.lchown(os.path.join(directory, name), uid, uid)


def run_case(case: Case, template: str, scratch: str, ufind: str,
             report: common.Report) -> None:
    preexec = None
    if case.unprivileged and os.geteuid() == 0:
        preexec = drop_privileges
    world_template = template
    if case.setup:
        world_template = os.path.join(scratch, "template-" + case.name)
        common.copy_tree(template, world_template)
        case.setup(world_template)

    def one(label: str, argv: list[str], env: dict) -> tuple:
        copy = os.path.join(scratch, label)
        common.copy_tree(world_template, copy)
        if case.unprivileged and os.geteuid() == 0:
            chown_tree(copy, UNPRIVILEGED)
            os.chmod(scratch, 0o755)
        try:
            outcome = common.run(argv, cwd=os.path.join(copy, case.cwd), env=env,
                                 preexec=preexec)
            return outcome, common.snapshot(copy)
        finally:
            common.remove_tree(copy)

    find_outcome, find_world = one("find", [common.FIND] + case.args, common.base_env())
    present = {p for p, _, _ in find_world}
    oracle_problems = [f"test is wrong: find removed must-survive {common.escape(p)}"
                       for p in case.survive if p not in present]
    oracle_problems += [f"test is wrong: find kept {common.escape(p)}"
                        for p in case.gone if p in present]
    if oracle_problems:
        report.check(case.name + " (oracle)", oracle_problems)
        return
    find_messages = common.normalise_messages(find_outcome.stderr)
    for strategy, backend in common.COMBINATIONS:
        label = f"ufind-{strategy}-{backend}"
        outcome, world = one(label, common.ufind_argv(ufind, strategy, case.args),
                             common.base_env(IOQ_BACKEND=backend))
        problems = []
        have = {p for p, _, _ in world}
        problems += [f"must survive but was deleted: {common.escape(p)}"
                     for p in case.survive if p not in have]
        problems += common.diff_snapshots(find_world, world)
        if outcome.status != find_outcome.status:
            problems.append(f"exit status: find {find_outcome.status}, ufind {outcome.status}")
        separator = b"\0" if case.order else b"\n"
        if sorted(outcome.stdout.split(separator)) != sorted(find_outcome.stdout.split(separator)):
            problems.append(f"stdout differs:\n  find:  {common.escape(find_outcome.stdout)[:400]}"
                            f"\n  ufind: {common.escape(outcome.stdout)[:400]}")
        messages = common.normalise_messages(outcome.stderr)
        if messages != find_messages:
            problems.append("stderr differs:\n  find:  " +
                            "\n         ".join(common.escape(m) for m in find_messages) +
                            "\n  ufind: " +
                            "\n         ".join(common.escape(m) for m in messages))
        if case.order:
            problems += check_post_order(outcome.stdout)
        report.check(f"{case.name} [{strategy} {backend}]", problems)
    if case.setup:
        common.remove_tree(world_template)


def run_tests(begun: common.Start, scratch: str) -> None:
    ufind, report, name_filter = begun.ufind, begun.report, begun.filter
    template = os.path.join(scratch, "template")
    os.makedirs(template)
    build_world(template)
    can_drop = os.geteuid() != 0 or hasattr(os, "setgroups")
    for case in CASES:
        if name_filter not in case.name:
            continue
        if case.unprivileged and not can_drop:
            report.skip(case.name, "cannot run unprivileged")
            continue
        run_case(case, template, scratch, ufind, report)


def main() -> int:
    return common.main_in_scratch("ufind-delete-", run_tests)


if __name__ == "__main__":
    sys.exit(main())
