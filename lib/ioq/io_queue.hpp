// IoQueue: the I/O queue the walk engine talks to.
//
// It picks a backend, starts it only when there is parallel work to do, and
// keeps count of what is outstanding so the caller can stay within capacity.
//
//   submit(batch) -> [inline calls | thread pool | io_uring workers] -> reap()
//
// Choice of backend: `backend` in QueueOptions, else the IOQ_BACKEND
// environment variable (uring, threads, inline), else io_uring when the probe
// says it works, else the thread pool.  A forced io_uring that the kernel
// refuses falls back to the thread pool; backend() tells what really runs.
//
// Lazy start: requests first go to the inline backend, which runs a
// directory's open and read only when the caller waits for it
// (inline_backend.hpp).  The pool starts once there is something to
// overlap, two requests or more outstanding, after the caller's thread has
// run inline_directories directory requests itself, or sooner if one of
// them took as long as a device does; the requests still waiting inline
// are then handed to it.  Until then runs_inline_for_now() tells the
// caller not to submit ahead.  A walk of an empty directory or of a chain
// of single directories, or a search that ends within its first few
// hundred directory reads from the caches, never starts a thread or a ring.
//
// Out of memory or threads: the constructor may throw std::bad_alloc (the
// inline backend's list); after it nothing throws.  A pool that cannot be
// started (no memory for its queues, no thread could be created) leaves the
// queue running every request inline, and backend() says so; a pool that
// started fewer workers than asked for runs with those.
#pragma once

#include "backend.hpp"
#include "dir_buffer.hpp"
#include "inline_backend.hpp"

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace ioq {

enum class BackendChoice : unsigned char { automatic, uring, threads, inline_calls };

inline constexpr std::size_t automatic_inline_directories = static_cast<std::size_t>(-1);
inline constexpr std::size_t default_inline_directories = 256;

struct QueueOptions {
    BackendChoice backend = BackendChoice::automatic;
    unsigned workers = 1;        // 0: everything inline
    std::size_t capacity = 256;  // most requests outstanding at once
    // Workers the queue may add, up to this many in all, when waits for
    // single requests last as long as a device takes (a cold cache: each
    // worker reads one directory at a time, since getdents64 has no
    // io_uring opcode, so more workers keep more reads in flight).  0:
    // never more than `workers`.
    unsigned max_workers = 0;
    // Whether a slow wait with no block read since the last look may
    // still be a device's latency (then every second one adds a worker, up
    // to 8): true for file systems that count no block reads (network,
    // FUSE).  Where reads are counted, false: such a wait is a CPU shared
    // with other work, and workers added only contend for it (see
    // walk/counted_reads.hpp).
    bool guess_slow_devices = true;
    // Directory requests the caller's thread runs itself before a pool may
    // start.  A search that ends within them pays for no thread and ring,
    // nor for the directories read ahead that it never needed: warm, on
    // this 2-core VM, a worker and its ring cost a walk of a few hundred
    // directories more than they gain (90 page faults, 11 us each here,
    // and look-ahead reads mostly thrown away), while a longer walk only
    // starts its pool a few hundred directories later (measured in
    // 077777b).  One inline request that waited for the
    // device (slower than a warm one, and blocks read) ends this at once,
    // as, where guess_slow_devices, does one slower than a device: a cold
    // walk wants its requests in flight from the start.  0: the first two
    // requests outstanding start the pool.  automatic_inline_directories:
    // IOQ_INLINE_DIRECTORIES from the environment where it is a whole
    // number (the tests set 4, so that their small trees still start
    // pools), else default_inline_directories with the slow-request rule;
    // a count given here or in the environment is kept to exactly, however
    // slow the requests.
    std::size_t inline_directories = automatic_inline_directories;
};

class IoQueue {
public:
    explicit IoQueue(const QueueOptions& options);
    ~IoQueue();
    IoQueue(const IoQueue&) = delete;
    IoQueue& operator=(const IoQueue&) = delete;

    // Hands requests over.  The caller keeps outstanding() + batch.size()
    // within capacity() (room() says how much is left).
    void submit(std::span<Request* const> batch) noexcept;

    // Moves finished requests into out.  With wait, returns at least one:
    // when none is finished it runs a queued one on the calling thread, and
    // sleeps only when every outstanding request is in a worker's hands
    // (only call it so with something outstanding).  Without wait it runs
    // nothing: a directory waiting inline stays there until a wait.
    std::size_t reap(std::span<Request*> out, bool wait);

    // Runs one request now on the calling thread, outside the queue.
    static void run_now(Request& request) { run_blocking(request); }
    // The two requests the walk runs now most often, as one call each:
    // statx (0 or -errno) and close (0 or -errno).
    static int stat_now(int fd, const char* path, int flags, unsigned mask, struct statx& out);
    static int close_now(int fd);
    // Another descriptor of fd's file, close-on-exec (or -errno): for a
    // directory kept across rounds (walk/kept_listings.hpp).
    static int duplicate_now(int fd);

    // Runs a request the caller is about to wait for on the calling thread,
    // if no worker has started it: true if so, and it is then finished (it
    // does not come back from reap()).  Depth-first walks need the directory
    // they just queued at once; taking it back beats waking a worker for it.
    bool run_here(Request* request);

    // Cancels what no worker has started; cancelled requests still come back
    // from reap() with -ECANCELED.
    void cancel_pending();

    std::size_t outstanding() const { return outstanding_; }
    std::size_t capacity() const { return options_.capacity; }
    std::size_t room() const { return options_.capacity - outstanding_; }

    // The backend that runs the requests (or will, once started).  Before
    // the pool starts this probes io_uring, as starting it would.
    BackendKind backend() const;
    bool workers_started() const { return pool_ != nullptr; }
    // Whether a request submitted now would only wait for the caller to
    // run it: every request runs on the caller's thread (no workers asked
    // for, the inline backend chosen, or no pool could start), or there is
    // no pool yet and it is not yet time for one (see inline_directories).
    // The caller then submits only what it needs next; more would hold
    // its slots and descriptors for nothing.
    bool runs_inline_for_now() const {
        return !pool_ && (planned_ == BackendKind::inline_calls || !inline_phase_over());
    }
    // The inline_directories in force: the option, or what automatic chose.
    std::size_t inline_directories() const { return options_.inline_directories; }
    // Workers running now: those started with the pool, and those slow
    // waits added since (never more than max_workers).
    unsigned workers_running() const { return workers_running_; }
    // Whether slow waits have added workers to those asked for: the device
    // keeps them waiting (a cold cache).
    bool added_workers() const { return workers_running_ > options_.workers; }
    // Directory opens the kernel would not do from its caches (see
    // Backend::cache_misses); 0 when the backend cannot tell.
    std::uint64_t cache_misses() const;

    // How the caller's waits went: requests it ran itself instead of
    // waiting, and times it really slept.
    std::size_t ran_here() const { return ran_here_; }
    std::size_t sleeps() const { return sleeps_; }

private:
    void start_pool() noexcept;
    bool inline_phase_over() const {
        return inline_slow_ || inline_->directories_run() >= options_.inline_directories;
    }
    // The clock around a directory request run inline while the pool may
    // still start: a slow one ends the inline phase (inline_slow_).  An
    // epoch is a run not timed.
    std::chrono::steady_clock::time_point inline_run_start();
    void note_inline_run(std::chrono::steady_clock::time_point start);
    // Starts the pool if now is the time (see above), with `arriving`
    // requests about to be submitted, and hands it what waits inline but
    // `keep` (the request a caller is about to run here).  True if it
    // started.
    bool start_pool_if_worth_it(std::size_t arriving, const Request* keep) noexcept;
    // What requests going to the pool take on there (close_after_read_in_pool).
    static void enter_pool(std::span<Request* const> batch) noexcept;
    // Adds a worker (up to max_workers) if the wait that began at
    // wait_start was slow.  wait_start() reads the clock only when the
    // queue may still grow, so a walk with its workers fixed pays nothing,
    // and once waits have been fast only for some of them; an epoch (a
    // default time point) is a wait not timed.
    bool may_add_workers() const { return workers_running_ < options_.max_workers; }
    std::chrono::steady_clock::time_point wait_start();
    void add_worker_if_slow(std::chrono::steady_clock::time_point wait_start);

    QueueOptions options_;
    BackendKind planned_;
    std::unique_ptr<InlineBackend> inline_;
    std::unique_ptr<Backend> pool_;
    std::vector<Request*> handed_over_;  // room to move inline requests to the pool
    // Lent to the directories this queue reads on its caller's thread
    // (inline, or run here while waiting).
    ReadArea caller_area_;
    // Whether a slow inline request ends the inline phase: with the
    // automatic count only, so that a count chosen (in the options or the
    // environment) is exactly the count, however slow the machine.
    bool inline_phase_timed_ = false;
    bool inline_slow_ = false;  // a request run inline took a device's time
    // blocks_read() as the inline phase began (its first timed request).
    std::optional<std::uint64_t> inline_blocks_;
    std::size_t outstanding_ = 0;
    std::size_t outstanding_in_pool_ = 0;
    std::size_t ran_here_ = 0;
    std::size_t sleeps_ = 0;
    unsigned workers_running_ = 0;
    std::size_t slow_waits_ = 0;
    unsigned fast_waits_ = 0;     // timed waits in a row that were fast, up to a bound
    unsigned untimed_waits_ = 0;  // counts waits while they are sampled
    std::uint64_t blocks_seen_ = 0;  // blocks_read() at the last look
};

// Parses an IOQ_BACKEND value; automatic for anything unknown.
BackendChoice parse_backend_choice(const char* text);

// Whether this build and this kernel can run the backend: io_uring only
// where it is compiled in and the probe (uring_probe.hpp) succeeds.
bool backend_available(BackendKind kind);

// What a queue with the automatic choice and workers would run: the
// IOQ_BACKEND environment variable's, else io_uring where available, else
// the thread pool.  Answered without making a queue.
BackendKind automatic_backend();

} // namespace ioq
