// Unit tests of the I/O queue layer (lib/ioq): IoQueue over each backend,
// BatchQueue, DirBuffer and DirentCursor.
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
#include "ioq/batch_queue.hpp"
#include "ioq/dir_buffer.hpp"
#include "ioq/io_queue.hpp"
#include "ioq/uring_probe.hpp"
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

// The names a DirBuffer holds, in order.
std::vector<std::string> names_in(const DirBuffer& buffer) {
    std::vector<std::string> names;
    DirentCursor cursor(buffer);
    RawDirent dirent;
    while (cursor.next(dirent)) {
        names.emplace_back(dirent.name);
    }
    return names;
}

std::set<std::string> as_set(const std::vector<std::string>& names) {
    return {names.begin(), names.end()};
}

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
        items.back()->request.close_after_read = true;
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
        items.back()->request.close_after_read_in_pool = std::string_view(name) != "p3";
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

// --------------------------------------------------------------------------
// BatchQueue
// --------------------------------------------------------------------------

Test(batch_queue, keeps_fifo_order_across_batches_and_wraparound) {
    ioq::BatchQueue<int> queue(7);
    int next_in = 0, next_out = 0;
    std::mt19937 random(1);
    std::vector<int> items, out(7);
    // Sizes that do not divide the capacity make the ring wrap at every offset.
    for (int step = 0; step < 500; ++step) {
        std::size_t pushed = random() % 5;
        items.clear();
        for (std::size_t i = 0; i < pushed; ++i) {
            items.push_back(next_in + static_cast<int>(i));
        }
        if (queue.push(std::span<const int>(items))) {
            next_in += static_cast<int>(pushed);
        }
        std::size_t want = random() % 6;
        std::size_t got = queue.pop(std::span<int>(out.data(), want), false);
        cr_assert(got <= want);
        for (std::size_t i = 0; i < got; ++i) {
            cr_assert_eq(out[i], next_out, "step %d: popped %d, want %d", step, out[i], next_out);
            ++next_out;
        }
    }
    std::size_t got;
    while ((got = queue.pop(out, false)) > 0) {
        for (std::size_t i = 0; i < got; ++i) {
            cr_assert_eq(out[i], next_out++);
        }
    }
    cr_expect_eq(next_out, next_in, "items lost: %d pushed, %d popped", next_in, next_out);
    cr_expect(next_in > 500, "the test pushed too little to mean anything");
}

Test(batch_queue, refuses_a_push_that_does_not_fit_and_keeps_contents) {
    ioq::BatchQueue<int> queue(4);
    cr_expect_eq(queue.capacity(), 4u);
    const int three[] = {1, 2, 3};
    const int two[] = {4, 5};
    const int five[] = {6, 7, 8, 9, 10};
    cr_expect(queue.push(std::span<const int>()), "an empty push always succeeds");
    cr_assert(queue.push(three));
    cr_expect(!queue.push(two), "3 + 2 items do not fit in 4");
    int out[8];
    cr_assert_eq(queue.pop(out, false), 3u, "a refused push must append nothing");
    cr_expect(out[0] == 1 && out[1] == 2 && out[2] == 3);
    cr_expect(!queue.push(five), "5 items never fit in 4");
    cr_expect_eq(queue.pop(out, false), 0u);
    cr_expect(queue.push(std::span<const int>(five, 4)), "exactly the capacity fits");
    cr_expect_eq(queue.pop(out, false), 4u);
    queue.close();
    cr_expect(!queue.push(two), "a closed queue refuses pushes");
    cr_expect_eq(queue.pop(out, true), 0u, "pop on a closed empty queue returns 0 at once");
}

Test(batch_queue, close_drains_what_is_left_then_returns_zero) {
    ioq::BatchQueue<int> queue(8);
    const int items[] = {1, 2, 3};
    cr_assert(queue.push(items));
    queue.close();
    int out[2];
    cr_expect_eq(queue.pop(out, true), 2u);
    cr_expect_eq(queue.pop(out, true), 1u);
    cr_expect_eq(out[0], 3);
    cr_expect_eq(queue.pop(out, true), 0u);
}

Test(batch_queue, pop_wait_wakes_on_close) {
    ioq::BatchQueue<int> queue(8);
    constexpr int sleepers = 3;
    std::atomic<int> returned{0};
    std::atomic<std::size_t> items_seen{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < sleepers; ++i) {
        threads.emplace_back([&] {
            int out[4];
            items_seen += queue.pop(out, true);
            ++returned;
        });
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    cr_expect_eq(returned.load(), 0, "pop(wait) returned from an empty open queue");
    auto start = std::chrono::steady_clock::now();
    queue.close();
    for (std::thread& thread : threads) {
        thread.join();
    }
    auto took = std::chrono::steady_clock::now() - start;
    cr_expect_eq(returned.load(), sleepers);
    cr_expect_eq(items_seen.load(), 0u);
    cr_expect(took < std::chrono::seconds(2), "close took %lld ms to wake the sleepers",
              static_cast<long long>(
                  std::chrono::duration_cast<std::chrono::milliseconds>(took).count()));
}

Test(batch_queue, pop_wait_wakes_on_push) {
    ioq::BatchQueue<int> queue(8);
    std::atomic<int> got{-1};
    std::thread consumer([&] {
        int out[4];
        std::size_t n = queue.pop(out, true);
        got = n == 1 ? out[0] : -2;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const int item[] = {42};
    cr_assert(queue.push(item));
    consumer.join();
    cr_expect_eq(got.load(), 42);
}

Test(batch_queue, producers_and_consumers_move_every_item_exactly_once) {
    // Small capacity and small pops keep producers bouncing off a full queue
    // and consumers off an empty one.
    ioq::BatchQueue<std::uint32_t> queue(16);
    constexpr std::uint32_t producers = 2, consumers = 3, per_producer = 20000;
    std::vector<std::vector<std::uint32_t>> received(consumers);
    std::vector<std::thread> consumer_threads;
    for (std::uint32_t c = 0; c < consumers; ++c) {
        consumer_threads.emplace_back([&, c] {
            std::uint32_t out[5];
            while (std::size_t n = queue.pop(std::span<std::uint32_t>(out, 1 + c * 2), true)) {
                received[c].insert(received[c].end(), out, out + n);
            }
        });
    }
    std::vector<std::thread> producer_threads;
    for (std::uint32_t p = 0; p < producers; ++p) {
        producer_threads.emplace_back([&, p] {
            std::mt19937 random(p);
            std::uint32_t next = 0;
            std::vector<std::uint32_t> batch;
            while (next < per_producer) {
                std::uint32_t size = std::min<std::uint32_t>(1 + random() % 8, per_producer - next);
                batch.clear();
                for (std::uint32_t i = 0; i < size; ++i) {
                    batch.push_back(p * per_producer + next + i);
                }
                if (queue.push(std::span<const std::uint32_t>(batch))) {
                    next += size;
                } else {
                    std::this_thread::yield();
                }
            }
        });
    }
    for (std::thread& thread : producer_threads) {
        thread.join();
    }
    queue.close();
    for (std::thread& thread : consumer_threads) {
        thread.join();
    }
    std::vector<std::uint32_t> all;
    for (std::uint32_t c = 0; c < consumers; ++c) {
        // Each consumer sees each producer's items in the order pushed.
        std::vector<std::uint32_t> last(producers, 0);
        std::vector<bool> any(producers, false);
        for (std::uint32_t value : received[c]) {
            std::uint32_t p = value / per_producer;
            cr_assert(p < producers);
            cr_assert(!any[p] || value > last[p], "consumer %u saw %u after %u", c, value, last[p]);
            any[p] = true;
            last[p] = value;
        }
        all.insert(all.end(), received[c].begin(), received[c].end());
    }
    cr_assert_eq(all.size(), std::size_t{producers} * per_producer, "%zu items arrived, %u sent",
                 all.size(), producers * per_producer);
    std::sort(all.begin(), all.end());
    for (std::uint32_t i = 0; i < all.size(); ++i) {
        cr_assert_eq(all[i], i, "item %u lost or duplicated", i);
    }
}

// --------------------------------------------------------------------------
// DirBuffer and DirentCursor
// --------------------------------------------------------------------------

namespace {

// Reads a directory through repeated fill() calls; returns every name and
// the number of fills.
std::vector<std::string> read_all(DirBuffer& buffer, int fd, int& fills) {
    std::vector<std::string> names;
    fills = 0;
    do {
        buffer.fill(fd);
        ++fills;
        cr_assert_eq(buffer.error(), 0, "fill: %s", std::strerror(buffer.error()));
        cr_assert(buffer.size() > 0 || buffer.at_end(), "fill made no progress");
        cr_assert(fills < 100000);
        std::vector<std::string> batch = names_in(buffer);
        names.insert(names.end(), batch.begin(), batch.end());
    } while (!buffer.at_end());
    return names;
}

} // namespace

Test(dir_buffer, thousands_of_entries_come_once_each_over_several_fills) {
    test::TempTree tree;
    std::vector<std::string> created = tree.many_files("big", 5000);
    int fd = ::open(tree.path("big").c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    cr_assert(fd >= 0);
    for (std::size_t capacity : {DirBuffer::default_capacity, std::size_t{1024}}) {
        cr_assert_eq(::lseek(fd, 0, SEEK_SET), 0);
        DirBuffer buffer(capacity);
        int fills = 0;
        std::vector<std::string> names = read_all(buffer, fd, fills);
        cr_expect(fills > 1, "capacity %zu: 5000 entries in one fill?", capacity);
        cr_expect_eq(names.size(), created.size(), "capacity %zu: %zu names for %zu entries",
                     capacity, names.size(), created.size());
        std::set<std::string> unique = as_set(names);
        cr_expect_eq(unique.size(), names.size(), "capacity %zu: a name came twice", capacity);
        cr_expect(unique == as_set(created), "capacity %zu: names differ", capacity);
        cr_expect(!unique.count(".") && !unique.count(".."), "capacity %zu: . or .. reported",
                  capacity);
        // A further fill at the end stays at the end, empty.
        buffer.fill(fd);
        cr_expect(buffer.at_end() && buffer.size() == 0);
    }
    ::close(fd);
}

namespace {

// Buffers filled one after another on one thread share the read area lent
// to it: a large batch must take the area with it and a smaller one be
// copied out, so that each buffer still holds its own entries when the
// next is filled, through continued fills of a large directory and after
// trim().  The same must hold with no area lent (an area per fill).
void fill_in_turn_and_compare() {
    test::TempTree tree;
    std::vector<std::string> big_a = tree.many_files("a", 1500);
    std::vector<std::string> big_b = tree.many_files("b", 1500);
    tree.build("small/x small/y small/sub/");
    auto open_dir = [&](const char* name) {
        int fd = ::open(tree.path(name).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        cr_assert(fd >= 0, "open %s: %s", name, std::strerror(errno));
        return fd;
    };
    int fd_a = open_dir("a");
    int fd_b = open_dir("b");
    int fd_small = open_dir("small");
    DirBuffer a, b, small;
    std::vector<std::string> names_a, names_b;
    // Interleaved: a, b, small, then the rest of a and b batch by batch,
    // each batch checked only after the other buffers were filled.
    a.fill(fd_a);
    b.fill(fd_b);
    small.fill(fd_small);
    cr_assert(!a.at_end() && !b.at_end(), "1500 entries fill more than one %zu-byte batch",
              DirBuffer::default_capacity);
    cr_assert_gt(a.size(), DirBuffer::small_limit);
    cr_expect(as_set(names_in(small)) == std::set<std::string>({"x", "y", "sub"}));
    for (int round = 0; round < 100 && !(a.at_end() && b.at_end()); ++round) {
        std::vector<std::string> batch_a = names_in(a);
        std::vector<std::string> batch_b = names_in(b);
        names_a.insert(names_a.end(), batch_a.begin(), batch_a.end());
        names_b.insert(names_b.end(), batch_b.begin(), batch_b.end());
        if (!a.at_end()) {
            a.fill(fd_a);
        }
        small.fill(fd_small);  // at its end: empty, and must not touch a or b
        cr_expect(small.at_end() && names_in(small).empty());
        if (!b.at_end()) {
            b.fill(fd_b);
        }
        cr_assert_eq(a.error(), 0);
        cr_assert_eq(b.error(), 0);
    }
    std::vector<std::string> last_a = names_in(a), last_b = names_in(b);
    names_a.insert(names_a.end(), last_a.begin(), last_a.end());
    names_b.insert(names_b.end(), last_b.begin(), last_b.end());
    cr_expect_eq(names_a.size(), big_a.size(), "%zu names of a", names_a.size());
    cr_expect(as_set(names_a) == as_set(big_a), "a's entries changed under later fills");
    cr_expect_eq(names_b.size(), big_b.size(), "%zu names of b", names_b.size());
    cr_expect(as_set(names_b) == as_set(big_b), "b's entries changed under later fills");

    // Done with: empty, and filled again from the start it reads it all.
    a.trim();
    cr_expect_eq(a.size(), 0);
    cr_expect(names_in(a).empty());
    cr_assert_eq(::lseek(fd_a, 0, SEEK_SET), 0);
    int fills = 0;
    std::vector<std::string> again = read_all(a, fd_a, fills);
    cr_expect(as_set(again) == as_set(big_a) && again.size() == big_a.size());
    ::close(fd_a);
    ::close(fd_b);
    ::close(fd_small);
}

} // namespace

Test(dir_buffer, buffers_filled_in_turn_keep_their_own_entries) {
    {
        ioq::ReadArea area;
        ioq::ReadAreaLoan loan(area);
        fill_in_turn_and_compare();
    }
    fill_in_turn_and_compare();
}

// A sanitizer's allocator replaces malloc's, whose counts mallinfo2 reads.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool malloc_counts_allocations = false;
#elif defined(__has_feature)
constexpr bool malloc_counts_allocations =
    !__has_feature(address_sanitizer) && !__has_feature(thread_sanitizer);
#else
constexpr bool malloc_counts_allocations = true;
#endif

// A pooled buffer must not keep what its largest directory needed: after
// trim(), the memory for a large batch and for its entries' statx results
// is back with malloc (this test runs on one thread, whose allocations
// mallinfo2 counts), and the buffer still reads and stats a directory.
Test(dir_buffer, trim_frees_what_a_large_directory_needed) {
    test::TempTree tree;
    tree.many_files("big", 1500);
    tree.build("small/x small/y/");
    int big = ::open(tree.path("big").c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int small = ::open(tree.path("small").c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    cr_assert(big >= 0 && small >= 0);
    auto stat_everything = [](DirBuffer& buffer, int fd) {
        buffer.stat_entries(fd, STATX_INO | STATX_SIZE, AT_SYMLINK_NOFOLLOW);
        DirentCursor cursor(buffer);
        RawDirent dirent;
        std::size_t i = 0;
        for (; cursor.next(dirent); ++i) {
            const struct statx* got = buffer.stat(i);
            cr_assert(got, "%s: no statx result", std::string(dirent.name).c_str());
            cr_expect_eq(got->stx_ino, dirent.inode, "%s: statx of another entry",
                         std::string(dirent.name).c_str());
        }
        return i;
    };

    // Bytes in use in the main arena and in blocks malloc mapped apart.
    auto allocated = [] {
        struct mallinfo2 info = ::mallinfo2();
        return info.uordblks + info.hblkhd;
    };
    DirBuffer buffer;
    std::size_t before = allocated();
    buffer.fill(big);
    std::size_t entries = stat_everything(buffer, big);
    cr_assert_gt(entries, 500);
    std::size_t holding = allocated();
    buffer.trim();
    std::size_t after = allocated();
    if (malloc_counts_allocations) {
        std::size_t needed = entries * sizeof(struct statx) + DirBuffer::default_capacity / 2;
        cr_assert_geq(holding - before, needed, "%zu bytes held for %zu entries",
                      holding - before, entries);
        cr_expect_lt(after - before, 8 * 1024, "%zu bytes still held after trim", after - before);
    }

    buffer.fill(small);
    cr_expect(buffer.at_end());
    cr_expect_eq(stat_everything(buffer, small), 2);
    ::close(big);
    ::close(small);
}

// A buffer's own block starts at small_initial bytes and grows to the
// largest batch it is given, up to small_limit: a fresh buffer holds no
// more than that block (with malloc's overhead), a listing larger than
// it but within small_limit, filled or assigned, comes back whole, and a
// small one read after it too.
Test(dir_buffer, own_block_starts_small_and_grows_to_the_listings_given) {
    test::TempTree tree;
    // 40 names of 24 characters: 48-byte records, 1,968 bytes with . and ..
    std::vector<std::string> medium = tree.many_files("medium", 40, "a_rather_long_name_");
    tree.build("small/x small/y/");
    int medium_fd = ::open(tree.path("medium").c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int small_fd = ::open(tree.path("small").c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    cr_assert(medium_fd >= 0 && small_fd >= 0);
    auto allocated = [] {
        struct mallinfo2 info = ::mallinfo2();
        return info.uordblks + info.hblkhd;
    };

    std::size_t before = allocated();
    auto buffer = std::make_unique<DirBuffer>();
    std::size_t fresh = allocated() - before;
    if (malloc_counts_allocations) {
        cr_expect_leq(fresh, sizeof(DirBuffer) + DirBuffer::small_initial + 64,
                      "a fresh buffer holds %zu bytes", fresh);
    }
    buffer->fill(medium_fd);
    cr_assert(buffer->at_end());
    cr_assert(buffer->size() > DirBuffer::small_initial && buffer->size() <= DirBuffer::small_limit,
              "the medium listing is %zu bytes", buffer->size());
    cr_expect(as_set(names_in(*buffer)) == as_set(medium));
    std::vector<std::byte> listing(buffer->data(), buffer->data() + buffer->size());
    buffer->fill(small_fd);
    cr_expect(as_set(names_in(*buffer)) == std::set<std::string>({"x", "y"}));

    DirBuffer assigned;
    cr_assert(assigned.assign(listing.data(), listing.size()));
    cr_expect(assigned.at_end());
    cr_expect(as_set(names_in(assigned)) == as_set(medium));
    cr_expect_eq(assigned.count_directories(100, false), 0);
    ::close(medium_fd);
    ::close(small_fd);
}

Test(dir_buffer, cursor_reports_types_and_inodes_and_skips_dot_entries) {
    test::TempTree tree;
    tree.build("d/file d/sub/ d/link->file d/.hidden d/..x d/.../");
    tree.fifo("d/pipe");
    int fd = ::open(tree.path("d").c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    cr_assert(fd >= 0);
    DirBuffer buffer;
    buffer.fill(fd);
    cr_expect(buffer.at_end(), "a directory of 7 entries is read to its end in one fill");
    std::map<std::string, RawDirent> seen;
    DirentCursor cursor(buffer);
    RawDirent dirent;
    while (cursor.next(dirent)) {
        cr_expect(!seen.count(std::string(dirent.name)), "%s twice", std::string(dirent.name).c_str());
        seen[std::string(dirent.name)] = dirent;
    }
    std::set<std::string> want = {"file", "sub", "link", ".hidden", "..x", "...", "pipe"};
    std::set<std::string> got;
    for (const auto& [name, entry] : seen) {
        got.insert(name);
        struct stat st;
        cr_assert_eq(::lstat(tree.path("d/" + name).c_str(), &st), 0);
        cr_expect_eq(entry.inode, st.st_ino, "%s: inode", name.c_str());
        unsigned char type = entry.type;
        if (type != DT_UNKNOWN) {
            cr_expect_eq(DTTOIF(type), st.st_mode & S_IFMT, "%s: d_type %d", name.c_str(), type);
        }
        cr_expect_eq(entry.name.data()[entry.name.size()], '\0',
                     "%s: name not NUL-terminated", name.c_str());
    }
    cr_expect(got == want, "the cursor must skip exactly . and ..");
    ::close(fd);
}

Test(dir_buffer, fill_counts_the_directories_it_reads_batch_by_batch) {
    // What fill() counts as it reads (the close decision after a read and
    // looking ahead use it instead of a scan) must be what a scan finds in
    // every batch, over several fills of a small buffer: directories whose
    // names start with dots among them, links counted only when asked for,
    // and no directory beyond directories_end().
    test::TempTree tree;
    tree.build("d/.hidden/ d/..x/ d/.../ d/target");
    for (int i = 0; i < 300; ++i) {
        std::string n = std::to_string(i);
        if (i % 7 == 0) {
            tree.directory("d/sub" + n);
        } else if (i % 11 == 0) {
            tree.symlink("d/link" + n, "target");
        } else {
            tree.file("d/file-with-a-longer-name-" + n);
        }
    }
    int fd = ::open(tree.path("d").c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    cr_assert(fd >= 0);
    DirBuffer buffer(1024);
    std::size_t fills = 0, all_directories = 0, all_links = 0;
    do {
        buffer.fill(fd);
        ++fills;
        std::size_t directories = 0, links = 0, unknown = 0, last_directory_end = 0;
        DirentCursor cursor(buffer);
        RawDirent dirent;
        while (cursor.next(dirent)) {
            directories += dirent.type == DT_DIR;
            links += dirent.type == DT_LNK;
            unknown += dirent.type == DT_UNKNOWN;
            if (dirent.type == DT_DIR) {
                last_directory_end = cursor.offset(buffer);
            }
        }
        cr_expect_eq(buffer.count_directories(SIZE_MAX, false), directories + unknown,
                     "fill %zu: directories", fills);
        cr_expect_eq(buffer.count_directories(SIZE_MAX, true), directories + unknown + links,
                     "fill %zu: directories and links", fills);
        cr_expect_eq(buffer.count_directories(1, true), std::min<std::size_t>(1, directories + unknown + links),
                     "fill %zu: counted no further than the limit", fills);
        cr_expect_eq(buffer.directories_end(), last_directory_end, "fill %zu: where the last directory ends",
                     fills);
        DirentCursor up_to_last(buffer, 0, buffer.directories_end());
        std::size_t listed = 0;
        while (up_to_last.next_directory(dirent)) {
            ++listed;
        }
        cr_expect_eq(listed, directories, "fill %zu: every directory lies before directories_end()", fills);
        all_directories += directories;
        all_links += links;
    } while (!buffer.at_end() && !buffer.error());
    cr_expect(fills > 2, "304 entries in %zu fills of 1 KiB", fills);
    // 0, 7, ..., 294 and the three dotted ones; 0, 11, ..., 297 but 0, 77, 154, 231.
    cr_expect_eq(all_directories, 43 + 3, "each directory in one batch");
    cr_expect_eq(all_links, 24, "each link in one batch");
    ::close(fd);
}

Test(dir_buffer, cursor_measures_names_of_every_length) {
    // Every name length from 1 to NAME_MAX puts the name's NUL at each
    // position of a record's last 8 bytes (the cursor finds it there, not
    // with strlen), the shortest records ending inside the header; every
    // length as a file and as a directory, which next_directory() reports
    // and passes the files by.
    test::TempTree tree;
    tree.directory("d");
    std::set<std::string> files, directories;
    for (std::size_t length = 1; length <= NAME_MAX; ++length) {
        std::string name(length, static_cast<char>('a' + length % 26));
        tree.file("d/" + name);
        std::string sub = name;
        sub[0] = 'D';
        tree.directory("d/" + sub);
        files.insert(name);
        directories.insert(sub);
    }
    int fd = ::open(tree.path("d").c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    cr_assert(fd >= 0);
    DirBuffer buffer(1024 * 1024);
    buffer.fill(fd);
    cr_assert(buffer.at_end(), "510 entries are read to their end in one fill of 1 MiB");
    std::set<std::string> seen_files, seen_directories;
    DirentCursor cursor(buffer);
    RawDirent dirent;
    while (cursor.next(dirent)) {
        cr_expect_eq(dirent.name.size(), std::strlen(dirent.name.data()), "%s: measured %zu",
                     dirent.name.data(), dirent.name.size());
        (dirent.type == DT_DIR ? seen_directories : seen_files).insert(std::string(dirent.name));
    }
    cr_expect(seen_files == files, "every file name, each with its length");
    cr_expect(seen_directories == directories, "every directory name, each with its length");
    std::set<std::string> listed_directories;
    DirentCursor directories_only(buffer);
    while (directories_only.next_directory(dirent)) {
        cr_expect_eq(dirent.type, DT_DIR);
        cr_expect_eq(dirent.name.size(), std::strlen(dirent.name.data()));
        listed_directories.insert(std::string(dirent.name));
    }
    cr_expect(listed_directories == directories, "next_directory(): the directories, no file, no dot");
    ::close(fd);
}

namespace {

// Every name in fd's directory, filling buffer again until it is at its
// end; reads counts the getdents64 calls.
std::multiset<std::string> read_all(DirBuffer& buffer, int fd, bool end_marked, unsigned& reads) {
    std::multiset<std::string> names;
    reads = 0;
    do {
        buffer.fill(fd, end_marked);
        cr_assert_eq(buffer.error(), 0);
        reads += buffer.read_calls();
        for (const std::string& name : names_in(buffer)) {
            names.insert(name);
        }
        cr_assert(reads < 10000, "never at its end");
    } while (!buffer.at_end());
    return names;
}

} // namespace

Test(dir_buffer, a_marked_end_saves_the_read_that_finds_nothing) {
    // Where the file system marks a listing's last record, fill() with
    // end_marked stops there: one getdents64 for a small directory instead
    // of two, and a large one read in small batches still comes whole.
    // Elsewhere nothing changes.
    test::TempTree tree;
    tree.many_files("small", 40);
    tree.directory("small/sub");
    std::vector<std::string> many = tree.many_files("large", 3000, "a-longer-name-");
    bool marked = test::lists_end_marked(tree.path("small"));
    if (!marked) {
        cr_log_warn("%s does not mark the end of a listing: only the unmarked reads are checked",
                    tree.root().c_str());
    }
    for (const char* dir : {"small", "large"}) {
        for (std::size_t capacity : {DirBuffer::default_capacity, std::size_t{4096}}) {
            int plain_fd = ::open(tree.path(dir).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            int marked_fd = ::open(tree.path(dir).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            cr_assert(plain_fd >= 0 && marked_fd >= 0);
            DirBuffer plain_buffer(capacity), marked_buffer(capacity);
            unsigned plain_reads = 0, marked_reads = 0;
            std::multiset<std::string> plain = read_all(plain_buffer, plain_fd, false, plain_reads);
            std::multiset<std::string> with_mark = read_all(marked_buffer, marked_fd, true, marked_reads);
            cr_expect(with_mark == plain, "%s, %zu bytes: %zu names with the mark, %zu without", dir,
                      capacity, with_mark.size(), plain.size());
            cr_expect_eq(plain.size(), std::string(dir) == "small" ? 41u : 3000u);
            if (marked) {
                cr_expect_eq(marked_reads + 1, plain_reads, "%s, %zu bytes: %u reads marked, %u plain",
                             dir, capacity, marked_reads, plain_reads);
            } else {
                cr_expect_eq(marked_reads, plain_reads);
            }
            ::close(plain_fd);
            ::close(marked_fd);
        }
    }
    cr_expect_eq(many.size(), 3000u);
}

Test(dir_buffer, empty_directory_and_read_errors) {
    test::TempTree tree;
    tree.build("empty/ plain");
    int fd = ::open(tree.path("empty").c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    cr_assert(fd >= 0);
    DirBuffer buffer;
    buffer.fill(fd);
    cr_expect(buffer.at_end());
    cr_expect_eq(buffer.error(), 0);
    cr_expect(names_in(buffer).empty(), "an empty directory has no entries but . and ..");
    ::close(fd);

    int file = ::open(tree.path("plain").c_str(), O_RDONLY | O_CLOEXEC);
    cr_assert(file >= 0);
    buffer.fill(file);
    cr_expect_eq(buffer.error(), ENOTDIR, "fill on a regular file: %d", buffer.error());
    ::close(file);
    buffer.fill(file);  // closed now
    cr_expect_eq(buffer.error(), EBADF, "fill on a closed descriptor: %d", buffer.error());

    DirentCursor nothing;
    RawDirent dirent;
    cr_expect(!nothing.next(dirent), "a default cursor has no entries");
}
