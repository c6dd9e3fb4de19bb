// Backend: the interface every way of carrying out requests implements.
//
//   inline   the calling thread does each request when it needs it (closes
//            and stats at submit): no threads, no ring; what -j1 asks for
//            and what a tiny walk should cost (inline_backend.hpp).
//   threads  a pool of workers doing blocking system calls.
//   uring    a pool of workers, each with its own io_uring: openat, statx and
//            close go through the ring, getdents64 runs on the worker (mainline
//            io_uring has no getdents opcode).
//
// One thread (the walk loop) calls submit() and reap(); backends need not be
// safe for more than that one caller.
#pragma once

#include "request.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

namespace ioq {

enum class BackendKind : unsigned char { inline_calls, threads, uring };

const char* backend_name(BackendKind kind);

class Backend {
public:
    virtual ~Backend() = default;
    virtual BackendKind kind() const = 0;

    // Hands requests over; they come back from reap().  The caller never has
    // more outstanding than the capacity it created the backend with.
    virtual void submit(std::span<Request* const> batch) = 0;

    // Moves finished requests into out and returns how many.  With wait, blocks
    // until at least one is finished; the caller only waits with something
    // outstanding.
    virtual std::size_t reap(std::span<Request*> out, bool wait) = 0;

    // Runs up to out.size() requests that no worker has started yet on the
    // calling thread and moves them into out, finished.  A caller that would
    // otherwise sleep until a worker is done lends its core instead: on two
    // cores this makes the walk loop a second worker whenever it is idle, and
    // saves the sleep and wake-up a completion would cost.
    virtual std::size_t run_pending_here(std::span<Request*> out) {
        (void)out;
        return 0;
    }

    // Runs this one request on the calling thread if no worker has started
    // it yet; true if so (it is then finished and will not come back from
    // reap()).  For a caller about to wait for exactly that request.
    virtual bool run_here(Request* request) {
        if (!take_pending(request)) {
            return false;
        }
        run_blocking(*request);
        return true;
    }

    // Takes this one request back if no worker has started it yet: the
    // caller then runs it, and it will not come back from reap().
    virtual bool take_pending(Request* request) {
        (void)request;
        return false;
    }

    // Workers running, and one more started if the backend can (false
    // when it cannot, or has none).
    virtual unsigned workers() const { return 0; }
    virtual bool add_worker() noexcept { return false; }

    // Directory opens so far that the kernel would not do from its caches
    // (RESOLVE_CACHED refused them: mostly a cold cache, also file systems
    // whose lookups must leave RCU mode), which a worker then did with a
    // blocking call; 0 from a backend that cannot tell.  Any thread may
    // call it while the workers run.
    virtual std::uint64_t cache_misses() const { return 0; }

    // Finishes every request that no worker has started with -ECANCELED; they
    // still come back from reap(), so their owner can release them uniformly.
    virtual void cancel_pending() = 0;
};

// The factories throw std::bad_alloc when the backend's queues cannot be
// allocated.  A pool may start fewer workers than asked for when threads
// cannot be created; when none can, the pool factories return nullptr.
std::unique_ptr<Backend> make_thread_backend(std::size_t capacity, unsigned workers);
// Returns nullptr when io_uring cannot be used here (see uring_probe.hpp).
std::unique_ptr<Backend> make_uring_backend(std::size_t capacity, unsigned workers);

} // namespace ioq
