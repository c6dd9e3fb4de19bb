// FdBudget: how many directory descriptors the walk may hold at once.
//
// Open directory descriptors are what make openat-relative lookups cheap (one
// path component instead of the whole path), so the walk keeps them while a
// directory still has children to open.  The limit is RLIMIT_NOFILE, whose
// soft value is raised to the hard one first; a reserve stays free for the
// caller (standard streams, -fprint files, -exec pipes, the rings).
//
// Counting: acquire() when an open is submitted, release() when its
// descriptor is closed (or the open failed).  When an open still fails with
// EMFILE (the caller holds more than the reserve), lower_limit() takes the
// count held then as the real limit.
#pragma once

#include <cstddef>

namespace ioq::walk {

class FdBudget {
public:
    FdBudget();

    bool available() const { return held_ < limit_; }
    void acquire() { ++held_; }
    void release() { --held_; }
    void lower_limit() {
        if (held_ > 1) {
            limit_ = held_ - 1;
        }
    }
    std::size_t held() const { return held_; }
    std::size_t limit() const { return limit_; }

private:
    std::size_t limit_;
    std::size_t held_ = 0;
};

} // namespace ioq::walk
