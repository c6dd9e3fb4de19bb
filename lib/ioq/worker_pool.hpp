// WorkerPool: the part the threads and uring backends share.
//
// It owns the two bounded queues and the worker threads:
//
//   submit() --> requests_ --> worker i: run(i) --> completions_ --> reap()
//
// A subclass says what a worker does with the requests it pops (work()); the
// pool starts the threads, stops them (close the request queue, join) and
// cancels what no worker took.  Both queues hold the pool's capacity, which
// bounds what the single submitter may have outstanding, so no push can fail
// while the pool is running.  The queues are allocated once, with the pool;
// after that neither the submitter nor a worker allocates.
#pragma once

#include "backend.hpp"
#include "batch_queue.hpp"

#include <thread>
#include <vector>

namespace ioq {

class WorkerPool : public Backend {
public:
    WorkerPool(std::size_t capacity, unsigned workers);
    ~WorkerPool() override;

    void submit(std::span<Request* const> batch) override;
    std::size_t reap(std::span<Request*> out, bool wait) override;
    void cancel_pending() override;
    std::size_t run_pending_here(std::span<Request*> out) override;
    bool take_pending(Request* request) override;

    // Workers running: fewer than asked for if threads could not be created.
    unsigned started() const { return static_cast<unsigned>(threads_.size()); }
    unsigned workers() const override { return started(); }
    // Starts one more worker, up to max_pool_workers.
    bool add_worker() noexcept override;

    // The most workers a pool runs, those added later included: room for
    // their threads is reserved up front, so adding one never moves the
    // threads that stop() joins.
    static constexpr unsigned max_pool_workers = 32;

protected:
    // Starts the workers; a subclass calls it once its own state is ready.
    // Starts fewer when threads cannot be created, none when none can (the
    // pool is then useless: its factory returns nullptr instead).
    void start() noexcept;
    // Joins the workers; a subclass calls it before its own state goes away.
    void stop();

    // The body of worker `index`: loop until pop_requests() returns 0.
    virtual void work(unsigned index) = 0;

    std::size_t pop_requests(std::span<Request*> out, bool wait) { return requests_.pop(out, wait); }
    void push_completions(std::span<Request* const> done);
    // A worker body that runs requests with blocking calls, taking at most
    // `batch` at a time, until the queue is closed.
    void work_blocking(std::size_t batch);

private:
    BatchQueue<Request*> requests_;
    BatchQueue<Request*> completions_;
    unsigned worker_count_;
    std::vector<std::thread> threads_;
};

} // namespace ioq
