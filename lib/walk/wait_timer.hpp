// WaitTimer: adds the time from start() to the end of its scope to a
// counter (WalkStats::wait_ns).  It costs nothing unless started, so the
// clock is read only when the walk really has to wait.
#pragma once

#include <chrono>
#include <cstdint>

namespace ioq::walk {

class WaitTimer {
public:
    explicit WaitTimer(std::uint64_t& total) : total_(total) {}
    WaitTimer(const WaitTimer&) = delete;
    WaitTimer& operator=(const WaitTimer&) = delete;
    ~WaitTimer() {
        if (started_) {
            total_ += static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                                     std::chrono::steady_clock::now() - start_)
                                                     .count());
        }
    }
    bool started() const { return started_; }
    void start() {
        if (!started_) {
            started_ = true;
            start_ = std::chrono::steady_clock::now();
        }
    }

private:
    std::uint64_t& total_;
    bool started_ = false;
    std::chrono::steady_clock::time_point start_;
};

} // namespace ioq::walk
