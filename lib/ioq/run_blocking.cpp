// Synchronous execution of requests: the whole inline backend, the whole
// thread-pool backend, and the part of the io_uring backend the ring cannot do.
#include "dir_buffer.hpp"
#include "request.hpp"

#include <unistd.h>

#include <cerrno>

namespace ioq {

void read_entries(Request& request, int fd) {
    DirBuffer& buffer = *request.buffer;
    buffer.fill(fd);
    if (request.statx_mask) {
        buffer.stat_entries(fd, request.statx_mask, request.stat_flags);
    }
    if (request.close_leaf && buffer.at_end() && !buffer.error() &&
        !buffer.may_hold_directories(request.leaf_links_count)) {
        ::close(fd);
        request.closed = true;
    }
}

void run_blocking(Request& request) {
    switch (request.op) {
    case Op::open_dir: {
        int fd = ::openat(request.fd, request.path, open_dir_flags | request.flags);
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
