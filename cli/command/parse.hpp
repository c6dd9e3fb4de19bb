// Parsing a find command line.
//
//   ufind [-H|-L|-P] [-D flags] [-Olevel] [-S hybrid|bfs|dfs|ids|eds] [-jN] [-s] [-EXx]
//         [-f path]
//         [path...] [expression]
//
// The grammar is GNU find's, loosest binding first:
//
//   expr    := or  { ',' or }
//   or      := and { ('-o' | '-or') and }
//   and     := unary { ['-a' | '-and'] unary }      (juxtaposition is -and)
//   unary   := ('!' | '-not') unary | '(' expr ')' | primary
//
// Starting points are the arguments before the first one that starts with
// '-' or is '(' or '!'.  Global options (-maxdepth, ...) may stand anywhere in
// the expression; they are taken out of the tree.  Errors are reported with
// find's wording and end the run with status 1 before anything is walked.
#pragma once

#include "expr/expr.hpp"
#include "output/output_files.hpp"

#include <ioq.h>

#include <time.h>

#include <memory>
#include <string>
#include <vector>

namespace ufind {

struct Command {
    std::vector<std::string> roots;
    std::unique_ptr<Expr> expr;
    int min_depth = 0;
    int max_depth = -1;  // no limit
    int threads = -1;    // -j: threads in all; -1 picks from the CPUs
    ioq_strategy strategy = IOQ_STRATEGY_HYBRID;
    bool post_order = false;   // -depth: directories after their contents
    ioq_symlinks symlinks = IOQ_SYMLINKS_PHYSICAL;  // -P, -H, -L, -follow
    bool same_device = false;  // -xdev, -mount
    bool sort_names = false;   // -s: sorted, deterministic output
    int optimisation_level = 1;  // -O: 0 evaluates tests in the order given
    bool ignore_readdir_race = false;  // files vanishing mid-walk are not errors
    bool debug_stats = false;  // -D stats, --stats: a report on stderr at exit
    // -color / -nocolor; automatic: when stdout is a terminal (path_display.hpp)
    enum class ColorMode : unsigned char { automatic, always, never };
    ColorMode color = ColorMode::automatic;
    bool status = false;       // -status: progress on the terminal's stderr
    // -delete, -execdir, -okdir: they act through the directory the walk
    // read (ioq_walk_entry_at), which the walk must then hold open.
    bool acts_in_place = false;
    // -exec, -execdir, -ok, -okdir, -delete: commands and deletions may
    // change the tree while it is walked, so the walk must not read a
    // directory before its entry was acted on (ioq_walk_options.look_ahead).
    bool changes_tree = false;
    // -exec, -execdir, -ok, -okdir: child processes, which share
    // RLIMIT_NPROC with the walk's threads (system/process_limit.hpp).
    bool runs_commands = false;
    bool warnings = false;     // -warn/-nowarn; default: stdin is a terminal
    unsigned stat_mask = 0;    // STATX_* fields the expression reads, 0 if none
    struct timespec start_time {};  // "now" for every time test and -ls
    std::string files0_from;   // -files0-from: file of NUL-separated starting points
    bool roots_given = false;  // starting points were on the command line
    // bfs's -exclude and -nohidden, or-ed: entries not visited (visit_filter.hpp)
    std::unique_ptr<Expr> exclude;
    bool unique = false;       // -unique: each file visited once
    bool xargs_safe = false;   // bfs's -X: names xargs would misread are errors
    bool ignore_errors = false;  // -noerror: errors counted, not printed
    // Destinations of -print and friends: standard output and -fprint files.
    std::unique_ptr<OutputFiles> outputs;
};

// Parses argv (without the program name).  Throws UsageError after reporting
// what is wrong.
Command parse_command_line(const std::vector<std::string>& args);

} // namespace ufind
