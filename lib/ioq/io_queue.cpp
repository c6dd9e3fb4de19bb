#include "io_queue.hpp"

#include "descriptor_table.hpp"
#include "uring_probe.hpp"

#include <fcntl.h>
#include <sys/resource.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <new>

namespace ioq {

BackendChoice parse_backend_choice(const char* text) {
    if (!text) {
        return BackendChoice::automatic;
    }
    if (std::strcmp(text, "uring") == 0 || std::strcmp(text, "io_uring") == 0) {
        return BackendChoice::uring;
    }
    if (std::strcmp(text, "threads") == 0) {
        return BackendChoice::threads;
    }
    if (std::strcmp(text, "inline") == 0) {
        return BackendChoice::inline_calls;
    }
    return BackendChoice::automatic;
}

namespace {

// A wait this long for one request, run here or by a worker, is the
// device's latency, not the CPU's: warm, a directory takes microseconds.
// Cold, most directories come within a millisecond, so a 1 ms threshold
// added almost no workers; 500 us lets a cold walk grow while warm walks
// still add none (measured in c427a65).
constexpr std::chrono::microseconds slow_wait{500};

// A directory request run inline this slow ends the inline phase where
// the process read blocks during the phase: the cache is cold, and a cold
// walk wants its requests in flight from the start.  Warm runs stay well
// below it, cold ones above (measured in 077777b).  Below it, the system
// call that counts blocks is not worth making.
constexpr std::chrono::microseconds cold_inline_run{50};
// Where no block read proves it (network file systems count none), only
// a run this slow ends the phase, and only if the caller says guessing is
// right: the thread losing its CPU for a while ends it too, and the pool
// then starts early, as it did before there was a phase.
constexpr std::chrono::microseconds slow_inline_run{200};

// Slow waits alone are a guess: on a busy machine the walk loop or a worker
// may simply lose its CPU.  Warm walks saw enough of those to grow far
// past what helps, and ran slower for it (measured in 98246b5).  Without
// proof that a device is being read (blocks_read), the guess stops here.
constexpr unsigned guessed_workers_limit = 8;

// Timing every wait took two clock reads a request the walking thread ran
// itself, half the directories of a warm walk: a visible cost in that
// thread's profile (measured in 4e42d6d).
// Once this many timed waits in a row were fast, one in timed_wait_stride
// is timed: a device that is slow makes nearly every wait slow, so one is
// still seen within a few requests, and the first slow one times them all
// again.
constexpr unsigned fast_waits_before_sampling = 32;
constexpr unsigned timed_wait_stride = 8;

// Blocks the process has read from storage, all its threads and the
// kernel's io-wq threads working for it included: what a cold cache costs,
// and what a busy CPU does not.  0 where the kernel does not count them
// (CONFIG_TASK_IO_ACCOUNTING off).  A system call, so read only after a
// slow wait.
std::uint64_t blocks_read() {
    rusage usage;
    return ::getrusage(RUSAGE_SELF, &usage) == 0 ? static_cast<std::uint64_t>(usage.ru_inblock) : 0;
}

BackendKind plan_backend(const QueueOptions& options) {
    BackendChoice choice = options.backend;
    if (choice == BackendChoice::automatic) {
        choice = parse_backend_choice(std::getenv("IOQ_BACKEND"));
    }
    if (options.workers == 0 || choice == BackendChoice::inline_calls) {
        return BackendKind::inline_calls;
    }
    if (choice == BackendChoice::threads) {
        return BackendKind::threads;
    }
    // io_uring is probed when the pool starts, not here: setting up and
    // tearing down the probe's ring was a large share of a walk of an empty
    // directory, where no pool starts (measured in 1b878cd).
    return BackendKind::uring;
}

// IOQ_INLINE_DIRECTORIES where it is a whole number, else none.
std::optional<std::size_t> inline_directories_from_environment() {
    const char* text = std::getenv("IOQ_INLINE_DIRECTORIES");
    if (!text || *text < '0' || *text > '9') {
        return std::nullopt;
    }
    char* end = nullptr;
    errno = 0;
    unsigned long long value = std::strtoull(text, &end, 10);
    if (*end != '\0' || errno != 0 || value >= automatic_inline_directories) {
        return std::nullopt;
    }
    return static_cast<std::size_t>(value);
}

} // namespace

IoQueue::IoQueue(const QueueOptions& options)
    : options_(options), planned_(plan_backend(options)),
      inline_(std::make_unique<InlineBackend>(options.capacity)),
      handed_over_(options.capacity) {
    if (options_.inline_directories == automatic_inline_directories) {
        std::optional<std::size_t> chosen = inline_directories_from_environment();
        options_.inline_directories = chosen.value_or(default_inline_directories);
        inline_phase_timed_ = !chosen;
    }
}

IoQueue::~IoQueue() = default;

BackendKind IoQueue::backend() const {
    if (!pool_ && !backend_available(planned_)) {
        return BackendKind::threads;  // what start_pool() would fall back to
    }
    return planned_;
}

bool backend_available(BackendKind kind) {
    return kind != BackendKind::uring || probe_uring().usable;
}

BackendKind automatic_backend() {
    QueueOptions options;
    options.backend = BackendChoice::automatic;
    options.workers = 1;
    BackendKind planned = plan_backend(options);
    return backend_available(planned) ? planned : BackendKind::threads;
}

void IoQueue::start_pool() noexcept {
    grow_descriptor_table(descriptor_table_slots);  // while no thread shares it
    try {
        if (planned_ == BackendKind::uring) {
            pool_ = make_uring_backend(options_.capacity, options_.workers);
            if (!pool_) {
                planned_ = BackendKind::threads;
            }
        }
        if (!pool_) {
            pool_ = make_thread_backend(options_.capacity, options_.workers);
        }
    } catch (const std::bad_alloc&) {
        // No memory for the pool's queues: as when no thread starts.
    }
    if (!pool_) {
        // Threads are an optimisation: the walk is the same without them.
        planned_ = BackendKind::inline_calls;
    } else {
        workers_running_ = pool_->workers();
        if (may_add_workers()) {
            blocks_seen_ = blocks_read();  // what loading the program cost is no proof
        }
    }
}

std::uint64_t IoQueue::cache_misses() const {
    return pool_ ? pool_->cache_misses() : 0;
}

void IoQueue::submit(std::span<Request* const> batch) noexcept {
    outstanding_ += batch.size();
    if (!pool_) {
        // Closes and stats run at submit: only directories can overlap.
        std::size_t directories = 0;
        for (const Request* request : batch) {
            directories += is_directory_request(*request);
        }
        start_pool_if_worth_it(directories, nullptr);
    }
    if (pool_) {
        outstanding_in_pool_ += batch.size();
        enter_pool(batch);
        pool_->submit(batch);
    } else {
        ReadAreaLoan loan(caller_area_);
        inline_->submit(batch);
    }
}

void IoQueue::enter_pool(std::span<Request* const> batch) noexcept {
    for (Request* request : batch) {
        request->after_read.close |= request->after_read.close_in_pool;
    }
}

bool IoQueue::start_pool_if_worth_it(std::size_t arriving, const Request* keep) noexcept {
    if (pool_ || planned_ == BackendKind::inline_calls || !inline_phase_over() ||
        inline_->pending() + arriving < 2) {
        return false;
    }
    start_pool();
    if (!pool_) {
        return false;
    }
    std::size_t n = inline_->hand_over_pending(handed_over_, keep);
    enter_pool(std::span<Request* const>(handed_over_.data(), n));
    outstanding_in_pool_ += n;
    pool_->submit(std::span<Request* const>(handed_over_.data(), n));
    return true;
}

std::size_t IoQueue::reap(std::span<Request*> out, bool wait) {
    std::size_t taken = inline_->reap(out, false);
    if (taken == 0 && wait && !pool_ && inline_->pending() > 0 && !start_pool_if_worth_it(0, nullptr)) {
        auto start = inline_run_start();
        ReadAreaLoan loan(caller_area_);
        taken = inline_->reap(out, true);  // runs the oldest
        note_inline_run(start);
    }
    if (pool_ && taken < out.size() && outstanding_in_pool_ > 0) {
        std::size_t from_pool = pool_->reap(out.subspan(taken), false);
        if (from_pool == 0 && taken == 0 && wait) {
            // Nothing finished: do one queued request here rather than sleep.
            auto start = wait_start();
            ReadAreaLoan loan(caller_area_);
            from_pool = pool_->run_pending_here(out.first(1));
            ran_here_ += from_pool;
            if (from_pool == 0) {
                ++sleeps_;
                from_pool = pool_->reap(out, true);
            }
            add_worker_if_slow(start);
        }
        outstanding_in_pool_ -= from_pool;
        taken += from_pool;
    }
    outstanding_ -= taken;
    return taken;
}

int IoQueue::stat_now(int fd, const char* path, int flags, unsigned mask, struct statx& out) {
    Request request;
    request.op = Op::stat;
    request.fd = fd;
    request.path = path;
    request.flags = flags;
    request.statx_mask = mask;
    request.statx_out = &out;
    run_blocking(request);
    return request.result;
}

int IoQueue::close_now(int fd) {
    Request request;
    request.op = Op::close;
    request.fd = fd;
    run_blocking(request);
    return request.result;
}

int IoQueue::duplicate_now(int fd) {
    int copy = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
    return copy >= 0 ? copy : -errno;
}

std::chrono::steady_clock::time_point IoQueue::wait_start() {
    if (!may_add_workers()) {
        return {};
    }
    if (fast_waits_ >= fast_waits_before_sampling && ++untimed_waits_ % timed_wait_stride != 0) {
        return {};  // not timed (see fast_waits_before_sampling)
    }
    return std::chrono::steady_clock::now();
}

void IoQueue::add_worker_if_slow(std::chrono::steady_clock::time_point wait_start) {
    if (wait_start == std::chrono::steady_clock::time_point{} || !may_add_workers()) {
        return;
    }
    if (std::chrono::steady_clock::now() - wait_start <= slow_wait) {
        fast_waits_ += fast_waits_ < fast_waits_before_sampling;
        return;
    }
    fast_waits_ = 0;
    // Proof that the device is being waited for: the process read blocks
    // from it since the last look.  Then each slow wait adds a worker, and
    // a cold walk wants many, each mostly asleep in getdents64 (measured
    // in 98246b5).
    std::uint64_t blocks = blocks_read();
    bool proven = blocks != blocks_seen_;
    blocks_seen_ = blocks;
    // Without proof (network file systems read no blocks, and some kernels
    // count none), every second slow wait, where the caller says guessing
    // is right: one alone may be the thread losing its CPU, a device's
    // latency comes again and again.
    if (!proven && (!options_.guess_slow_devices || ++slow_waits_ % 2 != 0 ||
                    workers_running_ >= guessed_workers_limit)) {
        return;
    }
    if (pool_->add_worker()) {
        ++workers_running_;
    }
}

std::chrono::steady_clock::time_point IoQueue::inline_run_start() {
    if (!inline_phase_timed_ || planned_ == BackendKind::inline_calls || inline_phase_over()) {
        return {};
    }
    if (!inline_blocks_) {
        // Once a walk: what the process read before (its own binary, on
        // a cold cache) is no proof.
        inline_blocks_ = blocks_read();
    }
    return std::chrono::steady_clock::now();
}

void IoQueue::note_inline_run(std::chrono::steady_clock::time_point start) {
    if (start == std::chrono::steady_clock::time_point{}) {
        return;
    }
    auto took = std::chrono::steady_clock::now() - start;
    if (took > cold_inline_run && blocks_read() != *inline_blocks_) {
        inline_slow_ = true;
    } else if (took > slow_inline_run && options_.guess_slow_devices) {
        inline_slow_ = true;
    }
}

bool IoQueue::run_here(Request* request) {
    if (!pool_) {
        // Others go to the workers, if now is the time to start them,
        // while this one runs here.
        start_pool_if_worth_it(0, request);
        auto start = inline_run_start();
        ReadAreaLoan loan(caller_area_);
        if (!inline_->run_here(request)) {
            return false;
        }
        note_inline_run(start);
        --outstanding_;
        return true;
    }
    // The clock only for a request that runs: the walk asks for the one
    // it waits for whether or not a worker has it.
    if (!pool_->take_pending(request)) {
        return false;
    }
    auto start = wait_start();
    ReadAreaLoan loan(caller_area_);
    run_blocking(*request);
    add_worker_if_slow(start);
    --outstanding_;
    --outstanding_in_pool_;
    ++ran_here_;
    return true;
}

void IoQueue::cancel_pending() {
    inline_->cancel_pending();
    if (pool_) {
        pool_->cancel_pending();
    }
}

} // namespace ioq
