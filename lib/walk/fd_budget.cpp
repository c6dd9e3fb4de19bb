#include "fd_budget.hpp"

#include <sys/resource.h>

#include <algorithm>

namespace ioq::walk {
namespace {

std::size_t raise_descriptor_limit() {
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) {
        return 1024;
    }
    if (limit.rlim_cur < limit.rlim_max) {
        rlimit raised = limit;
        raised.rlim_cur = limit.rlim_max;
        // select() users break above FD_SETSIZE, but nothing here uses it.
        if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) {
            limit = raised;
        }
    }
    if (limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur > (1u << 20)) {
        return 1u << 20;
    }
    return static_cast<std::size_t>(limit.rlim_cur);
}

} // namespace

FdBudget::FdBudget() {
    std::size_t total = raise_descriptor_limit();
    // Keep a quarter (at most 64) for the caller; never go below 2, the
    // least a walk needs to open a directory while its parent is held.
    std::size_t reserve = std::min<std::size_t>(64, total / 4);
    limit_ = std::max<std::size_t>(2, total - reserve);
}

} // namespace ioq::walk
