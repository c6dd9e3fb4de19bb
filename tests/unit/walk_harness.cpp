#include "walk_harness.hpp"

#include "temp_tree.hpp"

#include <criterion/criterion.h>
#include <criterion/logging.h>

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <map>

namespace test {

using ioq::walk::EntryType;
using ioq::walk::Strategy;
using ioq::walk::WalkOptions;
using ioq::walk::Walker;

namespace {

const WalkBackend all_backends[] = {
    {"inline", ioq::BackendChoice::inline_calls, 2, 0, 0, ioq::BackendKind::inline_calls},
    {"threads x2", ioq::BackendChoice::threads, 2, 0, 0, ioq::BackendKind::threads},
    {"io_uring x2", ioq::BackendChoice::uring, 2, 0, 0, ioq::BackendKind::uring},
    {"threads x3 queue 8", ioq::BackendChoice::threads, 3, 8, 3, ioq::BackendKind::threads},
    {"io_uring x2 queue 8", ioq::BackendChoice::uring, 2, 8, 3, ioq::BackendKind::uring},
};

std::vector<WalkBackend> backends_up_to(std::size_t count) {
    std::vector<WalkBackend> usable;
    for (std::size_t i = 0; i < count; ++i) {
        const WalkBackend& backend = all_backends[i];
        if (backend.kind == ioq::BackendKind::uring && !ioq::probe_uring().usable) {
            cr_log_warn("%s skipped: io_uring not usable here (%s)", backend.label,
                        ioq::probe_uring().reason);
            continue;
        }
        usable.push_back(backend);
    }
    return usable;
}

Seen copy_entry(const ioq::walk::EntryView& entry, std::vector<std::string>& problems) {
    Seen seen{std::string(entry.path), std::string(entry.name), entry.depth, entry.type,
              entry.error, std::string(entry.loop_ancestor)};
    if (entry.path.data()[entry.path.size()] != '\0') {
        problems.push_back(seen.path + ": path not NUL-terminated");
    }
    if (entry.name.data()[entry.name.size()] != '\0') {
        problems.push_back(seen.path + ": name not NUL-terminated");
    }
    return seen;
}

} // namespace

std::vector<WalkBackend> plain_backends() { return backends_up_to(3); }

std::vector<WalkBackend> usable_backends() { return backends_up_to(std::size(all_backends)); }

const char* strategy_name(Strategy strategy) {
    switch (strategy) {
    case Strategy::bfs: return "bfs";
    case Strategy::dfs: return "dfs";
    case Strategy::ids: return "ids";
    case Strategy::eds: return "eds";
    case Strategy::hybrid: return "hybrid";
    }
    return "?";
}

std::string describe(const WalkBackend& backend, Strategy strategy) {
    return std::string(backend.label) + "/" + strategy_name(strategy);
}

WalkOptions make_options(const WalkBackend& backend, std::vector<std::string> roots,
                         Strategy strategy, int min_depth, int max_depth) {
    WalkOptions options;
    options.roots = std::move(roots);
    options.strategy = strategy;
    options.min_depth = min_depth;
    options.max_depth = max_depth;
    options.queue.backend = backend.choice;
    options.queue.workers = backend.workers;
    if (backend.capacity) {
        options.queue.capacity = backend.capacity;
    }
    if (backend.read_ahead) {
        options.read_ahead = backend.read_ahead;
    }
    return options;
}

WalkResult walk(WalkOptions options, const std::function<bool(const Seen&)>& prune) {
    WalkResult result;
    Walker walker(std::move(options));
    while (const ioq::walk::EntryView* entry = walker.next()) {
        result.entries.push_back(copy_entry(*entry, result.problems));
        if (prune && !entry->error && prune(result.entries.back())) {
            walker.prune();
        }
    }
    if (walker.next() != nullptr) {
        result.problems.push_back("next() returned an entry after the end");
    }
    result.stats = walker.stats();
    return result;
}

void expect_no_problems(const WalkResult& result, const std::string& where) {
    cr_expect(result.problems.empty(), "%s: %s", where.c_str(),
              result.problems.empty() ? "" : result.problems.front().c_str());
}

char type_letter(EntryType type) {
    switch (type) {
    case EntryType::regular: return 'f';
    case EntryType::directory: return 'd';
    case EntryType::symlink: return 'l';
    case EntryType::block_device: return 'b';
    case EntryType::char_device: return 'c';
    case EntryType::fifo: return 'p';
    case EntryType::socket: return 's';
    case EntryType::unknown: break;
    }
    return '?';
}

std::string shell_quote(const std::string& text) {
    std::string quoted = "'";
    for (char c : text) {
        if (c == '\'') {
            quoted += "'\\''";
        } else {
            quoted += c;
        }
    }
    return quoted + "'";
}

std::vector<std::string> run_records(const std::string& command) {
    std::FILE* pipe = ::popen(command.c_str(), "r");
    cr_assert(pipe, "popen %s", command.c_str());
    std::string out;
    char buffer[65536];
    while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) {
        out.append(buffer, n);
    }
    ::pclose(pipe);
    std::vector<std::string> records;
    std::size_t start = 0;
    for (std::size_t nul; (nul = out.find('\0', start)) != std::string::npos; start = nul + 1) {
        records.push_back(out.substr(start, nul - start));
    }
    return records;
}

std::vector<std::string> find_records(const std::vector<std::string>& roots,
                                      const std::string& cwd, const std::string& options,
                                      const std::string& expression) {
    const std::string printf = "-printf '%d %y %p\\0'";
    std::string command = "cd " + shell_quote(cwd) + " && LC_ALL=C find " + options;
    for (const std::string& root : roots) {
        command += ' ';
        command += shell_quote(root);
    }
    std::string tail = expression;
    if (std::size_t at = tail.find("PRINTF"); at != std::string::npos) {
        tail.replace(at, 6, printf);
    } else {
        tail += " " + printf;
    }
    command += " " + tail + " 2>/dev/null </dev/null";
    std::vector<std::string> records = run_records(command);
    std::sort(records.begin(), records.end());
    return records;
}

std::vector<std::string> walk_records(const WalkResult& result) {
    std::vector<std::string> records;
    for (const Seen& seen : result.entries) {
        if (!seen.error) {
            records.push_back(std::to_string(seen.depth) + " " + type_letter(seen.type) + " " +
                              seen.path);
        }
    }
    std::sort(records.begin(), records.end());
    return records;
}

std::string first_difference(const std::vector<std::string>& want,
                             const std::vector<std::string>& got) {
    std::vector<std::string> missing, extra;
    std::set_difference(want.begin(), want.end(), got.begin(), got.end(),
                        std::back_inserter(missing));
    std::set_difference(got.begin(), got.end(), want.begin(), want.end(),
                        std::back_inserter(extra));
    std::string text = std::to_string(want.size()) + " expected, " + std::to_string(got.size()) +
                       " seen; " + std::to_string(missing.size()) + " missing, " +
                       std::to_string(extra.size()) + " extra";
    if (!missing.empty()) {
        text += "; first missing: " + missing.front().substr(0, 300);
    }
    if (!extra.empty()) {
        text += "; first extra: " + extra.front().substr(0, 300);
    }
    if (missing.empty() && extra.empty() && want != got) {
        text += "; some record came a different number of times";
    }
    return text;
}

std::vector<std::string> duplicate_paths(const WalkResult& result) {
    std::map<std::string, int> times;
    std::vector<std::string> twice;
    for (const Seen& seen : result.entries) {
        if (!seen.error && ++times[seen.path] == 2) {
            twice.push_back(seen.path);
        }
    }
    return twice;
}

std::size_t count_errors(const WalkResult& result) {
    return static_cast<std::size_t>(std::count_if(result.entries.begin(), result.entries.end(),
                                                  [](const Seen& seen) { return seen.error != 0; }));
}

std::string error_summary(const WalkResult& result) {
    std::string text;
    for (const Seen& seen : result.entries) {
        if (seen.error) {
            // Long paths are cut in the middle: the start says where, the
            // length and depth say how deep.
            std::string shown = seen.path.size() <= 160
                                    ? seen.path
                                    : seen.path.substr(0, 80) + "..." +
                                          seen.path.substr(seen.path.size() - 40);
            text += shown + " (depth " + std::to_string(seen.depth) + ", " +
                    std::to_string(seen.path.size()) + " bytes): " + std::strerror(seen.error) +
                    "; ";
            if (text.size() > 600) {
                break;
            }
        }
    }
    return text;
}

void stop_after(Walker& walker, std::size_t count, std::chrono::milliseconds limit,
                const std::string& where) {
    std::size_t seen = 0;
    while (seen < count && walker.next()) {
        ++seen;
    }
    cr_assert_eq(seen, count, "%s: the walk ended after %zu entries", where.c_str(), seen);
    auto start = std::chrono::steady_clock::now();
    walker.stop();
    auto took = std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::steady_clock::now() - start);
    cr_log_info("%s: stop() took %lld us", where.c_str(), static_cast<long long>(took.count()));
    cr_expect(took < limit, "%s: stop() took %lld us", where.c_str(),
              static_cast<long long>(took.count()));
}

void expect_descriptors_released(std::unique_ptr<Walker>& walker, const WalkBackend& backend,
                                 std::size_t fds_before, const std::string& where) {
    std::size_t fds_stopped = count_open_fds();
    std::size_t rings = backend.kind == ioq::BackendKind::uring ? backend.workers : 0;
    cr_expect(fds_stopped <= fds_before + rings,
              "%s: %zu descriptors open after stop(), %zu before the walk", where.c_str(),
              fds_stopped, fds_before);
    walker.reset();
    cr_expect_eq(count_open_fds(), fds_before, "%s: descriptors leaked after the walker went",
                 where.c_str());
}

bool is_below(const std::string& path, const std::string& directory) {
    if (path.size() <= directory.size() || path.compare(0, directory.size(), directory) != 0) {
        return false;
    }
    return directory.back() == '/' || path[directory.size()] == '/';
}

ChildResult run_in_child(const std::function<std::string()>& body, std::chrono::seconds timeout) {
    ChildResult result;
    int pipe_fds[2];
    if (::pipe2(pipe_fds, O_CLOEXEC) != 0) {
        result.problem = std::string("pipe: ") + std::strerror(errno);
        return result;
    }
    pid_t child = ::fork();
    if (child < 0) {
        result.problem = std::string("fork: ") + std::strerror(errno);
        ::close(pipe_fds[0]);
        ::close(pipe_fds[1]);
        return result;
    }
    if (child == 0) {
        // TempTree's crash handler would remove the parent's trees.
        for (int signal_number : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) {
            ::signal(signal_number, SIG_DFL);
        }
        ::close(pipe_fds[0]);
        std::string output;
        int status = 0;
        try {
            output = body();
        } catch (...) {
            output = "the child's body threw an exception";
            status = 2;
        }
        std::size_t done = 0;
        while (done < output.size()) {
            ssize_t n = ::write(pipe_fds[1], output.data() + done, output.size() - done);
            if (n <= 0) {
                break;
            }
            done += static_cast<std::size_t>(n);
        }
        ::_exit(status);
    }
    ::close(pipe_fds[1]);
    auto deadline = std::chrono::steady_clock::now() + timeout;
    bool timed_out = false;
    char buffer[4096];
    for (;;) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            timed_out = true;
            break;
        }
        pollfd readable{pipe_fds[0], POLLIN, 0};
        int ready = ::poll(&readable, 1, static_cast<int>(left.count()));
        if (ready < 0 && errno == EINTR) {
            continue;
        }
        if (ready <= 0) {
            timed_out = ready == 0;
            break;
        }
        ssize_t n = ::read(pipe_fds[0], buffer, sizeof buffer);
        if (n <= 0) {
            break;  // end of file: the child is done
        }
        result.output.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(pipe_fds[0]);
    if (timed_out) {
        ::kill(child, SIGKILL);
    }
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    if (timed_out) {
        result.problem = "the child did not finish within " + std::to_string(timeout.count()) +
                         " s and was killed";
    } else if (WIFSIGNALED(status)) {
        result.problem = std::string("the child was killed by signal ") +
                         ::strsignal(WTERMSIG(status));
    } else if (WEXITSTATUS(status) != 0) {
        result.problem = "the child exited with status " + std::to_string(WEXITSTATUS(status));
    } else {
        result.finished = true;
    }
    return result;
}

void expect_nothing_wrong_unprivileged(TempTree& tree, const std::function<std::string()>& body) {
    if (::geteuid() != 0) {
        std::string problems = body();
        cr_expect(problems.empty(), "%s", problems.c_str());
        return;
    }
    constexpr uid_t nobody = 65534;
    tree.chown_all(nobody, nobody);
    const std::string not_dropped = "could not drop root privileges";
    ChildResult child = run_in_child(
        [&]() -> std::string {
            if (::setgroups(0, nullptr) != 0 || ::setgid(nobody) != 0 || ::setuid(nobody) != 0) {
                return not_dropped;
            }
            return body();
        },
        std::chrono::seconds(60));
    if (child.finished && child.output == not_dropped) {
        cr_log_warn("could not drop root privileges: the unprivileged part was not run");
        return;
    }
    cr_expect(child.finished, "the unprivileged child died: %s", child.problem.c_str());
    cr_expect(child.output.empty(), "as nobody: %s", child.output.c_str());
}

} // namespace test
