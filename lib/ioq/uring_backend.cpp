// The io_uring backend: a pool of workers, each with a ring of its own.
//
// A worker pops requests, turns openat, statx and close into SQEs and submits
// them all with one io_uring_enter, which also waits for the first completion.
// When an openat completes, the worker reads the directory's first entries
// with getdents64 itself (mainline io_uring has no getdents opcode) and only
// then hands the request back, so the walk loop gets an open directory and its
// entries in one completion.
//
// Opens go into the ring with RESOLVE_CACHED: with a warm cache the kernel
// completes them inline during the submit, from its dentry cache.  One the
// caches cannot serve fails with EAGAIN and the worker opens it with a
// blocking call.  Without the flag the kernel would hand it to one of its
// io-wq threads, but the getdents64 that follows blocks the worker all the
// same, and the hop costs CPU: a cold walk took more system and wall time
// through io-wq than with blocking opens (measured in 98246b5).  On a cold
// cache this backend is thus the thread pool's, with closes batched in the
// ring.
//
// Rings are created inside their worker: SINGLE_ISSUER and DEFER_TASKRUN
// (kernel 6.1) tie a ring to the task that created it, and save the kernel
// from interrupting the worker to post completions it is not waiting for.
// Kernels without those flags get a plain ring; a worker whose ring cannot
// be set up at all runs its requests with blocking calls instead.
#include "dir_buffer.hpp"
#include "uring_probe.hpp"
#include "worker_pool.hpp"

#include <liburing.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <span>

namespace ioq {
namespace {

// Enough SQEs for a worker to keep a device's queue busy on a cold cache
// while staying a small allocation per worker.
constexpr unsigned ring_depth = 64;
// Requests taken per pop: few, so that what a worker has not taken yet the
// walk loop can still take back and run itself when it needs it next (a
// depth-first walk needs its directories in order; popping 2 rather than 8
// made it faster and breadth-first no slower, measured in 0dc97fb).  The
// ring stays full all the same on a cold cache: a worker submits without
// waiting while there are requests to take, and sleeps on the ring only
// when there are none.
constexpr std::size_t pop_size = 2;

int setup_ring(io_uring& ring) {
    const unsigned flag_sets[] = {
        IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
        IORING_SETUP_COOP_TASKRUN,
        0,
    };
    int ret = -EINVAL;
    for (unsigned flags : flag_sets) {
        ret = io_uring_queue_init(ring_depth, &ring, flags);
        if (ret != -EINVAL) {
            break;
        }
    }
    if (ret < 0) {
        return ret;
    }
    // A ring is a descriptor, and with up to 32 workers the rings took the
    // ones a walk under a low RLIMIT_NOFILE needed: with `ulimit -n 10`
    // and 8 workers a walk ended with EMFILE where one worker walked it
    // whole.  Registered (Linux 5.18), the ring is entered by its index
    // and its descriptor can go; what liburing 2.4 calls
    // io_uring_close_ring_fd.  ring_fd = -1 keeps io_uring_queue_exit
    // from closing the number again once someone else holds it.
    if (io_uring_register_ring_fd(&ring) == 1) {
        ::close(ring.ring_fd);
        ring.ring_fd = -1;
    }
    return 0;
}

class UringBackend final : public WorkerPool {
public:
    UringBackend(std::size_t capacity, unsigned workers) : WorkerPool(capacity, workers) {
        start();
    }
    ~UringBackend() override { stop(); }

    BackendKind kind() const override { return BackendKind::uring; }

    std::uint64_t cache_misses() const override {
        return cache_misses_.load(std::memory_order_relaxed);
    }

private:
    void work(unsigned) override {
        Request* batch[ring_depth];
        // The first requests before the ring: a walk that stops before any
        // reaches this worker (-quit in the first directories) then waits
        // for no ring to be set up and torn down, a fifth of a
        // millisecond of its start.
        std::size_t n = pop_requests(std::span(batch, pop_size), true);
        if (n == 0) {
            return;  // closed before any request came
        }
        io_uring ring;
        if (setup_ring(ring) < 0) {
            // ENOMEM, EPERM, ...: the thread pool's way.
            for (std::size_t i = 0; i < n; ++i) {
                run_blocking(*batch[i]);
                push_completions(std::span(&batch[i], 1));
            }
            work_blocking(pop_size);
            return;
        }
        unsigned in_ring = 0;
        while (n > 0 || in_ring > 0) {
            for (std::size_t i = 0; i < n; ++i) {
                if (prepare(ring, *batch[i])) {
                    ++in_ring;
                } else {
                    run_blocking(*batch[i]);
                    push_completions(std::span(&batch[i], 1));
                }
            }
            if (in_ring > 0) {
                unsigned finished = 0;
                if (n > 0) {
                    io_uring_submit(&ring);  // a cached open completes in here
                    finished = hand_back_completions(ring);
                }
                if (finished == 0 && n == 0) {
                    // Nothing new came and nothing finished: sleep on the ring.
                    io_uring_submit_and_wait(&ring, 1);
                    finished = hand_back_completions(ring);
                }
                in_ring -= finished;
            }
            std::size_t room = ring_depth - in_ring;
            // Ends when the queue is closed and nothing is left in the ring.
            n = room ? pop_requests(std::span(batch, std::min(room, pop_size)), in_ring == 0) : 0;
        }
        io_uring_queue_exit(&ring);
    }

    // Puts the request into the ring; false for what the ring cannot do.
    static bool prepare(io_uring& ring, Request& request) {
        if (request.op == Op::read_dir) {
            return false;  // getdents64 runs on the worker itself
        }
        if (request.no_symlinks && !probe_uring().openat2) {
            return false;  // and so does openat2 where the ring lacks it
        }
        io_uring_sqe* sqe = io_uring_get_sqe(&ring);
        if (!sqe) {
            return false;  // cannot happen: in_ring never exceeds ring_depth
        }
        switch (request.op) {
        case Op::open_dir:
            if (probe_uring().cached_opens) {
                request.how = open_dir_how(request, RESOLVE_CACHED);
                io_uring_prep_openat2(sqe, request.fd, request.path, &request.how);
            } else if (request.no_symlinks) {
                request.how = open_dir_how(request);
                io_uring_prep_openat2(sqe, request.fd, request.path, &request.how);
            } else {
                request.how = {};
                io_uring_prep_openat(sqe, request.fd, request.path, open_dir_flags | request.flags, 0);
            }
            break;
        case Op::stat:
            io_uring_prep_statx(sqe, request.fd, request.path, request.flags, request.statx_mask,
                                request.statx_out);
            break;
        case Op::close:
            io_uring_prep_close(sqe, request.fd);
            break;
        case Op::read_dir:
            break;
        }
        io_uring_sqe_set_data(sqe, &request);
        return true;
    }

    // Finishes every available completion and hands each back as soon as
    // it is done, not with the round: the walk may be waiting for the
    // first while the worker reads the others.  Returns how many left the
    // ring.
    unsigned hand_back_completions(io_uring& ring) {
        unsigned count = 0;
        io_uring_cqe* cqe;
        while (io_uring_peek_cqe(&ring, &cqe) == 0) {
            auto* request = static_cast<Request*>(io_uring_cqe_get_data(cqe));
            request->result = cqe->res;
            io_uring_cqe_seen(&ring, cqe);
            ++count;
            if (request->op == Op::open_dir && request->result == -EAGAIN &&
                (request->how.resolve & RESOLVE_CACHED)) {
                cache_misses_.fetch_add(1, std::memory_order_relaxed);
                run_blocking(*request);  // not in the cache: see the top of the file
            } else if (request->op == Op::open_dir && request->how.resolve != 0 &&
                       (request->result == -ENOSYS || request->result == -EPERM)) {
                // openat2 refused (a seccomp filter): the worker's own way,
                // component by component for no_symlinks, gives the same
                // guarantee.
                run_blocking(*request);
            } else if (request->op == Op::open_dir && request->result >= 0 && request->buffer) {
                // statx in io_uring always goes to an io-wq thread (kernel
                // 6.x has no non-blocking path for it), so a batch of them
                // costs more through the ring than done here directly.
                read_entries(*request, request->result);
            }
            push_completions(std::span(&request, 1));
        }
        return count;
    }

    std::atomic<std::uint64_t> cache_misses_{0};
};

} // namespace

std::unique_ptr<Backend> make_uring_backend(std::size_t capacity, unsigned workers) {
    if (!probe_uring().usable) {
        return nullptr;
    }
    auto backend = std::make_unique<UringBackend>(capacity, workers);
    if (backend->started() == 0) {
        return nullptr;  // no thread could be created
    }
    return backend;
}

} // namespace ioq
