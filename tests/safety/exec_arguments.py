#!/usr/bin/env python3
"""-exec and -execdir hand names to the command intact, and nothing else runs.

The command is a tiny /bin/sh script written into the test's temp dir: it
appends, for each run, the directory it runs in, its argument count and its
arguments, each NUL-terminated, to the file named by $ARGV_LOG.  GNU find and
ufind (under every strategy and backend) run the same command lines on one
tree of awkward names:

    tree/odd/      names with newlines, tabs, spaces, quotes, backslashes,
                   leading dashes, "$(touch pwned)", "`touch pwned`",
                   ";rm -rf x", "&& touch pwned", "|", "*", "{}"
    tree/-dashdir/ a directory whose name starts with a dash
    tree/dir\\nnl/  a directory with a newline in its name

What each case protects:

* no shell: after every run no file named "pwned" exists anywhere, and no
  argument was split, expanded or globbed: the logged invocations (sorted)
  equal find's, and every path of the tree reached the command exactly once;
* `;` and `+` forms of -exec and -execdir, "{}" inside longer words, and
  fixed arguments that look like shell syntax;
* -execdir passes "./NAME" (so a leading dash cannot become an option) and
  runs in the file's directory;
* -execdir refuses a PATH with a relative or empty entry, with GNU's message
  and exit status, before running anything;
* a command renaming a directory before the walk enters it: every
  single-pass strategy fails to enter it as find does (ufind reads no
  directory ahead of its entry when a command may change the tree);
* a command file without a "#!" line (and an empty one) runs through
  /bin/sh, as execvp runs it for find: by path, through PATH, `;` and `+`;
* -exec ... {} + batches within ARG_MAX: thousands of long names go in
  several batches, each name exactly once, no batch larger than find's cap
  of 128 KiB, and still within the limit when a large environment leaves
  less room (every batch must start: E2BIG would lose names).

Usage: exec_arguments.py --ufind PATH [-v] [--filter SUBSTR]
"""

from __future__ import annotations

import os
import sys

# No __pycache__ in the source tree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import safety_common as common  # noqa: E402

HELPER = """#!/bin/sh
# One record per run: where it runs, how many arguments, the arguments.
printf '%s\\0' "$(pwd -P)" "$#" "$@" >> "$ARGV_LOG"
"""

ODD_NAMES = [
    "new\nline", "tab\there", "with space", " leading space", "trailing space ",
    "quote'single", 'quote"double', "back\\slash", "-rf", "--help", "-", "-n",
    "$(touch pwned)", "`touch pwned`", ";rm -rf x", "&& touch pwned", "a|b",
    "star*", "{}", "x{}y", "ends with newline\n", "$HOME", "%s%n",
]


def build_tree(tree: str) -> None:
    def write(rel: str) -> None:
        path = os.path.join(tree, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(b"x")

    for name in ODD_NAMES:
        write(f"odd/{name}")
    write("-dashdir/-inner")
    write("dir\nnl/inside")
    write("sub/deeper/file")


def parse_log(data: bytes) -> list[tuple[bytes, tuple[bytes, ...]]]:
    """[(directory, (arg, ...)), ...] in the order the runs happened."""
    fields = data.split(b"\0")
    assert fields[-1] == b"", "log does not end with a NUL"
    fields.pop()
    runs = []
    at = 0
    while at < len(fields):
        directory, count = fields[at], int(fields[at + 1])
        runs.append((directory, tuple(fields[at + 2:at + 2 + count])))
        at += 2 + count
    return runs


class Runner:
    def __init__(self, ufind: str, scratch: str, report: common.Report):
        self.ufind = ufind
        self.scratch = scratch
        self.report = report
        self.helper = os.path.join(scratch, "bin", "argv-log")
        os.makedirs(os.path.dirname(self.helper))
        with open(self.helper, "w") as f:
            f.write(HELPER)
        os.chmod(self.helper, 0o755)
        self.log = os.path.join(scratch, "argv.log")
        self.tree = os.path.join(scratch, "tree")
        build_tree(self.tree)

    def pwned(self) -> list[str]:
        found = []
        for directory, dirs, files in os.walk(self.scratch):
            found += [os.path.join(directory, n) for n in dirs + files if n == "pwned"]
        return found

    def run(self, argv: list[str], env: dict) -> tuple[common.Outcome, list]:
        if os.path.exists(self.log):
            os.unlink(self.log)
        env = dict(env, ARGV_LOG=self.log)
        outcome = common.run(argv, cwd=self.scratch, env=env)
        data = b""
        if os.path.exists(self.log):
            with open(self.log, "rb") as f:
                data = f.read()
        return outcome, parse_log(data)

    def compare(self, name: str, args: list[str], *, env: dict | None = None,
                batches: bool = False, every_path: str | None = None,
                check=None) -> None:
        """Runs find then ufind everywhere; compares logs, status, messages.

        batches: the `+` form; the arguments of all runs are compared as one
        sorted list (how they are cut into batches may differ), and with
        -execdir each run's directory goes with its arguments.
        every_path: each path under the tree must appear as an argument
        exactly once, written as this format ("{path}" or "./{name}").
        check: a function (runs) -> problems, for ufind's runs."""
        env = env if env is not None else common.base_env()
        find_outcome, find_runs = self.run([common.FIND] + args, env)
        leftovers = self.pwned()
        if leftovers:
            self.report.check(name + " (oracle)", [f"find created {leftovers}"])
            return
        if every_path:
            problems = self.every_path_once(find_runs, every_path)
            if problems:
                self.report.check(name + " (oracle)", ["test is wrong: find"] + problems)
                return
        find_messages = common.normalise_messages(find_outcome.stderr)

        def flatten(runs: list) -> list:
            if batches:
                return sorted((d, a) for d, args in runs for a in args)
            return sorted(runs)

        for strategy, backend in common.COMBINATIONS:
            outcome, runs = self.run(common.ufind_argv(self.ufind, strategy, args),
                                     dict(env, IOQ_BACKEND=backend))
            problems = []
            leftovers = self.pwned()
            if leftovers:
                problems.append(f"a shell ran: created {leftovers}")
                for path in leftovers:
                    os.unlink(path)
            if flatten(runs) != flatten(find_runs):
                problems.append("the command saw other arguments than under find:")
                want, got = flatten(find_runs), flatten(runs)
                problems += [f"  only find:  {r!r}" for r in want if r not in got][:6]
                problems += [f"  only ufind: {r!r}" for r in got if r not in want][:6]
            if every_path:
                problems += self.every_path_once(runs, every_path)
            if check:
                problems += check(runs)
            if outcome.status != find_outcome.status:
                problems.append(f"exit status: find {find_outcome.status}, "
                                f"ufind {outcome.status}")
            if sorted(outcome.stdout.split(b"\n")) != sorted(find_outcome.stdout.split(b"\n")):
                problems.append(f"stdout differs: find {common.escape(find_outcome.stdout)[:300]}"
                                f" ufind {common.escape(outcome.stdout)[:300]}")
            messages = common.normalise_messages(outcome.stderr)
            if messages != find_messages:
                problems.append(f"stderr differs:\n  find:  {find_messages}\n  ufind: {messages}")
            self.report.check(f"{name} [{strategy} {backend}]", problems)

    def every_path_once(self, runs: list, form: str) -> list[str]:
        expected = []
        for directory, dirs, files in os.walk(self.tree):
            for entry in dirs + files:
                path = os.path.relpath(os.path.join(directory, entry), self.scratch)
                expected.append(form.format(path=path, name=entry).encode())
        expected.append(form.format(path="tree", name="tree").encode())
        seen = [a for _, args in runs for a in args]
        problems = []
        for path in expected:
            count = seen.count(path)
            if count != 1:
                problems.append(f"{common.escape(path)} passed {count} times")
        return problems[:8]


def exec_cases(r: Runner) -> None:
    h = r.helper
    r.compare("exec_each_name_intact_no_shell", ["tree", "-exec", h, "{}", ";"],
              every_path="{path}")
    r.compare("exec_batch_names_intact_no_shell", ["tree", "-exec", h, "{}", "+"],
              batches=True, every_path="{path}")
    r.compare("exec_placeholder_inside_words_intact",
              ["tree/odd", "-exec", h, "pre{}post", "--", "{}{}", "{}", ";"])
    r.compare("exec_fixed_arguments_with_shell_syntax_intact",
              ["tree/odd", "-name", "-*", "-exec", h, "$(touch pwned)", ";rm -rf tree",
               "`touch pwned`", "a b", "", "{}", ";"])
    r.compare("exec_batch_fixed_arguments_with_shell_syntax_intact",
              ["tree", "-exec", h, "$(touch pwned)", "&&", "touch", "pwned", "{}", "+"],
              batches=True)
    r.compare("execdir_each_passes_dot_slash_name_in_its_directory",
              ["tree", "-execdir", h, "{}", ";"], every_path="./{name}")
    r.compare("execdir_batch_per_directory_names_intact",
              ["tree", "-execdir", h, "{}", "+"], batches=True, every_path="./{name}",
              check=one_directory_per_batch)
    r.compare("exec_after_test_only_selected_names",
              ["tree", "-name", "*$*", "-exec", h, "{}", ";"])


def script_cases(r: Runner) -> None:
    """Command files without "#!": execve says ENOEXEC, and find's execvp
    runs them with /bin/sh; an empty one is a script that succeeds."""
    bin_dir = os.path.dirname(r.helper)
    bare = os.path.join(bin_dir, "argv-log-bare")
    with open(bare, "w") as f:
        f.write(HELPER.split("\n", 1)[1])
    empty = os.path.join(bin_dir, "empty-command")
    open(empty, "w").close()
    for path in (bare, empty):
        os.chmod(path, 0o755)
    r.compare("exec_script_without_interpreter_line_runs_in_sh",
              ["tree/sub", "-exec", bare, "{}", ";"])
    r.compare("exec_batch_script_without_interpreter_line_runs_in_sh",
              ["tree/sub", "-exec", bare, "{}", "+"], batches=True)
    r.compare("exec_script_without_interpreter_line_found_in_path",
              ["tree/sub", "-exec", "argv-log-bare", "x", "{}", ";"],
              env=common.base_env(PATH=bin_dir + ":/usr/bin:/bin"))
    r.compare("execdir_script_without_interpreter_line_found_in_path",
              ["tree/sub", "-execdir", "argv-log-bare", "{}", ";"],
              env=common.base_env(PATH=bin_dir + ":/usr/bin:/bin"))
    r.compare("exec_empty_command_file_is_true",
              ["tree/sub", "-exec", empty, ";", "-print"])


def one_directory_per_batch(runs: list) -> list[str]:
    """-execdir +: every argument is ./NAME, run in that name's directory."""
    problems = []
    for directory, args in runs:
        for arg in args:
            if not arg.startswith(b"./") or b"/" in arg[2:]:
                problems.append(f"argument {common.escape(arg)} is not ./NAME")
            elif not os.path.lexists(os.path.join(directory, arg)) and arg != b"./tree":
                problems.append(f"{common.escape(arg)} does not exist in "
                                f"{common.escape(directory)}")
    return problems[:5]


def path_cases(r: Runner) -> None:
    """-execdir and -okdir refuse a PATH that searches the walked tree."""
    h = r.helper
    system_path = "/usr/local/bin:/usr/bin:/bin"
    for label, path in (("dot_first", ".:" + system_path), ("empty_middle", "/usr/bin::/bin"),
                        ("empty_last", system_path + ":"), ("empty_first", ":" + system_path),
                        ("relative", "bin:" + system_path), ("relative_dotdot", "../x:/bin"),
                        ("empty", "")):
        for action in ("-execdir", "-okdir"):
            env = common.base_env(PATH=path)
            r.compare(f"{action[1:]}_refuses_path_{label}",
                      ["tree", "-exec", h, "{}", ";", action, "true", "{}", ";"], env=env)
    # The same PATH is fine for -exec, which runs from ufind's directory.
    r.compare("exec_accepts_relative_path",
              ["tree/sub", "-exec", h, "{}", ";"], env=common.base_env(PATH="bin:/usr/bin:/bin"))


# find's cap on the argument bytes of one batch (its "sensible" ARG_MAX).
BATCH_CAP = 128 * 1024


def batch_cases(r: Runner) -> None:
    """Thousands of long names: several batches, each name once, all started."""
    many = os.path.join(r.tree, "many")
    os.makedirs(many)
    count = 3000
    for i in range(count):
        name = f"{i:05d}-" + "n" * 230  # 236 bytes; with "tree/many/", 246
        with open(os.path.join(many, name), "wb"):
            pass
    h = r.helper

    def batches_within_cap(runs: list) -> list[str]:
        problems = []
        for _, args in runs:
            size = sum(len(a) + 1 + 8 for a in args)
            if size > BATCH_CAP:
                problems.append(f"a batch of {len(args)} arguments takes {size} bytes "
                                f"(cap {BATCH_CAP})")
        if len(runs) < 2:
            problems.append(f"{len(runs)} batch(es) for {count} long names")
        return problems[:5]

    r.compare("exec_batch_many_long_names_several_batches",
              ["tree/many", "-type", "f", "-exec", h, "{}", "+"], batches=True,
              check=batches_within_cap)
    r.compare("execdir_batch_many_long_names_several_batches",
              ["tree/many", "-type", "f", "-execdir", h, "{}", "+"], batches=True,
              check=batches_within_cap)
    # 14 variables of 127 KiB (one string may not exceed 128 KiB): about
    # 1.8 MB of the 2 MB the kernel allows for arguments and environment
    # together, so a batch of 128 KiB would not fit and exec would fail with
    # E2BIG.
    env = common.base_env()
    for i in range(14):
        env[f"SAFETY_FILL_{i}"] = "e" * (127 * 1024)
    r.compare("exec_batch_fits_beside_large_environment",
              ["tree/many", "-type", "f", "-exec", h, "{}", "+"], env=env, batches=True)
    common.remove_tree(many)


def renaming_cases(r: Runner) -> None:
    """A command that renames a directory before the walk goes into it: find
    then fails to enter it ("No such file or directory") and never lists
    what was inside.  Depth-first walks that look ahead open subdirectories
    before their entries come up; ufind turns that off for -exec and
    -execdir, so bfs and dfs must still see what find sees: the same
    output, messages and status, and the same tree afterwards.  (ids and
    eds read the top of the tree again in every round, and a later round
    finds the directory under its new name: not find's behaviour, by
    design of those strategies.)"""
    source = os.path.join(r.scratch, "renamed-source")
    for item in ("a/x/deep", "a/y", "b/z", "c"):
        os.makedirs(os.path.join(source, item))
    with open(os.path.join(source, "a", "x", "file"), "wb"):
        pass
    work = os.path.join(r.scratch, "renamed")
    cases = (
        ("exec_renames_directory_before_descent",
         ["renamed", "-name", "a", "-type", "d", "-exec", "/bin/mv", "{}", "{}.moved", ";",
          "-print"]),
        ("execdir_renames_directory_before_descent",
         ["renamed", "-name", "x", "-type", "d", "-execdir", "/bin/mv", "{}", "gone", ";",
          "-print"]),
    )
    env = common.base_env()
    for name, args in cases:
        common.copy_tree(source, work)
        want = common.run([common.FIND] + args, cwd=r.scratch, env=env)
        want_tree = common.snapshot(work)
        common.remove_tree(work)
        if b"No such file" not in want.stderr:
            r.report.check(name + " (oracle)", ["test is wrong: find entered the renamed "
                                                "directory: " + common.escape(want.stderr)])
            continue
        for strategy, backend in common.COMBINATIONS:
            if strategy not in ("bfs", "dfs"):
                continue
            common.copy_tree(source, work)
            got = common.run(common.ufind_argv(r.ufind, strategy, args), cwd=r.scratch,
                             env=dict(env, IOQ_BACKEND=backend))
            problems = []
            if sorted(got.stdout.split(b"\n")) != sorted(want.stdout.split(b"\n")):
                problems.append(f"stdout: find {common.escape(want.stdout)} "
                                f"ufind {common.escape(got.stdout)}")
            if common.normalise_messages(got.stderr) != common.normalise_messages(want.stderr):
                problems.append(f"stderr: find {common.escape(want.stderr)} "
                                f"ufind {common.escape(got.stderr)}")
            if got.status != want.status:
                problems.append(f"exit status: find {want.status}, ufind {got.status}")
            problems += common.diff_snapshots(want_tree, common.snapshot(work))
            common.remove_tree(work)
            r.report.check(f"{name} [{strategy} {backend}]", problems)
    common.remove_tree(source)


def run_tests(begun: common.Start, scratch: str) -> None:
    ufind, report, name_filter = begun.ufind, begun.report, begun.filter
    runner = Runner(os.path.abspath(ufind), scratch, report)
    original = runner.compare

    def filtered(name: str, *args, **kwargs) -> None:
        if name_filter in name:
            original(name, *args, **kwargs)
    runner.compare = filtered
    exec_cases(runner)
    script_cases(runner)
    path_cases(runner)
    batch_cases(runner)
    renaming_cases(runner)


def main() -> int:
    return common.main_in_scratch("ufind-exec-", run_tests)


if __name__ == "__main__":
    sys.exit(main())
