// InlineBackend: requests run on the caller's own thread, when the caller
// needs them.
//
// Closes and stats run inside submit(): they are cheap, and a close frees a
// descriptor the walk is counting on.  Directory opens and reads wait in a
// list until the caller waits for one (reap with wait, or run_here):
//
//   submit(open, read) --> pending_ --run when waited for--> done_ --> reap()
//   submit(close, stat) ---------------run now-------------> done_
//
// Running them at submit time, as this backend once did, gained nothing on
// one thread and cost a lot when the walk stopped early: a breadth-first
// search for a name two levels down (-quit) had opened and read the 20
// sibling directories read-ahead queued behind the one it needed.  Now a
// walk that ends reads only what it needed, and stop() cancels the rest.
//
// The queue (io_queue.cpp) keeps this backend in front of any pool: while
// no pool runs, requests wait here, and when the queue decides a pool is
// worth starting it takes the ones still waiting (hand_over_pending) and hands
// them to the pool.
//
// Lists are allocated with the backend, for all the caller may have
// outstanding, so that submit() never allocates: an exception half-way
// through a batch would lose requests (and the descriptors they opened).
#pragma once

#include "backend.hpp"

#include <cstddef>
#include <span>
#include <vector>

namespace ioq {

class InlineBackend final : public Backend {
public:
    explicit InlineBackend(std::size_t capacity);

    BackendKind kind() const override { return BackendKind::inline_calls; }
    void submit(std::span<Request* const> batch) override;
    // With wait and nothing finished: runs the oldest pending request.
    std::size_t reap(std::span<Request*> out, bool wait) override;
    bool run_here(Request* request) override;
    void cancel_pending() override;

    // Directory requests submitted and not yet run.
    std::size_t pending() const { return pending_.size() - first_pending_; }
    // Directory requests run so far.
    std::size_t directories_run() const { return directories_run_; }
    // Moves every pending request but `keep` (which may be null) into
    // out, oldest first, without running them: they are the caller's to
    // hand to another backend.  out must have room for pending().
    std::size_t hand_over_pending(std::span<Request*> out, const Request* keep);

private:
    void run(Request& request);
    void push_done(Request* request);
    // Takes pending_[index] out of the list, counted as run: the caller
    // runs it next.
    Request* start_pending(std::size_t index);
    void compact_pending();

    std::vector<Request*> pending_;
    std::size_t first_pending_ = 0;  // pending_ before it were run
    std::vector<Request*> done_;
    std::size_t first_done_ = 0;  // done_ before it were reaped
    std::size_t directories_run_ = 0;
};

} // namespace ioq
