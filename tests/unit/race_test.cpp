// Unit tests of walks over a tree that changes under them: directories
// deleted, renamed, recreated, and replaced by symbolic links or files while
// the walk reads them.
//
// Nothing about such a walk's output is certain except what it must never
// do, and that is what these tests hold it to:
//
//   - crash, or hang (every walk is timed, and Criterion's timeout ends a
//     test that never returns);
//   - report a path twice (a directory's listing comes from one getdents
//     call here, which the kernel does not interleave with changes);
//   - report an error other than the ones a vanishing or replaced directory
//     explains: ENOENT (gone), ENOTDIR (now a file), ELOOP (now a link,
//     opened with O_NOFOLLOW);
//   - follow a link that replaced a directory, when links are not followed:
//     the links point at a directory whose files are named "marker", which
//     the tree itself never holds;
//   - describe (stat()) another file than the entry it listed.
//
// Three kinds of test: a mutator thread racing walks under every backend,
// strategy and order (random timing, many iterations in a few seconds); a
// deterministic one where the walk's caller swaps directories for links
// between two calls to next(), after each step of the walk in turn, with
// and without the walk's descriptors cut short (short, it has to reopen
// directories by a path of several components); and one where the caller
// swaps a directory for another just before asking for an entry's
// metadata.
#include "temp_tree.hpp"
#include "walk_harness.hpp"

#include <criterion/criterion.h>
#include <criterion/logging.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <thread>
#include <vector>

using namespace test::walk_names;

namespace {

constexpr unsigned tops = 8;     // r/t0 .. r/t7
constexpr unsigned subs = 4;     // r/tI/s0 .. r/tI/s3
constexpr unsigned files = 3;    // r/tI/sJ/f0 .. f2, and r/tI/sJ/leaf/{a,b}

// The directory links point to: the same names as a subdirectory of the
// tree, but every file is called marker.
void make_outside(test::TempTree& tree) {
    tree.build("outside/marker outside/leaf/marker outside/x/marker");
}

void make_sub(test::TempTree& tree, const std::string& sub) {
    for (unsigned k = 0; k < files; ++k) {
        tree.file(sub + "/f" + std::to_string(k));
    }
    tree.build(sub + "/leaf/a " + sub + "/leaf/b");
}

void make_race_tree(test::TempTree& tree) {
    for (unsigned i = 0; i < tops; ++i) {
        for (unsigned j = 0; j < subs; ++j) {
            make_sub(tree, "r/t" + std::to_string(i) + "/s" + std::to_string(j));
        }
    }
    make_outside(tree);
}

// The mutator works by path and never opens anything: it runs in the same
// process as walks that may have used up every descriptor (the test that
// lowers RLIMIT_NOFILE), and a change it could only half make or undo
// (EMFILE) would leave the tree short of files for the last check.

// Removes sub (made by recreate_sub, or replaced by a file or a link):
// its files, its leaf, then itself; errors ignored.
void remove_sub(int dirfd, const std::string& sub) {
    for (const char* file : {"/f0", "/f1", "/f2", "/leaf/a", "/leaf/b"}) {
        ::unlinkat(dirfd, (sub + file).c_str(), 0);
    }
    ::unlinkat(dirfd, (sub + "/leaf").c_str(), AT_REMOVEDIR);
    if (::unlinkat(dirfd, sub.c_str(), AT_REMOVEDIR) != 0) {
        ::unlinkat(dirfd, sub.c_str(), 0);
    }
}

void create_file(int dirfd, const std::string& path) {
    ::mknodat(dirfd, path.c_str(), S_IFREG | 0644, 0);
}

void recreate_sub(int dirfd, const std::string& sub) {
    if (::mkdirat(dirfd, sub.c_str(), 0755) != 0) {
        return;
    }
    for (unsigned k = 0; k < files; ++k) {
        create_file(dirfd, sub + "/f" + std::to_string(k));
    }
    ::mkdirat(dirfd, (sub + "/leaf").c_str(), 0755);
    for (const char* file : {"/leaf/a", "/leaf/b"}) {
        create_file(dirfd, sub + file);
    }
}

// Changes the tree until told to stop; each change is undone before the
// next one, so the tree is whole again when the mutator stops.
class Mutator {
public:
    explicit Mutator(const std::string& root)
        : root_fd_(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)),
          thread_([this] { run(); }) {}
    ~Mutator() {
        stop_.store(true, std::memory_order_relaxed);
        thread_.join();
        ::close(root_fd_);
    }
    std::uint64_t changes() const { return changes_.load(std::memory_order_relaxed); }

private:
    void run() {
        std::uint64_t state = 0x9e3779b97f4a7c15u;
        auto random = [&state](unsigned bound) {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            return static_cast<unsigned>(state % bound);
        };
        // Relaxed: the flag carries no data, and a change more or less
        // after the walks end does not matter.
        while (!stop_.load(std::memory_order_relaxed)) {
            std::string top = "t";  // appended: GCC 12 -Wrestrict misfires on "t" + ...
            top += std::to_string(random(tops));
            std::string sub = top + "/s" + std::to_string(random(subs));
            std::string away = sub + ".away";
            switch (random(6)) {
            case 0:  // rename a subdirectory, and back
                ::renameat(root_fd_, sub.c_str(), root_fd_, away.c_str());
                std::this_thread::yield();
                ::renameat(root_fd_, away.c_str(), root_fd_, sub.c_str());
                break;
            case 1: {  // delete a subdirectory and create it again
                remove_sub(root_fd_, sub);
                std::this_thread::yield();
                recreate_sub(root_fd_, sub);
                break;
            }
            case 2:  // rename a whole top directory, and back
                ::renameat(root_fd_, top.c_str(), root_fd_, (top + ".away").c_str());
                std::this_thread::yield();
                ::renameat(root_fd_, (top + ".away").c_str(), root_fd_, top.c_str());
                break;
            case 3:  // replace a subdirectory by a link outside the tree
            case 4:  // ... or by a link to its parent
                if (::renameat(root_fd_, sub.c_str(), root_fd_, away.c_str()) == 0) {
                    const char* target = random(2) == 0 ? "../../outside" : "..";
                    ::symlinkat(target, root_fd_, sub.c_str());
                    std::this_thread::yield();
                    ::unlinkat(root_fd_, sub.c_str(), 0);
                    ::renameat(root_fd_, away.c_str(), root_fd_, sub.c_str());
                }
                break;
            case 5:  // replace a subdirectory by a file
                if (::renameat(root_fd_, sub.c_str(), root_fd_, away.c_str()) == 0) {
                    create_file(root_fd_, sub);
                    std::this_thread::yield();
                    ::unlinkat(root_fd_, sub.c_str(), 0);
                    ::renameat(root_fd_, away.c_str(), root_fd_, sub.c_str());
                }
                break;
            }
            changes_.fetch_add(1, std::memory_order_relaxed);
        }
    }

    int root_fd_;
    std::atomic<bool> stop_{false};
    std::atomic<std::uint64_t> changes_{0};
    std::thread thread_;
};

bool expected_race_error(int error) {
    return error == ENOENT || error == ENOTDIR || error == ELOOP;
}

// What no racing walk may do; returns the first offence, or "".
//
// A path fails at most once in a walk of one pass (bfs, dfs).  ids and eds
// list the top of the tree again in every round, and each round sees the
// tree as it is then: a directory that was a link to its parent in one
// round (ELOOP) may have vanished in the next (ENOENT).  Each of them is
// news, so there a path may fail once per errno.
std::string first_offence(const WalkResult& result, Strategy strategy, bool links_followed) {
    if (!result.problems.empty()) {
        return result.problems.front();
    }
    bool rounds = strategy == Strategy::ids || strategy == Strategy::eds ||
                  strategy == Strategy::hybrid;
    std::set<std::string> reported, failed;
    for (const Seen& seen : result.entries) {
        if (seen.error) {
            if (!expected_race_error(seen.error)) {
                return seen.path + ": unexpected error " + std::strerror(seen.error);
            }
            std::string key = seen.path;
            if (rounds) {
                key += std::string(" ") + std::strerror(seen.error);
            }
            if (!failed.insert(key).second) {
                return seen.path + ": error (" + std::strerror(seen.error) + ") reported twice";
            }
            continue;
        }
        if (!reported.insert(seen.path).second) {
            return seen.path + ": reported twice";
        }
        if (!links_followed && seen.name == "marker") {
            return seen.path + ": reached through a link that replaced a directory";
        }
    }
    return {};
}

struct Variant {
    const char* label;
    bool post_order = false;
    Symlinks symlinks = Symlinks::physical;
    unsigned eager_stat_mask = 0;  // workers statx entries that may be gone
    bool completion_order = false;
    bool sort_names = false;
    bool names_only = false;  // every directory closed once read (see below)
    bool look_ahead = false;  // depth first: opened before their entries come
};

const Variant variants[] = {
    {""},
    {" post-order", true},
    {" -L", false, Symlinks::logical},
    {" eager statx", false, Symlinks::physical, STATX_SIZE},
    {" completion order", false, Symlinks::physical, 0, true},
    {" sorted names", false, Symlinks::physical, 0, false, true},
    {" names only", false, Symlinks::physical, 0, false, false, true},
    {" look ahead", false, Symlinks::physical, 0, false, false, false, true},
    {" names only look ahead", false, Symlinks::physical, 0, false, false, true, true},
};

std::string describe(const WalkBackend& backend, Strategy strategy, const Variant& variant) {
    return test::describe(backend, strategy) + variant.label;
}

struct RaceOutcome {
    std::size_t walks = 0;
    std::string offence;  // the first, with the configuration; empty if none
};

// Walks the racing tree again and again under every backend, strategy and
// variant, for about `per_config` each, until one walk offends.  No
// assertion here: one would leave the test with the mutator still running
// on a stack that is gone.
RaceOutcome race_walks(const std::string& root, const std::vector<WalkBackend>& backends,
                       std::chrono::milliseconds per_config) {
    RaceOutcome outcome;
    for (const WalkBackend& backend : backends) {
        for (Strategy strategy : test::all_strategies) {
            auto config_end = std::chrono::steady_clock::now() + per_config;
            for (std::size_t round = 0;
                 round < std::size(variants) || std::chrono::steady_clock::now() < config_end;
                 ++round) {
                const Variant& variant = variants[round % std::size(variants)];
                std::string where = describe(backend, strategy, variant);
                WalkOptions options = test::make_options(backend, {root}, strategy);
                options.post_order = variant.post_order;
                options.symlinks = variant.symlinks;
                options.eager_stat_mask = variant.eager_stat_mask;
                options.completion_order = variant.completion_order;
                options.sort_names = variant.sort_names;
                options.names_only = variant.names_only;
                options.look_ahead = variant.look_ahead;
                auto start = std::chrono::steady_clock::now();
                WalkResult result = test::walk(options);
                auto took = std::chrono::duration_cast<std::chrono::milliseconds>(
                    std::chrono::steady_clock::now() - start);
                ++outcome.walks;
                std::string offence =
                    first_offence(result, strategy, variant.symlinks == Symlinks::logical);
                if (offence.empty() && took > std::chrono::seconds(5)) {
                    offence = "a walk took " + std::to_string(took.count()) + " ms";
                }
                if (offence.empty() && result.entries.empty()) {
                    // The top of the tree never moves: the walk always gets there.
                    offence = "nothing reported";
                }
                if (!offence.empty()) {
                    outcome.offence = where + ": " + offence;
                    return outcome;
                }
            }
        }
    }
    return outcome;
}

// Lowers RLIMIT_NOFILE (soft and hard, so that the walker cannot raise it
// back) to where the walk's own share is about 30 descriptors: fewer than
// the directories of one level of the race tree that wait for their
// children, so some are closed and their children reopened from further up.
// Criterion runs each test in a process of its own.
void limit_descriptors() {
    std::size_t open_now = test::count_open_fds();
    rlim_t limit = std::max<rlim_t>(40, 4 * (open_now + 4));
    rlimit lowered{limit, limit};
    cr_assert_eq(::setrlimit(RLIMIT_NOFILE, &lowered), 0);
}

// After the mutator is gone the tree is whole: a last walk of each strategy
// must see what find sees.
void expect_tree_restored(const std::string& root) {
    std::vector<std::string> want = test::find_records({root}, "/");
    cr_assert_eq(want.size(), 1 + tops * (1 + subs * (1 + files + 3)),
                 "the mutator left the tree changed: find lists %zu entries", want.size());
    for (Strategy strategy : test::all_strategies) {
        WalkResult result = test::walk(test::make_options(test::plain_backends().back(), {root},
                                                          strategy));
        std::vector<std::string> got = test::walk_records(result);
        cr_expect(got == want, "%s after the race: %s", test::strategy_name(strategy),
                  test::first_difference(want, got).c_str());
    }
}

} // namespace

Test(race, walks_survive_a_tree_changing_under_them, .timeout = 60) {
    test::TempTree tree;
    make_race_tree(tree);
    std::string root = tree.path("r");
    RaceOutcome outcome;
    std::uint64_t changes = 0;
    {
        Mutator mutator(root);
        outcome = race_walks(root, test::usable_backends(), std::chrono::milliseconds(150));
        changes = mutator.changes();
    }
    cr_log_info("%zu walks raced %llu changes", outcome.walks,
                static_cast<unsigned long long>(changes));
    cr_expect(outcome.offence.empty(), "%s", outcome.offence.c_str());
    cr_expect_gt(changes, 100u, "the mutator made only %llu changes in %zu walks",
                 static_cast<unsigned long long>(changes), outcome.walks);
    expect_tree_restored(root);
}

Test(race, walks_survive_a_tree_changing_under_them_when_descriptors_run_short,
     .timeout = 60) {
    test::TempTree tree;
    make_race_tree(tree);
    std::string root = tree.path("r");
    limit_descriptors();
    RaceOutcome outcome;
    std::uint64_t changes = 0;
    {
        Mutator mutator(root);
        outcome = race_walks(root, test::plain_backends(), std::chrono::milliseconds(150));
        changes = mutator.changes();
    }
    cr_log_info("%zu walks raced %llu changes", outcome.walks,
                static_cast<unsigned long long>(changes));
    cr_expect(outcome.offence.empty(), "%s", outcome.offence.c_str());
    expect_tree_restored(root);
}

// --------------------------------------------------------------------------
// A directory replaced by a link between two steps of the walk
// --------------------------------------------------------------------------

namespace {

// 40 directories side by side, each holding x/file: more than the walk's
// share of descriptors when limit_descriptors() has run, so that breadth
// first some of them are closed before their x is opened, and x is then
// opened from the top as "dN/x".  links/lN -> ../outside stands by for each.
constexpr unsigned side_by_side = 40;
// Swapped at each step: the first directories (in the order they were
// reported) whose x the walk has not entered yet.  The walk closes the
// oldest descriptors first, so these are the ones it may reopen by path.
// Swapping every one would cost 80 renames a step, seconds per walk here.
constexpr unsigned swapped_per_step = 3;

void make_wide_tree(test::TempTree& tree) {
    for (unsigned i = 0; i < side_by_side; ++i) {
        tree.file("w/d" + std::to_string(i) + "/x/file");
        tree.symlink("links/l" + std::to_string(i), "../outside");
    }
    make_outside(tree);
}

// Exchanges w/dN and links/lN (atomically: renameat2 RENAME_EXCHANGE): w/dN
// becomes a link to ../outside, whose x/ holds marker; the second call
// puts things back.
void exchange(const test::TempTree& tree, const std::string& dir_name) {
    std::string dir = tree.path("w/" + dir_name);
    std::string link = tree.path("links/l" + dir_name.substr(1));
    cr_assert_eq(::renameat2(AT_FDCWD, dir.c_str(), AT_FDCWD, link.c_str(), RENAME_EXCHANGE), 0,
                 "exchange %s: %s", dir.c_str(), std::strerror(errno));
}

// For every step k of the walk: walk up to k, swap the next few dN that the
// walk has not entered for links, finish the walk, swap back.  Not
// following links, the walk may report a swapped directory's contents (it
// had opened it before the swap) or fail to open it (ELOOP), but it may
// never reach a marker.  Returns the first offence, or "".
std::string walk_with_swaps_at_every_step(const test::TempTree& tree, const WalkBackend& backend,
                                          Strategy strategy, bool names_only = false,
                                          bool look_ahead = false) {
    std::string root = tree.path("w");
    std::size_t steps = 1 + side_by_side * 3;  // w, and dN, dN/x, dN/x/file
    for (std::size_t swap_at = 1; swap_at < steps; ++swap_at) {
        std::string where = test::describe(backend, strategy) + (names_only ? " names only" : "") +
                            (look_ahead ? " look ahead" : "") + " swap after step " +
                            std::to_string(swap_at);
        WalkOptions options = test::make_options(backend, {root}, strategy);
        options.names_only = names_only;
        options.look_ahead = look_ahead;
        Walker walker(options);
        WalkResult result;
        std::vector<std::string> swapped;
        for (std::size_t step = 0;; ++step) {
            if (step == swap_at) {
                for (const Seen& seen : result.entries) {
                    if (seen.depth != 1 || seen.error || swapped.size() == swapped_per_step) {
                        continue;
                    }
                    std::string x = seen.path + "/x";
                    bool entered = std::any_of(result.entries.begin(), result.entries.end(),
                                               [&](const Seen& other) {
                                                   return test::is_below(other.path, x);
                                               });
                    if (!entered) {
                        exchange(tree, seen.name);
                        swapped.push_back(seen.name);
                    }
                }
            }
            const ioq::walk::EntryView* entry = walker.next();
            if (!entry) {
                break;
            }
            result.entries.push_back(Seen{std::string(entry->path), std::string(entry->name),
                                          entry->depth, entry->type, entry->error, {}});
        }
        for (const std::string& name : swapped) {
            exchange(tree, name);
        }
        std::string offence = first_offence(result, strategy, false);
        if (!offence.empty()) {
            return where + ": " + offence;
        }
    }
    return {};
}

} // namespace

Test(race, directory_replaced_by_a_link_is_never_followed, .timeout = 60) {
    test::TempTree tree;
    make_wide_tree(tree);
    for (const WalkBackend& backend : test::plain_backends()) {
        for (Strategy strategy : test::all_strategies) {
            std::string offence = walk_with_swaps_at_every_step(tree, backend, strategy);
            cr_expect(offence.empty(), "%s", offence.c_str());
        }
    }
}

// Names only, every directory but the root is closed as soon as it is read,
// and each one opens relative to the root by a path of several components:
// no link may be followed anywhere on it.
Test(race, directory_replaced_by_a_link_is_never_followed_in_names_only_walks, .timeout = 60) {
    test::TempTree tree;
    make_wide_tree(tree);
    for (const WalkBackend& backend : test::plain_backends()) {
        for (Strategy strategy : test::all_strategies) {
            std::string offence = walk_with_swaps_at_every_step(tree, backend, strategy, true);
            cr_expect(offence.empty(), "%s", offence.c_str());
        }
    }
}

// Looking ahead, a directory may be opened before its entry comes up, and
// after its parent was read: the swap can land on either side of that
// open, and neither may lead through the link.
Test(race, directory_replaced_by_a_link_is_never_followed_when_looking_ahead, .timeout = 60) {
    test::TempTree tree;
    make_wide_tree(tree);
    for (const WalkBackend& backend : test::plain_backends()) {
        for (Strategy strategy :
             {Strategy::dfs, Strategy::ids, Strategy::eds, Strategy::hybrid}) {
            for (bool names_only : {false, true}) {
                std::string offence =
                    walk_with_swaps_at_every_step(tree, backend, strategy, names_only, true);
                cr_expect(offence.empty(), "%s", offence.c_str());
            }
        }
    }
}

Test(race, directory_replaced_by_a_link_is_never_followed_when_descriptors_run_short,
     .timeout = 60) {
    test::TempTree tree;
    make_wide_tree(tree);
    limit_descriptors();
    for (const WalkBackend& backend : test::plain_backends()) {
        for (Strategy strategy : test::all_strategies) {
            std::string offence = walk_with_swaps_at_every_step(tree, backend, strategy);
            cr_expect(offence.empty(), "%s", offence.c_str());
        }
    }
}

// --------------------------------------------------------------------------
// Metadata of an entry whose directory was replaced after it was read
// --------------------------------------------------------------------------

Test(race, stat_describes_the_file_listed_even_if_its_directory_was_replaced, .timeout = 60) {
    // The walk lists r/leaf/a; before the caller asks for its metadata,
    // r/leaf is exchanged with a directory holding another file a.  stat()
    // may fail, or describe the file it listed, but never the other one:
    // find's -size or -newer would then judge a file by another's metadata.
    // (A directory without subdirectories may be closed as soon as it is
    // read, and opened again by name when metadata is asked for.)
    test::TempTree tree;
    tree.file("r/leaf/a", "x");
    tree.file("r/other/b");
    tree.file("impostor/a", std::string(100, 'y'));
    struct stat listed, impostor;
    cr_assert_eq(::lstat(tree.path("r/leaf/a").c_str(), &listed), 0);
    cr_assert_eq(::lstat(tree.path("impostor/a").c_str(), &impostor), 0);
    std::string leaf = tree.path("r/leaf");
    std::string other = tree.path("impostor");
    auto exchange_leaf = [&] {
        cr_assert_eq(::renameat2(AT_FDCWD, leaf.c_str(), AT_FDCWD, other.c_str(),
                                 RENAME_EXCHANGE),
                     0, "exchange: %s", std::strerror(errno));
    };
    for (const WalkBackend& backend : test::plain_backends()) {
        for (Strategy strategy : test::all_strategies) {
          for (bool names_only : {false, true}) {
            std::string where = test::describe(backend, strategy) + (names_only ? " names only" : "");
            WalkOptions options = test::make_options(backend, {tree.path("r")}, strategy);
            // Names only: the leaf was closed without a statx, and is
            // checked against the inode number r listed for it.
            options.names_only = names_only;
            Walker walker(options);
            bool found = false;
            while (const ioq::walk::EntryView* entry = walker.next()) {
                if (entry->error || entry->path != leaf + "/a") {
                    continue;
                }
                found = true;
                exchange_leaf();
                struct statx got;
                int ret = walker.stat(STATX_INO | STATX_SIZE, false, got);
                exchange_leaf();
                cr_expect(ret != 0 || (got.stx_ino == listed.st_ino && got.stx_ino != impostor.st_ino),
                          "%s: stat() of %s describes the file that replaced it (inode %llu, "
                          "%llu bytes; the file listed is inode %llu, %llu bytes)",
                          where.c_str(), entry->path.data(),
                          static_cast<unsigned long long>(got.stx_ino),
                          static_cast<unsigned long long>(got.stx_size),
                          static_cast<unsigned long long>(listed.st_ino),
                          static_cast<unsigned long long>(listed.st_size));
            }
            cr_expect(found, "%s: %s/a was not reported", where.c_str(), leaf.c_str());
          }
        }
    }
}

Test(race, stat_in_a_leaf_closed_without_identity_finds_the_same_directory, .timeout = 60) {
    // A walk promised names only, asked for metadata anyway: every leaf it
    // closed early is opened again and recognised by the inode number its
    // parent listed, so nothing fails and every answer is lstat's.
    test::TempTree tree;
    for (int i = 0; i < 20; ++i) {
        tree.file("r/d" + std::to_string(i) + "/leaf/f", std::string(i, 'z'));
    }
    for (const WalkBackend& backend : test::plain_backends()) {
        for (Strategy strategy : test::all_strategies) {
            std::string where = test::describe(backend, strategy);
            WalkOptions options = test::make_options(backend, {tree.path("r")}, strategy);
            options.names_only = true;
            Walker walker(options);
            std::size_t checked = 0;
            while (const ioq::walk::EntryView* entry = walker.next()) {
                cr_expect_eq(entry->error, 0, "%s: %s: %s", where.c_str(), entry->path.data(),
                             std::strerror(entry->error));
                struct statx got;
                int ret = walker.stat(STATX_INO | STATX_SIZE, false, got);
                struct stat want;
                cr_assert_eq(::lstat(std::string(entry->path).c_str(), &want), 0);
                cr_expect(ret == 0 && got.stx_ino == want.st_ino &&
                              got.stx_size == static_cast<std::uint64_t>(want.st_size),
                          "%s: stat() of %s: %s", where.c_str(), entry->path.data(),
                          ret ? std::strerror(-ret) : "other metadata than lstat's");
                ++checked;
            }
            cr_expect_eq(checked, 1u + 20u * 3u, "%s: %zu entries", where.c_str(), checked);
        }
    }
}

Test(race, a_directory_removed_while_read_fails_once_in_all_rounds, .timeout = 60) {
    // r/big lists 400 subdirectories under long names, more than one
    // buffer holds.  The caller removes them all, and big itself, once the
    // first of them is reported: big's next read then fails (ENOENT, as
    // for any directory removed while open).  Its first batch listed
    // subdirectories at the round's bound, so the next round must walk big
    // again, and opening it fails the same way (r's listing is kept from
    // the round before, and still names big).  find would say once that
    // big failed; so must every round-based strategy.
    const std::string long_name(150, 'n');
    for (const WalkBackend& backend : test::plain_backends()) {
        for (Strategy strategy : {Strategy::ids, Strategy::eds, Strategy::hybrid}) {
            std::string where = test::describe(backend, strategy);
            test::TempTree tree;
            tree.file("r/deep/1/2/3/f");  // keeps the rounds going past big's
            for (int i = 0; i < 400; ++i) {
                tree.directory("r/big/" + long_name + std::to_string(i));
            }
            std::string big = tree.path("r/big");
            Walker walker(test::make_options(backend, {tree.path("r")}, strategy));
            bool removed = false;
            int big_failures = 0;
            int other_failures = 0;
            while (const ioq::walk::EntryView* entry = walker.next()) {
                if (entry->error) {
                    bool is_big = entry->path == big && entry->error == ENOENT;
                    big_failures += is_big;
                    other_failures += !is_big;
                    continue;
                }
                if (!removed && entry->path.starts_with(big + "/")) {
                    removed = true;
                    for (int i = 0; i < 400; ++i) {
                        std::string sub = big + "/" + long_name + std::to_string(i);
                        cr_assert_eq(::rmdir(sub.c_str()), 0, "rmdir %s: %s", sub.c_str(),
                                     std::strerror(errno));
                    }
                    cr_assert_eq(::rmdir(big.c_str()), 0, "rmdir %s: %s", big.c_str(),
                                 std::strerror(errno));
                }
            }
            cr_expect(removed, "%s: nothing below %s was reported", where.c_str(), big.c_str());
            cr_expect_eq(big_failures, 1, "%s: %s failed %d times", where.c_str(), big.c_str(),
                         big_failures);
            cr_expect_eq(other_failures, 0, "%s: %d other failures", where.c_str(),
                         other_failures);
        }
    }
}
