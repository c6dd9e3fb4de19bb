// walk_stress: many walks, every backend and strategy, random early stops.
//
// Not a Criterion test on purpose: Criterion's forked workers cannot start
// under the thread sanitizer (Snaipe/Criterion#274), and this is the program
// the TSan build of CI runs.  It builds one tree, then walks it again and
// again under each backend, strategy and order, stopping some walks after a
// random number of entries, and checks that
//   - a complete walk reports every entry exactly once,
//   - a stopped walk reports nothing after stop() and no duplicate before,
//   - no descriptor is left open after any walk.
// Depth-first walks run again looking ahead (ioq_walk_options.look_ahead),
// pruning every directory named d1: what was opened ahead of a pruned
// entry is discarded while workers may still be opening it.
// The last line is "N passed, M failed"; the exit status is 1 on failure.
//
//   walk_stress [iterations]     (default 100 walks per configuration pair)
//   walk_stress --large N        one complete walk of a tree of about N
//                                entries under each backend and strategy
//
// The large walk is what the thread sanitizer build runs with N = 1,000,000:
// races that need many thousands of directories in flight (queues full,
// descriptor budget exhausted, workers outrunning the walk loop) show up
// there and not on a tree of a few hundred entries.  Each entry's path is
// kept as a 64-bit hash, so that a million of them fit in a few tens of MiB.
#include <ioq.hpp>

#include "../unit/temp_tree.hpp"

#include <fcntl.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace {

int failures = 0;
int passes = 0;

void check(bool ok, const std::string& what) {
    if (ok) {
        ++passes;
    } else {
        ++failures;
        std::fprintf(stderr, "FAIL: %s\n", what.c_str());
    }
}

// A tree of `fanout` subdirectories per directory, `depth` levels, with two
// files in each directory; returns the number of entries below and at root.
std::size_t make_tree(const std::string& root, int fanout, int depth) {
    std::size_t entries = 1;
    mkdir(root.c_str(), 0755);
    for (int f = 0; f < 2; ++f) {
        std::string file = root + "/f" + std::to_string(f);
        int fd = open(file.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
        if (fd >= 0) {
            close(fd);
        }
        ++entries;
    }
    if (depth > 0) {
        for (int i = 0; i < fanout; ++i) {
            entries += make_tree(root + "/d" + std::to_string(i), fanout, depth - 1);
        }
    }
    return entries;
}

// A wide tree: directories of 1,000 empty files under a few levels of
// 10 subdirectories, about `entries` in all; returns the exact count.
std::size_t make_wide_tree(const std::string& root, std::size_t entries) {
    // Names through snprintf: GCC 12 warns falsely (-Wrestrict, bug 105329)
    // on chains of std::string concatenation at -O3.
    mkdir(root.c_str(), 0755);
    std::size_t count = 1;
    std::size_t directories = entries / 1001 + 1;
    char path[4096];
    for (std::size_t d = 0; d < directories; ++d) {
        if (d % 10 == 0) {
            std::snprintf(path, sizeof path, "%s/g%zu", root.c_str(), d / 10);
            mkdir(path, 0755);
            ++count;
        }
        std::snprintf(path, sizeof path, "%s/g%zu/d%zu", root.c_str(), d / 10, d % 10);
        mkdir(path, 0755);
        ++count;
        int dir_fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        for (int f = 0; f < 1000 && dir_fd >= 0; ++f) {
            char name[16];
            std::snprintf(name, sizeof name, "f%d", f);
            int fd = openat(dir_fd, name, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
            if (fd >= 0) {
                close(fd);
                ++count;
            }
        }
        if (dir_fd >= 0) {
            close(dir_fd);
        }
    }
    return count;
}

int remove_entry(const char* path, const struct stat*, int, struct FTW*) {
    return remove(path);
}

struct Config {
    ioq_backend backend;
    ioq_strategy strategy;
    bool post_order;
    bool look_ahead = false;  // and prune every d1
};

std::string describe(const Config& config) {
    return std::string(ioq_backend_name(config.backend)) + "/strategy " +
           std::to_string(config.strategy) + (config.post_order ? "/post" : "/pre") +
           (config.look_ahead ? "/ahead" : "");
}

bool is_pruned(const ioq::Entry& entry) {
    return entry.type() == IOQ_TYPE_DIRECTORY && entry.name() == "d1";
}

void walk_once(const std::string& root, std::size_t expected, const Config& config,
               long stop_after) {
    std::size_t fds_before = test::count_open_fds();
    ioq_walk_options options = ioq::Walk::defaults();
    options.backend = config.backend;
    options.strategy = config.strategy;
    options.post_order = config.post_order ? 1 : 0;
    options.look_ahead = config.look_ahead ? 1 : 0;
    options.workers = 2;
    std::set<std::string> seen;
    bool duplicate = false;
    {
        ioq::Walk walk({root.c_str()}, options);
        long count = 0;
        while (const ioq::Entry* entry = walk.next()) {
            duplicate |= !seen.emplace(entry->path()).second;
            if (config.look_ahead && is_pruned(*entry)) {
                walk.prune();
            }
            if (++count == stop_after) {
                walk.stop();
                check(walk.next() == nullptr, describe(config) + ": next() after stop");
                break;
            }
        }
    }
    check(!duplicate, describe(config) + ": an entry came twice");
    if (stop_after < 0) {
        check(seen.size() == expected, describe(config) + ": " + std::to_string(seen.size()) +
                                           " entries, expected " + std::to_string(expected));
    }
    check(test::count_open_fds() == fds_before, describe(config) + ": descriptors leaked");
}

void walk_large(const std::string& root, std::size_t expected, ioq_backend backend,
                ioq_strategy strategy) {
    std::size_t fds_before = test::count_open_fds();
    ioq_walk_options options = ioq::Walk::defaults();
    options.backend = backend;
    options.strategy = strategy;
    options.workers = 2;
    options.look_ahead = 1;  // as ufind walks depth first
    std::unordered_set<std::uint64_t> seen;
    seen.reserve(expected);
    bool duplicate = false;
    std::size_t count = 0;
    {
        ioq::Walk walk({root.c_str()}, options);
        while (const ioq::Entry* entry = walk.next()) {
            ++count;
            duplicate |= !seen.insert(std::hash<std::string_view>{}(entry->path())).second;
        }
    }
    Config config{backend, strategy, false};
    check(!duplicate, describe(config) + " (large): an entry came twice");
    check(count == expected, describe(config) + " (large): " + std::to_string(count) +
                                 " entries, expected " + std::to_string(expected));
    check(test::count_open_fds() == fds_before, describe(config) + " (large): descriptors leaked");
}

} // namespace

int main(int argc, char** argv) {
    bool large = argc > 2 && std::string(argv[1]) == "--large";
    int iterations = argc > 1 && !large ? std::atoi(argv[1]) : 100;
    char temp[] = "/tmp/ioq-stress-XXXXXX";
    if (!mkdtemp(temp)) {
        std::perror("mkdtemp");
        return 1;
    }
    std::string root = std::string(temp) + "/t";
    if (large) {
        std::size_t expected = make_wide_tree(root, std::strtoull(argv[2], nullptr, 10));
        for (ioq_backend backend : {IOQ_BACKEND_INLINE, IOQ_BACKEND_THREADS, IOQ_BACKEND_URING}) {
            // ids runs the rounds of eds and hybrid one level at a time:
            // left to the small trees, to keep this under TSan in time.
            for (ioq_strategy strategy : {IOQ_STRATEGY_HYBRID, IOQ_STRATEGY_BFS, IOQ_STRATEGY_DFS,
                                          IOQ_STRATEGY_EDS}) {
                walk_large(root, expected, backend, strategy);
            }
        }
        nftw(temp, remove_entry, 64, FTW_DEPTH | FTW_PHYS);
        std::printf("a tree of %zu entries, each backend and strategy\n", expected);
        std::printf("%d passed, %d failed\n", passes, failures);
        return failures ? 1 : 0;
    }
    std::size_t expected = make_tree(root, 4, 4);
    // Pruning every d1 (pre-order; after its contents, a prune does nothing).
    std::size_t expected_pruned = 0;
    {
        ioq_walk_options options = ioq::Walk::defaults();
        options.backend = IOQ_BACKEND_INLINE;
        ioq::Walk walk({root.c_str()}, options);
        while (const ioq::Entry* entry = walk.next()) {
            ++expected_pruned;
            if (is_pruned(*entry)) {
                walk.prune();
            }
        }
    }

    std::mt19937 random(12345);
    const ioq_backend backends[] = {IOQ_BACKEND_INLINE, IOQ_BACKEND_THREADS, IOQ_BACKEND_URING};
    const ioq_strategy strategies[] = {IOQ_STRATEGY_HYBRID, IOQ_STRATEGY_BFS, IOQ_STRATEGY_DFS,
                                       IOQ_STRATEGY_IDS, IOQ_STRATEGY_EDS};
    for (ioq_backend backend : backends) {
        for (ioq_strategy strategy : strategies) {
            for (bool post_order : {false, true}) {
                for (bool look_ahead : {false, true}) {
                    if (look_ahead && strategy == IOQ_STRATEGY_BFS) {
                        continue;  // breadth first never looks ahead
                    }
                    Config config{backend, strategy, post_order, look_ahead};
                    std::size_t want = look_ahead && !post_order ? expected_pruned : expected;
                    walk_once(root, want, config, -1);
                    for (int i = 0; i < iterations / 8 + 1; ++i) {
                        std::uniform_int_distribution<long> stop(1, static_cast<long>(want));
                        walk_once(root, want, config, stop(random));
                    }
                }
            }
        }
    }
    nftw(temp, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    std::printf("%d passed, %d failed\n", passes, failures);
    return failures ? 1 : 0;
}
