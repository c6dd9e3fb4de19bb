// alloc_fault: allocation failures injected at every point of a walk end in
// a clean error, never in a crash, a hang, a leak or wrong output.
//
// The program replaces the global operator new/new[]/delete (and, outside
// sanitizer builds, malloc, calloc and realloc, which liburing and
// pthread_create call) with a counting allocator.  For each configuration
// (backend x strategy x options) it first walks a generated tree of a few
// hundred entries without failures to learn the reference result and how
// many allocations a walk makes (T), then, for N = 1..T (or a sample of N
// when T is large, with the seed printed), forks a child that walks again
// with the N-th allocation failing, from any thread, and checks that
//
//   - ioq_walk_open() either succeeds or returns -ENOMEM, with no walk;
//   - the walk either ends normally with exactly the reference entries, or
//     ends with -ENOMEM from ioq_walk_next() (or reports ENOMEM entries):
//     every entry returned before is a reference entry with the right name,
//     depth and type, none comes twice, each comes after its parent (before
//     it in post-order), and with sorted names the entries are a prefix of
//     the reference sequence;
//   - no descriptor is left open after ioq_walk_close();
//   - the child does not crash, abort or hang (an alarm per walk).
//
// Two modes: "once" fails the N-th allocation only; "from" fails every
// allocation from the N-th on (memory really gone: then stopping the walk
// and closing it must not allocate at all).  One walk per fork: a failure
// the library did not handle could leave the allocator or the walk's
// threads in any state.
//
//   alloc_fault [--max-per-config K] [--seed S]
//
// The last line is "N passed, M failed" (one case per walk); the exit
// status is 1 if any case failed.
#include <ioq.h>
#include <ioq.hpp>

#include "../unit/temp_tree.hpp"

#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <new>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define FAULT_SANITIZED 1
#define FAULT_LEAK_CHECK 1
#elif defined(__SANITIZE_THREAD__)
#define FAULT_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FAULT_SANITIZED 1
#define FAULT_LEAK_CHECK 1
#elif __has_feature(thread_sanitizer)
#define FAULT_SANITIZED 1
#endif
#endif
#ifdef FAULT_LEAK_CHECK
#include <sanitizer/lsan_interface.h>
#endif

// ---------------------------------------------------------------------------
// The failing allocator.

namespace fault {

std::atomic<bool> armed{false};
std::atomic<long> count{0};     // allocations while armed
std::atomic<long> fail_at{0};   // 1-based; 0: none fails
std::atomic<bool> sticky{false};
std::atomic<long> injected{0};  // failures injected

bool should_fail() {
    if (!armed.load(std::memory_order_relaxed)) {
        return false;
    }
    long n = count.fetch_add(1, std::memory_order_relaxed) + 1;
    long at = fail_at.load(std::memory_order_relaxed);
    if (at == 0 || n < at || (n > at && !sticky.load(std::memory_order_relaxed))) {
        return false;
    }
    injected.fetch_add(1, std::memory_order_relaxed);
    return true;
}

void arm(long at, bool from_then_on) {
    count.store(0);
    injected.store(0);
    fail_at.store(at);
    sticky.store(from_then_on);
    armed.store(true);
}

void disarm() { armed.store(false); }

} // namespace fault

#ifdef FAULT_SANITIZED
// The sanitizer owns malloc: only operator new is counted.
static void* raw_malloc(std::size_t size) { return std::malloc(size); }
#else
extern "C" void* __libc_malloc(std::size_t);
extern "C" void* __libc_calloc(std::size_t, std::size_t);
extern "C" void* __libc_realloc(void*, std::size_t);
static void* raw_malloc(std::size_t size) { return __libc_malloc(size); }

// libioq itself calls no malloc, but liburing's probe and glibc's
// pthread_create (thread descriptors, TLS) do.
extern "C" void* malloc(std::size_t size) {
    if (fault::should_fail()) {
        errno = ENOMEM;
        return nullptr;
    }
    return __libc_malloc(size);
}
extern "C" void* calloc(std::size_t count, std::size_t size) {
    if (fault::should_fail()) {
        errno = ENOMEM;
        return nullptr;
    }
    return __libc_calloc(count, size);
}
extern "C" void* realloc(void* pointer, std::size_t size) {
    if (size != 0 && fault::should_fail()) {
        errno = ENOMEM;
        return nullptr;
    }
    return __libc_realloc(pointer, size);
}
#endif

static void* counted_new(std::size_t size) {
    if (fault::should_fail()) {
        throw std::bad_alloc();
    }
    void* pointer = raw_malloc(size ? size : 1);
    if (!pointer) {
        throw std::bad_alloc();
    }
    return pointer;
}

static void* counted_new_aligned(std::size_t size, std::align_val_t alignment) {
    if (fault::should_fail()) {
        throw std::bad_alloc();
    }
    std::size_t align = std::max(static_cast<std::size_t>(alignment), sizeof(void*));
    void* pointer = nullptr;
    if (posix_memalign(&pointer, align, size ? size : 1) != 0) {
        throw std::bad_alloc();
    }
    return pointer;
}

void* operator new(std::size_t size) { return counted_new(size); }
void* operator new[](std::size_t size) { return counted_new(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
    try {
        return counted_new(size);
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
    try {
        return counted_new(size);
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
}
void* operator new(std::size_t size, std::align_val_t alignment) {
    return counted_new_aligned(size, alignment);
}
void* operator new[](std::size_t size, std::align_val_t alignment) {
    return counted_new_aligned(size, alignment);
}
void operator delete(void* pointer) noexcept { std::free(pointer); }
void operator delete[](void* pointer) noexcept { std::free(pointer); }
void operator delete(void* pointer, std::size_t) noexcept { std::free(pointer); }
void operator delete[](void* pointer, std::size_t) noexcept { std::free(pointer); }
void operator delete(void* pointer, const std::nothrow_t&) noexcept { std::free(pointer); }
void operator delete[](void* pointer, const std::nothrow_t&) noexcept { std::free(pointer); }
void operator delete(void* pointer, std::align_val_t) noexcept { std::free(pointer); }
void operator delete[](void* pointer, std::align_val_t) noexcept { std::free(pointer); }
void operator delete(void* pointer, std::size_t, std::align_val_t) noexcept { std::free(pointer); }
void operator delete[](void* pointer, std::size_t, std::align_val_t) noexcept { std::free(pointer); }

// ---------------------------------------------------------------------------
// The tree.

namespace {

struct Expected {
    int depth;
    ioq_type type;
};

void make_dir(const std::string& path) {
    if (mkdir(path.c_str(), 0755) != 0) {
        std::perror(path.c_str());
        std::exit(2);
    }
}

void make_file(const std::string& path) {
    int fd = open(path.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
    if (fd < 0) {
        std::perror(path.c_str());
        std::exit(2);
    }
    close(fd);
}

void make_link(const char* target, const std::string& path) {
    if (symlink(target, path.c_str()) != 0) {
        std::perror(path.c_str());
        std::exit(2);
    }
}

// Three levels of three directories with four files each; a directory of
// 90 files with names too long for a string's inline buffer (and more than
// one batch of eager statx results); a chain eight deep; directories named
// p* with contents, for the pruning walks; an empty directory; a link to a
// directory (walked twice with -L) and a dangling link.  About 400 entries.
void make_tree(const std::string& root) {
    make_dir(root);
    auto level = [](auto& self, const std::string& dir, int depth) -> void {
        for (int f = 0; f < 4; ++f) {
            make_file(dir + "/f" + std::to_string(f));
        }
        if (depth == 3) {
            return;
        }
        for (int d = 0; d < 3; ++d) {
            std::string sub = dir + "/d" + std::to_string(d);
            make_dir(sub);
            self(self, sub, depth + 1);
        }
        std::string pruned = dir + "/p" + std::to_string(depth);
        make_dir(pruned);
        make_file(pruned + "/under_pruned");
        make_dir(pruned + "/q");
        make_file(pruned + "/q/deeper_under_pruned");
    };
    level(level, root, 0);
    std::string wide = root + "/wide";
    make_dir(wide);
    for (int i = 0; i < 90; ++i) {
        make_file(wide + "/a_file_name_longer_than_sso_" + std::to_string(i));
    }
    std::string chain = root + "/chain";
    make_dir(chain);
    for (int i = 0; i < 8; ++i) {
        chain += "/link_in_a_long_chain_" + std::to_string(i);
        make_dir(chain);
    }
    make_file(chain + "/bottom");
    make_dir(root + "/empty");
    make_link("d0", root + "/link_to_d0");
    make_link("nowhere", root + "/dangling");
}

int remove_entry(const char* path, const struct stat*, int, struct FTW*) { return remove(path); }

// ---------------------------------------------------------------------------
// Configurations.

struct Config {
    const char* name;
    ioq_backend backend;
    ioq_strategy strategy;
    bool post_order = false;
    bool sort_names = false;
    bool logical = false;
    bool prune_p = false;       // prune directories whose name starts with 'p'
    unsigned stat_mask = 0;
    std::size_t read_ahead = 0;
    bool completion_order = false;
    bool look_ahead = false;
};

ioq_walk_options options_for(const Config& config, const char* const* roots) {
    ioq_walk_options options;
    ioq_walk_options_init(&options);
    options.roots = roots;
    options.root_count = 1;
    options.backend = config.backend;
    options.strategy = config.strategy;
    options.workers = config.backend == IOQ_BACKEND_INLINE ? 0 : 2;
    options.post_order = config.post_order;
    options.sort_names = config.sort_names;
    options.symlinks = config.logical ? IOQ_SYMLINKS_LOGICAL : IOQ_SYMLINKS_PHYSICAL;
    options.stat_mask = config.stat_mask;
    options.read_ahead = config.read_ahead;
    options.completion_order = config.completion_order;
    options.look_ahead = config.look_ahead;
    return options;
}

std::vector<Config> all_configs() {
    std::vector<Config> configs;
    const ioq_backend backends[] = {IOQ_BACKEND_INLINE, IOQ_BACKEND_THREADS, IOQ_BACKEND_URING};
    for (ioq_backend backend : backends) {
        configs.push_back({"bfs", backend, IOQ_STRATEGY_BFS});
        configs.push_back({"dfs", backend, IOQ_STRATEGY_DFS});
        configs.push_back({"ids", backend, IOQ_STRATEGY_IDS});
        configs.push_back({"eds", backend, IOQ_STRATEGY_EDS});
        configs.push_back({"hybrid", backend, IOQ_STRATEGY_HYBRID});
        Config sorted{"bfs sorted", backend, IOQ_STRATEGY_BFS};
        sorted.sort_names = true;
        configs.push_back(sorted);
        Config post{"dfs post-order", backend, IOQ_STRATEGY_DFS};
        post.post_order = true;
        configs.push_back(post);
        Config pruned{"ids prune", backend, IOQ_STRATEGY_IDS};
        pruned.prune_p = true;
        configs.push_back(pruned);
        Config eager{"bfs -L statx read-ahead 4", backend, IOQ_STRATEGY_BFS};
        eager.logical = true;
        eager.stat_mask = STATX_SIZE | STATX_MODE;
        eager.read_ahead = 4;
        configs.push_back(eager);
        Config small{"eds sorted post-order read-ahead 2", backend, IOQ_STRATEGY_EDS};
        small.sort_names = true;
        small.post_order = true;
        small.read_ahead = 2;
        configs.push_back(small);
        // Breadth-first with a window of 2: directories queued beyond 32
        // become records and nodes again (lib/walk/queued_dirs.hpp).
        Config compact{"bfs post-order prune read-ahead 2", backend, IOQ_STRATEGY_BFS};
        compact.post_order = true;
        compact.prune_p = true;
        compact.read_ahead = 2;
        configs.push_back(compact);
        Config any{"bfs completion order", backend, IOQ_STRATEGY_BFS};
        any.completion_order = true;
        configs.push_back(any);
        // Nodes opened ahead, claimed, and discarded for the pruned ones.
        Config ahead{"dfs look-ahead prune", backend, IOQ_STRATEGY_DFS};
        ahead.look_ahead = true;
        ahead.prune_p = true;
        configs.push_back(ahead);
        Config ahead_small{"eds look-ahead post-order read-ahead 3", backend, IOQ_STRATEGY_EDS};
        ahead_small.look_ahead = true;
        ahead_small.post_order = true;
        ahead_small.read_ahead = 3;
        configs.push_back(ahead_small);
    }
    return configs;
}

std::string describe(const Config& config) {
    return std::string(ioq_backend_name(config.backend)) + " " + config.name;
}

// ---------------------------------------------------------------------------
// One walk, recorded without allocating (the log is reserved beforehand).

struct Record {
    std::size_t offset;  // of the path in Log::paths
    std::size_t length;
    std::size_t name_offset;  // of the name within the path
    int depth;
    ioq_type type;
    int error;
};

struct Log {
    std::vector<char> paths;
    std::vector<Record> records;
    int open_result = 0;
    int end_result = 0;   // what ended the walk: 0, or ioq_walk_next()'s error
    bool overflow = false;

    void reserve() {
        paths.reserve(1 << 20);
        records.reserve(1 << 14);
    }
    void clear() {
        paths.clear();
        records.clear();
        open_result = end_result = 0;
        overflow = false;
    }
    void add(const ioq_entry& entry) {
        if (paths.size() + entry.path_len > paths.capacity() || records.size() == records.capacity()) {
            overflow = true;
            return;
        }
        std::size_t offset = paths.size();
        paths.insert(paths.end(), entry.path, entry.path + entry.path_len);
        records.push_back({offset, entry.path_len,
                           static_cast<std::size_t>(entry.name - entry.path), entry.depth,
                           entry.type, entry.error});
    }
    std::string_view path(const Record& record) const {
        return {paths.data() + record.offset, record.length};
    }
};

bool should_prune(const Config& config, const ioq_entry& entry) {
    return config.prune_p && !entry.error && entry.type == IOQ_TYPE_DIRECTORY &&
           entry.name_len > 0 && entry.name[0] == 'p';
}

// Through the C API.
void walk_c(const Config& config, const char* const* roots, Log& log) {
    ioq_walk_options options = options_for(config, roots);
    ioq_walk* walk = nullptr;
    log.open_result = ioq_walk_open(&walk, &options);
    if (log.open_result != 0) {
        if (walk) {
            log.open_result = -1000;  // a walk handed out with an error
        }
        return;
    }
    ioq_entry entry;
    int result;
    while ((result = ioq_walk_next(walk, &entry)) > 0) {
        log.add(entry);
        if (should_prune(config, entry)) {
            ioq_walk_prune(walk);
        }
    }
    log.end_result = result;
    if (result < 0 && ioq_walk_next(walk, &entry) != result) {
        log.end_result = -2000;  // the error must stay
    }
    ioq_walk_close(walk);
}

// Through the C++ header.  The vector of roots is the caller's allocation,
// made before the allocator is armed.
void walk_cpp(const Config& config, const std::vector<const char*>& roots, Log& log) {
    ioq::Walk walk(roots, options_for(config, roots.data()));
    if (walk.error()) {
        log.open_result = walk.error();
        return;
    }
    for (const ioq::Entry& entry : walk) {
        log.add(entry.raw());
        if (should_prune(config, entry.raw())) {
            walk.prune();
        }
    }
    log.end_result = walk.error();
}

// ---------------------------------------------------------------------------
// Checking a walk against the reference.

struct Reference {
    std::vector<std::string> sequence;         // paths in order (errors included)
    std::map<std::string, Expected> entries;   // non-error entries
    std::set<std::string> error_paths;         // error entries (dangling links etc.)
    bool deterministic = false;                // sorted names: order is fixed
};

std::string parent_of(std::string_view path) {
    std::size_t slash = path.rfind('/');
    return std::string(slash == std::string_view::npos ? std::string_view() : path.substr(0, slash));
}

// Returns the violations found (empty if the walk is acceptable).
std::vector<std::string> check_walk(const Config& config, const Reference& reference,
                                    const Log& log, bool& completed) {
    std::vector<std::string> problems;
    completed = false;
    if (log.overflow) {
        problems.push_back("more entries than the log holds (a runaway walk?)");
        return problems;
    }
    if (log.open_result != 0) {
        if (log.open_result != -ENOMEM) {
            problems.push_back("ioq_walk_open returned " + std::to_string(log.open_result));
        }
        return problems;
    }
    if (log.end_result != 0 && log.end_result != -ENOMEM) {
        problems.push_back("walk ended with " + std::to_string(log.end_result) +
                           (log.end_result == -2000 ? " (the error did not stay)" : ""));
    }
    std::unordered_set<std::string_view> seen;
    bool entry_enomem = false;
    for (std::size_t i = 0; i < log.records.size(); ++i) {
        const Record& record = log.records[i];
        std::string_view path = log.path(record);
        std::string where = "entry " + std::to_string(i) + " '" + std::string(path) + "'";
        if (record.error == ENOMEM) {
            entry_enomem = true;
            continue;
        }
        if (record.error) {
            if (!reference.error_paths.contains(std::string(path))) {
                problems.push_back(where + ": unexpected error " + std::to_string(record.error));
            }
            continue;
        }
        auto found = reference.entries.find(std::string(path));
        if (found == reference.entries.end()) {
            problems.push_back(where + ": not in the tree");
            continue;
        }
        if (!seen.insert(path).second) {
            problems.push_back(where + ": returned twice");
        }
        if (found->second.depth != record.depth) {
            problems.push_back(where + ": depth " + std::to_string(record.depth));
        }
        if (found->second.type != record.type) {
            problems.push_back(where + ": type " + std::to_string(record.type));
        }
        if (record.depth > 0) {
            std::string_view name = path.substr(record.name_offset);
            if (path.substr(path.rfind('/') + 1) != name) {
                problems.push_back(where + ": name '" + std::string(name) + "'");
            }
            // Pre-order: the parent came first; post-order: it comes later.
            bool parent_seen = seen.contains(parent_of(path));
            if (parent_seen == config.post_order) {
                problems.push_back(where + (config.post_order ? ": after its parent"
                                                              : ": before its parent"));
            }
        }
        if (reference.deterministic &&
            (i >= reference.sequence.size() || reference.sequence[i] != path)) {
            problems.push_back(where + ": out of the sorted order");
        }
    }
    bool clean_error = log.end_result == -ENOMEM || entry_enomem;
    if (!clean_error) {
        if (seen.size() != reference.entries.size()) {
            problems.push_back("walk ended normally with " + std::to_string(seen.size()) +
                               " entries of " + std::to_string(reference.entries.size()));
        } else {
            completed = true;
        }
    }
    return problems;
}

// ---------------------------------------------------------------------------

enum Outcome { completed_walk = 0, clean_error = 1, violation = 3 };

int passes = 0;
int failures = 0;

// The reference walk runs inline: the parent starts no thread (it forks),
// and does not probe io_uring, so that every child probes it under the
// failing allocator.  The entries do not depend on the backend, nor does
// their order with sorted names.
Reference make_reference(Config config, const char* const* roots, Log& log) {
    Reference reference;
    log.clear();
    config.backend = IOQ_BACKEND_INLINE;
    walk_c(config, roots, log);
    reference.deterministic = config.sort_names;
    if (log.open_result != 0 || log.end_result != 0 || log.overflow) {
        std::fprintf(stderr, "%s: the reference walk failed (%d, %d)\n", describe(config).c_str(),
                     log.open_result, log.end_result);
        std::exit(2);
    }
    for (const Record& record : log.records) {
        std::string path(log.path(record));
        reference.sequence.push_back(path);
        if (record.error) {
            reference.error_paths.insert(path);
        } else if (!reference.entries.emplace(path, Expected{record.depth, record.type}).second) {
            std::fprintf(stderr, "%s: the reference walk returned '%s' twice\n",
                         describe(config).c_str(), path.c_str());
            std::exit(2);
        }
    }
    return reference;
}

// Runs one walk with the at-th allocation failing in a child; returns its outcome.
Outcome run_case(const Config& config, const Reference& reference, const char* const* roots,
                 Log& log, long at, bool from_then_on, bool through_cpp) {
    std::fflush(stdout);
    std::fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        std::perror("fork");
        std::exit(2);
    }
    if (pid == 0) {
        // Generous: a walk takes milliseconds, tens under the sanitizers.
        alarm(20);
        log.clear();
        std::size_t fds_before = test::count_open_fds();
        if (through_cpp) {
            std::vector<const char*> root_list(roots, roots + 1);
            fault::arm(at, from_then_on);
            walk_cpp(config, root_list, log);
        } else {
            fault::arm(at, from_then_on);
            walk_c(config, roots, log);
        }
        fault::disarm();
        std::size_t fds_after = test::count_open_fds();
        bool completed = false;
        std::vector<std::string> problems = check_walk(config, reference, log, completed);
        if (fds_after != fds_before) {
            problems.push_back("descriptors open: " + std::to_string(fds_before) + " before, " +
                               std::to_string(fds_after) + " after");
        }
#ifdef FAULT_LEAK_CHECK
        // The child ends with _exit, which skips LeakSanitizer's own check;
        // one in four walks is checked here (a check costs a few ms).
        if (at % 4 == 1 && __lsan_do_recoverable_leak_check() != 0) {
            problems.push_back("memory leaked (LeakSanitizer's report above)");
        }
#endif
        for (const std::string& problem : problems) {
            std::fprintf(stderr, "FAIL: %s, allocation %ld%s: %s\n", describe(config).c_str(), at,
                         from_then_on ? " on" : "", problem.c_str());
        }
        std::fflush(stderr);
        _exit(!problems.empty() ? violation : completed ? completed_walk : clean_error);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status) && (WEXITSTATUS(status) == completed_walk ||
                              WEXITSTATUS(status) == clean_error)) {
        return static_cast<Outcome>(WEXITSTATUS(status));
    }
    if (WIFSIGNALED(status)) {
        std::fprintf(stderr, "FAIL: %s, allocation %ld%s: killed by signal %d (%s)\n",
                     describe(config).c_str(), at, from_then_on ? " on" : "", WTERMSIG(status),
                     WTERMSIG(status) == SIGALRM ? "hung" : strsignal(WTERMSIG(status)));
    } else if (WIFEXITED(status) && WEXITSTATUS(status) != violation) {
        std::fprintf(stderr, "FAIL: %s, allocation %ld%s: exit status %d\n",
                     describe(config).c_str(), at, from_then_on ? " on" : "",
                     WEXITSTATUS(status));
    }
    return violation;
}

// Counts the allocations of one walk (in a child, so that the parent stays
// single-threaded and its allocator untouched); the count comes back in the
// exit status's stead through a pipe.
long count_allocations(const Config& config, const char* const* roots, Log& log) {
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0) {
        std::perror("pipe");
        std::exit(2);
    }
    pid_t pid = fork();
    if (pid == 0) {
        close(pipe_fds[0]);
        log.clear();
        fault::arm(0, false);
        walk_c(config, roots, log);
        fault::disarm();
        long count = fault::count.load();
        ssize_t written = write(pipe_fds[1], &count, sizeof count);
        _exit(written == sizeof count ? 0 : 1);
    }
    close(pipe_fds[1]);
    long count = -1;
    if (read(pipe_fds[0], &count, sizeof count) != sizeof count) {
        count = -1;
    }
    close(pipe_fds[0]);
    int status;
    waitpid(pid, &status, 0);
    return count;
}

// Every N takes a fork and a walk: about 1.5 ms, 6 ms under ASan.  All of
// them (16,000 over the configurations) take 25 s here; the sample keeps
// the test near 10 s, 20 s under ASan, on a 2-core machine.
#ifdef FAULT_SANITIZED
constexpr long default_max_per_config = 60;
#else
constexpr long default_max_per_config = 150;
#endif

// The values of N to try: all of 1..total, or a sample of max_cases that
// always holds the first 20 and the last one.
std::vector<long> choose_cases(long total, long max_cases, std::mt19937& random) {
    std::vector<long> cases;
    if (total <= max_cases) {
        for (long n = 1; n <= total; ++n) {
            cases.push_back(n);
        }
        return cases;
    }
    std::set<long> chosen;
    for (long n = 1; n <= 20; ++n) {
        chosen.insert(n);
    }
    chosen.insert(total);
    std::uniform_int_distribution<long> pick(21, total - 1);
    while (static_cast<long>(chosen.size()) < max_cases) {
        chosen.insert(pick(random));
    }
    return {chosen.begin(), chosen.end()};
}

} // namespace

int main(int argc, char** argv) {
    long max_per_config = default_max_per_config;
    unsigned seed = 20261201;
    for (int i = 1; i < argc; ++i) {
        std::string_view arg = argv[i];
        if (arg == "--max-per-config" && i + 1 < argc) {
            max_per_config = std::atol(argv[++i]);
        } else if (arg == "--seed" && i + 1 < argc) {
            seed = static_cast<unsigned>(std::strtoul(argv[++i], nullptr, 10));
        } else {
            std::fprintf(stderr, "usage: alloc_fault [--max-per-config K] [--seed S]\n");
            return 2;
        }
    }
    auto started = std::chrono::steady_clock::now();
    char temp[] = "/tmp/ioq-fault-XXXXXX";
    if (!mkdtemp(temp)) {
        std::perror("mkdtemp");
        return 2;
    }
    std::string root = std::string(temp) + "/tree";
    make_tree(root);
    const char* roots[] = {root.c_str()};

    std::printf("seed %u, at most %ld cases per configuration and mode%s\n", seed, max_per_config,
#ifdef FAULT_SANITIZED
                " (sanitizer build: operator new only)"
#else
                " (operator new, malloc, calloc, realloc)"
#endif
    );
    std::mt19937 random(seed);
    Log log;
    log.reserve();
    for (const Config& config : all_configs()) {
        Reference reference = make_reference(config, roots, log);
        long total = count_allocations(config, roots, log);
        if (total <= 0) {
            std::fprintf(stderr, "FAIL: %s: could not count allocations\n", describe(config).c_str());
            ++failures;
            continue;
        }
        int counts[2][4] = {};
        for (bool from_then_on : {false, true}) {
            std::vector<long> cases = choose_cases(total, max_per_config, random);
            for (long at : cases) {
                Outcome outcome = run_case(config, reference, roots, log, at, from_then_on, at % 2 == 0);
                ++counts[from_then_on][outcome];
                if (outcome == violation) {
                    ++failures;
                } else {
                    ++passes;
                }
            }
        }
        std::printf("%-44s %4zu entries, %4ld allocations; once: %3d complete, %3d ENOMEM, %d bad;"
                    " from then on: %3d complete, %3d ENOMEM, %d bad\n",
                    describe(config).c_str(), reference.entries.size(), total,
                    counts[0][completed_walk], counts[0][clean_error], counts[0][violation],
                    counts[1][completed_walk], counts[1][clean_error], counts[1][violation]);
        std::fflush(stdout);
    }
    nftw(temp, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::printf("%.1f s\n", seconds);
    std::printf("%d passed, %d failed\n", passes, failures);
    return failures ? 1 : 0;
}
