// WalkHarness: what the walk tests share: the backends and strategies they
// run under, a walk collected into a list, and GNU find as the oracle.
//
//   for (const WalkBackend& backend : plain_backends())
//       for (Strategy strategy : all_strategies) {
//           WalkResult result = walk(make_options(backend, {root}, strategy));
//           std::vector<std::string> want = find_records({root}, "/");
//           cr_expect(walk_records(result) == want, "%s", first_difference(...));
//       }
//
// Records are "DEPTH TYPE PATH" strings, what find prints for
// -printf '%d %y %p\0', sorted but with duplicates kept: two lists are equal
// only if every entry came exactly as many times.  Error entries are not
// records; the tests look at them separately.
//
// The io_uring backends are left out, with a note in the test's log, where
// the kernel refuses io_uring (ioq::probe_uring()).
#pragma once

#include "ioq/uring_probe.hpp"
#include "walk/walker.hpp"

#include <chrono>
#include <climits>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace test {

struct WalkBackend {
    const char* label;
    ioq::BackendChoice choice;
    unsigned workers;
    std::size_t capacity;    // 0: the default
    std::size_t read_ahead;  // 0: the default
    ioq::BackendKind kind;
};

// inline, threads and io_uring with two workers each.
std::vector<WalkBackend> plain_backends();
// plain_backends(), and the two pools again with a queue of 8 and a
// read-ahead of 3, so that the walker's bounds are reached all the time.
std::vector<WalkBackend> usable_backends();

inline constexpr ioq::walk::Strategy all_strategies[] = {
    ioq::walk::Strategy::bfs, ioq::walk::Strategy::dfs, ioq::walk::Strategy::ids,
    ioq::walk::Strategy::eds, ioq::walk::Strategy::hybrid};

const char* strategy_name(ioq::walk::Strategy strategy);
std::string describe(const WalkBackend& backend, ioq::walk::Strategy strategy);

// One entry as the walk reported it, copied out of the walk's buffers.
struct Seen {
    std::string path;
    std::string name;
    int depth = 0;
    ioq::walk::EntryType type = ioq::walk::EntryType::unknown;
    int error = 0;
    std::string loop_ancestor;
};

struct WalkResult {
    std::vector<Seen> entries;
    ioq::walk::WalkStats stats;
    std::vector<std::string> problems;  // views that broke their promises
};

ioq::walk::WalkOptions make_options(const WalkBackend& backend, std::vector<std::string> roots,
                                    ioq::walk::Strategy strategy, int min_depth = 0,
                                    int max_depth = INT_MAX);

// Walks to the end; `prune` says which entries not to descend into.
WalkResult walk(ioq::walk::WalkOptions options,
                const std::function<bool(const Seen&)>& prune = {});

// Expects the walk's views to have kept their promises (WalkResult::problems).
void expect_no_problems(const WalkResult& result, const std::string& where);

char type_letter(ioq::walk::EntryType type);

// text in single quotes, for a shell.
std::string shell_quote(const std::string& text);

// Runs a shell command and splits its stdout on NUL.
std::vector<std::string> run_records(const std::string& command);

// The records GNU find prints, sorted:
//   cd CWD && find OPTIONS ROOTS EXPRESSION -printf '%d %y %p\0'
// When `expression` contains the word PRINTF, the -printf goes there instead
// of at the end (so that it can come before a -prune).
std::vector<std::string> find_records(const std::vector<std::string>& roots,
                                      const std::string& cwd, const std::string& options = "",
                                      const std::string& expression = "");

// The walk's records in the same form, sorted; error entries left out.
std::vector<std::string> walk_records(const WalkResult& result);

// The first difference between two sorted record lists, for a message.
std::string first_difference(const std::vector<std::string>& want,
                             const std::vector<std::string>& got);

// Paths of non-error entries the walk reported more than once.
std::vector<std::string> duplicate_paths(const WalkResult& result);

std::size_t count_errors(const WalkResult& result);
// The error entries, shortened for a message.
std::string error_summary(const WalkResult& result);

// Takes `count` entries from `walker`, asserting that the walk has that
// many, then times walker.stop(): logs how long it took and expects less
// than `limit`.
void stop_after(ioq::walk::Walker& walker, std::size_t count, std::chrono::milliseconds limit,
                const std::string& where);

// After walker->stop(): expects at most `fds_before` (count_open_fds()
// before the walk) plus the rings of the io_uring workers, which may stay
// open until the walker goes; no directory descriptor may.  Then destroys
// the walker and expects exactly `fds_before`.
void expect_descriptors_released(std::unique_ptr<ioq::walk::Walker>& walker,
                                 const WalkBackend& backend, std::size_t fds_before,
                                 const std::string& where);

// Whether `path` lies strictly below `directory`.
bool is_below(const std::string& path, const std::string& directory);

// What a forked child said: the text its body returned, or why it said
// nothing (a crash, a timeout).
struct ChildResult {
    bool finished = false;  // the body returned and the child exited 0
    std::string output;
    std::string problem;
};

// Runs `body` in a forked child, for what a test must not do to its own
// process: lower its descriptor limit for good, enter a mount namespace of
// its own.  The body must not use Criterion's assertions (the child is not
// a test process); it returns text, say one line per failure, that the
// parent checks.  The child never runs exit handlers (they would remove the
// parent's trees), and is killed after `timeout`.  Fork before starting any
// walk: a walk's worker threads do not follow the fork.
ChildResult run_in_child(const std::function<std::string()>& body, std::chrono::seconds timeout);

class TempTree;

// Runs `body` without privileges (mode bits stop no root): directly when
// the test is not root; otherwise hands `tree` to nobody and runs it in a
// child (run_in_child) that gives root up first.  Expects `body` to find
// nothing wrong; logs a warning and checks nothing if root cannot be given
// up.
void expect_nothing_wrong_unprivileged(TempTree& tree, const std::function<std::string()>& body);

// The names the walk tests use unqualified:
//   using namespace test::walk_names;
namespace walk_names {
using ioq::walk::EntryType;
using ioq::walk::Strategy;
using ioq::walk::Symlinks;
using ioq::walk::WalkOptions;
using ioq::walk::Walker;
using test::Seen;
using test::WalkBackend;
using test::WalkResult;
} // namespace walk_names

} // namespace test
