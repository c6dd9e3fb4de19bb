// BatchQueue: a bounded FIFO that threads hand items through, in batches.
//
// Items move in batches so that one lock round trip and at most one wake-up
// carry many requests: the walk loop pushes every directory it wants opened in
// one call, and a worker pushes all it finished in one call.  Waiting is on a
// condition variable: idle workers sleep, and nobody spins on the 2-core
// machines this runs on, where a spinning thread steals the walk loop's core.
//
// Wake-ups chain instead of broadcasting: a consumer that leaves items behind
// wakes one more consumer, so a batch of one wakes one worker and a large
// batch fans out to all of them.
//
// Invariant: the producer never pushes more than fits (callers bound what they
// have outstanding by the capacity), so push() never has to wait.
//
// A pop without wait that finds the queue empty takes no lock: the walk loop
// polls for completions far more often than they come (measured in
// 894ff3b), and each lock taken moved the mutex's cache line over from the
// worker's core and back.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <span>
#include <vector>

namespace ioq {

template <class T>
class BatchQueue {
public:
    explicit BatchQueue(std::size_t capacity) : slots_(capacity) {}

    // Appends all of items; returns false (appending nothing) if they do not
    // fit or the queue is closed.
    bool push(std::span<T const> items) {
        if (items.empty()) {
            return true;
        }
        bool wake;
        {
            std::lock_guard lock(mutex_);
            std::size_t count = count_.load(std::memory_order_relaxed);
            if (closed_ || slots_.size() - count < items.size()) {
                return false;
            }
            for (const T& item : items) {
                slots_[slot(count)] = item;
                ++count;
            }
            count_.store(count, std::memory_order_relaxed);
            wake = sleepers_ > 0;
        }
        if (wake) {
            not_empty_.notify_one();
        }
        return true;
    }

    // Moves up to out.size() items into out.  With wait, sleeps until there is
    // at least one item or the queue is closed; returns 0 only when it is
    // closed and empty, or without wait when it is empty.
    std::size_t pop(std::span<T> out, bool wait) {
        // Relaxed: an item pushed just now is found by the next poll, and
        // what a pop takes it reads under the lock.
        if (!wait && count_.load(std::memory_order_relaxed) == 0) {
            return 0;
        }
        std::size_t taken;
        bool wake_another;
        {
            std::unique_lock lock(mutex_);
            if (wait) {
                ++sleepers_;
                not_empty_.wait(lock, [&] { return count_.load(std::memory_order_relaxed) > 0 || closed_; });
                --sleepers_;
            }
            std::size_t count = count_.load(std::memory_order_relaxed);
            taken = std::min(out.size(), count);
            for (std::size_t i = 0; i < taken; ++i) {
                out[i] = slots_[head_];
                head_ = slot(1);
            }
            count -= taken;
            count_.store(count, std::memory_order_relaxed);
            wake_another = count > 0 && sleepers_ > 0;
        }
        if (wake_another) {
            not_empty_.notify_one();
        }
        return taken;
    }

    // Removes one given item if it is still queued; false if a consumer took
    // it already.  Linear in what is queued, which the capacity bounds.
    bool remove(const T& item) {
        std::lock_guard lock(mutex_);
        std::size_t count = count_.load(std::memory_order_relaxed);
        for (std::size_t i = 0; i < count; ++i) {
            if (slots_[slot(i)] == item) {
                for (std::size_t j = i; j + 1 < count; ++j) {
                    slots_[slot(j)] = slots_[slot(j + 1)];
                }
                count_.store(count - 1, std::memory_order_relaxed);
                return true;
            }
        }
        return false;
    }

    // Wakes every sleeper; pop() then drains what is left and returns 0.
    void close() {
        {
            std::lock_guard lock(mutex_);
            closed_ = true;
        }
        not_empty_.notify_all();
    }

    std::size_t capacity() const { return slots_.size(); }

private:
    // Where the i-th item from the head lies (i up to the capacity).  A
    // comparison, not a %: the capacity is no constant, and a division a
    // step made the walk loop's take-back of a queued request (a scan of
    // the queue) its costliest lock-held work.
    std::size_t slot(std::size_t i) const {
        std::size_t at = head_ + i;
        return at < slots_.size() ? at : at - slots_.size();
    }

    std::mutex mutex_;
    std::condition_variable not_empty_;
    std::vector<T> slots_;
    std::size_t head_ = 0;
    // Written under the lock; read without it only by pop's empty check.
    std::atomic<std::size_t> count_{0};
    std::size_t sleepers_ = 0;
    bool closed_ = false;
};

} // namespace ioq
