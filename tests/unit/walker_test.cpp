// Unit tests of the traversal engine (lib/walk) and the public API over it
// (ioq.h, ioq.hpp).
//
// Every walk test runs under every backend: inline, threads, io_uring, and
// the two pool backends again with a queue of 8 and a read-ahead of 3, so
// that the walker's bounds (queue room, descriptors in flight) are reached
// all the time instead of never.  io_uring configurations are left out, with
// a note in the log, only where the kernel refuses io_uring.
//
// The oracles: trees whose every path and count the test knows (TempTree's
// make_uniform), and GNU find run on the same tree (-printf '%d %y %p\0'),
// which has the last word wherever the two behaviours are meant to agree.
#include "ioq/uring_probe.hpp"
#include "temp_tree.hpp"
#include "walk_harness.hpp"

#include <ioq.h>
#include <ioq.hpp>

#include <criterion/criterion.h>
#include <criterion/logging.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

using namespace test::walk_names;

namespace {

// The tests of this file walk in both one-pass orders; the round-based
// strategies (ids, eds) are tested in strategy_test.cpp.
const Strategy both_strategies[] = {Strategy::bfs, Strategy::dfs};

std::size_t count_slashes(const std::string& text) {
    return static_cast<std::size_t>(std::count(text.begin(), text.end(), '/'));
}

// Restores the working directory when a test that changed it ends normally.
struct WorkingDirectory {
    WorkingDirectory() : fd(::open(".", O_PATH | O_DIRECTORY | O_CLOEXEC)) {}
    ~WorkingDirectory() {
        if (fd >= 0) {
            if (::fchdir(fd) != 0) {
                std::perror("fchdir");
            }
            ::close(fd);
        }
    }
    int fd;
};

} // namespace

// --------------------------------------------------------------------------
// What a walk visits
// --------------------------------------------------------------------------

Test(walker, visits_every_entry_of_a_uniform_tree_once_at_its_depth) {
    test::TempTree tree;
    test::UniformCounts counts = tree.make_uniform("u", 3, 4, 2);
    cr_assert_eq(counts.entries, 363u);
    std::set<std::string> want;
    for (const std::string& path : counts.paths) {
        want.insert(tree.path(path));
    }
    std::size_t root_slashes = count_slashes(tree.path("u"));
    for (const WalkBackend& backend : test::usable_backends()) {
        for (Strategy strategy : both_strategies) {
            std::string where = test::describe(backend, strategy);
            WalkResult result = test::walk(test::make_options(backend, {tree.path("u")}, strategy));
            test::expect_no_problems(result, where);
            cr_expect_eq(test::count_errors(result), 0u, "%s: errors: %s", where.c_str(),
                         test::error_summary(result).c_str());
            cr_expect_eq(result.entries.size(), counts.entries, "%s: %zu entries, want %zu",
                         where.c_str(), result.entries.size(), counts.entries);
            std::set<std::string> got;
            std::vector<std::size_t> at_depth(counts.at_depth.size(), 0);
            bool shapes_ok = true;
            for (const Seen& seen : result.entries) {
                cr_expect(got.insert(seen.path).second, "%s: %s reported twice", where.c_str(),
                          seen.path.c_str());
                if (seen.depth >= 0 && static_cast<std::size_t>(seen.depth) < at_depth.size()) {
                    ++at_depth[static_cast<std::size_t>(seen.depth)];
                }
                std::size_t slash = seen.path.find_last_of('/');
                bool is_dir = seen.depth == 0 || seen.name[0] == 'd';
                shapes_ok = shapes_ok &&
                            seen.depth == static_cast<int>(count_slashes(seen.path) - root_slashes) &&
                            seen.name == seen.path.substr(slash + 1) &&
                            seen.type == (is_dir ? EntryType::directory : EntryType::regular);
            }
            cr_expect(shapes_ok, "%s: some entry has a wrong depth, name or type", where.c_str());
            cr_expect(got == want, "%s: the set of paths differs", where.c_str());
            cr_expect(at_depth == counts.at_depth, "%s: entries per depth differ", where.c_str());
            cr_expect_eq(result.stats.entries, counts.entries, "%s: stats.entries %llu",
                         where.c_str(), static_cast<unsigned long long>(result.stats.entries));
            cr_expect_eq(result.stats.directories, counts.directories,
                         "%s: stats.directories %llu, want %zu", where.c_str(),
                         static_cast<unsigned long long>(result.stats.directories),
                         counts.directories);
            cr_expect_eq(result.stats.errors, 0u);
            cr_expect(result.stats.backend == backend.kind, "%s: ran on %s", where.c_str(),
                      ioq::backend_name(result.stats.backend));
            cr_expect_eq(result.stats.workers_started,
                         backend.kind != ioq::BackendKind::inline_calls,
                         "%s: workers_started %d", where.c_str(), result.stats.workers_started);
        }
    }
}

Test(walker, agrees_with_gnu_find_on_a_tree_of_every_kind_of_file) {
    test::TempTree tree;
    tree.build("m/a/x.c m/a/y.c m/a/deeper/z m/a/deeper/deepest/w m/empty/ m/.hidden/h "
               "m/links/to_dir->../a m/links/to_file->../a/x.c m/links/dangling->nowhere "
               "m/links/loop_a->loop_b m/links/loop_b->loop_a m/caf\xc3\xa9/f");
    tree.file("m/with space/file name");
    tree.file("m/new\nline");
    tree.file("m/" + std::string(255, 'L'));
    tree.fifo("m/special/fifo");
    {
        int sock = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        cr_assert(sock >= 0);
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        std::string path = tree.path("m/special/sock");
        cr_assert(path.size() < sizeof address.sun_path);
        std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
        cr_assert_eq(::bind(sock, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
        ::close(sock);
    }
    tree.deep_chain("m/chain", "c", 30, 1);

    struct RootSet {
        std::vector<std::string> roots;
        bool relative;  // run from inside the tree
    };
    const RootSet root_sets[] = {
        {{tree.path("m")}, false},
        {{tree.path("m") + "/"}, false},
        {{tree.path("m/links/to_dir")}, false},   // a symlink root is not followed
        {{tree.path("m/links/to_dir/")}, false},  // unless it ends in a slash
        {{tree.path("m/a"), tree.path("m/a/x.c"), tree.path("m/special")}, false},
        {{"m"}, true},
        {{"./m/a/", "."}, true},
    };
    WorkingDirectory restore;
    for (const RootSet& set : root_sets) {
        std::string cwd = set.relative ? tree.root() : "/";
        std::vector<std::string> want = test::find_records(set.roots, cwd);
        cr_assert(!want.empty(), "find printed nothing for %s", set.roots.front().c_str());
        cr_assert_eq(::chdir(cwd.c_str()), 0);
        for (const WalkBackend& backend : test::usable_backends()) {
            for (Strategy strategy : both_strategies) {
                std::string where =
                    test::describe(backend, strategy) + " roots " + set.roots.front();
                WalkResult result = test::walk(test::make_options(backend, set.roots, strategy));
                test::expect_no_problems(result, where);
                cr_expect_eq(test::count_errors(result), 0u, "%s: errors: %s", where.c_str(),
                             test::error_summary(result).c_str());
                std::vector<std::string> got = test::walk_records(result);
                cr_expect(got == want, "%s: differs from find: %s", where.c_str(),
                          test::first_difference(want, got).c_str());
            }
        }
    }
}

// --------------------------------------------------------------------------
// Order
// --------------------------------------------------------------------------

namespace {

// One root holding a uniform tree, a long chain and a wide directory: the
// orders have something to get wrong.
void make_irregular_tree(test::TempTree& tree) {
    tree.make_uniform("o/u", 3, 3, 2);
    tree.deep_chain("o/chain", "c", 12, 2);
    tree.many_files("o/wide", 60);
    tree.build("o/wide/sub/a o/wide/sub/b/ o/z");
}

} // namespace

Test(walker, bfs_reports_depths_in_nondecreasing_order) {
    test::TempTree tree;
    make_irregular_tree(tree);
    for (const WalkBackend& backend : test::usable_backends()) {
        std::string where = test::describe(backend, Strategy::bfs);
        WalkResult result =
            test::walk(test::make_options(backend, {tree.path("o")}, Strategy::bfs));
        cr_expect_eq(test::count_errors(result), 0u, "%s: errors: %s", where.c_str(),
                     test::error_summary(result).c_str());
        cr_expect(result.entries.size() > 200, "%s: only %zu entries", where.c_str(),
                  result.entries.size());
        for (std::size_t i = 1; i < result.entries.size(); ++i) {
            const Seen& before = result.entries[i - 1];
            const Seen& after = result.entries[i];
            cr_assert(before.depth <= after.depth, "%s: %s (depth %d) after %s (depth %d)",
                      where.c_str(), after.path.c_str(), after.depth, before.path.c_str(),
                      before.depth);
        }
    }
}

Test(walker, dfs_reports_parents_first_and_each_subtree_contiguously) {
    test::TempTree tree;
    make_irregular_tree(tree);
    for (const WalkBackend& backend : test::usable_backends()) {
        std::string where = test::describe(backend, Strategy::dfs);
        WalkResult result =
            test::walk(test::make_options(backend, {tree.path("o")}, Strategy::dfs));
        cr_expect_eq(test::count_errors(result), 0u, "%s: errors: %s", where.c_str(),
                     test::error_summary(result).c_str());
        std::map<std::string, std::size_t> index;
        for (std::size_t i = 0; i < result.entries.size(); ++i) {
            const Seen& seen = result.entries[i];
            if (seen.depth > 0) {
                std::string parent = seen.path.substr(0, seen.path.find_last_of('/'));
                cr_assert(index.count(parent), "%s: %s before its parent", where.c_str(),
                          seen.path.c_str());
            }
            index[seen.path] = i;
        }
        // Everything below a directory comes in one run, uninterrupted by
        // entries from elsewhere.
        for (const Seen& dir : result.entries) {
            if (dir.type != EntryType::directory) {
                continue;
            }
            std::string prefix = dir.path + "/";
            std::size_t first = SIZE_MAX, last = 0, count = 0;
            for (std::size_t i = 0; i < result.entries.size(); ++i) {
                if (result.entries[i].path.starts_with(prefix)) {
                    first = std::min(first, i);
                    last = i;
                    ++count;
                }
            }
            cr_assert(count == 0 || last - first + 1 == count,
                      "%s: the %zu entries below %s are spread over %zu positions", where.c_str(),
                      count, dir.path.c_str(), last - first + 1);
        }
    }
}

// --------------------------------------------------------------------------
// Depth limits and prune
// --------------------------------------------------------------------------

Test(walker, max_depth_and_min_depth_bound_what_is_reported_and_opened) {
    test::TempTree tree;
    test::UniformCounts counts = tree.make_uniform("u", 2, 4, 1);  // depths 0..5
    struct Bounds {
        int min_depth, max_depth;
    };
    const Bounds bounds[] = {{0, 0}, {0, 1}, {0, 2}, {1, 1}, {2, 3}, {3, INT_MAX},
                             {1, INT_MAX}, {4, 5}, {5, 9}, {6, INT_MAX}, {3, 2}};
    // Directories at depth d: fanout^d up to the uniform depth.
    auto directories_above = [](int max_depth) {
        std::size_t total = 0;
        for (int d = 0; d <= 4 && d < max_depth; ++d) {
            total += std::size_t{1} << d;
        }
        return total;
    };
    for (const WalkBackend& backend : test::usable_backends()) {
        for (Strategy strategy : both_strategies) {
            for (const Bounds& b : bounds) {
                std::string where = test::describe(backend, strategy) + " mindepth " +
                                    std::to_string(b.min_depth) + " maxdepth " +
                                    std::to_string(b.max_depth);
                WalkResult result = test::walk(test::make_options(
                    backend, {tree.path("u")}, strategy, b.min_depth, b.max_depth));
                test::expect_no_problems(result, where);
                std::vector<std::size_t> at_depth(counts.at_depth.size(), 0);
                for (const Seen& seen : result.entries) {
                    cr_assert(seen.depth >= b.min_depth && seen.depth <= b.max_depth,
                              "%s: %s at depth %d", where.c_str(), seen.path.c_str(), seen.depth);
                    ++at_depth[static_cast<std::size_t>(seen.depth)];
                }
                std::vector<std::size_t> want = counts.at_depth;
                for (std::size_t d = 0; d < want.size(); ++d) {
                    if (static_cast<int>(d) < b.min_depth || static_cast<int>(d) > b.max_depth) {
                        want[d] = 0;
                    }
                }
                cr_expect(at_depth == want, "%s: %zu entries, want %zu", where.c_str(),
                          result.entries.size(), counts.entries_between(b.min_depth, b.max_depth));
                // A directory at max_depth is reported, never opened (find
                // does not read it either).
                if (b.min_depth <= b.max_depth) {
                    cr_expect_eq(result.stats.directories, directories_above(b.max_depth),
                                 "%s: %llu directories opened, want %zu", where.c_str(),
                                 static_cast<unsigned long long>(result.stats.directories),
                                 directories_above(b.max_depth));
                }
            }
        }
    }
}

Test(walker, pruned_directory_is_reported_but_never_entered) {
    test::TempTree tree;
    test::UniformCounts counts = tree.make_uniform("u", 3, 3, 1);
    // Every directory named d1, at any depth, is pruned: nothing below one
    // may appear, while the d1 directories themselves and their siblings do.
    auto below_a_d1 = [](const std::string& relative) {
        std::size_t last = relative.find_last_of('/');
        return relative.substr(0, last == std::string::npos ? 0 : last + 1).find("/d1/") !=
               std::string::npos;
    };
    std::set<std::string> want;
    std::size_t want_directories = 0;
    for (const std::string& path : counts.paths) {
        if (!below_a_d1("/" + path)) {
            want.insert(tree.path(path));
            std::string name = path.substr(path.find_last_of('/') + 1);
            want_directories += (path == "u" || name[0] == 'd') && name != "d1";
        }
    }
    cr_assert(want.size() < counts.entries && want.size() > counts.entries / 3);
    for (const WalkBackend& backend : test::usable_backends()) {
        for (Strategy strategy : both_strategies) {
            std::string where = test::describe(backend, strategy);
            WalkResult result =
                test::walk(test::make_options(backend, {tree.path("u")}, strategy),
                           [](const Seen& seen) { return seen.name == "d1"; });
            std::set<std::string> got;
            for (const Seen& seen : result.entries) {
                cr_expect(got.insert(seen.path).second, "%s: %s twice", where.c_str(),
                          seen.path.c_str());
            }
            cr_expect(got == want, "%s: %zu entries, want %zu", where.c_str(), got.size(),
                      want.size());
            cr_expect_eq(result.stats.directories, want_directories,
                         "%s: %llu directories opened, want %zu", where.c_str(),
                         static_cast<unsigned long long>(result.stats.directories),
                         want_directories);

            // Pruning the starting point leaves only the starting point.
            WalkResult root_only =
                test::walk(test::make_options(backend, {tree.path("u")}, strategy),
                           [](const Seen&) { return true; });
            cr_expect_eq(root_only.entries.size(), 1u, "%s: pruned root gave %zu entries",
                         where.c_str(), root_only.entries.size());

            // Pruning files is harmless.
            WalkResult files_pruned = test::walk(
                test::make_options(backend, {tree.path("u")}, strategy),
                [](const Seen& seen) { return seen.type != EntryType::directory; });
            cr_expect_eq(files_pruned.entries.size(), counts.entries,
                         "%s: pruning files lost entries", where.c_str());
        }
    }
}

// A walk trusts a listing's marked last record (no getdents64 returning 0)
// only once it has entered Walker::directories_before_deciding_ends
// directories: 150 directories with a subdirectory each (301 in all) cost
// two reads each where the file system does not mark ends, and where it
// does, the directories opened after the decision one read each: at
// least the 150 - 64 subdirectories found after it, and at most all but the
// first 64 directories entered (the starting point's two reads included).
Test(walker, end_marks_are_trusted_once_enough_directories_are_entered) {
    constexpr std::size_t subdirectories = 150;
    constexpr std::size_t directories = 1 + 2 * subdirectories;
    static_assert(Walker::directories_before_deciding_ends < subdirectories);
    test::TempTree tree;
    std::string spec;
    for (std::size_t i = 0; i < subdirectories; ++i) {
        spec += "top/d" + std::to_string(i) + "/e/f ";
    }
    tree.build(spec);
    bool marked = test::lists_end_marked(tree.path("top"));
    unsigned long long unmarked_reads = 2 * directories;
    unsigned long long most_reads =
        marked ? unmarked_reads - (subdirectories - Walker::directories_before_deciding_ends)
               : unmarked_reads;
    unsigned long long fewest_reads = directories + Walker::directories_before_deciding_ends;
    for (const WalkBackend& backend : test::plain_backends()) {
        for (Strategy strategy : both_strategies) {
            std::string where = test::describe(backend, strategy);
            WalkOptions options = test::make_options(backend, {tree.path("top")}, strategy);
            auto walker = std::make_unique<Walker>(std::move(options));
            std::size_t entries = 0;
            while (walker->next()) {
                ++entries;
            }
            cr_expect_eq(entries, directories + subdirectories, "%s: %zu entries", where.c_str(),
                         entries);
            ioq::walk::WalkStats stats = walker->stats();
            if (marked) {
                cr_expect(stats.reads <= most_reads && stats.reads >= fewest_reads,
                          "%s: %llu getdents64 calls, want %llu to %llu (ends marked)",
                          where.c_str(), static_cast<unsigned long long>(stats.reads),
                          fewest_reads, most_reads);
            } else {
                cr_expect_eq(stats.reads, unmarked_reads, "%s: %llu getdents64 calls, want %llu",
                             where.c_str(), static_cast<unsigned long long>(stats.reads),
                             unmarked_reads);
            }
        }
    }
}

// --------------------------------------------------------------------------
// Stopping
// --------------------------------------------------------------------------

// A search that ends in the second directory it reads (-quit on a name one
// level below the first subdirectory) reads no other, though read-ahead had
// queued all its siblings, and starts no thread: the caller's thread runs
// the first two directories itself.  Looking ahead depth-first, likewise.
Test(walker, search_ending_in_its_second_directory_reads_no_other) {
    test::TempTree tree;
    tree.build("top/d0/f top/d1/f top/d2/f top/d3/f top/d4/f top/d5/f top/d6/f top/d7/f "
               "top/d8/f top/d9/f top/d9/deeper/g");
    // Two getdents64 a directory, the second returning nothing, even where
    // the file system marks a listing's last record: a walk this short
    // never reads the mount table to learn that it may trust the marks.
    unsigned long long reads_below = 2;
    for (const WalkBackend& backend : test::plain_backends()) {
        for (Strategy strategy : both_strategies) {
            for (bool look_ahead : {false, true}) {
                std::string where = test::describe(backend, strategy) +
                                    (look_ahead ? " looking ahead" : "");
                std::size_t fds_before = test::count_open_fds();
                WalkOptions options = test::make_options(backend, {tree.path("top")}, strategy);
                options.look_ahead = look_ahead;
                auto walker = std::make_unique<Walker>(std::move(options));
                const ioq::walk::EntryView* entry = nullptr;
                while ((entry = walker->next()) && entry->depth < 2) {
                }
                cr_assert(entry, "%s: no entry two levels down", where.c_str());
                walker->stop();
                ioq::walk::WalkStats stats = walker->stats();
                cr_expect_eq(stats.directories, 2u, "%s: %llu directories read", where.c_str(),
                             static_cast<unsigned long long>(stats.directories));
                cr_expect_eq(stats.reads, 2 + reads_below, "%s: %llu getdents64 calls", where.c_str(),
                             static_cast<unsigned long long>(stats.reads));
                cr_expect(!stats.workers_started, "%s: workers started", where.c_str());
                test::expect_descriptors_released(walker, backend, fds_before, where);
            }
        }
    }
}

Test(walker, stop_with_thousands_of_directories_queued_returns_promptly) {
    test::TempTree tree;
    constexpr std::size_t subdirs = 2000;
    tree.directory("wide");
    for (std::size_t i = 0; i < subdirs; ++i) {
        std::string name = "wide/s" + std::to_string(i);
        if (i % 200 == 0) {
            tree.build(name + "/a " + name + "/b " + name + "/c");
        } else {
            tree.directory(name);
        }
    }
    // Stop early (the top directory half read, nothing queued yet), or once
    // every subdirectory is queued and a few have been entered.
    const std::size_t stop_points[] = {5, 1 + subdirs + 4};
    for (const WalkBackend& backend : test::usable_backends()) {
        for (Strategy strategy : both_strategies) {
            for (std::size_t stop_after : stop_points) {
                std::string where = test::describe(backend, strategy) + " stop after " +
                                    std::to_string(stop_after);
                std::size_t fds_before = test::count_open_fds();
                auto walker = std::make_unique<Walker>(
                    test::make_options(backend, {tree.path("wide")}, strategy));
                test::stop_after(*walker, stop_after, std::chrono::milliseconds(250), where);
                for (int i = 0; i < 3; ++i) {
                    cr_expect(walker->next() == nullptr, "%s: next() after stop() gave an entry",
                              where.c_str());
                }
                walker->stop();  // a second stop is harmless
                test::expect_descriptors_released(walker, backend, fds_before, where);
            }
        }
    }
}

Test(walker, public_api_stop_ends_the_walk_and_close_frees_it) {
    test::TempTree tree;
    tree.make_uniform("u", 4, 3, 1);
    std::size_t fds_before = test::count_open_fds();
    for (ioq_backend backend : {IOQ_BACKEND_INLINE, IOQ_BACKEND_THREADS, IOQ_BACKEND_URING}) {
        ioq_walk_options options;
        ioq_walk_options_init(&options);
        options.backend = backend;
        options.workers = 2;
        std::string root = tree.path("u");
        const char* roots[] = {root.c_str()};
        options.roots = roots;
        options.root_count = 1;
        ioq_walk* walk = nullptr;
        cr_assert_eq(ioq_walk_open(&walk, &options), 0);
        ioq_entry entry;
        for (int i = 0; i < 30; ++i) {
            cr_assert_eq(ioq_walk_next(walk, &entry), 1);
        }
        ioq_walk_stop(walk);
        cr_expect_eq(ioq_walk_next(walk, &entry), 0, "%s: an entry after stop",
                     ioq_backend_name(backend));
        ioq_walk_stats stats;
        ioq_walk_get_stats(walk, &stats);
        cr_expect_eq(stats.entries, 30u);
        ioq_walk_close(walk);
        cr_expect_eq(test::count_open_fds(), fds_before, "%s: descriptors leaked",
                     ioq_backend_name(backend));
    }
}

// --------------------------------------------------------------------------
// Errors
// --------------------------------------------------------------------------

Test(walker, missing_root_is_reported_and_the_next_root_is_walked) {
    test::TempTree tree;
    tree.build("sub/a sub/b/c file");
    const std::vector<std::string> roots = {
        tree.path("missing"), tree.path("sub"), tree.path("sub/missing/x"),
        tree.path("file"), tree.path("file/"), tree.path("sub/b"),
    };
    std::vector<std::string> want = test::find_records(roots, "/");
    for (const WalkBackend& backend : test::usable_backends()) {
        for (Strategy strategy : both_strategies) {
            std::string where = test::describe(backend, strategy);
            WalkResult result = test::walk(test::make_options(backend, roots, strategy));
            test::expect_no_problems(result, where);
            cr_assert(result.entries.size() >= 3);
            const Seen& first = result.entries.front();
            cr_expect(first.error == ENOENT && first.path == roots[0] && first.depth == 0,
                      "%s: first entry %s error %d depth %d", where.c_str(), first.path.c_str(),
                      first.error, first.depth);
            std::map<std::string, int> errors;
            for (const Seen& seen : result.entries) {
                if (seen.error) {
                    errors[seen.path] = seen.error;
                }
            }
            std::map<std::string, int> want_errors = {
                {roots[0], ENOENT}, {roots[2], ENOENT}, {roots[4], ENOTDIR}};
            cr_expect(errors == want_errors, "%s: errors: %s", where.c_str(),
                      test::error_summary(result).c_str());
            // Roots in the order given, each one's walk complete before the next.
            std::size_t root_index = 0;
            for (const Seen& seen : result.entries) {
                if (seen.depth == 0) {
                    cr_assert(root_index < roots.size() && seen.path == roots[root_index],
                              "%s: root %s out of order", where.c_str(), seen.path.c_str());
                    ++root_index;
                } else {
                    cr_assert(seen.path.starts_with(roots[root_index - 1] + "/"),
                              "%s: %s outside the current root %s", where.c_str(),
                              seen.path.c_str(), roots[root_index - 1].c_str());
                }
            }
            cr_expect_eq(root_index, roots.size());
            std::vector<std::string> got = test::walk_records(result);
            cr_expect(got == want, "%s: differs from find: %s", where.c_str(),
                      test::first_difference(want, got).c_str());
            cr_expect_eq(result.stats.errors, 3u);
            cr_expect_eq(result.stats.entries, result.entries.size() - 3);
        }
    }
}

namespace {

// Walks a tree holding locked/ (mode 000, with files inside) next to open/;
// returns what is wrong, or nothing.  Runs in a child without privileges
// when the test runs as root, so it reports by text rather than asserting.
std::string check_unreadable(const std::string& top, bool expect_denied) {
    std::string problems;
    for (const WalkBackend& backend : test::usable_backends()) {
        for (Strategy strategy : both_strategies) {
            std::string where = test::describe(backend, strategy) + ": ";
            WalkResult result = test::walk(test::make_options(backend, {top}, strategy));
            bool locked_reported = false, denied = false, sibling_seen = false;
            std::size_t inside = 0, other_errors = 0;
            for (const Seen& seen : result.entries) {
                if (seen.path == top + "/locked" && !seen.error) {
                    locked_reported = seen.depth == 1 && seen.type == EntryType::directory;
                } else if (seen.path == top + "/locked" && seen.error == EACCES) {
                    denied = seen.depth == 1;
                } else if (seen.error) {
                    ++other_errors;
                }
                inside += seen.path.starts_with(top + "/locked/");
                sibling_seen = sibling_seen || seen.path == top + "/open/f";
            }
            if (!locked_reported) {
                problems += where + "the locked directory itself is not reported; ";
            }
            if (!sibling_seen) {
                problems += where + "the walk did not go on to open/f; ";
            }
            if (other_errors) {
                problems += where + "unexpected errors: " + test::error_summary(result) + "; ";
            }
            if (expect_denied) {
                if (!denied) {
                    problems += where + "no EACCES entry for locked; ";
                }
                if (inside) {
                    problems += where + "entries from inside the locked directory; ";
                }
                if (result.stats.errors != 1) {
                    problems += where + "stats.errors is " + std::to_string(result.stats.errors) +
                                "; ";
                }
            } else if (denied || inside != 2) {
                problems += where + "with privileges the locked directory should be read; ";
            }
        }
    }
    return problems;
}

} // namespace

Test(walker, unreadable_directory_reports_eacces_and_the_walk_goes_on) {
    test::TempTree tree;
    tree.build("t/locked/x t/locked/y t/open/f t/z");
    tree.chmod("t/locked", 0);
    if (::geteuid() == 0) {
        // Root reads any directory, as find run by root does.
        std::string as_root = check_unreadable(tree.path("t"), false);
        cr_expect(as_root.empty(), "as root: %s", as_root.c_str());
    }
    // The EACCES path needs an unprivileged process.
    test::expect_nothing_wrong_unprivileged(
        tree, [&] { return check_unreadable(tree.path("t"), true); });
}

// --------------------------------------------------------------------------
// Types, metadata, counters
// --------------------------------------------------------------------------

Test(walker, types_come_from_d_type_without_statx_and_stat_matches_lstat) {
    test::TempTree tree;
    tree.build("k/dir/ k/file k/to_file->file k/to_dir->dir k/dangling->nowhere");
    tree.fifo("k/fifo");
    {
        int sock = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        cr_assert(sock >= 0);
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        std::string path = tree.path("k/sock");
        std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
        cr_assert_eq(::bind(sock, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
        ::close(sock);
    }
    const std::map<std::string, EntryType> want_types = {
        {"k", EntryType::directory},     {"dir", EntryType::directory},
        {"file", EntryType::regular},    {"to_file", EntryType::symlink},
        {"to_dir", EntryType::symlink},  {"dangling", EntryType::symlink},
        {"fifo", EntryType::fifo},       {"sock", EntryType::socket},
    };
    for (const WalkBackend& backend : test::usable_backends()) {
        for (Strategy strategy : both_strategies) {
            std::string where = test::describe(backend, strategy);
            // Names only, so that no worker identifies a leaf (a statx the
            // count below would see); stat() works all the same.
            WalkOptions options = test::make_options(backend, {tree.path("k")}, strategy);
            options.names_only = true;
            Walker walker(options);
            std::size_t seen = 0;
            std::uint64_t my_stats = 0;
            while (const ioq::walk::EntryView* entry = walker.next()) {
                ++seen;
                std::string name(entry->name);
                std::string path(entry->path);
                cr_assert(want_types.count(name), "%s: unexpected %s", where.c_str(), path.c_str());
                cr_expect(entry->type == want_types.at(name), "%s: %s has type %d", where.c_str(),
                          path.c_str(), static_cast<int>(entry->type));
                // The walk made no statx of its own so far but the root's.
                cr_expect_eq(walker.stats().stats, 1 + my_stats,
                             "%s: statx calls %llu before %s (d_type was known)", where.c_str(),
                             static_cast<unsigned long long>(walker.stats().stats), path.c_str());
                struct statx got;
                struct stat want;
                cr_assert_eq(::lstat(path.c_str(), &want), 0);
                int ret = walker.stat(STATX_BASIC_STATS, false, got);
                ++my_stats;
                cr_expect(ret == 0 && got.stx_ino == want.st_ino && got.stx_mode == want.st_mode,
                          "%s: stat(nofollow) of %s: %d", where.c_str(), path.c_str(), ret);
                ret = walker.stat(STATX_TYPE | STATX_INO, true, got);
                ++my_stats;
                if (::stat(path.c_str(), &want) == 0) {
                    cr_expect(ret == 0 && got.stx_ino == want.st_ino &&
                                  (got.stx_mode & S_IFMT) == (want.st_mode & S_IFMT),
                              "%s: stat(follow) of %s: %d", where.c_str(), path.c_str(), ret);
                } else {
                    cr_expect_eq(ret, -errno, "%s: stat(follow) of %s: %d", where.c_str(),
                                 path.c_str(), ret);
                }
            }
            cr_expect_eq(seen, want_types.size(), "%s: %zu entries", where.c_str(), seen);
        }
    }
}

Test(walker, stat_of_an_error_entry_returns_its_error) {
    test::TempTree tree;
    for (const WalkBackend& backend : test::usable_backends()) {
        Walker walker(test::make_options(backend, {tree.path("missing")}, Strategy::bfs));
        const ioq::walk::EntryView* entry = walker.next();
        cr_assert(entry && entry->error == ENOENT);
        struct statx buf;
        cr_expect_eq(walker.stat(STATX_TYPE, false, buf), -ENOENT, "%s", backend.label);
        cr_expect(walker.next() == nullptr);
    }
}

Test(walker, tiny_queues_are_never_overfilled) {
    // The walker keeps what it has outstanding within the queue's capacity
    // (a pool backend aborts on overflow), however small that capacity is:
    // read-ahead, queued closes and the directory it must open next together.
    test::TempTree tree;
    test::UniformCounts counts = tree.make_uniform("u", 6, 3, 1);
    for (std::size_t capacity : {2u, 3u, 4u}) {
        for (const WalkBackend& backend : test::usable_backends()) {
            if (backend.kind == ioq::BackendKind::inline_calls) {
                continue;
            }
            for (Strategy strategy : both_strategies) {
                WalkBackend small = backend;
                small.capacity = capacity;
                small.read_ahead = 64;  // the walker must cut it down itself
                std::string where = test::describe(backend, strategy) + " capacity " +
                                    std::to_string(capacity);
                // Logged first: an overflow aborts the test process.
                cr_log_info("walking with %s", where.c_str());
                WalkResult result =
                    test::walk(test::make_options(small, {tree.path("u")}, strategy));
                cr_expect_eq(result.entries.size(), counts.entries, "%s: %zu entries",
                             where.c_str(), result.entries.size());
                cr_expect_eq(test::count_errors(result), 0u, "%s: errors: %s", where.c_str(),
                             test::error_summary(result).c_str());
            }
        }
    }
}

// --------------------------------------------------------------------------
// Descriptor limits and long paths
// --------------------------------------------------------------------------

namespace {

// Lowers RLIMIT_NOFILE (soft and hard, so the walker cannot raise it back)
// to a value where the walker's share is about 30 descriptors.  Criterion
// runs each test in a process of its own, so nothing else is affected.
void limit_descriptors() {
    std::size_t open_now = test::count_open_fds();
    // FdBudget keeps a quarter for the caller: that quarter must cover what
    // is open already, the rings, and the descriptor count_open_fds uses.
    rlim_t limit = std::max<rlim_t>(40, 4 * (open_now + 4));
    rlimit lowered{limit, limit};
    cr_assert_eq(::setrlimit(RLIMIT_NOFILE, &lowered), 0);
}

// `branches` chains of 17 directories whose names are 254 or 255 bytes long:
// the deepest paths are longer than PATH_MAX.
std::vector<std::string> make_long_branches(test::TempTree& tree, int branches) {
    std::vector<std::string> created;
    for (int branch = 0; branch < branches; ++branch) {
        std::vector<std::string> chain = tree.deep_chain(
            "l/b" + std::to_string(branch), std::string(253, 'n'), 17, 0);
        created.insert(created.end(), chain.begin(), chain.end());
    }
    return created;
}

void expect_same_as_find(const std::vector<std::string>& roots, const std::string& label,
                         std::size_t entries) {
    std::vector<std::string> want = test::find_records(roots, "/");
    cr_assert_eq(want.size(), entries, "find listed %zu entries, the tree has %zu", want.size(),
                 entries);
    for (const WalkBackend& backend : test::usable_backends()) {
        for (Strategy strategy : both_strategies) {
            std::string where = label + " " + test::describe(backend, strategy);
            WalkResult result = test::walk(test::make_options(backend, roots, strategy));
            cr_expect_eq(test::count_errors(result), 0u, "%s: %zu errors: %s", where.c_str(),
                         test::count_errors(result), test::error_summary(result).c_str());
            std::vector<std::string> got = test::walk_records(result);
            cr_expect(got == want, "%s: differs from find: %s", where.c_str(),
                      test::first_difference(want, got).c_str());
        }
    }
}

} // namespace

// Every eighth level keeps only its path from the level above that keeps
// one (holds_path in dir_node.hpp).  The paths below those levels must be
// whole in every order: written from the entry path's prefix, from the nodes
// (breadth first, post-order), or below a directory that waited in the
// breadth-first queue as a record (2,500 of them side by side at depth 8,
// beyond the 16 windows kept as nodes) and came back as a node.
Test(walker, paths_below_path_holders_are_whole_in_every_order) {
    test::TempTree tree;
    std::vector<std::string> chain = tree.deep_chain("h/c", "c", 40, 1);
    constexpr int wide = 2500;
    std::string spec;
    for (int i = 0; i < wide; ++i) {
        spec += "h/w/1/2/3/4/5/6/x" + std::to_string(i) + "/y/f ";
    }
    tree.build(spec);
    std::vector<std::string> want = test::find_records({tree.path("h")}, "/");
    cr_assert_eq(want.size(), 2 + chain.size() + 7 + 3 * wide, "find listed %zu entries",
                 want.size());
    for (const WalkBackend& backend : test::plain_backends()) {
        for (Strategy strategy : both_strategies) {
            for (bool post_order : {false, true}) {
                std::string where =
                    test::describe(backend, strategy) + (post_order ? " post-order" : "");
                WalkOptions options = test::make_options(backend, {tree.path("h")}, strategy);
                options.post_order = post_order;
                WalkResult result = test::walk(std::move(options));
                cr_expect_eq(test::count_errors(result), 0u, "%s: errors: %s", where.c_str(),
                             test::error_summary(result).c_str());
                std::vector<std::string> got = test::walk_records(result);
                cr_expect(got == want, "%s: differs from find: %s", where.c_str(),
                          test::first_difference(want, got).c_str());
            }
        }
    }
}

Test(walker, walk_is_complete_when_descriptors_run_short) {
    test::TempTree tree;
    // 36 directories at depth 2 each with children, and a chain of 60.
    test::UniformCounts counts = tree.make_uniform("u", 6, 3, 1);
    std::vector<std::string> chain = tree.deep_chain("u", "c", 60, 1);
    limit_descriptors();
    expect_same_as_find({tree.path("u")}, "descriptor limit", counts.entries + chain.size());
}

Test(walker, paths_longer_than_path_max_are_walked) {
    test::TempTree tree;
    std::vector<std::string> created = make_long_branches(tree, 10);
    cr_assert(tree.path(created.back()).size() > PATH_MAX);
    expect_same_as_find({tree.path("l")}, "long paths", 1 + 10 + created.size());
}

Test(walker, paths_longer_than_path_max_are_walked_when_descriptors_run_short) {
    // 100 directories side by side at each depth, each waiting for its child
    // to be opened, do not fit in the walker's few dozen descriptors: some
    // are evicted, and children open relative to an ancestor further up.
    // The path from that ancestor must still work beyond PATH_MAX, as GNU
    // find walks this tree under the same limit.
    test::TempTree tree;
    std::vector<std::string> created = make_long_branches(tree, 100);
    limit_descriptors();
    expect_same_as_find({tree.path("l")}, "long paths, descriptor limit", 1 + 100 + created.size());
}

// --------------------------------------------------------------------------
// The public API
// --------------------------------------------------------------------------

Test(public_api, open_rejects_bad_options_with_einval) {
    ioq_walk_options options;
    ioq_walk* walk = reinterpret_cast<ioq_walk*>(&options);  // must be reset to null
    const char* roots[] = {"/nonexistent-root-for-a-test"};
    auto try_open = [&](auto change) {
        ioq_walk_options_init(&options);
        options.roots = roots;
        options.root_count = 1;
        change(options);
        walk = reinterpret_cast<ioq_walk*>(&options);
        int ret = ioq_walk_open(&walk, &options);
        if (ret == 0) {
            ioq_walk_close(walk);
        } else {
            cr_expect(walk == nullptr, "a failed open must set *walk to NULL");
        }
        return ret;
    };
    cr_expect_eq(try_open([](ioq_walk_options&) {}), 0);
    cr_expect_eq(try_open([](ioq_walk_options& o) { o.min_depth = -1; }), -EINVAL);
    cr_expect_eq(try_open([](ioq_walk_options& o) { o.max_depth = -2; }), -EINVAL);
    cr_expect_eq(try_open([](ioq_walk_options& o) { o.workers = -2; }), -EINVAL);
    cr_expect_eq(try_open([](ioq_walk_options& o) { o.strategy = static_cast<ioq_strategy>(7); }),
                 -EINVAL);
    cr_expect_eq(try_open([](ioq_walk_options& o) { o.roots = nullptr; }), -EINVAL);
    static const char* null_root[] = {nullptr};
    cr_expect_eq(try_open([](ioq_walk_options& o) { o.roots = null_root; }), -EINVAL);
    cr_expect_eq(ioq_walk_open(&walk, nullptr), -EINVAL);

    // No roots: a walk of nothing.
    ioq_walk_options_init(&options);
    cr_assert_eq(ioq_walk_open(&walk, &options), 0);
    ioq_entry entry;
    cr_expect_eq(ioq_walk_next(walk, &entry), 0);
    ioq_walk_close(walk);
}

Test(public_api, defaults_and_names) {
    ioq_walk_options options;
    std::memset(&options, 0xff, sizeof options);
    ioq_walk_options_init(&options);
    cr_expect(options.roots == nullptr && options.root_count == 0);
    cr_expect_eq(options.strategy, IOQ_STRATEGY_HYBRID);
    cr_expect_eq(options.backend, IOQ_BACKEND_AUTO);
    cr_expect_eq(options.workers, -1);
    cr_expect_eq(options.min_depth, 0);
    cr_expect_eq(options.max_depth, -1);
    cr_expect_eq(options.read_ahead, 0u);
    cr_expect_str_eq(ioq_backend_name(IOQ_BACKEND_URING), "io_uring");
    cr_expect_str_eq(ioq_backend_name(IOQ_BACKEND_THREADS), "threads");
    cr_expect_str_eq(ioq_backend_name(IOQ_BACKEND_INLINE), "inline");
    cr_expect_str_eq(ioq_backend_name(IOQ_BACKEND_AUTO), "auto");
    cr_expect(ioq_default_workers() >= 1);
}

Test(public_api, cxx_walk_matches_the_engine_and_counts_in_its_stats) {
    test::TempTree tree;
    test::UniformCounts counts = tree.make_uniform("u", 3, 3, 2);
    const std::vector<std::string> roots_text = {tree.path("u"), tree.path("missing")};
    std::vector<const char*> roots;
    for (const std::string& root : roots_text) {
        roots.push_back(root.c_str());
    }
    struct Choice {
        ioq_backend backend;
        int workers;
        ioq_backend expected;
    };
    ioq_backend uring_or_threads = ioq::probe_uring().usable ? IOQ_BACKEND_URING
                                                              : IOQ_BACKEND_THREADS;
    const Choice choices[] = {
        {IOQ_BACKEND_INLINE, 2, IOQ_BACKEND_INLINE},
        {IOQ_BACKEND_THREADS, 2, IOQ_BACKEND_THREADS},
        {IOQ_BACKEND_URING, 2, uring_or_threads},
        {IOQ_BACKEND_THREADS, 0, IOQ_BACKEND_INLINE},  // no workers: inline
    };
    for (const Choice& choice : choices) {
        for (ioq_strategy strategy : {IOQ_STRATEGY_BFS, IOQ_STRATEGY_DFS}) {
            ioq_walk_options options = ioq::Walk::defaults();
            options.backend = choice.backend;
            options.workers = choice.workers;
            options.strategy = strategy;
            // Names only: no statx at all but each root's, workers' included.
            options.names_only = 1;
            ioq::Walk walk(roots, options);
            cr_assert_eq(walk.error(), 0);
            std::set<std::string> got;
            std::size_t entries = 0, errors = 0, directories = 0;
            for (const ioq::Entry& entry : walk) {
                if (entry.error()) {
                    ++errors;
                    cr_expect(entry.path() == roots_text[1] && entry.error() == ENOENT);
                    continue;
                }
                ++entries;
                directories += entry.type() == IOQ_TYPE_DIRECTORY;
                got.insert(std::string(entry.path()));
                cr_expect_eq(std::strlen(entry.c_path()), entry.path().size());
            }
            const char* where = ioq_backend_name(choice.backend);
            cr_expect_eq(entries, counts.entries, "%s: %zu entries", where, entries);
            cr_expect_eq(got.size(), counts.entries, "%s: duplicates", where);
            ioq_walk_stats stats = walk.stats();
            cr_expect_eq(stats.entries, entries, "%s: stats.entries %llu, %zu returned", where,
                         static_cast<unsigned long long>(stats.entries), entries);
            cr_expect_eq(stats.errors, errors, "%s: stats.errors %llu, %zu returned", where,
                         static_cast<unsigned long long>(stats.errors), errors);
            cr_expect_eq(stats.directories, directories, "%s: stats.directories %llu, want %zu",
                         where, static_cast<unsigned long long>(stats.directories), directories);
            cr_expect_eq(stats.stats, 2u, "%s: %llu statx calls for two roots", where,
                         static_cast<unsigned long long>(stats.stats));
            cr_expect_eq(stats.backend, choice.expected, "%s: ran on %s", where,
                         ioq_backend_name(stats.backend));
            cr_expect_eq(stats.workers_started != 0, choice.expected != IOQ_BACKEND_INLINE,
                         "%s: workers_started %d", where, stats.workers_started);
        }
    }
}

Test(public_api, prune_and_depth_limits_through_the_c_api) {
    test::TempTree tree;
    test::UniformCounts counts = tree.make_uniform("u", 2, 3, 1);
    std::string root = tree.path("u");
    const char* roots[] = {root.c_str()};
    for (ioq_backend backend : {IOQ_BACKEND_INLINE, IOQ_BACKEND_THREADS, IOQ_BACKEND_URING}) {
        ioq_walk_options options;
        ioq_walk_options_init(&options);
        options.roots = roots;
        options.root_count = 1;
        options.backend = backend;
        options.workers = 2;
        options.min_depth = 1;
        options.max_depth = 2;
        ioq_walk* walk;
        cr_assert_eq(ioq_walk_open(&walk, &options), 0);
        ioq_entry entry;
        std::size_t seen = 0;
        while (ioq_walk_next(walk, &entry) == 1) {
            cr_expect(entry.depth >= 1 && entry.depth <= 2);
            cr_expect(std::strstr(entry.path, "/d0/") == nullptr, "%s: %s below a pruned d0",
                      ioq_backend_name(backend), entry.path);
            if (std::strcmp(entry.name, "d0") == 0) {
                ioq_walk_prune(walk);
            }
            ++seen;
        }
        // Depth 1: d0 d1 f0; depth 2: d1/d0 d1/d1 d1/f0 (d0 pruned).
        cr_expect_eq(seen, 6u, "%s: %zu entries", ioq_backend_name(backend), seen);
        ioq_walk_close(walk);
    }
    cr_expect_eq(counts.entries_between(1, 2), 9u);
}
