// Synchronous execution of requests: the whole inline backend, the whole
// thread-pool backend, and the part of the io_uring backend the ring cannot do.
#include "dir_buffer.hpp"
#include "request.hpp"

#include <unistd.h>

#include <cerrno>

namespace ioq {

void run_blocking(Request& request) {
    switch (request.op) {
    case Op::open_dir: {
        int fd = ::openat(request.fd, request.path, open_dir_flags | request.flags);
        if (fd < 0) {
            request.result = -errno;
            return;
        }
        if (request.buffer) {
            request.buffer->fill(fd);
        }
        request.result = fd;
        return;
    }
    case Op::read_dir:
        request.buffer->fill(request.fd);
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
