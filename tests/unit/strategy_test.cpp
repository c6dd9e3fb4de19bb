// Unit tests of the search strategies (bfs, dfs, ids, eds, hybrid; see
// lib/walk/dir_queue.hpp and the rounds in lib/walk/walker.hpp), in pre-order
// and post-order, under every backend.
//
// What every strategy owes its caller, whatever the order: the same entries
// GNU find reports (find ROOT -printf '%d %y %p\0'), each exactly once.  The
// round-based strategies re-walk the top of the tree in every round, so
// "exactly once" is checked on its own, not only through the comparison.
// Then what each order promises:
//
//   bfs   depths nondecreasing (also when it takes any ready directory of
//         the head's depth, the default, rather than the head itself)
//   ids   depths nondecreasing: round k reports depth k
//   eds   rounds nondecreasing: bounds 1, 2, 4, 8, ..., each round reporting
//         the depths past the last bound
//   dfs   a parent before its children, everything below a directory in one
//         contiguous run
//   hybrid every entry to depth 2 first, then as dfs below each directory
//         at depth 2; each starting point's rounds before the next one's
//   post-order (every strategy): a directory after everything below it;
//         dfs, ids and eds then walk depth first, so a directory's subtree
//         and the directory itself form one run that the directory ends
//
// Depth limits and prune are compared with find -mindepth/-maxdepth/-depth
// and find -prune; stop() is timed with thousands of opens in flight.
#include "temp_tree.hpp"
#include "walk_harness.hpp"

#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <set>
#include <string>
#include <vector>

using namespace test::walk_names;

namespace {

// One root with something for every order to get wrong: a uniform tree
// (depths 0..5), a chain reaching depth 41 (eds rounds up to a bound of 64),
// a wide directory, an empty one, links that are never followed, a fifo.
// About 400 files: creating one takes up to 0.5 ms on this machine's /tmp.
struct StrategyTree {
    test::TempTree tree;
    std::string root;

    StrategyTree() {
        tree.make_uniform("s/u", 3, 4, 1);
        tree.deep_chain("s/chain", "c", 40, 0);
        tree.many_files("s/wide", 100);
        tree.build("s/wide/sub/a s/wide/sub/b/ s/empty/ s/.hidden/x s/links/to_dir->../u "
                   "s/links/to_file->../u/f0 s/links/broken->nowhere s/links/self->self");
        tree.fifo("s/special/fifo");
        root = tree.path("s");
    }
};

std::string order_name(bool post_order) { return post_order ? "post-order" : "pre-order"; }

std::string describe(const WalkBackend& backend, Strategy strategy, bool post_order) {
    return test::describe(backend, strategy) + " " + order_name(post_order);
}

// The ancestors of `path` below and including `root`, nearest last.
std::vector<std::string> ancestors(const std::string& path, const std::string& root) {
    std::vector<std::string> found;
    if (path.size() <= root.size()) {
        return found;
    }
    found.push_back(root);
    for (std::size_t slash = path.find('/', root.size() + 1); slash != std::string::npos;
         slash = path.find('/', slash + 1)) {
        found.push_back(path.substr(0, slash));
    }
    return found;
}

// Every reported directory after everything reported below it: no entry may
// come once one of its ancestors has been reported.  Returns the first
// offender, or an empty string.
std::string first_post_order_violation(const WalkResult& result, const std::string& root) {
    std::set<std::string> reported;
    for (const Seen& seen : result.entries) {
        for (const std::string& ancestor : ancestors(seen.path, root)) {
            if (reported.count(ancestor)) {
                return seen.path + " after its ancestor " + ancestor;
            }
        }
        reported.insert(seen.path);
    }
    return {};
}

// A parent before its children (with min_depth 0 every parent is reported).
std::string first_parent_after_child(const WalkResult& result) {
    std::set<std::string> reported;
    for (const Seen& seen : result.entries) {
        if (seen.depth > 0) {
            std::string parent = seen.path.substr(0, seen.path.find_last_of('/'));
            if (!reported.count(parent)) {
                return seen.path + " before its parent";
            }
        }
        reported.insert(seen.path);
    }
    return {};
}

// Everything below each directory (from_depth down) in one run; with
// `including_itself`, the directory itself ends the run (post-order, depth
// first).
std::string first_scattered_subtree(const WalkResult& result, bool including_itself,
                                    int from_depth = 0) {
    for (std::size_t at = 0; at < result.entries.size(); ++at) {
        const Seen& dir = result.entries[at];
        if (dir.type != EntryType::directory || dir.depth < from_depth) {
            continue;
        }
        std::size_t first = SIZE_MAX, last = 0, count = 0;
        for (std::size_t i = 0; i < result.entries.size(); ++i) {
            if (test::is_below(result.entries[i].path, dir.path)) {
                first = std::min(first, i);
                last = i;
                ++count;
            }
        }
        if (count == 0) {
            continue;
        }
        if (last - first + 1 != count) {
            return "the " + std::to_string(count) + " entries below " + dir.path +
                   " are spread over " + std::to_string(last - first + 1) + " positions";
        }
        if (including_itself && at != last + 1) {
            return dir.path + " at position " + std::to_string(at) + ", its subtree ends at " +
                   std::to_string(last);
        }
    }
    return {};
}

// The eds round that reports depth d: bounds 1, 2, 4, 8, ... (the walker's
// first bound is 1 and each round doubles it).
int eds_round(int depth) {
    int round = 0;
    for (int bound = 1; depth > bound; bound *= 2) {
        ++round;
    }
    return round;
}

void expect_clean(const WalkResult& result, const std::string& where) {
    test::expect_no_problems(result, where);
    cr_expect_eq(test::count_errors(result), 0u, "%s: errors: %s", where.c_str(),
                 test::error_summary(result).c_str());
    std::vector<std::string> twice = test::duplicate_paths(result);
    cr_expect(twice.empty(), "%s: %zu paths reported more than once, first %s", where.c_str(),
              twice.size(), twice.empty() ? "" : twice.front().c_str());
}

} // namespace

// --------------------------------------------------------------------------
// What every strategy visits
// --------------------------------------------------------------------------

Test(strategy, every_strategy_reports_what_find_reports_each_entry_once) {
    // The options that change the order or the work behind each entry,
    // never the entries themselves.
    struct Variant {
        const char* label;
        bool post_order = false;
        bool completion_order = false;
        bool sort_names = false;
        unsigned eager_stat_mask = 0;
    };
    const Variant variants[] = {
        {"pre-order"},
        {"post-order", true},
        {"completion order", false, true},
        {"post-order completion order", true, true},
        {"sorted names", false, false, true},
        {"post-order sorted names", true, false, true},
        {"eager statx", false, false, false, STATX_SIZE | STATX_MTIME},
    };
    StrategyTree s;
    std::vector<std::string> want = test::find_records({s.root}, "/");
    cr_assert_gt(want.size(), 380u, "find listed only %zu entries", want.size());
    for (const WalkBackend& backend : test::usable_backends()) {
        for (Strategy strategy : test::all_strategies) {
            for (const Variant& variant : variants) {
                std::string where = test::describe(backend, strategy) + " " + variant.label;
                WalkOptions options = test::make_options(backend, {s.root}, strategy);
                options.post_order = variant.post_order;
                options.completion_order = variant.completion_order;
                options.sort_names = variant.sort_names;
                options.eager_stat_mask = variant.eager_stat_mask;
                WalkResult result = test::walk(options);
                expect_clean(result, where);
                std::vector<std::string> got = test::walk_records(result);
                cr_expect(got == want, "%s: differs from find: %s", where.c_str(),
                          test::first_difference(want, got).c_str());
                cr_expect_eq(result.stats.entries, result.entries.size(),
                             "%s: stats.entries %llu, %zu reported", where.c_str(),
                             static_cast<unsigned long long>(result.stats.entries),
                             result.entries.size());
                cr_expect(result.stats.backend == backend.kind, "%s: ran on %s", where.c_str(),
                          ioq::backend_name(result.stats.backend));
            }
        }
    }
}

Test(strategy, several_roots_are_each_walked_whole_under_every_strategy) {
    // Rounds restart from the first root: every root must be re-walked, and
    // a root that is a file or missing reported only once.
    StrategyTree s;
    std::vector<std::string> roots = {s.tree.path("s/u/d0"), s.tree.path("s/u/f0"),
                                      s.tree.path("s/missing"), s.tree.path("s/chain"),
                                      s.tree.path("s/u/d0")};
    std::vector<std::string> want = test::find_records(roots, "/");
    for (const WalkBackend& backend : test::plain_backends()) {
        for (Strategy strategy : test::all_strategies) {
            for (bool post_order : {false, true}) {
                std::string where = describe(backend, strategy, post_order);
                WalkOptions options = test::make_options(backend, roots, strategy);
                options.post_order = post_order;
                WalkResult result = test::walk(options);
                std::vector<std::string> got = test::walk_records(result);
                cr_expect(got == want, "%s: differs from find: %s", where.c_str(),
                          test::first_difference(want, got).c_str());
                cr_expect_eq(test::count_errors(result), 1u, "%s: errors: %s", where.c_str(),
                             test::error_summary(result).c_str());
            }
        }
    }
}

// --------------------------------------------------------------------------
// Order
// --------------------------------------------------------------------------

Test(strategy, bfs_and_ids_report_depths_in_nondecreasing_order) {
    StrategyTree s;
    for (const WalkBackend& backend : test::usable_backends()) {
        for (Strategy strategy : {Strategy::bfs, Strategy::ids}) {
            for (bool strict : {false, true}) {
                if (strategy == Strategy::ids && strict) {
                    continue;  // strict_order only changes bfs
                }
                std::string where =
                    test::describe(backend, strategy) + (strict ? " strict order" : "");
                WalkOptions options = test::make_options(backend, {s.root}, strategy);
                options.strict_order = strict;
                WalkResult result = test::walk(options);
                expect_clean(result, where);
                cr_expect_gt(result.entries.size(), 380u, "%s: only %zu entries", where.c_str(),
                             result.entries.size());
                for (std::size_t i = 1; i < result.entries.size(); ++i) {
                    const Seen& before = result.entries[i - 1];
                    const Seen& after = result.entries[i];
                    cr_assert(before.depth <= after.depth,
                              "%s: %s (depth %d) after %s (depth %d)", where.c_str(),
                              after.path.c_str(), after.depth, before.path.c_str(), before.depth);
                }
            }
        }
    }
}

Test(strategy, bfs_beyond_its_window_queues_records_and_keeps_order_and_entries) {
    // With a read-ahead of 2, every directory queued beyond the first 32
    // (16 windows) waits as a record (lib/walk/queued_dirs.hpp) and becomes
    // a node again near the head: the same entries, still by depth, in far
    // fewer nodes (56 here) than the 120 directories queued at once
    // otherwise.
    StrategyTree s;
    std::vector<std::string> want = test::find_records({s.root}, "/");
    for (const WalkBackend& backend : test::usable_backends()) {
        for (bool post_order : {false, true}) {
            for (bool strict : {false, true}) {
                std::string where = describe(backend, Strategy::bfs, post_order) +
                                    (strict ? " strict order" : "") + " read-ahead 2";
                WalkOptions options = test::make_options(backend, {s.root}, Strategy::bfs);
                options.post_order = post_order;
                options.strict_order = strict;
                options.read_ahead = 2;
                WalkResult result = test::walk(options);
                expect_clean(result, where);
                std::vector<std::string> got = test::walk_records(result);
                cr_expect(got == want, "%s: differs from find: %s", where.c_str(),
                          test::first_difference(want, got).c_str());
                for (std::size_t i = 1; !post_order && i < result.entries.size(); ++i) {
                    cr_assert(result.entries[i - 1].depth <= result.entries[i].depth,
                              "%s: %s after %s", where.c_str(), result.entries[i].path.c_str(),
                              result.entries[i - 1].path.c_str());
                }
                cr_expect_leq(result.stats.nodes, 70u, "%s: %llu nodes", where.c_str(),
                              static_cast<unsigned long long>(result.stats.nodes));
                WalkOptions roomy = options;
                roomy.read_ahead = 1000;  // no records: the comparison the bound means
                WalkResult all_nodes = test::walk(roomy);
                cr_expect_geq(all_nodes.stats.nodes, 120u, "%s: %llu nodes with read-ahead 1000",
                              where.c_str(), static_cast<unsigned long long>(all_nodes.stats.nodes));
            }
        }
    }
}

Test(strategy, eds_reports_each_round_deeper_than_the_last) {
    StrategyTree s;
    for (const WalkBackend& backend : test::usable_backends()) {
        std::string where = test::describe(backend, Strategy::eds);
        WalkResult result = test::walk(test::make_options(backend, {s.root}, Strategy::eds));
        expect_clean(result, where);
        int deepest = 0;
        for (std::size_t i = 1; i < result.entries.size(); ++i) {
            const Seen& before = result.entries[i - 1];
            const Seen& after = result.entries[i];
            deepest = std::max(deepest, after.depth);
            cr_assert(eds_round(before.depth) <= eds_round(after.depth),
                      "%s: %s (depth %d, round %d) after %s (depth %d, round %d)", where.c_str(),
                      after.path.c_str(), after.depth, eds_round(after.depth),
                      before.path.c_str(), before.depth, eds_round(before.depth));
        }
        cr_expect_eq(deepest, 41, "%s: deepest entry at depth %d", where.c_str(), deepest);
    }
}

// hybrid's promise (walker.hpp): every entry down to depth 2 first, then
// below each directory at depth 2 its whole subtree in one run, as dfs
// would; a starting point's rounds before the next starting point's.
std::string first_hybrid_order_violation(const WalkResult& result) {
    bool deeper_seen = false;
    for (const Seen& seen : result.entries) {
        if (seen.depth > 2) {
            deeper_seen = true;
        } else if (deeper_seen && seen.depth > 0) {
            return seen.path + " (depth " + std::to_string(seen.depth) +
                   ") after an entry deeper than 2";
        } else if (seen.depth == 0) {
            deeper_seen = false;  // the next starting point
        }
    }
    return first_scattered_subtree(result, false, 2);
}

Test(strategy, hybrid_reports_depths_to_two_first_then_each_subtree_depth_first) {
    StrategyTree s;
    // Two trees deeper than 2, a fifo between: each root's rounds end
    // before the next root is visited.
    std::vector<std::string> roots = {s.tree.path("s/u"), s.tree.path("s/special/fifo"),
                                      s.tree.path("s/chain")};
    std::vector<std::string> want = test::find_records(roots, "/");
    for (const WalkBackend& backend : test::usable_backends()) {
        std::string where = test::describe(backend, Strategy::hybrid);
        WalkResult result = test::walk(test::make_options(backend, roots, Strategy::hybrid));
        expect_clean(result, where);
        cr_expect(test::walk_records(result) == want, "%s: differs from find: %s", where.c_str(),
                  test::first_difference(want, test::walk_records(result)).c_str());
        std::string violation = first_hybrid_order_violation(result);
        cr_expect(violation.empty(), "%s: %s", where.c_str(), violation.c_str());
        std::size_t root_index = 0;
        for (const Seen& seen : result.entries) {
            const std::string& root = roots[root_index];
            if (seen.path != root && !test::is_below(seen.path, root)) {
                ++root_index;
                cr_assert(root_index < roots.size() && seen.path == roots[root_index],
                          "%s: %s while walking %s", where.c_str(), seen.path.c_str(),
                          root.c_str());
            }
        }
    }
}

Test(strategy, hybrid_reads_again_only_the_top_directories_with_deeper_contents) {
    // t and t/deep are entered in both rounds: below each lies a directory
    // at depth 2 with contents.  Both are read once, the second round
    // taking their listings from the first's (kept_listings.hpp).  t/flat
    // has no subdirectory and is walked whole in the first round, so the
    // second skips it; t/deep/mid and t/deep/mid2 (depth 2) are read in
    // the second round only.
    test::TempTree tree;
    tree.build("t/flat/a t/flat/b t/deep/mid/low/leaf t/deep/mid/x t/deep/mid2/ t/top");
    std::string root = tree.path("t");
    std::vector<std::string> want = test::find_records({root}, "/");
    const std::uint64_t directories = 6;  // t flat deep mid low mid2
    for (const WalkBackend& backend : test::usable_backends()) {
        std::string where = test::describe(backend, Strategy::hybrid);
        WalkResult result = test::walk(test::make_options(backend, {root}, Strategy::hybrid));
        expect_clean(result, where);
        cr_expect(test::walk_records(result) == want, "%s: differs from find: %s", where.c_str(),
                  test::first_difference(want, test::walk_records(result)).c_str());
        cr_expect_eq(result.stats.directories, directories + 2,
                     "%s: %llu directories entered, want %llu (t and t/deep twice)", where.c_str(),
                     static_cast<unsigned long long>(result.stats.directories),
                     static_cast<unsigned long long>(directories + 2));
        cr_expect_eq(result.stats.listings_reused, 2u, "%s: %llu listings kept, want 2 (t, t/deep)",
                     where.c_str(), static_cast<unsigned long long>(result.stats.listings_reused));
    }
}

Test(strategy, without_workers_a_walk_holds_slots_only_for_the_directories_it_is_in) {
    // Where no worker will ever run an open (the inline backend, -j1), a
    // directory's open waits until the walk needs it: 150 subdirectories of
    // one root, found while the root is read, take no slot each before
    // their turn.  A slot is a directory's buffer and request (dir_node.hpp),
    // so opening them all ahead held 128 slots of pages the process touched
    // for nothing.  With workers, the same walk does open ahead.
    test::TempTree tree;
    std::string description;
    for (int i = 0; i < 150; ++i) {
        description += "w/d" + std::to_string(i) + "/f ";
    }
    tree.build(description);
    std::string root = tree.path("w");
    std::vector<std::string> want = test::find_records({root}, "/");
    for (const WalkBackend& backend : test::usable_backends()) {
        for (Strategy strategy : test::all_strategies) {
            std::string where = test::describe(backend, strategy);
            WalkResult result = test::walk(test::make_options(backend, {root}, strategy));
            expect_clean(result, where);
            cr_expect(test::walk_records(result) == want, "%s: differs from find: %s",
                      where.c_str(), test::first_difference(want, test::walk_records(result)).c_str());
            unsigned long long slots = result.stats.slots;
            if (backend.kind == ioq::BackendKind::inline_calls) {
                // The root, the subdirectory being read, and one to spare.
                cr_expect_leq(slots, 3u, "%s: %llu slots", where.c_str(), slots);
            } else if (strategy == Strategy::dfs && backend.read_ahead == 0) {
                cr_expect_geq(slots, 16u, "%s: %llu slots: no open ahead?", where.c_str(), slots);
            }
        }
    }
}

Test(strategy, every_strategy_reports_parents_before_children) {
    StrategyTree s;
    for (const WalkBackend& backend : test::usable_backends()) {
        for (Strategy strategy : test::all_strategies) {
            std::string where = test::describe(backend, strategy);
            WalkResult result = test::walk(test::make_options(backend, {s.root}, strategy));
            expect_clean(result, where);
            std::string violation = first_parent_after_child(result);
            cr_expect(violation.empty(), "%s: %s", where.c_str(), violation.c_str());
        }
    }
}

Test(strategy, dfs_reports_each_subtree_contiguously) {
    StrategyTree s;
    for (const WalkBackend& backend : test::usable_backends()) {
        std::string where = test::describe(backend, Strategy::dfs);
        WalkResult result = test::walk(test::make_options(backend, {s.root}, Strategy::dfs));
        expect_clean(result, where);
        std::string violation = first_scattered_subtree(result, false);
        cr_expect(violation.empty(), "%s: %s", where.c_str(), violation.c_str());
    }
}

Test(strategy, post_order_reports_every_directory_after_its_contents_once) {
    StrategyTree s;
    std::vector<std::string> want = test::find_records({s.root}, "/", "", "-depth");
    for (const WalkBackend& backend : test::usable_backends()) {
        for (Strategy strategy : test::all_strategies) {
            std::string where = describe(backend, strategy, true);
            WalkOptions options = test::make_options(backend, {s.root}, strategy);
            options.post_order = true;
            WalkResult result = test::walk(options);
            expect_clean(result, where);
            std::vector<std::string> got = test::walk_records(result);
            cr_expect(got == want, "%s: differs from find -depth: %s", where.c_str(),
                      test::first_difference(want, got).c_str());
            std::string violation = first_post_order_violation(result, s.root);
            cr_expect(violation.empty(), "%s: %s", where.c_str(), violation.c_str());
            cr_expect(!result.entries.empty() && result.entries.back().path == s.root,
                      "%s: the root is not last", where.c_str());
            if (strategy != Strategy::bfs) {
                violation = first_scattered_subtree(result, true);
                cr_expect(violation.empty(), "%s: %s", where.c_str(), violation.c_str());
            }
        }
    }
}

// --------------------------------------------------------------------------
// Depth limits and prune
// --------------------------------------------------------------------------

Test(strategy, depth_limits_match_find_under_every_strategy_and_order) {
    StrategyTree s;
    struct Bounds {
        int min_depth, max_depth;
    };
    // Bounds on either side of the ids/eds round bounds (1, 2, 3, 4, 8, 16,
    // 32, 64), at and past the deepest entry (41), and an empty window.
    const Bounds bounds[] = {{0, 0},  {0, 1},  {1, 1},  {0, 2},      {2, 2},
                             {2, 3},  {1, 4},  {3, 5},  {5, 9},      {4, INT_MAX},
                             {9, 17}, {16, 33}, {33, 40}, {41, 100}, {42, INT_MAX},
                             {3, 2}};
    for (const Bounds& b : bounds) {
        for (bool post_order : {false, true}) {
            std::string limits = " -mindepth " + std::to_string(b.min_depth);
            if (b.max_depth != INT_MAX) {
                limits += " -maxdepth " + std::to_string(b.max_depth);
            }
            if (post_order) {
                limits += " -depth";
            }
            std::vector<std::string> want = test::find_records({s.root}, "/", "", limits);
            for (const WalkBackend& backend : test::plain_backends()) {
                for (Strategy strategy : test::all_strategies) {
                    std::string where = describe(backend, strategy, post_order) + limits;
                    WalkOptions options = test::make_options(backend, {s.root}, strategy,
                                                             b.min_depth, b.max_depth);
                    options.post_order = post_order;
                    WalkResult result = test::walk(options);
                    expect_clean(result, where);
                    std::vector<std::string> got = test::walk_records(result);
                    cr_expect(got == want, "%s: differs from find: %s", where.c_str(),
                              test::first_difference(want, got).c_str());
                    if (post_order) {
                        std::string violation = first_post_order_violation(result, s.root);
                        cr_expect(violation.empty(), "%s: %s", where.c_str(), violation.c_str());
                    }
                }
            }
        }
    }
}

Test(strategy, rounds_do_not_walk_a_finished_subtree_again) {
    // ids and eds walk the tree again every round, but a subtree that had
    // nothing at a round's depth bound has nothing for a later round
    // either: beside a chain 30 deep (about 30 rounds of ids), 40
    // directories of one file each are entered in two rounds, not 30.
    // Measured as the directories entered with and without them.
    test::TempTree chain_only;
    chain_only.deep_chain("t/chain", "c", 30, 1);
    test::TempTree with_wide;
    with_wide.deep_chain("t/chain", "c", 30, 1);
    constexpr std::size_t wide = 40;
    for (std::size_t i = 0; i < wide; ++i) {
        char name[64];
        std::snprintf(name, sizeof name, "t/wide/d%02zu/f", i);
        with_wide.build(name);
    }
    for (const WalkBackend& backend : test::plain_backends()) {
        for (Strategy strategy : {Strategy::ids, Strategy::eds}) {
            std::string where = test::describe(backend, strategy);
            WalkResult alone = test::walk(
                test::make_options(backend, {chain_only.path("t")}, strategy));
            WalkResult both = test::walk(
                test::make_options(backend, {with_wide.path("t")}, strategy));
            cr_expect_eq(both.entries.size(), alone.entries.size() + 1 + 2 * wide, "%s",
                         where.c_str());
            std::uint64_t extra = both.stats.directories - alone.stats.directories;
            cr_expect(extra <= 2 * (wide + 1),
                      "%s: %llu more directories entered for %zu more (the chain alone: %llu)",
                      where.c_str(), static_cast<unsigned long long>(extra), wide + 1,
                      static_cast<unsigned long long>(alone.stats.directories));
        }
    }
}

namespace {

// Walks t with ids and eds, making t/a unreadable as soon as a round lists
// its child b: the next round fails there, at t/a or at t/a/b; rounds go
// on below t/x.  That failure must be reported, once.  Returns what is
// wrong, or nothing.  Runs without privileges (mode 000
// stops no root), in a child when the test runs as root.
std::string check_failure_in_a_later_round(const test::TempTree& tree) {
    std::string problems;
    std::string top = tree.path("t");
    std::string a = tree.path("t/a");
    for (const WalkBackend& backend : test::plain_backends()) {
        for (Strategy strategy : {Strategy::ids, Strategy::eds}) {
            std::string where = test::describe(backend, strategy) + ": ";
            if (::chmod(a.c_str(), 0755) != 0) {
                return where + "cannot make t/a readable again";
            }
            WalkResult result = test::walk(
                test::make_options(backend, {top}, strategy), [&](const Seen& seen) {
                    if (seen.name == "b" && !seen.error && ::chmod(a.c_str(), 0) != 0) {
                        problems += where + "chmod failed; ";
                    }
                    return false;
                });
            // Where depends on what the later round has of t/a: opened
            // again, t/a fails; taken from the listings kept from round 1,
            // with its descriptor, its child b does (kept_listings.hpp).
            std::size_t listed = 0, denied = 0;
            for (const Seen& seen : result.entries) {
                bool at_a = seen.path == a || test::is_below(seen.path, a);
                listed += seen.path == a && !seen.error;
                denied += at_a && seen.error == EACCES;
            }
            if (listed != 1) {
                problems += where + "t/a listed " + std::to_string(listed) + " times; ";
            }
            // Before, the round skipped t/a as if its error had been
            // reported already, and the walk ended without a word.
            if (denied != 1) {
                problems += where + "t/a or t/a/b failing in a later round was reported " +
                            std::to_string(denied) + " times (" + test::error_summary(result) +
                            "); ";
            }
        }
    }
    ::chmod(a.c_str(), 0755);
    return problems;
}

} // namespace

Test(strategy, a_directory_failing_when_a_later_round_opens_it_again_is_reported) {
    test::TempTree tree;
    // x goes deeper than a: rounds go on after a failed, and must not
    // report it again.
    tree.build("t/a/b/c/d/f t/x/1/2/3/4/5/6/7/8/f");
    test::expect_nothing_wrong_unprivileged(tree,
                                            [&] { return check_failure_in_a_later_round(tree); });
}

Test(strategy, pruned_directory_contents_never_appear_in_any_round) {
    // ids and eds re-walk the top of the tree in every round: a directory
    // pruned in one round must stay pruned in all later ones.  d1 exists at
    // depths 1 to 4, on every round bound of ids and on eds's 1, 2 and 4;
    // c5 is at depth 7, between eds's bounds 4 and 8.
    StrategyTree s;
    auto pruned = [](const Seen& seen) { return seen.name == "d1" || seen.name == "c5"; };
    struct Bounds {
        int min_depth, max_depth;
    };
    const Bounds bounds[] = {{0, INT_MAX}, {2, INT_MAX}, {0, 3}, {3, 8}};
    for (const Bounds& b : bounds) {
        std::string limits = " -mindepth " + std::to_string(b.min_depth);
        if (b.max_depth != INT_MAX) {
            limits += " -maxdepth " + std::to_string(b.max_depth);
        }
        std::vector<std::string> want = test::find_records(
            {s.root}, "/", "", limits + " PRINTF \\( -name d1 -o -name c5 \\) -prune");
        for (const WalkBackend& backend : test::usable_backends()) {
            for (Strategy strategy : test::all_strategies) {
                std::string where = test::describe(backend, strategy) + limits;
                WalkResult result = test::walk(
                    test::make_options(backend, {s.root}, strategy, b.min_depth, b.max_depth),
                    pruned);
                expect_clean(result, where);
                std::vector<std::string> got = test::walk_records(result);
                cr_expect(got == want, "%s: differs from find -prune: %s", where.c_str(),
                          test::first_difference(want, got).c_str());
                std::vector<std::string> pruned_dirs;
                for (const Seen& seen : result.entries) {
                    if (seen.type == EntryType::directory && pruned(seen)) {
                        pruned_dirs.push_back(seen.path);
                    }
                }
                cr_expect(!pruned_dirs.empty() || b.min_depth > 4, "%s: nothing was pruned",
                          where.c_str());
                for (const Seen& seen : result.entries) {
                    for (const std::string& dir : pruned_dirs) {
                        cr_assert(!test::is_below(seen.path, dir), "%s: %s below pruned %s",
                                  where.c_str(), seen.path.c_str(), dir.c_str());
                    }
                }
            }
        }
    }
}

// --------------------------------------------------------------------------
// Stopping
// --------------------------------------------------------------------------

Test(strategy, stop_with_thousands_of_opens_in_flight_returns_promptly_and_closes_all) {
    // 2000 subdirectories and a read-ahead of 4000 (within a queue of
    // 8192): once the top directory is read, every subdirectory's open can
    // be in flight at once.  ids reads them only in its second round, so
    // one stop point is past the first round's 1 + 2000 entries, a few
    // directories into the second (every 100th holds a file).
    test::TempTree tree;
    constexpr std::size_t subdirs = 2000;
    for (std::size_t i = 0; i < subdirs; ++i) {
        std::string name = "wide/s" + std::to_string(i);
        if (i % 100 == 0) {
            tree.file(name + "/f");
        } else {
            tree.directory(name);
        }
    }
    const std::size_t stop_points[] = {5, 1 + subdirs + 5};
    for (const WalkBackend& backend : test::plain_backends()) {
        for (Strategy strategy : test::all_strategies) {
            for (bool post_order : {false, true}) {
                for (std::size_t stop_after : stop_points) {
                    std::string where = describe(backend, strategy, post_order) +
                                        " stop after " + std::to_string(stop_after);
                    std::size_t fds_before = test::count_open_fds();
                    WalkOptions options =
                        test::make_options(backend, {tree.path("wide")}, strategy);
                    options.post_order = post_order;
                    options.queue.capacity = 8192;
                    options.read_ahead = 4000;
                    auto walker = std::make_unique<Walker>(options);
                    // Generous for a loaded 2-core machine: a stop that waits
                    // for the queued opens instead of cancelling them takes
                    // several times longer.
                    test::stop_after(*walker, stop_after, std::chrono::milliseconds(500), where);
                    cr_expect(walker->next() == nullptr, "%s: next() after stop() gave an entry",
                              where.c_str());
                    test::expect_descriptors_released(walker, backend, fds_before, where);
                }
            }
        }
    }
}
