#!/usr/bin/env python3
"""Differential test suite: ufind against GNU find, which is the oracle.

Every case is an argument list for both programs.  The suite builds one
awkward tree in a fresh temp dir (odd names, symlink loops, a fifo, a socket,
devices when it may create them, hard links, an unreadable directory), runs
GNU find and ufind on it with the same arguments, working directory, stdin and
environment, and compares what an outside observer can rely on:

    case --(ROOT -> tree path)--> argv --+--> find  --> stdout, status, stderr
                                         +--> ufind --> stdout, status, stderr
                                                  |
        sorted stdout records equal, same exit status, stderr empty in both
        or non-empty in both  <-----------------------+

Records are split on b'\\n', or on b'\\0' when the case uses -print0, then
sorted: the walk order is free (ufind reads directories concurrently), the set
of printed paths is not.  Stderr text is not compared, only whether there is
any, because message wording is not a contract.

The order is free only up to what find promises: a directory before what is
below it, or after it with -depth (-d).  That is checked on ufind's stdout as
printed: of two printed paths where one is an ancestor of the other, the
ancestor's first print comes before the other's first (pre-order), or its
last print after the other's last (post-order).

--strategy S runs ufind as "ufind -S S ARGS" (bfs, dfs, ids, eds): every
strategy owes find's output.  find gets ARGS alone.

The tree holds a tmpfs mount (mnt/) for the -xdev cases: the suite enters a
mount namespace of its own first (unshare), so nothing outside it sees the
mount, and it vanishes with the suite.  Where that is not allowed (not root),
a note says so and mnt/ is a plain directory: the -xdev cases still compare
the two programs, on one file system.

Cases marked error=True protect command-line errors: both programs must exit
with status 1, print nothing on stdout and explain themselves on stderr.

Cases marked tty=True run with a pseudo-terminal on stdin.  GNU find prints
its warnings (such as -maxdepth given after a test) only when stdin is a
terminal; every other case runs with stdin on /dev/null, where it is silent.

Usage:
    python3 differential.py --ufind PATH [--find find] [--strategy S]
                            [--filter SUBSTR] [-v]

The environment is passed through to both programs (IOQ_BACKEND selects the
ufind backend), except that LC_ALL is forced to C and POSIXLY_CORRECT is
removed: GNU find's matching (-iname folding, what `?` matches in a multibyte
name) and its warnings depend on them, and the oracle must be fixed.

Output: one FAIL line per failing case with its command line, followed by an
indented unified diff of the sorted stdout records and the exit statuses; -v
also lists passing cases and prints ufind's message for error cases.  Lines
starting "note:" say what the tree lacks on this machine (devices need
CAP_MKNOD).  The last line is exactly "N passed, M failed"; the exit status is
1 if any case failed.

Only the Python 3.11 standard library is used (Debian 12's /usr/bin/python3).
"""

from __future__ import annotations

import argparse
import ctypes
import dataclasses
import difflib
import os
import shlex
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time

# A hang is a failure; the whole suite runs in a few seconds, so 20 s per run
# only ever triggers on a real hang.
TIMEOUT_SECONDS = 20

# NAME_MAX on Linux file systems: the longest single name a directory can hold.
LONG_NAME = "long_" + "x" * 250
assert len(LONG_NAME.encode()) == 255


# --------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Case:
    """One comparison: argv after the program name.

    In argv the token ROOT (alone, or as the prefix of "ROOT/...") stands for
    the absolute path of the tree.  cwd is "parent" (the temp dir holding the
    tree) or "tree" (the tree itself, for relative starting points).
    """
    name: str
    argv: tuple[str, ...]
    cwd: str = "parent"
    error: bool = False
    tty: bool = False

    @property
    def uses_print0(self) -> bool:
        return "-print0" in self.argv

    @property
    def post_order(self) -> bool:
        """Whether find prints directories after their contents (-depth, -d)."""
        return "-depth" in self.argv or "-d" in self.argv


def case(name: str, *argv: str, cwd: str = "parent", error: bool = False,
         tty: bool = False) -> Case:
    return Case(name, tuple(argv), cwd, error, tty)


def rel(name: str, *argv: str, **kwargs) -> Case:
    """A case run from inside the tree, with relative starting points."""
    return case(name, *argv, cwd="tree", **kwargs)


def err(name: str, *argv: str, **kwargs) -> Case:
    """A command-line error: status 1, empty stdout, a message on stderr."""
    return case(name, *argv, error=True, **kwargs)


STARTING_POINTS = [
    rel("no_starting_point_defaults_to_dot"),
    rel("expression_without_starting_point_defaults_to_dot", "-name", "*.c"),
    rel("dot_starting_point_prefixes_paths_with_dot", "."),
    rel("dot_slash_starting_point_keeps_its_slash", "./"),
    rel("relative_subdir_starting_point", "sub/dir"),
    rel("relative_subdir_with_trailing_slash", "sub/dir/"),
    rel("relative_path_with_dot_components_kept_verbatim", "./sub/./dir"),
    rel("dotdot_starting_point_walks_parent", ".."),
    rel("starting_point_with_leading_dash_given_as_dot_slash", "./names/-rf"),
    rel("several_relative_starting_points", "a", "sub/dir", "empty"),
    rel("missing_relative_starting_point_reported_others_walked", "nope", "sub"),
    case("absolute_root_lists_whole_tree", "ROOT"),
    case("root_with_trailing_slash_keeps_single_slash", "ROOT/"),
    case("root_with_double_trailing_slash", "ROOT//"),
    case("root_with_dot_component", "ROOT/."),
    case("root_with_dotdot_component", "ROOT/sub/.."),
    case("several_starting_points_each_walked", "ROOT/a", "ROOT/sub"),
    case("same_starting_point_twice_is_walked_twice", "ROOT/sub", "ROOT/sub"),
    case("missing_first_starting_point_reported_others_walked",
         "ROOT/nope", "ROOT/sub"),
    case("missing_last_starting_point_reported_others_walked",
         "ROOT/sub", "ROOT/nope"),
    case("only_missing_starting_point_exits_1", "ROOT/nope"),
    case("empty_string_starting_point_is_an_error", "", "ROOT/sub"),
    case("mixed_file_dir_link_missing_starting_points",
         "ROOT/top.c", "ROOT/links", "ROOT/nope", "ROOT/empty"),
    case("file_starting_point_prints_the_file", "ROOT/top.c"),
    case("file_starting_point_with_trailing_slash_is_an_error", "ROOT/top.c/"),
    case("symlink_to_dir_starting_point_is_not_followed", "ROOT/links/to_dir"),
    case("symlink_to_dir_with_trailing_slash_is_followed", "ROOT/links/to_dir/"),
    case("symlink_to_file_starting_point_printed", "ROOT/links/to_file"),
    case("broken_symlink_starting_point_printed", "ROOT/links/broken"),
    case("looping_symlink_starting_point_printed", "ROOT/links/loop_a"),
    case("looping_symlink_with_trailing_slash_is_an_error",
         "ROOT/links/loop_a/"),
    case("fifo_starting_point_is_not_opened", "ROOT/special/fifo", "-type", "p"),
    case("close_paren_before_expression_is_a_starting_point", "ROOT/sub", ")"),
    case("comma_before_expression_is_a_starting_point", "ROOT/sub", ","),
    case("unreadable_dir_starting_point", "ROOT/locked"),
    case("unreadable_dir_contents_when_walking", "ROOT/locked", "-type", "f"),
    case("unicode_starting_point", "ROOT/names/日本"),
    case("long_name_starting_point", "ROOT/names/" + LONG_NAME),
    case("hidden_dir_starting_point", "ROOT/.hidden_dir"),
    case("empty_dir_starting_point_prints_itself", "ROOT/empty"),
]

NAME = [
    case("name_star_suffix_matches_extension", "ROOT", "-name", "*.c"),
    case("name_is_case_sensitive", "ROOT", "-name", "*.C"),
    case("name_exact_match", "ROOT", "-name", "leaf.txt"),
    case("name_matches_directories_too", "ROOT", "-name", "dir"),
    case("name_matches_symlinks_themselves", "ROOT", "-name", "to_*"),
    case("name_star_matches_leading_dot", "ROOT", "-name", "*hidden*"),
    case("name_dot_star_matches_hidden_entries", "ROOT", "-name", ".*"),
    case("name_dotdot_prefix", "ROOT", "-name", "..*"),
    case("name_star_alone_matches_everything", "ROOT", "-name", "*"),
    case("name_question_matches_one_char", "ROOT", "-name", "?1.c"),
    case("name_only_questions_match_by_length", "ROOT", "-name", "??"),
    case("name_bracket_set", "ROOT", "-name", "[ab]1.c"),
    case("name_bracket_range", "ROOT", "-name", "[a-c]*"),
    case("name_bracket_negation_with_bang", "ROOT", "-name", "[!abc]*.c"),
    case("name_bracket_negation_with_caret", "ROOT", "-name", "[^abc]*.c"),
    case("name_bracket_digit_class", "ROOT", "-name", "file[[:digit:]]"),
    case("name_bracket_upper_class", "ROOT", "-name", "[[:upper:]]*"),
    case("name_bracket_close_bracket_first_is_literal", "ROOT", "-name", "[]x]*"),
    case("name_bracket_pattern_matches_single_letter", "ROOT", "-name", "[a]"),
    case("name_escaped_brackets_match_literally", "ROOT", "-name", "\\[a\\]"),
    case("name_open_bracket_in_set_matches_literally", "ROOT", "-name", "[[]a]"),
    case("name_unclosed_bracket_matches_literally", "ROOT", "-name", "[unclosed"),
    case("name_star_pattern_also_matches_literal_star", "ROOT", "-name", "star*"),
    case("name_escaped_star_matches_only_literal_star", "ROOT", "-name", "star\\*"),
    case("name_question_pattern_also_matches_literal_question",
         "ROOT", "-name", "ques?"),
    case("name_escaped_question_matches_only_literal_question",
         "ROOT", "-name", "ques\\?"),
    case("name_escaped_backslash_matches_backslash",
         "ROOT", "-name", "back\\\\slash"),
    case("name_star_backslash_star", "ROOT", "-name", "*\\\\*"),
    case("name_escaped_ordinary_char_matches_itself", "ROOT", "-name", "\\top.c"),
    case("name_trailing_lone_backslash_does_not_match_backslash",
         "ROOT", "-name", "back\\"),
    case("name_with_space", "ROOT", "-name", "with space"),
    case("name_with_newline", "ROOT", "-name", "new\nline"),
    case("name_glob_around_tab", "ROOT", "-name", "*\t*"),
    case("name_with_leading_dash", "ROOT", "-name", "-rf"),
    case("name_argument_spelled_like_a_primary", "ROOT", "-name", "-name"),
    case("name_unicode_exact", "ROOT", "-name", "café"),
    case("name_unicode_glob", "ROOT", "-name", "日*"),
    case("name_question_does_not_match_two_byte_char_in_c_locale",
         "ROOT", "-name", "caf?"),
    case("name_two_questions_match_two_byte_char_in_c_locale",
         "ROOT", "-name", "caf??"),
    case("name_255_byte_name", "ROOT", "-name", "long_*"),
    case("name_glob_matches_non_utf8_name", "ROOT", "-name", "bad*"),
    case("name_question_matches_non_utf8_byte",
         "ROOT", "-name", os.fsdecode(b"bad?byte")),
    case("name_exact_non_utf8_byte", "ROOT", "-name", os.fsdecode(b"bad\xffbyte")),
    case("name_empty_pattern_matches_nothing", "ROOT", "-name", ""),
    case("name_matches_starting_point_basename", "ROOT/sub", "-name", "sub"),
    case("name_ignores_trailing_slash_of_starting_point",
         "ROOT/sub/", "-name", "sub"),
    rel("name_dot_matches_dot_starting_point", ".", "-name", "."),
    case("name_pattern_with_slash_never_matches", "ROOT", "-name", "sub/dir"),
    case("name_pattern_with_slash_warns_on_tty", "ROOT", "-name", "sub/dir",
         tty=True),
]

INAME = [
    case("iname_folds_ascii_case", "ROOT", "-iname", "*.c"),
    case("iname_upper_pattern_matches_mixed_name", "ROOT", "-iname", "README.MD"),
    case("iname_lower_pattern_matches_camel_case", "ROOT", "-iname", "camelcase.txt"),
    case("iname_folds_bracket_ranges", "ROOT", "-iname", "[A-C]*"),
    case("iname_negated_set_folds_case", "ROOT", "-iname", "[!A]?.C"),
    case("iname_matches_directories", "ROOT", "-iname", "DIR"),
    case("iname_does_not_fold_non_ascii_in_c_locale", "ROOT", "-iname", "CAFÉ"),
]

PATH = [
    case("path_star_crosses_slashes", "ROOT", "-path", "*/sub/*"),
    case("path_matches_starting_point_itself", "ROOT", "-path", "ROOT"),
    case("path_anchored_at_root", "ROOT", "-path", "ROOT/a/*"),
    case("path_without_leading_star_must_match_whole_path",
         "ROOT", "-path", "sub/*"),
    case("path_question_and_brackets", "ROOT", "-path", "*/[ab]/?1.c"),
    case("path_hidden_components", "ROOT", "-path", "*/.*"),
    case("path_is_case_sensitive", "ROOT", "-path", "*/A/*"),
    case("path_glob_around_newline", "ROOT", "-path", "*\n*"),
    case("path_matches_symlinks", "ROOT", "-path", "*/links/*"),
    case("path_sees_trailing_slash_of_starting_point",
         "ROOT/", "-path", "*/s*"),
    case("path_ending_in_slash_warns_and_matches_nothing",
         "ROOT", "-path", "*/"),
    rel("path_relative_to_dot", ".", "-path", "./sub*"),
    rel("path_relative_subdir", "sub/dir", "-path", "sub/dir/*"),
]

TYPE = [
    case("type_f_regular_files", "ROOT", "-type", "f"),
    case("type_d_directories", "ROOT", "-type", "d"),
    case("type_l_symlinks_not_followed", "ROOT", "-type", "l"),
    case("type_b_block_devices", "ROOT", "-type", "b"),
    case("type_c_char_devices", "ROOT", "-type", "c"),
    case("type_p_fifos", "ROOT", "-type", "p"),
    case("type_s_sockets", "ROOT", "-type", "s"),
    case("type_list_f_d", "ROOT", "-type", "f,d"),
    case("type_list_l_p_s", "ROOT", "-type", "l,p,s"),
    case("type_list_b_c", "ROOT", "-type", "b,c"),
    case("type_list_every_letter", "ROOT", "-type", "f,d,l,b,c,p,s"),
    case("type_negated", "ROOT", "!", "-type", "d"),
    case("type_l_on_symlink_starting_point", "ROOT/links/to_dir", "-type", "l"),
    case("type_d_on_symlink_starting_point_with_slash",
         "ROOT/links/to_dir/", "-type", "d"),
    case("type_and_name_combined", "ROOT", "-type", "f", "-name", "*.txt"),
    rel("type_d_relative", ".", "-type", "d"),
]

DEPTH = [
    case("maxdepth_0_prints_only_starting_point", "ROOT", "-maxdepth", "0"),
    case("maxdepth_0_with_several_starting_points",
         "ROOT/a", "ROOT/top.c", "ROOT/links/to_dir", "-maxdepth", "0"),
    case("maxdepth_1", "ROOT", "-maxdepth", "1"),
    case("maxdepth_2", "ROOT", "-maxdepth", "2"),
    case("maxdepth_10_deeper_than_tree", "ROOT", "-maxdepth", "10"),
    case("maxdepth_with_leading_zero", "ROOT", "-maxdepth", "01"),
    case("maxdepth_repeated_last_wins", "ROOT", "-maxdepth", "3", "-maxdepth", "1"),
    case("mindepth_1_omits_starting_point", "ROOT", "-mindepth", "1"),
    case("mindepth_2_maxdepth_3_window", "ROOT", "-mindepth", "2", "-maxdepth", "3"),
    case("mindepth_5_reaches_deepest_levels", "ROOT", "-mindepth", "5"),
    case("mindepth_above_maxdepth_prints_nothing",
         "ROOT", "-mindepth", "5", "-maxdepth", "2"),
    case("mindepth_beyond_tree_prints_nothing", "ROOT", "-mindepth", "20"),
    case("mindepth_1_on_file_starting_point_prints_nothing",
         "ROOT/top.c", "-mindepth", "1"),
    case("maxdepth_0_on_file_starting_point", "ROOT/top.c", "-maxdepth", "0"),
    case("maxdepth_with_name", "ROOT", "-maxdepth", "2", "-name", "*.c"),
    case("maxdepth_after_test_silent_without_tty",
         "ROOT", "-name", "*.c", "-maxdepth", "1"),
    case("maxdepth_after_test_warns_on_tty",
         "ROOT", "-name", "*.c", "-maxdepth", "1", tty=True),
    case("mindepth_after_test_warns_on_tty",
         "ROOT", "-type", "f", "-mindepth", "3", tty=True),
    case("maxdepth_before_test_silent_on_tty",
         "ROOT", "-maxdepth", "1", "-name", "*.c", tty=True),
    case("maxdepth_after_print_on_tty", "ROOT", "-print", "-maxdepth", "0",
         tty=True),
    case("maxdepth_inside_parentheses", "ROOT", "(", "-maxdepth", "1", ")"),
    rel("maxdepth_1_relative", ".", "-maxdepth", "1"),
    rel("mindepth_2_relative_subdir", "sub", "-mindepth", "2"),
]

PRINT = [
    case("print_explicit", "ROOT", "-print"),
    case("print_twice_prints_each_path_twice", "ROOT/sub", "-print", "-print"),
    case("print_after_test_suppresses_implicit_print",
         "ROOT", "-name", "*.c", "-print"),
    case("print_before_test_prints_everything", "ROOT", "-print", "-name", "*.c"),
    case("print_in_each_or_branch",
         "ROOT", "-name", "*.c", "-print", "-o", "-name", "*.h", "-print"),
    case("print0_separates_with_nul", "ROOT", "-print0"),
    case("print0_keeps_newline_names_whole", "ROOT/names", "-print0"),
    case("print0_with_name", "ROOT", "-name", "*.txt", "-print0"),
    case("print0_binds_to_right_or_branch",
         "ROOT", "-name", "*.c", "-o", "-name", "new*", "-print0"),
    case("print_and_print0_mixed", "ROOT/sub", "-print", "-print0"),
    rel("print0_relative", ".", "-type", "f", "-print0"),
]

PRUNE = [
    case("prune_skips_named_dirs", "ROOT", "-name", "sub", "-prune", "-o", "-print"),
    case("prune_alone_prints_only_starting_point", "ROOT", "-prune"),
    case("prune_with_mindepth_1_prints_first_level",
         "ROOT", "-mindepth", "1", "-prune"),
    case("prune_by_path_then_print_files",
         "ROOT", "-path", "*/a/b", "-prune", "-o", "-type", "f", "-print"),
    case("prune_on_files_only_returns_true", "ROOT", "-name", "*.c", "-prune"),
    case("prune_then_print_prints_pruned_dirs",
         "ROOT", "-name", "sub", "-prune", "-print"),
    case("prune_hidden_dirs",
         "ROOT", "-name", ".*", "-prune", "-o", "-type", "f", "-print"),
    case("prune_negated_still_prunes", "ROOT", "!", "-prune"),
    case("prune_with_maxdepth",
         "ROOT", "-maxdepth", "2", "-name", "b", "-prune", "-o", "-print"),
    case("prune_before_comma_then_name",
         "ROOT", "-name", "sub", "-prune", ",", "-name", "*.c"),
    case("prune_does_not_descend_into_symlink_dir",
         "ROOT", "-type", "l", "-prune", "-o", "-name", "leaf.txt", "-print"),
    rel("prune_dot_start_matching_hidden_pattern_prunes_everything",
        ".", "-name", ".*", "-prune", "-o", "-type", "f", "-print"),
    rel("prune_relative_dir", ".", "-name", "dir", "-prune", "-o",
        "-name", "*.txt", "-print"),
]

# -quit makes the output depend on walk order unless the stop point is
# certain: the starting point itself, or the only match.  Searches for the
# only match start at a/, not at the root, because when the suite runs as a
# non-root user the walk order would decide whether the unreadable locked/
# was reached (and reported) before the match.
QUIT = [
    case("quit_alone_prints_nothing", "ROOT", "-quit"),
    case("quit_after_print_prints_starting_point_only", "ROOT", "-print", "-quit"),
    case("quit_with_maxdepth_0", "ROOT", "-maxdepth", "0", "-print", "-quit"),
    case("quit_after_unique_match",
         "ROOT/a", "-name", "uniquefile", "-print", "-quit"),
    case("quit_after_unique_match_print0",
         "ROOT/a", "-name", "uniquefile", "-print0", "-quit"),
    case("quit_skips_later_starting_points",
         "ROOT/sub", "ROOT/a", "-print", "-quit"),
    case("quit_never_reached_walks_everything", "ROOT", "-name", "nomatch", "-quit"),
    case("quit_keeps_error_status_of_missing_starting_point",
         "ROOT/nope", "ROOT", "-print", "-quit"),
    case("quit_on_file_starting_point", "ROOT/top.c", "ROOT/a", "-print", "-quit"),
    rel("quit_relative", ".", "-print", "-quit"),
    rel("quit_after_unique_match_relative",
        "a", "-name", "uniquefile", "-print", "-quit"),
    rel("quit_without_starting_point", "-print", "-quit"),
]

OPERATORS = [
    case("true_prints_everything", "ROOT", "-true"),
    case("false_prints_nothing", "ROOT", "-false"),
    case("bang_negates", "ROOT", "!", "-name", "*.c"),
    case("not_negates", "ROOT", "-not", "-name", "*.c"),
    case("double_bang_cancels", "ROOT", "!", "!", "-name", "*.c"),
    case("double_not_cancels", "ROOT", "-not", "-not", "-type", "d"),
    case("a_is_and", "ROOT", "-type", "f", "-a", "-name", "*.c"),
    case("and_word_is_and", "ROOT", "-type", "f", "-and", "-name", "*.h"),
    case("juxtaposition_is_and", "ROOT", "-type", "d", "-name", "[a-e]"),
    case("o_is_or", "ROOT", "-name", "*.c", "-o", "-name", "*.h"),
    case("or_word_is_or", "ROOT", "-name", "*.txt", "-or", "-type", "l"),
    case("and_binds_tighter_than_or",
         "ROOT", "-type", "d", "-o", "-name", "*.c", "-name", "a*"),
    case("explicit_and_binds_tighter_than_or",
         "ROOT", "-name", "*.h", "-o", "-type", "f", "-a", "-name", "b*"),
    case("parentheses_override_precedence",
         "ROOT", "(", "-name", "*.c", "-o", "-name", "*.h", ")", "-type", "f"),
    case("nested_parentheses",
         "ROOT", "(", "(", "-name", "a*", ")", "-o",
         "(", "-name", "b*", "-type", "f", ")", ")"),
    case("bang_applies_to_parenthesised_group",
         "ROOT", "!", "(", "-type", "d", "-o", "-type", "l", ")"),
    case("not_binds_tighter_than_and",
         "ROOT", "-not", "-type", "d", "-name", "*.c"),
    case("comma_returns_right_operand", "ROOT", "-name", "*.c", ",", "-name", "*.h"),
    case("comma_evaluates_both_sides",
         "ROOT", "-name", "*.c", "-print", ",", "-name", "*.h", "-print"),
    case("comma_binds_looser_than_or",
         "ROOT", "-false", "-o", "-name", "*.c", ",", "-type", "d"),
    case("comma_inside_parentheses",
         "ROOT", "(", "-name", "x.c", ",", "-type", "l", ")", "-print"),
    case("or_short_circuit_skips_print", "ROOT", "-true", "-o", "-print"),
    case("and_short_circuit_skips_print", "ROOT", "-false", "-a", "-print"),
    case("or_with_false_right_operand", "ROOT", "-type", "d", "-o", "-false"),
    case("negated_print_still_prints", "ROOT", "!", "-print"),
    case("print_then_false_in_or", "ROOT", "-print", "-false", "-o", "-name", "*.c"),
    case("mixed_depth_prune_or_print",
         "ROOT", "-mindepth", "1", "-maxdepth", "3",
         "(", "-type", "d", "-name", "[ab]", "-prune", ")", "-o",
         "(", "-type", "f", "-o", "-type", "l", ")", "-print"),
    case("iname_or_path_with_negation",
         "ROOT", "-iname", "*.md", "-o", "!", "-path", "*/names/*", "-type", "p"),
    rel("operators_relative",
        ".", "(", "-name", "*.c", "-o", "-name", "*.txt", ")",
        "!", "-path", "./sub/*"),
]

ERRORS = [
    err("error_unknown_primary", "ROOT", "-nmae", "x"),
    err("error_unknown_primary_without_starting_point", "-nmae", "x", cwd="tree"),
    err("error_double_dash_primary", "ROOT", "--name", "x"),
    err("error_missing_argument_to_name", "ROOT", "-name"),
    err("error_missing_argument_to_iname", "ROOT", "-iname"),
    err("error_missing_argument_to_path", "ROOT", "-path"),
    err("error_missing_argument_to_type", "ROOT", "-type"),
    err("error_missing_argument_to_maxdepth", "ROOT", "-maxdepth"),
    err("error_missing_argument_to_mindepth", "ROOT", "-mindepth"),
    err("error_type_bad_letter", "ROOT", "-type", "z"),
    err("error_type_door_unsupported_on_linux", "ROOT", "-type", "D"),
    err("error_type_letters_without_comma", "ROOT", "-type", "fd"),
    err("error_type_trailing_comma", "ROOT", "-type", "f,"),
    err("error_type_leading_comma", "ROOT", "-type", ",f"),
    err("error_type_duplicate_letter", "ROOT", "-type", "f,f"),
    err("error_type_empty", "ROOT", "-type", ""),
    err("error_maxdepth_not_a_number", "ROOT", "-maxdepth", "x"),
    err("error_maxdepth_negative", "ROOT", "-maxdepth", "-1"),
    err("error_maxdepth_trailing_garbage", "ROOT", "-maxdepth", "1x"),
    err("error_maxdepth_plus_sign", "ROOT", "-maxdepth", "+1"),
    err("error_maxdepth_leading_space", "ROOT", "-maxdepth", " 1"),
    err("error_mindepth_not_a_number", "ROOT", "-mindepth", "abc"),
    err("error_mindepth_fraction", "ROOT", "-mindepth", "1.5"),
    err("error_unbalanced_open_paren", "ROOT", "(", "-name", "x"),
    err("error_nested_unbalanced_open_paren", "ROOT", "(", "(", "-print", ")"),
    err("error_stray_close_paren_after_expression", "ROOT", "-name", "x", ")"),
    err("error_bang_at_end", "ROOT", "!"),
    err("error_not_at_end", "ROOT", "-name", "x", "-not"),
    err("error_or_at_start", "ROOT", "-o", "-name", "x"),
    err("error_and_at_start", "ROOT", "-a", "-name", "x"),
    err("error_or_at_end", "ROOT", "-name", "x", "-o"),
    err("error_and_at_end", "ROOT", "-print", "-a"),
    err("error_or_right_after_bang", "ROOT", "!", "-o", "-print"),
    err("error_or_before_close_paren", "ROOT", "(", "-print", "-o", ")"),
    err("error_comma_at_end", "ROOT", "-print", ","),
    err("error_empty_parentheses", "ROOT", "(", ")"),
    err("error_empty_parentheses_then_print", "ROOT", "(", ")", "-print"),
    err("error_path_after_expression", "ROOT", "-name", "a", "b"),
    err("error_quit_with_argument", "ROOT", "-quit", "extra"),
    err("error_unknown_primary_after_valid_ones",
        "ROOT", "-type", "f", "-o", "-bogus"),
]


# -depth (and its FreeBSD spelling -d): the same entries, directories after
# their contents; the order itself is checked on every case (see compare).
# -prune has no effect under -depth: the directory's contents were visited
# before it.
POST_ORDER = [
    case("depth_prints_whole_tree", "ROOT", "-depth"),
    case("depth_with_maxdepth_0", "ROOT", "-depth", "-maxdepth", "0"),
    case("depth_with_maxdepth_1", "ROOT", "-depth", "-maxdepth", "1"),
    case("depth_with_maxdepth_3", "ROOT", "-maxdepth", "3", "-depth"),
    case("depth_with_mindepth_2", "ROOT", "-depth", "-mindepth", "2"),
    case("depth_with_mindepth_maxdepth_window",
         "ROOT", "-mindepth", "2", "-maxdepth", "3", "-depth"),
    case("depth_with_mindepth_beyond_tree", "ROOT", "-depth", "-mindepth", "20"),
    case("depth_with_name", "ROOT", "-depth", "-name", "*.c"),
    case("depth_with_type_d", "ROOT", "-depth", "-type", "d"),
    case("depth_prune_or_print_still_descends",
         "ROOT", "-depth", "-name", "sub", "-prune", "-o", "-print"),
    case("depth_prune_and_print", "ROOT", "-depth", "-name", "b", "-prune", "-print"),
    case("depth_path_prune_or_files",
         "ROOT", "-depth", "(", "-path", "*/a/b", "-prune", ")", "-o",
         "-type", "f", "-print"),
    case("depth_after_test_is_still_global", "ROOT", "-name", "*.h", "-depth"),
    case("depth_after_test_warns_on_tty", "ROOT", "-name", "*.h", "-depth", tty=True),
    case("depth_print0", "ROOT", "-depth", "-print0"),
    case("depth_several_starting_points", "ROOT/a", "ROOT/sub", "ROOT/top.c", "-depth"),
    case("depth_missing_starting_point", "ROOT/nope", "ROOT/sub", "-depth"),
    case("depth_file_starting_point", "ROOT/top.c", "-depth"),
    case("depth_symlink_starting_point", "ROOT/links/to_dir", "-depth"),
    case("depth_quit_after_file_starting_point",
         "ROOT/top.c", "ROOT/a", "-depth", "-print", "-quit"),
    case("depth_unreadable_dir", "ROOT/locked", "-depth"),
    case("depth_with_L_and_loops", "-L", "ROOT", "-depth"),
    case("depth_with_xdev", "ROOT", "-xdev", "-depth"),
    case("d_is_depth", "ROOT", "-d"),
    case("d_with_maxdepth_2", "ROOT", "-d", "-maxdepth", "2"),
    case("d_with_name_and_mindepth", "ROOT", "-mindepth", "1", "-d", "-name", "[a-e]"),
    rel("depth_relative", ".", "-depth"),
    rel("depth_without_starting_point", "-depth", "-maxdepth", "2"),
]

# -P, -H, -L and -follow on the tree's links.  The tree has links to a
# directory, a file, nowhere, each other (loop_a <-> loop_b), an ancestor
# (links/up -> ..), the directory holding it (sub/dir/self -> .), and the
# mount (links/to_mnt): under -L the loops are errors on stderr and status 1
# in both programs, and nothing is printed twice.
FOLLOW = [
    case("P_is_the_default", "-P", "ROOT"),
    case("L_follows_links_and_reports_loops", "-L", "ROOT"),
    case("L_type_l_matches_only_broken_links", "-L", "ROOT", "-type", "l"),
    case("L_type_d_counts_links_to_dirs", "-L", "ROOT", "-type", "d"),
    case("L_type_f_counts_links_to_files", "-L", "ROOT", "-type", "f"),
    case("L_maxdepth_2", "-L", "ROOT", "-maxdepth", "2"),
    case("L_mindepth_3", "-L", "ROOT", "-mindepth", "3"),
    case("L_name_found_through_links", "-L", "ROOT", "-name", "leaf.txt"),
    case("L_prune_links_dir", "-L", "ROOT", "-name", "links", "-prune", "-o", "-print"),
    case("L_print0", "-L", "ROOT/links", "-print0"),
    case("L_link_to_dir_starting_point", "-L", "ROOT/links/to_dir"),
    case("L_link_to_file_starting_point", "-L", "ROOT/links/to_file"),
    case("L_broken_link_starting_point", "-L", "ROOT/links/broken"),
    case("L_looping_link_starting_point", "-L", "ROOT/links/loop_a"),
    case("L_ancestor_link_starting_point", "-L", "ROOT/links/up", "-maxdepth", "2"),
    case("L_self_link_dir", "-L", "ROOT/sub/dir"),
    case("L_self_link_starting_point", "-L", "ROOT/sub/dir/self"),
    case("L_looping_link_type_l", "-L", "ROOT/links/loop_a", "-type", "l"),
    case("L_mindepth_beyond_loops", "-L", "ROOT", "-mindepth", "4"),
    case("L_depth_maxdepth_1", "-L", "ROOT/links", "-depth", "-maxdepth", "1"),
    case("L_absolute_link", "-L", "ROOT/links/absolute_to_dir", "-name", "*.txt"),
    case("H_follows_link_starting_point", "-H", "ROOT/links/to_dir"),
    case("H_does_not_follow_links_below", "-H", "ROOT"),
    case("H_type_d_on_link_starting_point", "-H", "ROOT/links/to_dir", "-type", "d"),
    case("H_broken_link_starting_point", "-H", "ROOT/links/broken"),
    case("H_looping_link_starting_point", "-H", "ROOT/links/loop_a"),
    case("H_link_to_file_starting_point", "-H", "ROOT/links/to_file"),
    case("H_link_with_trailing_slash_starting_point", "-H", "ROOT/links/to_dir/"),
    case("H_self_link_starting_point", "-H", "ROOT/sub/dir/self", "-maxdepth", "1"),
    case("H_ancestor_link_starting_point", "-H", "ROOT/links/up", "-maxdepth", "1"),
    case("last_of_P_H_L_wins_L", "-P", "-H", "-L", "ROOT/links", "-maxdepth", "1"),
    case("last_of_L_P_wins_P", "-L", "-P", "ROOT"),
    case("last_of_L_H_wins_H", "-L", "-H", "ROOT/links", "ROOT/links/to_dir"),
    case("follow_is_like_L", "ROOT", "-follow"),
    case("follow_type_l_matches_only_broken_links", "ROOT", "-follow", "-type", "l"),
    case("follow_link_starting_point", "ROOT/links/to_dir", "-follow"),
    case("follow_with_maxdepth", "ROOT", "-maxdepth", "2", "-follow"),
    case("follow_after_test", "ROOT", "-type", "l", "-follow"),
    case("follow_after_name_test", "ROOT", "-name", "to_*", "-follow"),
    rel("L_relative", "-L", ".", "-maxdepth", "2"),
    rel("L_without_starting_point", "-L", "-maxdepth", "1"),
]

# -xtype with every letter: the type -type does not see.  Under -P a link's
# target (a broken link is itself, l), under -L the link itself.
XTYPE = (
    [case(f"xtype_{t}", "ROOT", "-xtype", t) for t in "fdlbcps"]
    + [case(f"L_xtype_{t}", "-L", "ROOT", "-xtype", t) for t in "fdlbcps"]
    + [
        case("xtype_list_every_letter", "ROOT", "-xtype", "f,d,l,b,c,p,s"),
        case("xtype_negated", "ROOT", "!", "-xtype", "l"),
        case("xtype_and_type_disagree_on_links", "ROOT", "-type", "l", "-xtype", "d"),
        case("H_xtype_l_on_link_starting_points",
             "-H", "ROOT/links/to_dir", "ROOT/links/to_file", "ROOT/links/broken",
             "ROOT/links/loop_a", "-maxdepth", "0", "-xtype", "l"),
        case("H_xtype_d_on_link_starting_point",
             "-H", "ROOT/links/to_dir", "-maxdepth", "0", "-xtype", "d"),
        case("xtype_on_broken_link_starting_point", "ROOT/links/broken", "-xtype", "l"),
        case("L_xtype_on_broken_link_starting_point",
             "-L", "ROOT/links/broken", "-xtype", "l"),
        case("follow_xtype_l", "ROOT", "-follow", "-xtype", "l"),
        err("error_xtype_bad_letter", "ROOT", "-xtype", "z"),
        err("error_missing_argument_to_xtype", "ROOT", "-xtype"),
        err("error_xtype_letters_without_comma", "ROOT", "-xtype", "fd"),
    ]
)

# -xdev and -mount: mnt/ is a tmpfs of its own when the suite may mount one
# (see the module doc); it is printed, its contents are not.
XDEV = [
    case("xdev_stays_on_the_starting_point_file_system", "ROOT", "-xdev"),
    case("mount_is_xdev", "ROOT", "-mount"),
    case("xdev_prints_mount_point_not_contents", "ROOT", "-xdev", "-path", "*mnt*"),
    case("without_xdev_mount_contents_are_walked", "ROOT", "-path", "*mnt*"),
    case("xdev_starting_point_inside_mount", "ROOT/mnt", "-xdev"),
    case("xdev_with_type_d", "ROOT", "-xdev", "-type", "d"),
    case("xdev_with_maxdepth", "ROOT", "-maxdepth", "1", "-xdev"),
    case("xdev_with_L_link_to_mount", "-L", "ROOT/links", "-xdev"),
    case("xdev_with_H_link_to_mount_starting_point", "-H", "ROOT/links/to_mnt", "-xdev"),
    case("xdev_after_test_warns_on_tty", "ROOT", "-name", "*.c", "-xdev", tty=True),
    case("mount_after_test_silent_without_tty", "ROOT", "-name", "*.c", "-mount"),
    rel("xdev_relative", ".", "-xdev", "-name", "*.c"),
]

# Options with nothing to change on a tree that holds still: the output must
# not change either.
OTHER_OPTIONS = [
    case("ignore_readdir_race_on_a_still_tree", "ROOT", "-ignore_readdir_race"),
    case("ignore_readdir_race_still_reports_missing_starting_point",
         "ROOT/nope", "ROOT/sub", "-ignore_readdir_race"),
    case("ignore_readdir_race_unreadable_dir", "ROOT/locked", "-ignore_readdir_race"),
    case("noignore_readdir_race_on_a_still_tree", "ROOT", "-noignore_readdir_race"),
    case("ignore_then_noignore_readdir_race",
         "ROOT", "-ignore_readdir_race", "-noignore_readdir_race", "-name", "*.c"),
    case("ignore_readdir_race_after_test_warns_on_tty",
         "ROOT", "-name", "*.c", "-ignore_readdir_race", tty=True),
    case("noleaf_on_the_tree", "ROOT", "-noleaf"),
    case("noleaf_with_L_type_d", "-L", "ROOT", "-noleaf", "-type", "d"),
    case("noleaf_after_test_warns_on_tty", "ROOT", "-type", "f", "-noleaf", tty=True),
]


def from_dot(base: Case) -> Case:
    """The same case run from inside the tree with "." as starting point."""
    assert base.argv.count("ROOT") == 1
    assert not any(a.startswith("ROOT/") for a in base.argv)
    argv = tuple("." if a == "ROOT" else a for a in base.argv)
    return dataclasses.replace(base, name=base.name + "_from_dot",
                               argv=argv, cwd="tree")


# Cases worth repeating with a relative starting point: output paths then
# start with "./", which exercises path joining from a short prefix.
FROM_DOT = [
    "name_star_suffix_matches_extension",
    "name_dot_star_matches_hidden_entries",
    "name_with_newline",
    "iname_folds_ascii_case",
    "path_star_crosses_slashes",
    "type_l_symlinks_not_followed",
    "type_list_every_letter",
    "maxdepth_2",
    "mindepth_2_maxdepth_3_window",
    "prune_skips_named_dirs",
    "print0_separates_with_nul",
    "comma_evaluates_both_sides",
    "nested_parentheses",
    "mixed_depth_prune_or_print",
    "error_unbalanced_open_paren",
    "depth_with_mindepth_maxdepth_window",
    "L_maxdepth_2",
    "xtype_l",
    "xdev_stays_on_the_starting_point_file_system",
]


def all_cases() -> list[Case]:
    cases = (STARTING_POINTS + NAME + INAME + PATH + TYPE + DEPTH + PRINT
             + PRUNE + QUIT + OPERATORS + ERRORS + POST_ORDER + FOLLOW + XTYPE
             + XDEV + OTHER_OPTIONS)
    by_name = {c.name: c for c in cases}
    cases += [from_dot(by_name[n]) for n in FROM_DOT]
    names = [c.name for c in cases]
    duplicates = {n for n in names if names.count(n) > 1}
    assert not duplicates, f"duplicate case names: {sorted(duplicates)}"
    return cases


# --------------------------------------------------------------------------
# The tree
# --------------------------------------------------------------------------

def build_tree(tree: str) -> list[str]:
    """Create the test tree under `tree`; return notes on what was skipped.

    Depths below are counted from the tree root (depth 0):

        a/b/c/d/e/bottom.c      6 levels of nesting
        sub/dir/self -> .       a link to its own parent dir (cycle)
        links/up -> ..          a link to an ancestor (cycle)
        links/loop_a <-> loop_b a symlink loop
        names/                  every awkward name
        special/                fifo, socket, and devices when allowed
        locked/                 chmod 000 (still readable as root)
        mnt/                    a mount point (see mount_in_tree)
        links/to_mnt -> ../mnt  a link to it
    """
    notes: list[str] = []

    def mkdir(rel_path: str) -> None:
        os.makedirs(os.path.join(tree, rel_path), exist_ok=True)

    def touch(rel_path: str, content: str = "") -> None:
        path = os.path.join(tree, rel_path)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(content)

    def symlink(target: str, rel_path: str) -> None:
        os.symlink(target, os.path.join(tree, rel_path))

    for f in ("top.c", "top.h", "Makefile"):
        touch(f, f)
    for f in ("a/a1.c", "a/a2.C", "a/README.md", "a/b/b1.c", "a/b/b2.h",
              "a/b/c/c1.c", "a/b/c/uniquefile", "a/b/c/d/deep.txt",
              "a/b/c/d/e/bottom.c",
              "a/b/sub/s.c", "a/b/sub/s.txt",
              "sub/notes.txt", "sub/dir/leaf.txt", "sub/dir/inner/x.c",
              "sub/dir/inner/y.h", "e/e1.c", ".hidden_dir/inside.c",
              ".hidden_dir/.also_hidden"):
        touch(f, f)
    for d in ("empty", "a/b/c/d/empty_leaf", "sub/dir/inner/void"):
        mkdir(d)
    symlink(".", "sub/dir/self")

    names = ["with space", "new\nline", "tab\there", "-rf", "-name", "café",
             "日本", "日本.txt", "star*", "starry", "ques?", "quest", "[a]",
             "a", "[unclosed", "]x", "back\\slash", "back\\", ".hidden",
             "..foo", LONG_NAME, "CamelCase.TXT", "UPPER", "lower",
             "file1", "file2", "file10", "ab", "b1.c"]
    for n in names:
        touch(os.path.join("names", n), n)
    try:  # a name that is not UTF-8: ufind must treat names as bytes
        with open(os.path.join(os.fsencode(tree), b"names", b"bad\xffbyte"), "wb"):
            pass
    except OSError as e:  # some file systems insist on valid UTF-8
        notes.append(f"no non-UTF-8 name in tree: {e}")
    mkdir("names/dir with space")
    touch("names/dir with space/inner file")
    mkdir("names/-dashdir")

    mkdir("links")
    symlink("../a/a1.c", "links/to_file")
    symlink("../sub/dir", "links/to_dir")
    symlink("../nonexistent", "links/broken")
    symlink("loop_b", "links/loop_a")
    symlink("loop_a", "links/loop_b")
    symlink("..", "links/up")
    symlink(os.path.join(tree, "sub"), "links/absolute_to_dir")
    mkdir("mnt")
    symlink("../mnt", "links/to_mnt")

    mkdir("hard")
    touch("hard/orig.txt", "shared inode")
    os.link(os.path.join(tree, "hard/orig.txt"), os.path.join(tree, "hard/twin.txt"))
    os.link(os.path.join(tree, "hard/orig.txt"), os.path.join(tree, "a/far_twin.txt"))

    mkdir("special")
    os.mkfifo(os.path.join(tree, "special/fifo"))
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(os.path.join(tree, "special/sock"))
    except OSError as e:  # the path may exceed sun_path's 108 bytes
        notes.append(f"no socket in tree: {e}")
    finally:
        sock.close()
    for dev_name, kind, dev in (("chardev", stat.S_IFCHR, os.makedev(1, 3)),
                                ("blockdev", stat.S_IFBLK, os.makedev(7, 0))):
        try:
            os.mknod(os.path.join(tree, "special", dev_name), kind | 0o600, dev)
        except OSError as e:  # needs CAP_MKNOD; the cases then see none
            notes.append(f"no {dev_name} in tree: {e}")

    touch("locked/secret.txt", "secret")
    touch("locked/inner/hidden.c", "hidden")
    os.chmod(os.path.join(tree, "locked"), 0)
    return notes


# Linux's constants for unshare(2) and mount(2), which Python 3.11's os lacks.
CLONE_NEWNS = 0x00020000
MS_REC = 0x4000
MS_PRIVATE = 1 << 18
MNT_DETACH = 2


def libc_call(name: str, *args) -> str | None:
    """Calls a libc function; returns None, or why it failed."""
    libc = ctypes.CDLL(None, use_errno=True)
    if getattr(libc, name)(*args) != 0:
        return f"{name}: {os.strerror(ctypes.get_errno())}"
    return None


def enter_mount_namespace() -> str | None:
    """Makes this process's mounts its own and private (nothing mounted here
    propagates outside); returns None, or why it could not."""
    return (libc_call("unshare", CLONE_NEWNS)
            or libc_call("mount", b"none", b"/", None, MS_REC | MS_PRIVATE, None))


def mount_in_tree(tree: str) -> str | None:
    """Mounts a small tmpfs on tree/mnt and fills it; None, or why not."""
    mount_point = os.path.join(tree, "mnt")
    problem = libc_call("mount", b"ufind-diff", os.fsencode(mount_point), b"tmpfs", 0,
                        b"size=1m,mode=755")
    if problem:
        return problem
    os.makedirs(os.path.join(mount_point, "inner", "deeper"))
    for f in ("top.c", "inner/x.c", "inner/deeper/leaf.txt"):
        with open(os.path.join(mount_point, f), "w", encoding="utf-8") as out:
            out.write(f)
    return None


def remove_tree(parent: str) -> None:
    """Remove the temp dir, restoring permissions rmtree needs first."""
    mount_point = os.path.join(parent, "tree", "mnt")
    if os.path.ismount(mount_point):
        libc_call("umount2", os.fsencode(mount_point), MNT_DETACH)
    for dirpath, dirnames, _ in os.walk(parent):
        for d in dirnames:
            path = os.path.join(dirpath, d)
            if not os.path.islink(path):
                # Before os.walk descends: a non-root user cannot list locked/.
                os.chmod(path, 0o755)
    shutil.rmtree(parent)


# --------------------------------------------------------------------------
# Running and comparing
# --------------------------------------------------------------------------

@dataclasses.dataclass
class Outcome:
    stdout: bytes = b""
    stderr: bytes = b""
    status: int | None = None
    problem: str | None = None  # did not start, or timed out

    def describe_status(self) -> str:
        if self.problem:
            return self.problem
        if self.status is not None and self.status < 0:
            return f"killed by signal {-self.status}"
        return str(self.status)


def run_program(program: str, argv: list[str], cwd: str, env: dict[str, str],
                stdin_fd: int) -> Outcome:
    try:
        # A session of its own, so a timeout can kill any children too.
        proc = subprocess.Popen([program] + argv, cwd=cwd, env=env,
                                stdin=stdin_fd, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True)
    except OSError as e:
        return Outcome(problem=f"could not start: {e}")
    try:
        out, errout = proc.communicate(timeout=TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            out, errout = proc.communicate(timeout=5)
        except subprocess.TimeoutExpired:  # a child in another session holds the pipes
            out, errout = b"", b""
        return Outcome(out, errout, proc.returncode,
                       problem=f"timed out after {TIMEOUT_SECONDS} s")
    return Outcome(out, errout, proc.returncode)


def records(stdout: bytes, nul: bool) -> list[bytes]:
    """Sorted output records; an unterminated last record is marked."""
    pieces = stdout.split(b"\0" if nul else b"\n")
    last = pieces.pop()  # b"" when the output ends with its separator
    if last:
        pieces.append(last + b" [missing final separator]")
    return sorted(pieces)


def escape(data: bytes) -> str:
    """Readable one-line form of a record: control bytes become escapes."""
    text = data.decode("utf-8", errors="backslashreplace")
    out = []
    for ch in text:
        if ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\0":
            out.append("\\0")
        elif ord(ch) < 32 or ord(ch) == 127:
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(ch)
    return "".join(out)


def shell_quote(arg: str) -> str:
    """Quote for a shell, on one line: control chars and bytes that are not
    UTF-8 (surrogate-escaped in argv) use $'...' escapes."""
    if any(ord(ch) < 32 or ord(ch) == 127 or 0xDC80 <= ord(ch) <= 0xDCFF
           for ch in arg):
        body = escape(os.fsencode(arg)).replace("'", "\\'")
        return f"$'{body}'"
    return shlex.quote(arg)


def command_line(c: Case, argv: list[str], cwd: str) -> str:
    """The ufind command line (with its -S when --strategy was given)."""
    stdin = "" if c.tty else " </dev/null"
    words = ["ufind"] + [shell_quote(a) for a in argv]
    return (f"cd {shell_quote(cwd)} && " + " ".join(words) + stdin
            + (" (stdin is a tty)" if c.tty else ""))


def order_problem(c: Case, stdout: bytes) -> str | None:
    """The first pair of printed paths in the wrong order for find's walk:
    an ancestor after (pre-order) or before (post-order) what is below it.
    Paths printed more than once (two starting points, two -print) count
    by their first print in pre-order and their last in post-order."""
    pieces = stdout.split(b"\0" if c.uses_print0 else b"\n")
    first: dict[bytes, int] = {}
    last: dict[bytes, int] = {}
    for i, path in enumerate(pieces):
        first.setdefault(path, i)
        last[path] = i
    for path in first:
        for cut in range(1, len(path)):
            if path[cut:cut + 1] != b"/" or path[:cut] not in first:
                continue
            ancestor = path[:cut]
            if c.post_order and last[ancestor] < last[path]:
                return (f"-depth order: {escape(ancestor)} printed before "
                        f"{escape(path)}, which is below it")
            if not c.post_order and first[ancestor] > first[path]:
                return (f"order: {escape(path)} printed before its ancestor "
                        f"{escape(ancestor)}")
    return None


def compare(c: Case, find: Outcome, ufind: Outcome) -> list[str]:
    """Return the differences, as indented report lines; empty if it passed."""
    problems: list[str] = []
    for who, o in (("find", find), ("ufind", ufind)):
        if o.status is None:  # did not start: nothing else to compare
            return [f"{who}: {o.problem}"]
        if o.problem:
            problems.append(f"{who}: {o.problem}")

    find_records = records(find.stdout, c.uses_print0)
    ufind_records = records(ufind.stdout, c.uses_print0)
    if find_records != ufind_records:
        problems.extend(difflib.unified_diff(
            [escape(r) for r in find_records], [escape(r) for r in ufind_records],
            fromfile="find (sorted stdout)", tofile="ufind (sorted stdout)",
            lineterm=""))

    if ufind.stdout and (problem := order_problem(c, ufind.stdout)):
        problems.append(problem)

    if find.status != ufind.status:
        problems.append(f"exit status differs: find {find.describe_status()}, "
                        f"ufind {ufind.describe_status()}")

    def stderr_state(o: Outcome) -> str:
        return "non-empty" if o.stderr else "empty"
    if bool(find.stderr) != bool(ufind.stderr):
        problems.append(f"stderr differs: find {stderr_state(find)}, "
                        f"ufind {stderr_state(ufind)}")
        for who, o in (("find", find), ("ufind", ufind)):
            if o.stderr:
                problems.append(f"{who} stderr: {escape(o.stderr.rstrip())}")

    if c.error:
        for who, o in (("find", find), ("ufind", ufind)):
            if o.status != 1:
                problems.append(f"error case: {who} exit status "
                                f"{o.describe_status()}, expected 1")
            if o.stdout:
                problems.append(f"error case: {who} wrote to stdout")
            if not o.stderr:
                problems.append(f"error case: {who} gave no message on stderr")
    return problems


def substitute_root(argv: tuple[str, ...], tree: str) -> list[str]:
    out = []
    for a in argv:
        if a == "ROOT":
            out.append(tree)
        elif a.startswith("ROOT/"):
            out.append(tree + a[len("ROOT"):])
        else:
            out.append(a)
    return out


def warn_unless_gnu_find(program: str, env: dict[str, str]) -> None:
    """The cases encode GNU find 4.9 behaviour; say so if the oracle is not it."""
    try:
        version = subprocess.run([program, "--version"], env=env,
                                 stdin=subprocess.DEVNULL, capture_output=True,
                                 timeout=TIMEOUT_SECONDS).stdout
    except (OSError, subprocess.TimeoutExpired) as e:
        print(f"note: cannot ask {program} for its version: {e}")
        return
    first_line = version.split(b"\n", 1)[0].decode("utf-8", "backslashreplace")
    if b"GNU findutils" not in version:
        print(f"note: the oracle {program} is not GNU find: {first_line!r}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description="Compare ufind against GNU find on a generated tree.")
    parser.add_argument("--ufind", required=True, help="ufind executable")
    parser.add_argument("--find", default="find", help="GNU find (the oracle)")
    parser.add_argument("--strategy", choices=("hybrid", "bfs", "dfs", "ids", "eds"),
                        help="run ufind with -S STRATEGY (find gets the same "
                             "arguments without it)")
    parser.add_argument("--optimisation", choices=("0", "1", "2", "3"),
                        help="run ufind with -O LEVEL: the optimiser must not "
                             "change what is printed")
    parser.add_argument("--filter", default="",
                        help="run only cases whose name or argv contains SUBSTR",
                        metavar="SUBSTR")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="list passing cases and ufind's error messages")
    opts = parser.parse_args()
    # Names are escaped before printing, but the temp dir path is not: never
    # let an unusual TMPDIR and a non-UTF-8 terminal crash the report.
    sys.stdout.reconfigure(errors="backslashreplace")
    # Programs run with the case's working directory, so a relative path given
    # on our command line must be made absolute; a bare name is looked up in
    # PATH as usual.
    for attr in ("ufind", "find"):
        program = getattr(opts, attr)
        if os.sep in program:
            setattr(opts, attr, os.path.abspath(program))

    cases = [c for c in all_cases()
             if opts.filter in c.name or any(opts.filter in a for a in c.argv)]

    if not cases:
        print(f"note: no case matches --filter {opts.filter!r}")

    env = dict(os.environ)
    env["LC_ALL"] = "C"
    env.pop("POSIXLY_CORRECT", None)
    warn_unless_gnu_find(opts.find, env)

    ufind_prefix = ["-S", opts.strategy] if opts.strategy else []
    if opts.optimisation:
        ufind_prefix.append(f"-O{opts.optimisation}")
    # Before any thread or child exists: unshare refuses a threaded process.
    namespace_problem = enter_mount_namespace()

    started = time.monotonic()
    passed = failed = 0
    parent = tempfile.mkdtemp(prefix="ufind-diff-")
    tty_primary, tty_secondary = os.openpty()
    devnull = os.open(os.devnull, os.O_RDONLY)
    try:
        tree = os.path.join(parent, "tree")
        os.mkdir(tree)
        for note in build_tree(tree):
            print(f"note: {note}")
        mount_problem = namespace_problem or mount_in_tree(tree)
        if mount_problem:
            print(f"note: no mount in the tree ({mount_problem}); "
                  "the -xdev cases see one file system")
        for c in cases:
            argv = substitute_root(c.argv, tree)
            cwd = tree if c.cwd == "tree" else parent
            stdin_fd = tty_secondary if c.tty else devnull
            find = run_program(opts.find, argv, cwd, env, stdin_fd)
            ufind = run_program(opts.ufind, ufind_prefix + argv, cwd, env, stdin_fd)
            problems = compare(c, find, ufind)
            if problems:
                failed += 1
                print(f"FAIL {c.name}: {command_line(c, ufind_prefix + argv, cwd)}")
                for line in problems:
                    print(f"    {line}")
            else:
                passed += 1
                if opts.verbose:
                    print(f"ok   {c.name}: {command_line(c, ufind_prefix + argv, cwd)}")
                    if c.error:
                        print(f"    ufind says: {escape(ufind.stderr.rstrip())}")
            sys.stdout.flush()
    finally:
        os.close(devnull)
        os.close(tty_primary)
        os.close(tty_secondary)
        try:
            remove_tree(parent)
        except OSError as e:
            print(f"note: could not remove {parent}: {e}")

    if opts.verbose:
        print(f"ran {len(cases)} cases in {time.monotonic() - started:.1f} s")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
