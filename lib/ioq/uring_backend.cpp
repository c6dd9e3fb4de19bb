// The io_uring backend: a pool of workers, each with a ring of its own.
//
// A worker pops requests, turns openat, statx and close into SQEs and submits
// them all with one io_uring_enter, which also waits for the first completion.
// When an openat completes, the worker reads the directory's first entries
// with getdents64 itself (mainline io_uring has no getdents opcode) and only
// then hands the request back, so the walk loop gets an open directory and its
// entries in one completion.
//
// With a warm cache the kernel completes openat and close inline during the
// submit, from its dentry cache; with a cold one it hands them to its own
// io-wq threads, so one worker keeps many lookups going on the device while
// blocking-call workers could only have one each.
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

#include <algorithm>
#include <span>

namespace ioq {
namespace {

// Enough SQEs for a worker to keep a device's queue busy on a cold cache
// while staying a small allocation per worker.
constexpr unsigned ring_depth = 64;
// Requests taken per pop: few, so that what a worker has not taken yet the
// walk loop can still take back and run itself when it needs it next (a
// depth-first walk needs its directories in order: -S dfs on linux-6.1 ran
// 46 ms popping 8, 40 ms popping 2; breadth-first the same 30 ms).  The
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
    return ret;
}

class UringBackend final : public WorkerPool {
public:
    UringBackend(std::size_t capacity, unsigned workers) : WorkerPool(capacity, workers) {
        start();
    }
    ~UringBackend() override { stop(); }

    BackendKind kind() const override { return BackendKind::uring; }

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
            if (request.no_symlinks) {
                request.how = no_symlinks_how(request);
                io_uring_prep_openat2(sqe, request.fd, request.path, &request.how);
            } else {
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
            if (request->no_symlinks && (request->result == -ENOSYS || request->result == -EPERM)) {
                // openat2 refused (a seccomp filter): the worker's own way,
                // component by component, gives the same guarantee.
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
