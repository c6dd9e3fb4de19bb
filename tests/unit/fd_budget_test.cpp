// Unit tests of the walk's descriptor budget (lib/walk/fd_budget.hpp) at its
// smallest: a process limited to 64 descriptors (RLIMIT_NOFILE, soft and
// hard, so the budget cannot raise it) walks
//
//   - a chain of 10,000 nested directories, whose deepest paths are about
//     58,000 bytes long, 14 times PATH_MAX: every entry once, at its depth;
//   - a directory of many files and 100 subdirectories (each with one
//     file): more subdirectories than descriptors, all found at once;
//   - 100 directories side by side that each hold a directory: more
//     directories waiting for their children than descriptors, so some are
//     closed and their children opened from the top by a path of two
//     components; also where openat2 (Linux 5.6), which the walk uses for
//     such paths, is refused, as older kernels and container seccomp
//     profiles refuse it (ENOSYS, EPERM);
//
// under every strategy and backend.  The limit is set in a forked child
// (test::run_in_child), which reports its counts to the test.
//
// ids is quadratic on a chain by design (round k opens k directories): on
// 10,000 levels that is 50 million opens.  Measured here on 1,500 levels
// (1.1 million opens): 5 s inline, 19 to 20 s with two workers, each open a
// round trip to a worker.  So ids walks a chain of 120 levels whose names
// are 250 bytes long instead, its deepest path 7 times PATH_MAX; with
// IOQ_TEST_LARGE=1 it also walks a chain of 3,000 levels inline (about 20 s).
//
// The size of the wide directory: creating a file takes 0.06 to 0.5 ms on
// this machine's /tmp (ext4 on a virtual disk, 2 cores), depending on what
// else runs.  Measured: 100,100 files took 6.3 s to create alone, and 22.5 s
// beside the other unit tests (25.4 s for the whole test), over the 15 s a
// unit test may take here; 20,100 take 3 to 4 s.  So the test uses 20,000
// files, and 100,000 when IOQ_TEST_LARGE=1 asks for them.
#include "temp_tree.hpp"
#include "walk_harness.hpp"

#include <criterion/criterion.h>
#include <criterion/logging.h>

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

using namespace test::walk_names;

namespace {

constexpr rlim_t descriptor_limit = 64;
constexpr unsigned chain_levels = 10000;
constexpr unsigned ids_chain_levels = 120;
constexpr unsigned ids_large_chain_levels = 3000;
constexpr std::size_t wide_subdirs = 100;

bool large_requested() {
    const char* large = std::getenv("IOQ_TEST_LARGE");
    return large && std::strcmp(large, "1") == 0;
}

std::size_t wide_files() { return large_requested() ? 100000 : 20000; }

// In the child: lowers the limit for good.  Returns "" or why it failed.
std::string limit_descriptors() {
    rlimit lowered{descriptor_limit, descriptor_limit};
    if (::setrlimit(RLIMIT_NOFILE, &lowered) != 0) {
        return std::string("FAIL setrlimit: ") + std::strerror(errno) + "\n";
    }
    return {};
}

// What one walk saw, without keeping its paths (on the chain they add up to
// hundreds of megabytes).
struct Tally {
    std::size_t entries = 0;
    std::size_t errors = 0;
    std::string first_error;
    std::vector<std::size_t> at_depth;
    std::size_t longest_path = 0;
    std::set<std::string> names;  // depth-1 names, for the wide directory
    std::size_t duplicate_names = 0;
};

Tally tally_walk(WalkOptions options, bool keep_names) {
    Tally tally;
    Walker walker(std::move(options));
    while (const ioq::walk::EntryView* entry = walker.next()) {
        if (entry->error) {
            if (tally.errors++ == 0) {
                std::string path(entry->path.substr(0, 120));
                tally.first_error = path + "... (depth " + std::to_string(entry->depth) + "): " +
                                    std::strerror(entry->error);
            }
            continue;
        }
        ++tally.entries;
        auto depth = static_cast<std::size_t>(entry->depth);
        if (tally.at_depth.size() <= depth) {
            tally.at_depth.resize(depth + 1, 0);
        }
        ++tally.at_depth[depth];
        tally.longest_path = std::max(tally.longest_path, entry->path.size());
        if (keep_names && entry->depth == 1 &&
            !tally.names.emplace(entry->name).second) {
            ++tally.duplicate_names;
        }
    }
    return tally;
}

std::string label(const WalkBackend& backend, Strategy strategy, bool post_order) {
    return test::describe(backend, strategy) + (post_order ? " post-order" : "");
}

} // namespace

namespace {

struct Chain {
    std::string root;
    std::size_t levels;
    std::size_t longest_path;  // the deepest directory's
};

Chain make_chain(test::TempTree& tree, const std::string& relative, const std::string& stem,
                 unsigned levels) {
    std::vector<std::string> created = tree.deep_chain(relative, stem, levels);
    return Chain{tree.path(relative), levels, tree.path(created.back()).size()};
}

// Walks a chain with every backend and order; returns one line per failure.
std::string walk_chain(const Chain& chain, const std::vector<WalkBackend>& backends,
                       Strategy strategy) {
    std::string report;
    for (const WalkBackend& backend : backends) {
        for (bool post_order : {false, true}) {
            if (post_order && strategy != Strategy::bfs && strategy != Strategy::dfs) {
                continue;  // ids and eds walk post-order as dfs does
            }
            std::string where = label(backend, strategy, post_order) + " " + chain.root;
            WalkOptions options = test::make_options(backend, {chain.root}, strategy);
            options.post_order = post_order;
            Tally tally = tally_walk(options, false);
            bool one_per_depth = tally.at_depth.size() == chain.levels + 1 &&
                                 std::all_of(tally.at_depth.begin(), tally.at_depth.end(),
                                             [](std::size_t n) { return n == 1; });
            if (tally.entries != chain.levels + 1 || tally.errors != 0 || !one_per_depth ||
                tally.longest_path != chain.longest_path) {
                report += "FAIL " + where + ": " + std::to_string(tally.entries) +
                          " entries (want " + std::to_string(chain.levels + 1) + "), " +
                          std::to_string(tally.at_depth.size()) + " depths, longest path " +
                          std::to_string(tally.longest_path) + " bytes (want " +
                          std::to_string(chain.longest_path) + "), " +
                          std::to_string(tally.errors) + " errors; first: " + tally.first_error +
                          "\n";
            }
        }
    }
    return report;
}

} // namespace

Test(fd_budget, chain_ten_thousand_deep_is_walked_whole_with_64_descriptors, .timeout = 300) {
    test::TempTree tree;
    // 10,000 levels: the deepest path is about 58,900 bytes.
    Chain deep = make_chain(tree, "deep", "c", chain_levels);
    // For ids: 120 levels of 250-byte names, a deepest path of 30,000
    // bytes, 7,000 opens over all rounds.
    Chain long_names = make_chain(tree, "long", std::string(246, 'n'), ids_chain_levels);
    Chain ids_deep = deep;
    if (large_requested()) {
        ids_deep = make_chain(tree, "ids", "c", ids_large_chain_levels);
    }
    cr_assert_gt(long_names.longest_path, 7u * PATH_MAX);
    std::vector<WalkBackend> backends = test::plain_backends();
    auto start = std::chrono::steady_clock::now();
    test::ChildResult child = test::run_in_child(
        [&]() -> std::string {
            std::string report = limit_descriptors();
            if (!report.empty()) {
                return report;
            }
            for (Strategy strategy : test::all_strategies) {
                report += walk_chain(long_names, backends, strategy);
                if (strategy != Strategy::ids) {
                    report += walk_chain(deep, backends, strategy);
                } else if (large_requested()) {
                    report += walk_chain(ids_deep, {backends.front()}, strategy);
                }
            }
            return report;
        },
        std::chrono::seconds(280));
    cr_log_info("walks of the chains took %lld ms in all",
                static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                           std::chrono::steady_clock::now() - start)
                                           .count()));
    cr_assert(child.finished, "%s", child.problem.c_str());
    cr_expect(child.output.empty(), "%s", child.output.c_str());
}

Test(fd_budget, wide_directory_is_walked_whole_with_64_descriptors, .timeout = 300) {
    test::TempTree tree;
    std::size_t files = wide_files();
    auto start = std::chrono::steady_clock::now();
    tree.many_files("wide", files);
    for (std::size_t i = 0; i < wide_subdirs; ++i) {
        tree.file("wide/sub" + std::to_string(i) + "/inner");
    }
    cr_log_info("creating %zu files took %lld ms", files + wide_subdirs,
                static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                           std::chrono::steady_clock::now() - start)
                                           .count()));
    std::string root = tree.path("wide");
    std::size_t want_entries = 1 + files + 2 * wide_subdirs;
    std::vector<WalkBackend> backends = test::plain_backends();
    test::ChildResult child = test::run_in_child(
        [&]() -> std::string {
            std::string report = limit_descriptors();
            if (!report.empty()) {
                return report;
            }
            for (const WalkBackend& backend : backends) {
                for (Strategy strategy : test::all_strategies) {
                    for (bool post_order : {false, true}) {
                        std::string where = label(backend, strategy, post_order);
                        WalkOptions options = test::make_options(backend, {root}, strategy);
                        options.post_order = post_order;
                        Tally tally = tally_walk(options, true);
                        bool depths_ok = tally.at_depth.size() == 3 && tally.at_depth[0] == 1 &&
                                         tally.at_depth[1] == files + wide_subdirs &&
                                         tally.at_depth[2] == wide_subdirs;
                        if (tally.entries != want_entries || tally.errors != 0 || !depths_ok ||
                            tally.duplicate_names != 0) {
                            report += "FAIL " + where + ": " + std::to_string(tally.entries) +
                                      " entries (want " + std::to_string(want_entries) + "), " +
                                      std::to_string(tally.duplicate_names) +
                                      " names twice, " + std::to_string(tally.errors) +
                                      " errors; first: " + tally.first_error + "\n";
                        }
                    }
                }
            }
            return report;
        },
        std::chrono::seconds(280));
    cr_assert(child.finished, "%s", child.problem.c_str());
    cr_expect(child.output.empty(), "%s", child.output.c_str());
}

// --------------------------------------------------------------------------
// Directories reopened from an ancestor
// --------------------------------------------------------------------------

namespace {

constexpr unsigned side_by_side = 100;

// In the child: makes openat2 fail with `error` for this process and the
// threads it starts from now on, as a seccomp profile or an older kernel
// would.  Returns "" or why it could not.
std::string refuse_openat2(int error) {
    sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat2, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (static_cast<unsigned>(error) &
                                                        SECCOMP_RET_DATA)),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    sock_fprog program{static_cast<unsigned short>(std::size(filter)), filter};
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
        ::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != 0) {
        return std::string("SKIP seccomp: ") + std::strerror(errno);
    }
    return {};
}

std::string walk_side_by_side(const std::string& root, const std::vector<WalkBackend>& backends,
                              const std::string& condition) {
    std::string report;
    std::size_t want = 1 + 3 * side_by_side;  // dN, dN/x, dN/x/file
    for (const WalkBackend& backend : backends) {
        for (Strategy strategy : test::all_strategies) {
            std::string where = label(backend, strategy, false) + condition;
            Tally tally = tally_walk(test::make_options(backend, {root}, strategy), true);
            if (tally.entries != want || tally.errors != 0 || tally.duplicate_names != 0) {
                report += "FAIL " + where + ": " + std::to_string(tally.entries) +
                          " entries (want " + std::to_string(want) + "), " +
                          std::to_string(tally.errors) + " errors; first: " + tally.first_error +
                          "\n";
            }
        }
    }
    return report;
}

} // namespace

Test(fd_budget, directories_reopened_from_an_ancestor_are_walked_with_64_descriptors,
     .timeout = 120) {
    test::TempTree tree;
    for (unsigned i = 0; i < side_by_side; ++i) {
        tree.file("w/d" + std::to_string(i) + "/x/file");
    }
    std::string root = tree.path("w");
    std::vector<WalkBackend> backends = test::plain_backends();
    struct Condition {
        const char* label;
        int refused_with;  // 0: openat2 works
    };
    for (Condition condition : {Condition{"", 0}, Condition{" openat2 ENOSYS", ENOSYS},
                                Condition{" openat2 EPERM", EPERM}}) {
        test::ChildResult child = test::run_in_child(
            [&]() -> std::string {
                std::string report = limit_descriptors();
                if (report.empty() && condition.refused_with) {
                    report = refuse_openat2(condition.refused_with);
                }
                if (!report.empty()) {
                    return report;
                }
                return walk_side_by_side(root, backends, condition.label);
            },
            std::chrono::seconds(100));
        cr_assert(child.finished, "%s: %s", condition.label, child.problem.c_str());
        if (child.output.rfind("SKIP ", 0) == 0) {
            cr_log_warn("%s skipped: %s", condition.label, child.output.c_str() + 5);
            continue;
        }
        cr_expect(child.output.empty(), "%s", child.output.c_str());
    }
}
