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
    // F_DUPFD needs a descriptor to copy; the standard streams may all be
    // closed, and then the root serves.
    int copy = -1;
    for (int fd = 0; fd <= 2 && copy < 0; ++fd) {
        copy = ::fcntl(fd, F_DUPFD_CLOEXEC, static_cast<int>(slots - 1));
    }
    if (copy < 0) {
        int root = ::open("/", O_PATH | O_CLOEXEC);
        if (root < 0) {
            return;
        }
        copy = ::fcntl(root, F_DUPFD_CLOEXEC, static_cast<int>(slots - 1));
        ::close(root);
    }
    if (copy >= 0) {
        ::close(copy);
    }
}

} // namespace ioq
