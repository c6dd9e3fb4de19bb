// Unit tests of IoQueue (lib/ioq/io_queue.hpp) over each backend; BatchQueue
// and DirBuffer have their own (batch_queue_test.cpp, dir_buffer_test.cpp).
//
// The oracle for every completion is the system call itself, made directly
// by the test: lstat for statx results, the test's own knowledge of the names
// it created for directory contents, openat for error numbers.
//
// Each IoQueue scenario runs under every backend, forced through
// QueueOptions: inline, threads with 1 and 3 workers, io_uring with 2 (skipped
// only where the kernel refuses io_uring).  Requests live on the heap: a
// failed assertion leaves the test by longjmp, and a worker or the kernel may
// still write into a request it holds.
#include "ioq/dir_buffer.hpp"
#include "ioq/io_queue.hpp"
#include "ioq/uring_probe.hpp"
#include "dir_names.hpp"
#include "temp_tree.hpp"

#include <criterion/criterion.h>
#include <criterion/logging.h>

#include <dirent.h>
#include <fcntl.h>
#include <malloc.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

using ioq::BackendChoice;
using ioq::BackendKind;
using ioq::DirBuffer;
using ioq::DirentCursor;
using ioq::IoQueue;
using ioq::Op;
using ioq::QueueOptions;
using ioq::RawDirent;
using ioq::Request;
using test::as_set;
using test::names_in;

namespace {

// --------------------------------------------------------------------------
// Backends
// --------------------------------------------------------------------------

struct BackendCase {
    const char* label;
    BackendChoice choice;
    unsigned workers;
    BackendKind expected;
};

constexpr BackendCase inline_case{"inline", BackendChoice::inline_calls, 1,
                                  BackendKind::inline_calls};
constexpr BackendCase threads_1_case{"threads x1", BackendChoice::threads, 1, BackendKind::threads};
constexpr BackendCase threads_3_case{"threads x3", BackendChoice::threads, 3, BackendKind::threads};
constexpr BackendCase uring_2_case{"io_uring x2", BackendChoice::uring, 2, BackendKind::uring};

void skip_unless_usable(const BackendCase& backend) {
    if (backend.expected == BackendKind::uring && !ioq::probe_uring().usable) {
        cr_skip_test("io_uring is not usable here: %s (errno %d)", ioq::probe_uring().reason,
                     ioq::probe_uring().setup_error);
    }
}

// The scenarios below exercise the pools: with inline_directories 0 the
// first two requests outstanding start one (the default lets the caller's
// thread run two directories first; see the pool_starts tests).
QueueOptions options_for(const BackendCase& backend, std::size_t capacity) {
    QueueOptions options;
    options.backend = backend.choice;
    options.workers = backend.workers;
    options.capacity = capacity;
    options.inline_directories = 0;
    return options;
}

// Defines the scenario `name` once per backend.
#define QUEUE_TEST(name)                                                          \
    static void name(const BackendCase& backend);                                 \
    Test(io_queue_inline, name) { name(inline_case); }                            \
    Test(io_queue_threads_1, name) { name(threads_1_case); }                      \
    Test(io_queue_threads_3, name) { name(threads_3_case); }                      \
    Test(io_queue_uring_2, name) {                                                \
        skip_unless_usable(uring_2_case);                                         \
        name(uring_2_case);                                                       \
    }                                                                             \
    static void name(const BackendCase& backend)

// --------------------------------------------------------------------------
// Helpers
// --------------------------------------------------------------------------

// Describes how a statx result differs from lstat/stat of the same file;
// empty when it agrees on every basic field.
std::string statx_mismatch(const struct statx& got, const struct stat& want) {
    std::string diff;
    auto check = [&](const char* field, unsigned long long a, unsigned long long b) {
        if (a != b) {
            diff += std::string(field) + ": statx " + std::to_string(a) + " lstat " +
                    std::to_string(b) + "; ";
        }
    };
    check("mask has BASIC_STATS", (got.stx_mask & STATX_BASIC_STATS) == STATX_BASIC_STATS, 1);
    check("mode", got.stx_mode, want.st_mode);
    check("ino", got.stx_ino, want.st_ino);
    check("nlink", got.stx_nlink, want.st_nlink);
    check("uid", got.stx_uid, want.st_uid);
    check("gid", got.stx_gid, want.st_gid);
    check("size", got.stx_size, static_cast<unsigned long long>(want.st_size));
    check("dev", makedev(got.stx_dev_major, got.stx_dev_minor), want.st_dev);
    check("mtime.sec", static_cast<unsigned long long>(got.stx_mtime.tv_sec),
          static_cast<unsigned long long>(want.st_mtim.tv_sec));
    check("mtime.nsec", got.stx_mtime.tv_nsec, static_cast<unsigned long long>(want.st_mtim.tv_nsec));
    return diff;
}

// One request the test submitted, and what it expects back.
struct Expected {
    Request request;
    std::string path;                 // what request.path points into
    std::unique_ptr<DirBuffer> buffer;
    struct statx statx_buf {};
    int want_result = 0;              // 0: success (an fd >= 0 for open_dir)
    std::set<std::string> want_names; // open_dir
    bool follow = false;              // stat: compare with stat() instead of lstat()
    std::string oracle_path;          // stat: the absolute path for lstat/stat
    int returned = 0;                 // times reap() handed it back
};

// Submits every request in `order` in batches of varying size, never beyond
// the queue's capacity, and reaps until nothing is outstanding.  Counts how
// many times each comes back (through its cookie, an index into items).
void run_all(IoQueue& queue, std::vector<std::unique_ptr<Expected>>& items,
             const std::vector<std::size_t>& order, unsigned seed) {
    std::mt19937 random(seed);
    std::vector<Request*> reaped(queue.capacity());
    auto reap_some = [&](bool wait) {
        std::size_t n = queue.reap(reaped, wait);
        for (std::size_t i = 0; i < n; ++i) {
            auto index = reinterpret_cast<std::uintptr_t>(reaped[i]->cookie);
            cr_assert(index < items.size(), "reap() returned a request the test never made");
            cr_assert(reaped[i] == &items[index]->request,
                      "reap() returned a pointer that is not the submitted request");
            ++items[index]->returned;
        }
        return n;
    };

    std::vector<Request*> batch;
    std::size_t next = 0;
    // The first batch has two requests at least, so that a pool backend starts.
    std::size_t batch_size = 2;
    while (next < order.size()) {
        batch_size = std::min(batch_size, order.size() - next);
        while (queue.room() < batch_size) {
            cr_assert(queue.outstanding() > 0, "no room but nothing outstanding");
            reap_some(true);
        }
        batch.clear();
        for (std::size_t i = 0; i < batch_size; ++i) {
            batch.push_back(&items[order[next++]]->request);
        }
        queue.submit(batch);
        reap_some(false);
        batch_size = 1 + random() % 24;
    }
    while (queue.outstanding() > 0) {
        cr_assert(reap_some(true) > 0 || queue.outstanding() == 0,
                  "reap(wait) returned nothing with %zu outstanding", queue.outstanding());
    }
    // Nothing more may come back once outstanding() is 0.
    cr_assert_eq(reap_some(false), 0u, "reap() returned requests after outstanding() was 0");
}

std::unique_ptr<Expected> make_open(const std::string& path, int base_fd, int want) {
    auto item = std::make_unique<Expected>();
    item->path = path;
    item->buffer = std::make_unique<DirBuffer>(4096);
    item->want_result = want;
    item->request.op = Op::open_dir;
    item->request.fd = base_fd;
    item->request.buffer = item->buffer.get();
    return item;
}

std::unique_ptr<Expected> make_stat(const std::string& path, int base_fd,
                                    const std::string& oracle_path, bool follow, int want) {
    auto item = std::make_unique<Expected>();
    item->path = path;
    item->oracle_path = oracle_path;
    item->follow = follow;
    item->want_result = want;
    item->request.op = Op::stat;
    item->request.fd = base_fd;
    item->request.flags = follow ? 0 : AT_SYMLINK_NOFOLLOW;
    item->request.statx_mask = STATX_BASIC_STATS;
    return item;
}

// Sets path pointers and cookies once the items no longer move.
void finalize(std::vector<std::unique_ptr<Expected>>& items) {
    for (std::size_t i = 0; i < items.size(); ++i) {
        Expected& item = *items[i];
        if (item.request.op == Op::open_dir || item.request.op == Op::stat) {
            item.request.path = item.path.c_str();
        }
        if (item.request.op == Op::stat) {
            item.request.statx_out = &item.statx_buf;
        }
        item.request.cookie = reinterpret_cast<void*>(static_cast<std::uintptr_t>(i));
    }
}

// The requests of `items`, in their order, for one submit().
std::vector<Request*> requests_of(const std::vector<std::unique_ptr<Expected>>& items) {
    std::vector<Request*> batch;
    for (const auto& item : items) {
        batch.push_back(&item->request);
    }
    return batch;
}

std::vector<std::size_t> shuffled_indices(std::size_t count, unsigned seed) {
    std::vector<std::size_t> order(count);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), std::mt19937(seed));
    return order;
}

} // namespace

// --------------------------------------------------------------------------
// IoQueue over each backend
// --------------------------------------------------------------------------

constexpr int directory_count = 150;

QUEUE_TEST(every_request_returns_once_with_its_result) {
    std::size_t fds_before = test::count_open_fds();
    {
        test::TempTree tree;
        std::map<std::string, std::set<std::string>> contents;  // dir name -> entries
        std::vector<std::string> files;                         // relative paths
        char name[32];
        for (int i = 0; i < directory_count; ++i) {
            std::snprintf(name, sizeof name, "dir%03d", i);
            std::string dir = name;
            tree.directory(dir);
            contents[dir];
            for (int j = 0; j < i % 5; ++j) {
                // Appended, not "n" + to_string(j): GCC 12 at -O3 warns
                // falsely (-Wrestrict) about the operator+ form.
                std::string file = "n";
                file += std::to_string(j);
                tree.file(dir + "/" + file, std::string(static_cast<std::size_t>(j), 'x'));
                contents[dir].insert(file);
                files.push_back(dir + "/" + file);
            }
            if (i % 10 == 0) {
                tree.directory(dir + "/sub");
                contents[dir].insert("sub");
            }
        }
        tree.build("plain link->plain dangling->nowhere");
        int base = ::open(tree.root().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        cr_assert(base >= 0);

        std::vector<std::unique_ptr<Expected>> items;
        for (const auto& [dir, names] : contents) {
            // Half the opens are absolute, half relative to a base descriptor.
            bool relative = items.size() % 2 == 0;
            items.push_back(relative ? make_open(dir, base, 0)
                                     : make_open(tree.path(dir), AT_FDCWD, 0));
            items.back()->want_names = names;
            items.back()->oracle_path = tree.path(dir);
            items.push_back(make_stat(dir, base, tree.path(dir), false, 0));
        }
        for (const std::string& file : files) {
            items.push_back(make_stat(tree.path(file), AT_FDCWD, tree.path(file), false, 0));
        }
        items.push_back(make_stat("link", base, tree.path("link"), false, 0));
        items.push_back(make_stat("link", base, tree.path("link"), true, 0));
        items.push_back(make_stat("dangling", base, tree.path("dangling"), false, 0));
        items.push_back(make_stat("dangling", base, "", true, -ENOENT));
        items.push_back(make_stat("missing", base, "", false, -ENOENT));
        items.push_back(make_stat(tree.path("missing"), AT_FDCWD, "", false, -ENOENT));
        items.push_back(make_open("missing", base, -ENOENT));
        items.push_back(make_open(tree.path("missing"), AT_FDCWD, -ENOENT));
        items.push_back(make_open("plain", base, -ENOTDIR));
        items.push_back(make_open(tree.path("plain"), AT_FDCWD, -ENOTDIR));
        items.push_back(make_open("dir000/sub/missing", base, -ENOENT));
        items.push_back(make_open("plain/below", base, -ENOTDIR));
        finalize(items);

        QueueOptions options = options_for(backend, 64);
        auto queue = std::make_unique<IoQueue>(options);
        cr_assert_eq(static_cast<int>(queue->backend()), static_cast<int>(backend.expected),
                     "%s: queue chose backend %s", backend.label, ioq::backend_name(queue->backend()));
        run_all(*queue, items, shuffled_indices(items.size(), 7), 11);
        cr_expect_eq(queue->workers_started(), backend.expected != BackendKind::inline_calls,
                     "%s: workers_started() is %d", backend.label, queue->workers_started());

        std::size_t checked = 0;
        for (const auto& item : items) {
            const Request& request = item->request;
            cr_assert_eq(item->returned, 1, "%s: %s %s came back %d times", backend.label,
                         request.op == Op::open_dir ? "open_dir" : "stat", item->path.c_str(),
                         item->returned);
            if (item->want_result < 0) {
                cr_expect_eq(request.result, item->want_result, "%s: %s gave %d, want %d",
                             backend.label, item->path.c_str(), request.result, item->want_result);
                ++checked;
                continue;
            }
            if (request.op == Op::open_dir) {
                cr_assert(request.result >= 0, "%s: open_dir %s failed: %s", backend.label,
                          item->path.c_str(), std::strerror(-request.result));
                cr_expect_eq(item->buffer->error(), 0, "%s: reading %s failed: %s",
                             backend.label, item->path.c_str(), std::strerror(item->buffer->error()));
                cr_expect(item->buffer->at_end(), "%s: %s: small directory not read to its end",
                          backend.label, item->path.c_str());
                std::vector<std::string> names = names_in(*item->buffer);
                cr_expect_eq(names.size(), item->want_names.size(),
                             "%s: %s: %zu names, want %zu (a name twice, or . and ..?)",
                             backend.label, item->path.c_str(), names.size(),
                             item->want_names.size());
                cr_expect(as_set(names) == item->want_names, "%s: %s: wrong names",
                          backend.label, item->path.c_str());
                struct stat by_fd, by_path;
                cr_assert_eq(::fstat(request.result, &by_fd), 0);
                cr_assert_eq(::stat(item->oracle_path.c_str(), &by_path), 0);
                cr_expect(by_fd.st_ino == by_path.st_ino,
                          "%s: the fd for %s is another directory", backend.label,
                          item->path.c_str());
                int flags = ::fcntl(request.result, F_GETFD);
                cr_expect(flags >= 0 && (flags & FD_CLOEXEC), "%s: %s opened without O_CLOEXEC",
                          backend.label, item->path.c_str());
            } else {
                cr_assert_eq(request.result, 0, "%s: stat %s failed: %s", backend.label,
                             item->path.c_str(), std::strerror(-request.result));
                struct stat want;
                int ret = item->follow ? ::stat(item->oracle_path.c_str(), &want)
                                       : ::lstat(item->oracle_path.c_str(), &want);
                cr_assert_eq(ret, 0);
                std::string diff = statx_mismatch(item->statx_buf, want);
                cr_expect(diff.empty(), "%s: statx of %s (%s) differs: %s", backend.label,
                          item->path.c_str(), item->follow ? "follow" : "nofollow", diff.c_str());
            }
            ++checked;
        }
        cr_expect_eq(checked, items.size());

        // Close every descriptor through the queue: each close returns 0.
        std::vector<std::unique_ptr<Expected>> closes;
        for (const auto& item : items) {
            if (item->request.op == Op::open_dir && item->request.result >= 0) {
                auto close = std::make_unique<Expected>();
                close->request.op = Op::close;
                close->request.fd = item->request.result;
                close->path = "close of " + item->path;
                closes.push_back(std::move(close));
            }
        }
        cr_assert_eq(closes.size(), contents.size());
        finalize(closes);
        run_all(*queue, closes, shuffled_indices(closes.size(), 3), 5);
        for (const auto& close : closes) {
            cr_expect_eq(close->returned, 1, "%s: %s came back %d times", backend.label,
                         close->path.c_str(), close->returned);
            cr_expect_eq(close->request.result, 0, "%s: %s gave %d", backend.label,
                         close->path.c_str(), close->request.result);
        }
        queue.reset();
        ::close(base);
    }
    cr_expect_eq(test::count_open_fds(), fds_before, "%s: descriptors leaked", backend.label);
}

QUEUE_TEST(read_dir_continues_a_directory_larger_than_its_buffer) {
    test::TempTree tree;
    std::vector<std::string> created = tree.many_files("big", 600, "entry_with_a_longer_name_");
    auto queue = std::make_unique<IoQueue>(options_for(backend, 8));

    // Two directories at once, so that the pool (if any) starts.
    std::vector<std::unique_ptr<Expected>> items;
    items.push_back(make_open(tree.path("big"), AT_FDCWD, 0));
    items.push_back(make_open(tree.path("big"), AT_FDCWD, 0));
    finalize(items);
    run_all(*queue, items, {0, 1}, 1);

    for (const auto& item : items) {
        int fd = item->request.result;
        cr_assert(fd >= 0, "%s: open_dir failed: %s", backend.label, std::strerror(-fd));
        std::vector<std::string> names = names_in(*item->buffer);
        cr_assert(!item->buffer->at_end(), "%s: 600 entries fit a 4 KiB buffer?", backend.label);
        int reads = 0;
        while (!item->buffer->at_end()) {
            cr_assert(reads < 1000, "%s: read_dir never reaches the end", backend.label);
            std::vector<std::unique_ptr<Expected>> more;
            more.push_back(std::make_unique<Expected>());
            more.back()->request.op = Op::read_dir;
            more.back()->request.fd = fd;
            more.back()->request.buffer = item->buffer.get();
            finalize(more);
            run_all(*queue, more, {0}, 1);
            cr_assert_eq(more.back()->request.result, 0, "%s: read_dir gave %d", backend.label,
                         more.back()->request.result);
            std::vector<std::string> batch = names_in(*item->buffer);
            names.insert(names.end(), batch.begin(), batch.end());
            ++reads;
        }
        cr_expect(reads > 1, "%s: expected several reads, got %d", backend.label, reads);
        cr_expect_eq(names.size(), created.size(), "%s: %zu names read, %zu created",
                     backend.label, names.size(), created.size());
        cr_expect(as_set(names) == as_set(created), "%s: names differ", backend.label);
        ::close(fd);
    }
}

QUEUE_TEST(cancel_pending_returns_every_request_cancelled_or_done) {
    std::size_t fds_before = test::count_open_fds();
    {
        test::TempTree tree;
        // Opening a directory of 400 entries reads them all: slow enough
        // that a worker cannot empty a queue of 256 before cancel.
        std::vector<std::string> created = tree.many_files("big", 400);
        constexpr std::size_t requests = 256;
        auto queue = std::make_unique<IoQueue>(options_for(backend, requests));
        std::size_t cancelled_total = 0;
        // A pool backend must cancel something in one of three rounds; one
        // round could lose the race on a loaded machine.
        for (int round = 0; round < 3; ++round) {
            std::vector<std::unique_ptr<Expected>> items;
            for (std::size_t i = 0; i < requests; ++i) {
                items.push_back(make_open(tree.path("big"), AT_FDCWD, 0));
                items.back()->buffer = std::make_unique<DirBuffer>();
                items.back()->request.buffer = items.back()->buffer.get();
            }
            finalize(items);
            std::vector<Request*> all;
            for (const auto& item : items) {
                all.push_back(&item->request);
            }
            // All at once, then cancel at once.
            queue->submit(std::span<Request* const>(all.data(), 64));
            queue->submit(std::span<Request* const>(all.data() + 64, requests - 64));
            queue->cancel_pending();
            std::vector<Request*> reaped(requests);
            while (queue->outstanding() > 0) {
                std::size_t n = queue->reap(reaped, true);
                for (std::size_t i = 0; i < n; ++i) {
                    ++items[reinterpret_cast<std::uintptr_t>(reaped[i]->cookie)]->returned;
                }
            }
            std::size_t cancelled = 0, done = 0;
            for (const auto& item : items) {
                cr_assert_eq(item->returned, 1, "%s: a request came back %d times",
                             backend.label, item->returned);
                int result = item->request.result;
                if (result == -ECANCELED) {
                    ++cancelled;
                } else {
                    cr_assert(result >= 0, "%s: open gave %d", backend.label, result);
                    cr_expect(!names_in(*item->buffer).empty(), "%s: a completed open read nothing",
                              backend.label);
                    ++done;
                    ::close(result);
                }
            }
            cr_assert_eq(cancelled + done, requests);
            cr_log_info("%s: round %d: %zu cancelled, %zu done", backend.label, round, cancelled,
                        done);
            cancelled_total += cancelled;
            if (backend.expected == BackendKind::inline_calls) {
                cr_expect_eq(cancelled, requests,
                             "inline runs a directory only when waited for: all are cancelled");
                break;
            }
            if (cancelled > 0) {
                break;
            }
        }
        if (backend.expected != BackendKind::inline_calls) {
            cr_expect(cancelled_total > 0, "%s: cancel_pending() cancelled nothing in 3 rounds",
                      backend.label);
        }

        // The queue still works after a cancel.
        std::vector<std::unique_ptr<Expected>> after;
        after.push_back(make_open(tree.path("big"), AT_FDCWD, 0));
        after.push_back(make_stat(tree.path("big"), AT_FDCWD, tree.path("big"), false, 0));
        finalize(after);
        run_all(*queue, after, {0, 1}, 2);
        cr_expect(after[0]->request.result >= 0, "%s: open after cancel gave %d", backend.label,
                  after[0]->request.result);
        cr_expect_eq(after[1]->request.result, 0, "%s: stat after cancel gave %d",
                     backend.label, after[1]->request.result);
        if (after[0]->request.result >= 0) {
            ::close(after[0]->request.result);
        }
        queue.reset();
    }
    cr_expect_eq(test::count_open_fds(), fds_before, "%s: descriptors leaked", backend.label);
}

// Stats and closes run at submit, one or many: nothing to overlap.  Two
// directory requests outstanding start a pool.
QUEUE_TEST(requests_run_inline_until_two_directories_are_outstanding) {
    test::TempTree tree;
    tree.build("a/ b/");
    auto queue = std::make_unique<IoQueue>(options_for(backend, 16));
    std::vector<std::unique_ptr<Expected>> items;
    items.push_back(make_stat(tree.path("a"), AT_FDCWD, tree.path("a"), false, 0));
    items.push_back(make_stat(tree.path("b"), AT_FDCWD, tree.path("b"), false, 0));
    items.push_back(make_stat(tree.path("a"), AT_FDCWD, tree.path("a"), false, 0));
    items.push_back(make_open(tree.path("a"), AT_FDCWD, 0));
    items.push_back(make_open(tree.path("b"), AT_FDCWD, 0));
    finalize(items);

    Request* one = &items[0]->request;
    queue->submit(std::span<Request* const>(&one, 1));
    std::vector<Request*> reaped(16);
    cr_expect_eq(queue->reap(reaped, false), 1u, "%s: an inline stat is done at submit",
                 backend.label);
    Request* two_stats[] = {&items[1]->request, &items[2]->request};
    queue->submit(two_stats);
    cr_expect(!queue->workers_started(), "%s: two stats started the workers", backend.label);
    cr_expect_eq(queue->reap(reaped, false), 2u, "%s: inline stats are done at submit",
                 backend.label);
    cr_expect_eq(queue->outstanding(), 0u);
    for (int i = 0; i < 3; ++i) {
        cr_expect_eq(items[i]->request.result, 0);
    }

    Request* two_opens[] = {&items[3]->request, &items[4]->request};
    queue->submit(two_opens);
    cr_expect_eq(queue->workers_started(), backend.expected != BackendKind::inline_calls,
                 "%s: two opens: workers_started() is %d", backend.label,
                 queue->workers_started());
    std::size_t got = 0;
    while (queue->outstanding() > 0) {
        got += queue->reap(reaped, true);
    }
    cr_expect_eq(got, 2u);
    for (int i = 3; i < 5; ++i) {
        cr_assert_geq(items[i]->request.result, 0, "%s: open gave %d", backend.label,
                      items[i]->request.result);
        ::close(items[i]->request.result);
    }
}

// Each open succeeded and was closed once read exactly where want_closed
// says; the descriptors left open are closed here.
static void expect_closed(const BackendCase& backend,
                          const std::vector<std::unique_ptr<Expected>>& items,
                          const bool* want_closed) {
    for (std::size_t i = 0; i < items.size(); ++i) {
        const Request& request = items[i]->request;
        cr_assert_geq(request.result, 0, "%s: %s: open gave %d", backend.label,
                      items[i]->path.c_str(), request.result);
        cr_expect_eq(request.closed, want_closed[i], "%s: %s: closed is %d", backend.label,
                     items[i]->path.c_str(), request.closed);
        if (!request.closed) {
            ::close(request.result);
        }
    }
}

// close_after_read closes a directory once read, except one with exactly
// one subdirectory, which stays open for that child to open relative to.
QUEUE_TEST(close_after_read_keeps_a_directory_with_one_subdirectory_open) {
    test::TempTree tree;
    tree.build("none/f one/sub/ one/f two/s1/ two/s2/ two/f");
    std::size_t fds_before = test::count_open_fds();
    auto queue = std::make_unique<IoQueue>(options_for(backend, 16));
    std::vector<std::unique_ptr<Expected>> items;
    for (const char* name : {"none", "one", "two"}) {
        items.push_back(make_open(tree.path(name), AT_FDCWD, 0));
        items.back()->request.after_read.close = true;
    }
    finalize(items);
    run_all(*queue, items, {0, 1, 2}, 5);
    const bool want_closed[] = {true, false, true};
    expect_closed(backend, items, want_closed);
    queue.reset();
    cr_expect_eq(test::count_open_fds(), fds_before, "%s: descriptors leaked", backend.label);
}

// close_after_read_in_pool closes a directory once read where a worker
// pool runs it, handed over when the pool starts or submitted after; not
// one the caller's thread ran before there was a pool.
QUEUE_TEST(close_after_read_in_pool_closes_what_the_pool_runs) {
    test::TempTree tree;
    tree.build("p0/a/ p0/b/ p1/a/ p1/b/ p2/a/ p2/b/ p3/a/ p3/b/");
    std::size_t fds_before = test::count_open_fds();
    QueueOptions options = options_for(backend, 16);
    options.inline_directories = 1;
    auto queue = std::make_unique<IoQueue>(options);
    std::vector<std::unique_ptr<Expected>> items;
    for (const char* name : {"p0", "p1", "p2", "p3"}) {
        items.push_back(make_open(tree.path(name), AT_FDCWD, 0));
        // p3: the control, never to be closed early.
        items.back()->request.after_read.close_in_pool = std::string_view(name) != "p3";
    }
    finalize(items);
    std::vector<Request*> reaped(16);
    Request* first = &items[0]->request;
    queue->submit(std::span<Request* const>(&first, 1));
    cr_assert_eq(queue->reap(reaped, true), 1u, "%s: p0 was not run", backend.label);
    cr_expect(!queue->workers_started(), "%s: one directory started the workers", backend.label);
    Request* waiting = &items[1]->request;
    queue->submit(std::span<Request* const>(&waiting, 1));  // inline, until...
    Request* pair[] = {&items[2]->request, &items[3]->request};
    queue->submit(pair);  // ...these start the pool and p1 is handed over
    bool pool = backend.expected != BackendKind::inline_calls;
    cr_expect_eq(queue->workers_started(), pool, "%s: workers_started() is %d", backend.label,
                 queue->workers_started());
    std::size_t got = 1;
    while (queue->outstanding() > 0) {
        got += queue->reap(reaped, true);
    }
    cr_expect_eq(got, 4u);
    const bool want_closed[] = {false, pool, pool, false};
    expect_closed(backend, items, want_closed);
    queue.reset();
    cr_expect_eq(test::count_open_fds(), fds_before, "%s: descriptors leaked", backend.label);
}

// Inline, a directory is opened and read only when the caller waits for
// it: run_here() runs exactly the one asked for, reap(wait) the oldest,
// and what nobody waited for is cancelled without a system call.
Test(io_queue_inline, directories_are_read_only_when_waited_for) {
    test::TempTree tree;
    tree.build("d0/x d1/x d2/x d3/x");
    std::size_t fds_before = test::count_open_fds();
    IoQueue queue(options_for(inline_case, 16));
    std::vector<std::unique_ptr<Expected>> items;
    for (const char* name : {"d0", "d1", "d2", "d3"}) {
        items.push_back(make_open(tree.path(name), AT_FDCWD, 0));
    }
    finalize(items);
    std::vector<Request*> batch = requests_of(items);
    queue.submit(batch);
    std::vector<Request*> reaped(16);
    cr_expect_eq(queue.reap(reaped, false), 0u, "an open ran before anyone waited for it");
    cr_expect_eq(test::count_open_fds(), fds_before, "a directory was opened at submit");

    cr_assert(queue.run_here(&items[2]->request), "run_here() did not run a pending open");
    cr_assert_geq(items[2]->request.result, 0, "d2: open gave %d", items[2]->request.result);
    cr_expect(names_in(*items[2]->buffer) == std::vector<std::string>{"x"});
    cr_expect(!queue.run_here(&items[2]->request), "run_here() ran the same request twice");
    cr_expect_eq(queue.outstanding(), 3u);

    cr_assert_eq(queue.reap(reaped, true), 1u);
    cr_expect(reaped[0] == &items[0]->request, "reap(wait) ran another than the oldest");
    cr_assert_geq(items[0]->request.result, 0, "d0: open gave %d", items[0]->request.result);

    queue.cancel_pending();
    std::size_t cancelled = 0;
    while (queue.outstanding() > 0) {
        std::size_t n = queue.reap(reaped, true);
        for (std::size_t i = 0; i < n; ++i) {
            cr_expect_eq(reaped[i]->result, -ECANCELED, "a request left pending ran");
            ++cancelled;
        }
    }
    cr_expect_eq(cancelled, 2u);
    ::close(items[0]->request.result);
    ::close(items[2]->request.result);
    cr_expect_eq(test::count_open_fds(), fds_before, "descriptors leaked");
}

// With inline_directories at 2 (the default is 256: the mechanism is the
// same), the caller's thread reads the first two directories itself,
// however many are outstanding, so a search that ends there starts no
// thread; after them, two requests outstanding start the pool, which takes
// over the ones still waiting inline.
static void pool_starts_after_two_directories(const BackendCase& backend) {
    skip_unless_usable(backend);
    test::TempTree tree;
    tree.build("d0/x d1/x d2/x d3/x d4/x");
    QueueOptions options = options_for(backend, 16);
    options.inline_directories = 2;
    IoQueue queue(options);
    std::vector<std::unique_ptr<Expected>> items;
    for (const char* name : {"d0", "d1", "d2", "d3", "d4"}) {
        items.push_back(make_open(tree.path(name), AT_FDCWD, 0));
    }
    finalize(items);
    std::vector<Request*> reaped(16);
    Request* first[] = {&items[0]->request, &items[1]->request, &items[2]->request};
    queue.submit(first);
    cr_expect(!queue.workers_started(), "%s: three opens started the workers", backend.label);
    cr_assert(queue.run_here(&items[1]->request));
    cr_assert_eq(queue.reap(reaped, true), 1u);
    cr_expect(!queue.workers_started(), "%s: started before two directories ran",
              backend.label);
    // Two have run here: the next wait with two outstanding starts the
    // pool, and the one waited for still runs here.
    Request* more[] = {&items[3]->request};
    queue.submit(more);
    cr_expect(queue.workers_started() == (backend.expected != BackendKind::inline_calls),
              "%s: two outstanding after two directories: workers_started() is %d",
              backend.label, queue.workers_started());
    bool ran_here = queue.run_here(&items[3]->request);  // a worker may have it already
    cr_expect(ran_here || backend.expected != BackendKind::inline_calls,
              "inline: run_here() did not find the pending open");
    Request* last[] = {&items[4]->request};
    queue.submit(last);
    while (queue.outstanding() > 0) {
        queue.reap(reaped, true);
    }
    for (const auto& item : items) {
        cr_assert_geq(item->request.result, 0, "%s: open gave %d", backend.label,
                      item->request.result);
        cr_expect(names_in(*item->buffer) == std::vector<std::string>{"x"}, "%s: %s",
                  backend.label, item->path.c_str());
        ::close(item->request.result);
    }
}

Test(io_queue_inline, pool_starts_after_two_directories) {
    pool_starts_after_two_directories(inline_case);
}
Test(io_queue_threads_1, pool_starts_after_two_directories) {
    pool_starts_after_two_directories(threads_1_case);
}
Test(io_queue_uring_2, pool_starts_after_two_directories) {
    pool_starts_after_two_directories(uring_2_case);
}

// The automatic count: IOQ_INLINE_DIRECTORIES where it is a whole number
// (meson test sets 4), 256 otherwise; a count in the options wins.
Test(io_queue_threads_1, inline_directories_come_from_the_environment) {
    struct Case {
        const char* value;  // nullptr: unset
        std::size_t expected;
    };
    const Case cases[] = {
        {nullptr, 256}, {"3", 3},    {"0", 0},     {"", 256},
        {"3x", 256},    {"-1", 256}, {" 3", 256},  {"99999999999999999999999", 256},
    };
    for (const Case& c : cases) {
        if (c.value) {
            setenv("IOQ_INLINE_DIRECTORIES", c.value, 1);
        } else {
            unsetenv("IOQ_INLINE_DIRECTORIES");
        }
        QueueOptions options = options_for(threads_1_case, 16);
        options.inline_directories = QueueOptions{}.inline_directories;
        IoQueue automatic(options);
        cr_expect_eq(automatic.inline_directories(), c.expected, "IOQ_INLINE_DIRECTORIES=%s: %zu",
                     c.value ? c.value : "(unset)", automatic.inline_directories());
        options.inline_directories = 7;
        IoQueue chosen(options);
        cr_expect_eq(chosen.inline_directories(), 7u, "IOQ_INLINE_DIRECTORIES=%s overrode 7",
                     c.value ? c.value : "(unset)");
    }
}

// A count from the environment is kept to exactly: with 3, the first
// three directories waited for run here, and the wait after them, with
// more outstanding, starts the pool.
Test(io_queue_threads_1, pool_starts_after_the_environment_count) {
    setenv("IOQ_INLINE_DIRECTORIES", "3", 1);
    test::TempTree tree;
    tree.build("d0/x d1/x d2/x d3/x d4/x d5/x");
    QueueOptions options = options_for(threads_1_case, 16);
    options.inline_directories = QueueOptions{}.inline_directories;
    IoQueue queue(options);
    std::vector<std::unique_ptr<Expected>> items;
    for (const char* name : {"d0", "d1", "d2", "d3", "d4", "d5"}) {
        items.push_back(make_open(tree.path(name), AT_FDCWD, 0));
    }
    finalize(items);
    std::vector<Request*> batch = requests_of(items);
    queue.submit(batch);
    std::vector<Request*> reaped(1);
    for (int ran = 1; ran <= 3; ++ran) {
        cr_assert(queue.runs_inline_for_now(), "not inline before directory %d", ran);
        cr_assert_eq(queue.reap(reaped, true), 1u);
        cr_expect(!queue.workers_started(), "started after %d directories", ran);
    }
    cr_expect(!queue.runs_inline_for_now(), "still inline after three directories");
    while (queue.outstanding() > 0) {
        queue.reap(reaped, true);
    }
    cr_expect(queue.workers_started(), "three directories ran and the pool never started");
    for (const auto& item : items) {
        cr_assert_geq(item->request.result, 0, "%s: open gave %d", item->path.c_str(),
                      item->request.result);
        ::close(item->request.result);
    }
}

// Runs one directory inline that takes milliseconds (3,000 entries, each
// stat-ed), then submits two small ones: whether that starts the pool.
static bool pool_starts_after_one_slow_directory(const char* environment) {
    if (environment) {
        setenv("IOQ_INLINE_DIRECTORIES", environment, 1);
    } else {
        unsetenv("IOQ_INLINE_DIRECTORIES");
    }
    test::TempTree tree;
    tree.many_files("big", 3000);
    tree.build("a/x b/x");
    QueueOptions options = options_for(threads_1_case, 16);
    options.inline_directories = QueueOptions{}.inline_directories;
    IoQueue queue(options);
    std::vector<std::unique_ptr<Expected>> items;
    items.push_back(make_open(tree.path("big"), AT_FDCWD, 0));
    items.back()->buffer = std::make_unique<DirBuffer>(256 * 1024);
    items.back()->request.buffer = items.back()->buffer.get();
    items.back()->request.statx_mask = STATX_BASIC_STATS;
    items.push_back(make_open(tree.path("a"), AT_FDCWD, 0));
    items.push_back(make_open(tree.path("b"), AT_FDCWD, 0));
    finalize(items);
    std::vector<Request*> reaped(4);
    Request* slow = &items[0]->request;
    queue.submit(std::span<Request* const>(&slow, 1));
    cr_assert_eq(queue.reap(reaped, true), 1u);
    cr_assert_eq(items[0]->buffer->stat_calls(), 3000u);
    cr_assert(!queue.workers_started(), "one directory started the pool");
    Request* pair[] = {&items[1]->request, &items[2]->request};
    queue.submit(pair);
    bool started = queue.workers_started();
    while (queue.outstanding() > 0) {
        queue.reap(reaped, true);
    }
    for (const auto& item : items) {
        cr_assert_geq(item->request.result, 0, "%s: open gave %d", item->path.c_str(),
                      item->request.result);
        ::close(item->request.result);
    }
    return started;
}

// With the automatic count, a directory as slow as a device ends the
// inline phase (a cold cache wants requests in flight); a count chosen in
// the environment does not end early.
Test(io_queue_threads_1, a_slow_directory_ends_the_automatic_inline_phase) {
    cr_expect(pool_starts_after_one_slow_directory(nullptr),
              "a slow directory left the automatic inline phase on");
    cr_expect(!pool_starts_after_one_slow_directory("256"),
              "a slow directory ended a count chosen in the environment");
}

// --------------------------------------------------------------------------
// Backend choice
// --------------------------------------------------------------------------

// Elastic workers: a wait for one request that lasts longer than a warm
// directory takes (here a directory of 3,000 files whose entries are all
// stat-ed, milliseconds) counts as slow, and every second slow wait adds a
// worker, up to max_workers and never beyond it; with max_workers 0 the
// pool keeps the workers it started with.  With fast_rounds, that many
// rounds of waits for an empty directory come first: after enough fast
// waits only some are timed, and slow ones must still be seen.
static unsigned workers_after_slow_waits(const BackendCase& backend, unsigned max_workers,
                                         bool guess = true, int fast_rounds = 0) {
    skip_unless_usable(backend);
    test::TempTree tree;
    tree.many_files("big", 3000);
    tree.build("empty/");
    QueueOptions options = options_for(backend, 16);
    options.max_workers = max_workers;
    options.guess_slow_devices = guess;
    IoQueue queue(options);
    std::vector<Request*> reaped(2);
    for (int round = 0; round < fast_rounds; ++round) {
        std::vector<std::unique_ptr<Expected>> items;
        items.push_back(make_open(tree.path("empty"), AT_FDCWD, 0));
        items.push_back(make_open(tree.path("empty"), AT_FDCWD, 0));
        finalize(items);
        Request* batch[] = {&items[0]->request, &items[1]->request};
        queue.submit(batch);
        while (queue.outstanding() > 0) {
            queue.reap(reaped, true);
        }
        for (const auto& item : items) {
            cr_assert_geq(item->request.result, 0, "%s", backend.label);
            ::close(item->request.result);
        }
    }
    cr_assert_leq(queue.workers_running(), backend.workers, "%s: fast waits added a worker",
                  backend.label);
    // Timed one in eight at most once sampled: the rounds that may pass
    // unseen come on top of the four slow waits three workers need.
    int slow_rounds = fast_rounds > 0 ? 24 : 12;
    for (int round = 0; round < slow_rounds; ++round) {
        std::vector<std::unique_ptr<Expected>> items;
        for (int i = 0; i < 2; ++i) {
            items.push_back(make_open(tree.path("big"), AT_FDCWD, 0));
            // Room for all 3,000 entries in one request, each stat-ed.
            items.back()->buffer = std::make_unique<DirBuffer>(256 * 1024);
            items.back()->request.buffer = items.back()->buffer.get();
            items.back()->request.statx_mask = STATX_BASIC_STATS;
        }
        finalize(items);
        Request* batch[] = {&items[0]->request, &items[1]->request};
        queue.submit(batch);  // two at once: a pool backend starts
        while (queue.outstanding() > 0) {
            queue.reap(reaped, true);
        }
        for (const auto& item : items) {
            cr_assert_geq(item->request.result, 0, "%s: open gave %d", backend.label,
                          item->request.result);
            cr_assert_eq(names_in(*item->buffer).size(), 3000u, "%s", backend.label);
            cr_assert_eq(item->buffer->stat_calls(), 3000u, "%s", backend.label);
            ::close(item->request.result);
        }
        cr_assert_leq(queue.workers_running(), std::max(max_workers, backend.workers),
                      "%s: %u workers, max %u", backend.label, queue.workers_running(), max_workers);
    }
    return queue.workers_running();
}

Test(io_queue_threads_1, slow_waits_add_workers_up_to_the_maximum) {
    cr_expect_eq(workers_after_slow_waits(threads_1_case, 3), 3u);
}

Test(io_queue_threads_1, slow_waits_add_workers_after_many_fast_ones) {
    cr_expect_eq(workers_after_slow_waits(threads_1_case, 3, true, 200), 3u);
}

Test(io_queue_threads_1, slow_waits_add_no_worker_without_a_maximum) {
    cr_expect_eq(workers_after_slow_waits(threads_1_case, 0), 1u);
}

// The tree was just written: reading it reads no block, so nothing proves
// a device is waited for, and without guessing no slow wait adds a worker.
Test(io_queue_threads_1, slow_waits_without_block_reads_add_no_worker_unless_guessing) {
    cr_expect_eq(workers_after_slow_waits(threads_1_case, 3, false), 1u);
}

Test(io_queue_uring_2, slow_waits_add_workers_up_to_the_maximum) {
    cr_expect_eq(workers_after_slow_waits(uring_2_case, 4), 4u);
}

// Opens go into the ring with RESOLVE_CACHED where the kernel knows it: a
// name no lookup has seen yet is not in the dentry cache, so the ring
// answers EAGAIN and the worker opens it itself.  The caller must see the
// real answer (ENOENT here, or the directory and its entries), never the
// EAGAIN, and the miss is counted.
Test(io_queue_uring_2, opens_the_caches_cannot_serve_give_their_real_result) {
    skip_unless_usable(uring_2_case);
    test::TempTree tree;
    tree.build("dir/a dir/b");
    std::vector<std::unique_ptr<Expected>> items;
    for (int i = 0; i < 8; ++i) {
        std::string never_looked_up = "absent-" + std::to_string(::getpid()) + "-";
        never_looked_up += std::to_string(i);
        items.push_back(make_open(tree.path(never_looked_up), AT_FDCWD, -ENOENT));
        items.push_back(make_open(tree.path("dir"), AT_FDCWD, 0));
    }
    finalize(items);
    IoQueue queue(options_for(uring_2_case, 32));
    std::vector<Request*> batch = requests_of(items);
    queue.submit(batch);
    // Reaped without waiting: a waiting caller would run queued requests
    // itself, with plain calls, and the ring would see fewer of them.
    std::vector<Request*> reaped(items.size());
    while (queue.outstanding() > 0) {
        if (queue.reap(reaped, false) == 0) {
            ::usleep(200);
        }
    }
    for (const auto& item : items) {
        if (item->want_result < 0) {
            cr_expect_eq(item->request.result, -ENOENT, "%s gave %d", item->path.c_str(),
                         item->request.result);
            continue;
        }
        cr_assert_geq(item->request.result, 0, "%s gave %d", item->path.c_str(),
                      item->request.result);
        cr_expect(as_set(names_in(*item->buffer)) == (std::set<std::string>{"a", "b"}),
                  "%s: entries differ", item->path.c_str());
        ::close(item->request.result);
    }
    if (ioq::probe_uring().cached_opens) {
        cr_expect_geq(queue.cache_misses(), 1u, "no open of a name never looked up missed");
    } else {
        cr_expect_eq(queue.cache_misses(), 0u, "misses counted without RESOLVE_CACHED");
    }
}

Test(io_queue, backend_names_parse_and_unknown_means_automatic) {
    cr_expect(ioq::parse_backend_choice("uring") == BackendChoice::uring);
    cr_expect(ioq::parse_backend_choice("io_uring") == BackendChoice::uring);
    cr_expect(ioq::parse_backend_choice("threads") == BackendChoice::threads);
    cr_expect(ioq::parse_backend_choice("inline") == BackendChoice::inline_calls);
    cr_expect(ioq::parse_backend_choice(nullptr) == BackendChoice::automatic);
    cr_expect(ioq::parse_backend_choice("") == BackendChoice::automatic);
    cr_expect(ioq::parse_backend_choice("Threads") == BackendChoice::automatic);
    cr_expect_str_eq(ioq::backend_name(BackendKind::uring), "io_uring");
    cr_expect_str_eq(ioq::backend_name(BackendKind::threads), "threads");
    cr_expect_str_eq(ioq::backend_name(BackendKind::inline_calls), "inline");
}

Test(io_queue, environment_picks_backend_only_when_options_do_not) {
    QueueOptions options;
    options.workers = 2;
    ::setenv("IOQ_BACKEND", "inline", 1);
    cr_expect(IoQueue(options).backend() == BackendKind::inline_calls);
    ::setenv("IOQ_BACKEND", "threads", 1);
    cr_expect(IoQueue(options).backend() == BackendKind::threads);
    options.backend = BackendChoice::inline_calls;
    cr_expect(IoQueue(options).backend() == BackendKind::inline_calls,
              "a backend in the options wins over IOQ_BACKEND");
    options.backend = BackendChoice::threads;
    options.workers = 0;
    cr_expect(IoQueue(options).backend() == BackendKind::inline_calls,
              "no workers means inline whatever the choice");
    ::setenv("IOQ_BACKEND", "uring", 1);
    options.backend = BackendChoice::automatic;
    options.workers = 1;
    BackendKind want = ioq::probe_uring().usable ? BackendKind::uring : BackendKind::threads;
    cr_expect(IoQueue(options).backend() == want);
    ::unsetenv("IOQ_BACKEND");
}
