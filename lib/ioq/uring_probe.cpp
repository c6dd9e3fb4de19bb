#include "uring_probe.hpp"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <liburing.h>

#include <cerrno>

namespace ioq {
namespace {

// Opcodes are a byte: the kernel fills in at most this many.
constexpr unsigned max_opcodes = 256;

// Kernels before 5.12 refuse the flag with EINVAL.  "/" is always in the
// cache, so a kernel that knows the flag opens it.
bool knows_resolve_cached() {
    open_how how{};
    how.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
    how.resolve = RESOLVE_CACHED;
    long fd = ::syscall(SYS_openat2, AT_FDCWD, "/", &how, sizeof how);
    if (fd >= 0) {
        ::close(static_cast<int>(fd));
        return true;
    }
    return errno == EAGAIN;
}

UringSupport run_probe() {
    UringSupport support;
    io_uring ring;
    int ret = io_uring_queue_init(4, &ring, 0);
    if (ret < 0) {
        support.setup_error = -ret;
        support.reason = "io_uring_setup failed";
        return support;
    }
    // The probe lives on the stack, with room for every opcode: liburing's
    // io_uring_get_probe_ring() mallocs it, and a malloc failing there
    // would read as "kernel too old" for the rest of the process.
    alignas(io_uring_probe) unsigned char storage[sizeof(io_uring_probe) +
                                                  max_opcodes * sizeof(io_uring_probe_op)] = {};
    auto* probe = reinterpret_cast<io_uring_probe*>(storage);
    if (io_uring_register_probe(&ring, probe, max_opcodes) < 0) {
        support.reason = "io_uring cannot list its opcodes (kernel before 5.6)";
    } else if (!io_uring_opcode_supported(probe, IORING_OP_OPENAT) ||
               !io_uring_opcode_supported(probe, IORING_OP_STATX) ||
               !io_uring_opcode_supported(probe, IORING_OP_CLOSE)) {
        support.reason = "io_uring lacks openat, statx or close";
    } else {
        support.usable = true;
        support.openat2 = io_uring_opcode_supported(probe, IORING_OP_OPENAT2);
        support.cached_opens = support.openat2 && knows_resolve_cached();
    }
    io_uring_queue_exit(&ring);
    return support;
}

} // namespace

const UringSupport& probe_uring() {
    static const UringSupport support = run_probe();
    return support;
}

} // namespace ioq
