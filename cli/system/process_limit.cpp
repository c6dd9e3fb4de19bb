#include "system/process_limit.hpp"

#include <ioq.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>

namespace ufind {
namespace {

// Above this many processes a pool grown to its most (32 workers) still
// leaves plenty for the commands and their own children.
constexpr rlim_t roomy_process_limit = 256;

} // namespace

int workers_within_process_limit(int requested) {
    rlimit limit{};
    if (::getuid() == 0 || ::getrlimit(RLIMIT_NPROC, &limit) != 0 ||
        limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur >= roomy_process_limit) {
        return requested;
    }
    // Half for ufind's threads, the walk loop's included; half for the
    // commands.  A fixed count: an automatic pool could grow past it.
    int allowed = std::max(0, static_cast<int>(limit.rlim_cur / 2) - 1);
    int wanted = requested < 0 ? ioq_default_workers() : requested;
    return std::min(wanted, allowed);
}

} // namespace ufind
