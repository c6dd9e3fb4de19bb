#include "descriptor_table.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

namespace ioq {

void grow_descriptor_table(std::size_t slots) noexcept {
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
        limit.rlim_cur < slots) {
        slots = static_cast<std::size_t>(limit.rlim_cur);
    }
    if (slots < 2) {
        return;
    }
    // F_DUPFD needs a descriptor to copy, and it must be one of our own:
    // closing a copy of the caller's descriptor would drop every POSIX
    // record lock the process holds on that file.  An O_PATH descriptor
    // carries no locks (the kernel skips them when it is closed).
    int root = ::open("/", O_PATH | O_CLOEXEC);
    if (root < 0) {
        return;
    }
    int copy = ::fcntl(root, F_DUPFD_CLOEXEC, static_cast<int>(slots - 1));
    if (copy >= 0) {
        ::close(copy);
    }
    ::close(root);
}

} // namespace ioq
