// Synchronous execution of requests: the whole inline backend, the whole
// thread-pool backend, and the part of the io_uring backend the ring cannot do.
#include "dir_buffer.hpp"
#include "request.hpp"

#include <linux/openat2.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>

namespace ioq {

namespace {

int open_without_links(const Request& request) {
    open_how how{};
    how.flags = static_cast<std::uint64_t>(open_dir_flags | request.flags);
    how.resolve = RESOLVE_NO_SYMLINKS;
    return static_cast<int>(::syscall(SYS_openat2, request.fd, request.path, &how, sizeof how));
}

} // namespace

void read_entries(Request& request, int fd) {
    DirBuffer& buffer = *request.buffer;
    buffer.fill(fd);
    if (request.statx_mask) {
        buffer.stat_entries(fd, request.statx_mask, request.stat_flags);
    }
    struct statx identity;
    if (request.close_leaf && buffer.at_end() && !buffer.error() &&
        !buffer.may_hold_directories(request.leaf_links_count) &&
        ::statx(fd, "", AT_EMPTY_PATH, STATX_INO, &identity) == 0) {
        request.closed_dev = makedev(identity.stx_dev_major, identity.stx_dev_minor);
        request.closed_ino = identity.stx_ino;
        ::close(fd);
        request.closed = true;
    }
}

void run_blocking(Request& request) {
    switch (request.op) {
    case Op::open_dir: {
        int fd = request.no_symlinks ? open_without_links(request)
                                     : ::openat(request.fd, request.path, open_dir_flags | request.flags);
        if (fd < 0) {
            request.result = -errno;
            return;
        }
        request.result = fd;
        if (request.buffer) {
            read_entries(request, fd);
        }
        return;
    }
    case Op::read_dir:
        read_entries(request, request.fd);
        request.result = request.buffer->error() ? -request.buffer->error() : 0;
        return;
    case Op::stat:
        request.result = ::statx(request.fd, request.path, request.flags, request.statx_mask,
                                 request.statx_out) < 0 ? -errno : 0;
        return;
    case Op::close:
        // Linux releases the descriptor even when close fails, so there is
        // nothing to retry; the error is still reported to the caller.
        request.result = ::close(request.fd) < 0 ? -errno : 0;
        return;
    }
}

} // namespace ioq
