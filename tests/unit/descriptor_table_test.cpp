// Unit tests of the descriptor table's growth (lib/ioq/descriptor_table.hpp):
// grown before any thread shares it, so that the walk's descriptors never
// make the kernel wait for an RCU grace period.
//
// The oracle is the kernel's own count of slots, FDSize in /proc/self/status.
// A table starts at 64 slots only in a process forked from one whose highest
// descriptor is below 64: a child's table is sized by its parent's open
// descriptors, not by the parent's table.  So each case runs in a grandchild
// of the test (in_fresh_table_process) whose parent first closed everything but
// the standard streams and run_in_child's pipe, and reports through its exit
// status.
#include "ioq/descriptor_table.hpp"
#include "temp_tree.hpp"
#include "walk_harness.hpp"

#include <criterion/criterion.h>
#include <criterion/logging.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace test::walk_names;

namespace {

std::size_t table_slots() {
    std::FILE* status = std::fopen("/proc/self/status", "re");
    if (!status) {
        return 0;
    }
    std::size_t slots = 0;
    char line[256];
    while (std::fgets(line, sizeof line, status)) {
        if (std::strncmp(line, "FDSize:", 7) == 0) {
            slots = std::strtoul(line + 7, nullptr, 10);
            break;
        }
    }
    std::fclose(status);
    return slots;
}

// The open descriptors below 4096: which ones, not how many
// (test::count_open_fds), so that closing one and leaving another open
// does not pass.
std::vector<int> open_descriptors() {
    std::vector<int> open;
    for (int fd = 0; fd < 4096; ++fd) {
        if (::fcntl(fd, F_GETFD) >= 0) {
            open.push_back(fd);
        }
    }
    return open;
}

// What a grandchild found wrong, by exit status.
enum Verdict : int {
    passed = 0,
    table_not_fresh = 10,  // the precondition: the table starts small
    table_not_grown = 11,
    table_grown_past_limit = 12,
    descriptor_left_open = 13,
    standard_stream_opened = 14,
    setup_failed = 15,
    walk_failed = 16,
    pool_not_started = 17,
    grown_without_workers = 18,
    record_lock_dropped = 19,
};

const char* describe(int verdict) {
    switch (verdict) {
    case table_not_fresh: return "the table was 1024 slots or more before the call";
    case table_not_grown: return "the table was not grown";
    case table_grown_past_limit: return "the table grew past RLIMIT_NOFILE";
    case descriptor_left_open: return "a descriptor was left open";
    case standard_stream_opened: return "a closed standard stream was opened";
    case setup_failed: return "the test's own setup failed";
    case walk_failed: return "the walk reported a problem";
    case pool_not_started: return "the walk started no workers";
    case grown_without_workers: return "the table grew though no thread started";
    case record_lock_dropped: return "a record lock on standard input's file was dropped";
    default: return "an unexpected exit";
    }
}

// Runs `body` in a grandchild whose table is fresh (checked first);
// returns its verdict.
int in_fresh_table_process(const std::function<int()>& body) {
    test::ChildResult result = test::run_in_child(
        [&]() -> std::string {
            // Every descriptor but the standard streams and the pipe the
            // result goes back through (the one open descriptor above 2
            // that is close-on-exec and a pipe).
            for (int fd = 3; fd < 4096; ++fd) {
                int flags = ::fcntl(fd, F_GETFD);
                struct stat st;
                if (flags >= 0 && !((flags & FD_CLOEXEC) && ::fstat(fd, &st) == 0 &&
                                    S_ISFIFO(st.st_mode))) {
                    ::close(fd);
                }
            }
            pid_t grandchild = ::fork();
            if (grandchild < 0) {
                return "fork failed";
            }
            if (grandchild == 0) {
                ::_exit(table_slots() >= 1024 ? table_not_fresh : body());
            }
            int status = 0;
            if (::waitpid(grandchild, &status, 0) != grandchild || !WIFEXITED(status)) {
                return "the grandchild did not exit";
            }
            return std::to_string(WEXITSTATUS(status));
        },
        std::chrono::seconds(60));
    cr_assert(result.finished, "child: %s %s", result.problem.c_str(), result.output.c_str());
    return std::atoi(result.output.c_str());
}

void expect_passed(int verdict) {
    cr_expect_eq(verdict, passed, "%s (exit %d)", describe(verdict), verdict);
}

} // namespace

Test(descriptor_table, grows_a_fresh_table_and_leaves_no_descriptor_open) {
    expect_passed(in_fresh_table_process([] {
        std::vector<int> before = open_descriptors();
        ioq::grow_descriptor_table(1024);
        if (table_slots() < 1024) {
            return table_not_grown;
        }
        return open_descriptors() == before ? passed : descriptor_left_open;
    }));
}

Test(descriptor_table, stays_within_the_descriptor_limit) {
    expect_passed(in_fresh_table_process([] {
        rlimit limit{};
        if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_max < 200) {
            return setup_failed;
        }
        limit.rlim_cur = 200;
        if (::setrlimit(RLIMIT_NOFILE, &limit) != 0) {
            return setup_failed;
        }
        std::vector<int> before = open_descriptors();
        ioq::grow_descriptor_table(1024);
        std::size_t slots = table_slots();
        if (slots < 200) {
            return table_not_grown;
        }
        // The kernel rounds a table up to a power of two: 256 holds 200.
        if (slots >= 1024) {
            return table_grown_past_limit;
        }
        return open_descriptors() == before ? passed : descriptor_left_open;
    }));
}

Test(descriptor_table, grows_with_the_standard_streams_closed) {
    expect_passed(in_fresh_table_process([] {
        ::close(0);
        ::close(1);
        ::close(2);
        std::vector<int> before = open_descriptors();
        ioq::grow_descriptor_table(1024);
        if (table_slots() < 1024) {
            return table_not_grown;
        }
        for (int fd = 0; fd <= 2; ++fd) {
            if (::fcntl(fd, F_GETFD) >= 0) {
                return standard_stream_opened;
            }
        }
        return open_descriptors() == before ? passed : descriptor_left_open;
    }));
}

// Closing any descriptor of a file drops the process's POSIX record locks
// on it, so the growth must not copy and close one of the caller's (here
// standard input, open on a locked file): another process must still see
// the lock afterwards.
Test(descriptor_table, keeps_the_callers_record_locks) {
    expect_passed(in_fresh_table_process([] {
        char path[] = "/tmp/ufind-lock-XXXXXX";
        int fd = ::mkstemp(path);
        if (fd < 0 || ::dup2(fd, 0) != 0) {
            return setup_failed;
        }
        ::close(fd);
        ::unlink(path);
        struct flock lock{};
        lock.l_type = F_WRLCK;
        lock.l_whence = SEEK_SET;
        if (::fcntl(0, F_SETLK, &lock) != 0) {
            return setup_failed;
        }
        ioq::grow_descriptor_table(1024);
        if (table_slots() < 1024) {
            return table_not_grown;
        }
        pid_t other = ::fork();
        if (other == 0) {
            // Another process: F_GETLK reports the lock that would block.
            struct flock probe{};
            probe.l_type = F_WRLCK;
            probe.l_whence = SEEK_SET;
            bool held = ::fcntl(0, F_GETLK, &probe) == 0 && probe.l_type != F_UNLCK;
            ::_exit(held ? 0 : 1);
        }
        int status = 0;
        if (other < 0 || ::waitpid(other, &status, 0) != other || !WIFEXITED(status)) {
            return setup_failed;
        }
        return WEXITSTATUS(status) == 0 ? passed : record_lock_dropped;
    }));
}

// The queue grows the table when it starts its workers, and only then: a
// walk that keeps to the caller's thread needs no grace period to grow.
Test(descriptor_table, walks_grow_it_when_their_workers_start) {
    test::TempTree tree;
    tree.build("a/1/x a/2/x b/1/x b/2/x c/1/x c/2/x d/1/x d/2/x e/x f/x");
    std::vector<std::string> want = test::find_records({tree.root()}, "/");
    for (const WalkBackend& backend : test::plain_backends()) {
        std::string where = test::describe(backend, Strategy::bfs);
        int verdict = in_fresh_table_process([&] {
            WalkResult result = test::walk(test::make_options(backend, {tree.root()}, Strategy::bfs));
            if (!result.problems.empty() || test::walk_records(result) != want) {
                return walk_failed;
            }
            bool pool = backend.kind != ioq::BackendKind::inline_calls;
            if (pool != result.stats.workers_started) {
                return pool ? pool_not_started : setup_failed;
            }
            std::size_t slots = table_slots();
            if (pool && slots < ioq::descriptor_table_slots) {
                return table_not_grown;
            }
            return !pool && slots >= ioq::descriptor_table_slots ? grown_without_workers : passed;
        });
        cr_expect_eq(verdict, passed, "%s: %s (exit %d)", where.c_str(), describe(verdict), verdict);
    }
}
