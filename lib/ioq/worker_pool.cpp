#include "worker_pool.hpp"

#include "dir_buffer.hpp"

#include <algorithm>
#include <cerrno>
#include <iterator>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <system_error>

namespace ioq {

WorkerPool::WorkerPool(std::size_t capacity, unsigned workers)
    : requests_(capacity), completions_(capacity), worker_count_(workers) {}

WorkerPool::~WorkerPool() { stop(); }

void WorkerPool::start() noexcept {
    // A thread that cannot be created (EAGAIN from pthread_create under
    // RLIMIT_NPROC or a cgroup's pids.max, or no memory for its stack or
    // its state) leaves the pool with the workers started so far; the
    // caller falls back to running requests inline when there are none.
    // Nothing here may throw once a worker runs: the subclass constructor
    // that calls start() would then unwind under a running work().
    try {
        threads_.reserve(std::max(worker_count_, max_pool_workers));
    } catch (const std::bad_alloc&) {
        return;
    }
    for (unsigned i = 0; i < worker_count_; ++i) {
        if (!add_worker()) {
            break;
        }
    }
}

bool WorkerPool::add_worker() noexcept {
    if (threads_.size() >= threads_.capacity()) {
        return false;
    }
    unsigned index = static_cast<unsigned>(threads_.size());
    try {
        threads_.emplace_back([this, index] {
            ReadArea area;  // where this worker's getdents64 calls write
            ReadAreaLoan loan(area);
            work(index);
        });  // reserved: no reallocation
    } catch (const std::system_error&) {
        return false;
    } catch (const std::bad_alloc&) {
        return false;
    }
    return true;
}

void WorkerPool::stop() {
    requests_.close();
    for (std::thread& thread : threads_) {
        thread.join();
    }
    threads_.clear();
}

void WorkerPool::submit(std::span<Request* const> batch) {
    if (!requests_.push(batch)) {
        // The submitter broke its promise to stay within capacity: a bug in
        // the caller that would otherwise lose requests silently.
        std::fprintf(stderr, "libioq: request queue overflow\n");
        std::abort();
    }
}

std::size_t WorkerPool::reap(std::span<Request*> out, bool wait) {
    return completions_.pop(out, wait);
}

void WorkerPool::push_completions(std::span<Request* const> done) {
    if (!completions_.push(done)) {
        std::fprintf(stderr, "libioq: completion queue overflow\n");
        std::abort();
    }
}

void WorkerPool::work_blocking(std::size_t batch) {
    Request* taken[16];
    batch = std::min(batch, std::size(taken));
    while (std::size_t n = pop_requests(std::span(taken, batch), true)) {
        for (std::size_t i = 0; i < n; ++i) {
            // Each handed back when done: the walk may be waiting for it.
            run_blocking(*taken[i]);
            push_completions(std::span(&taken[i], 1));
        }
    }
}

std::size_t WorkerPool::run_pending_here(std::span<Request*> out) {
    std::size_t n = requests_.pop(out, false);
    for (std::size_t i = 0; i < n; ++i) {
        run_blocking(*out[i]);
    }
    return n;
}

bool WorkerPool::take_pending(Request* request) {
    return requests_.remove(request);
}

void WorkerPool::cancel_pending() {
    Request* batch[64];
    while (std::size_t n = requests_.pop(batch, false)) {
        for (std::size_t i = 0; i < n; ++i) {
            batch[i]->result = -ECANCELED;
        }
        push_completions(std::span(batch, n));
    }
}

} // namespace ioq
