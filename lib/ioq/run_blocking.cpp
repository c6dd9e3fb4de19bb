// Synchronous execution of requests: the whole inline backend, the whole
// thread-pool backend, and the part of the io_uring backend the ring cannot do.
//
// Nothing here allocates except DirBuffer::stat_entries, which copes with
// running out: these calls run on worker threads, where an exception would
// end the process, and inside submit(), where it would lose requests (and
// the descriptors they opened) half-way through a batch.
#include "dir_buffer.hpp"
#include "request.hpp"

#include <linux/openat2.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <string_view>

namespace ioq {

namespace {

// Set once openat2 proved unusable here (before Linux 5.6: ENOSYS; some
// seccomp filters: EPERM); relaxed ordering suffices for a hint that every
// thread may as well find out for itself.
std::atomic<bool> openat2_missing{false};

// The same walk as RESOLVE_NO_SYMLINKS, one component at a time, each opened
// with O_NOFOLLOW relative to the one before.  Each component is copied into
// a buffer on the stack: this runs on worker threads, which must not
// allocate (see run_blocking).
int open_component_by_component(const Request& request) noexcept {
    std::string_view rest(request.path);
    char component[NAME_MAX + 1];
    int base = request.fd;
    for (;;) {
        std::size_t slash = rest.find('/');
        std::string_view name = rest.substr(0, slash);
        bool last = slash == std::string_view::npos;
        int fd;
        if (name.size() > NAME_MAX) {
            fd = -1;
            errno = ENAMETOOLONG;
        } else if (name.empty()) {
            fd = ::dup(base);
        } else {
            name.copy(component, name.size());
            component[name.size()] = '\0';
            fd = ::openat(base, component,
                          (last ? open_dir_flags | request.flags
                                : O_RDONLY | O_DIRECTORY | O_CLOEXEC) |
                              O_NOFOLLOW);
        }
        int error = errno;
        if (base != request.fd) {
            ::close(base);
        }
        if (fd < 0) {
            errno = error;
            return -1;
        }
        if (last) {
            return fd;
        }
        base = fd;
        rest.remove_prefix(slash + 1);
    }
}

int open_without_links(const Request& request) noexcept {
    if (!openat2_missing.load(std::memory_order_relaxed)) {
        open_how how = open_dir_how(request);
        long fd = ::syscall(SYS_openat2, request.fd, request.path, &how, sizeof how);
        if (fd >= 0 || (errno != ENOSYS && errno != EPERM)) {
            return static_cast<int>(fd);
        }
        openat2_missing.store(true, std::memory_order_relaxed);
    }
    return open_component_by_component(request);
}

} // namespace

void read_entries(Request& request, int fd) noexcept {
    DirBuffer& buffer = *request.buffer;
    buffer.fill(fd, request.end_marked);
    if (request.statx_mask) {
        buffer.stat_entries(fd, request.statx_mask, request.stat_flags);
    }
    const AfterRead& after = request.after_read;
    bool close = false;
    if (buffer.at_end() && !buffer.error() && (after.close || after.close_leaf)) {
        // One subdirectory: kept open for it (see AfterRead::close).
        std::size_t directories = buffer.count_directories(after.close ? 2 : 1, after.count_links);
        close = directories == 0 || (after.close && directories > 1);
    }
    using Identify = AfterRead::Identify;
    if (after.identify == Identify::always || (close && after.identify == Identify::if_closed)) {
        struct statx identity;
        if (::statx(fd, "", AT_EMPTY_PATH, STATX_INO, &identity) == 0) {
            request.identity_dev = makedev(identity.stx_dev_major, identity.stx_dev_minor);
            request.identity_ino = identity.stx_ino;
            request.identified = true;
        } else {
            close = false;  // unidentified, it could not be checked when opened again
        }
    }
    if (close) {
        ::close(fd);
        request.closed = true;
    }
}

void run_blocking(Request& request) noexcept {
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
