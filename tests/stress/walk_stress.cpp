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
// The last line is "N passed, M failed"; the exit status is 1 on failure.
//
//   walk_stress [iterations]     (default 100 walks per configuration pair)
#include <ioq.hpp>

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <set>
#include <string>
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

int open_fd_count() {
    int count = 0;
    DIR* dir = opendir("/proc/self/fd");
    if (!dir) {
        return -1;
    }
    while (readdir(dir)) {
        ++count;
    }
    closedir(dir);
    return count;
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

int remove_entry(const char* path, const struct stat*, int, struct FTW*) {
    return remove(path);
}

struct Config {
    ioq_backend backend;
    ioq_strategy strategy;
    bool post_order;
};

std::string describe(const Config& config) {
    return std::string(ioq_backend_name(config.backend)) + "/strategy " +
           std::to_string(config.strategy) + (config.post_order ? "/post" : "/pre");
}

void walk_once(const std::string& root, std::size_t expected, const Config& config,
               long stop_after) {
    int fds_before = open_fd_count();
    ioq_walk_options options = ioq::Walk::defaults();
    options.backend = config.backend;
    options.strategy = config.strategy;
    options.post_order = config.post_order ? 1 : 0;
    options.workers = 2;
    std::set<std::string> seen;
    bool duplicate = false;
    {
        ioq::Walk walk({root.c_str()}, options);
        long count = 0;
        while (const ioq::Entry* entry = walk.next()) {
            duplicate |= !seen.emplace(entry->path()).second;
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
    check(open_fd_count() == fds_before, describe(config) + ": descriptors leaked");
}

} // namespace

int main(int argc, char** argv) {
    int iterations = argc > 1 ? std::atoi(argv[1]) : 100;
    char temp[] = "/tmp/ioq-stress-XXXXXX";
    if (!mkdtemp(temp)) {
        std::perror("mkdtemp");
        return 1;
    }
    std::string root = std::string(temp) + "/t";
    std::size_t expected = make_tree(root, 4, 4);

    std::mt19937 random(12345);
    const ioq_backend backends[] = {IOQ_BACKEND_INLINE, IOQ_BACKEND_THREADS, IOQ_BACKEND_URING};
    const ioq_strategy strategies[] = {IOQ_STRATEGY_BFS, IOQ_STRATEGY_DFS, IOQ_STRATEGY_IDS,
                                       IOQ_STRATEGY_EDS};
    for (ioq_backend backend : backends) {
        for (ioq_strategy strategy : strategies) {
            for (bool post_order : {false, true}) {
                Config config{backend, strategy, post_order};
                walk_once(root, expected, config, -1);
                for (int i = 0; i < iterations / 8 + 1; ++i) {
                    std::uniform_int_distribution<long> stop(1, static_cast<long>(expected));
                    walk_once(root, expected, config, stop(random));
                }
            }
        }
    }
    nftw(temp, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    std::printf("%d passed, %d failed\n", passes, failures);
    return failures ? 1 : 0;
}
