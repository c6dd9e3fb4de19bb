#include "uring_probe.hpp"

#include <liburing.h>

namespace ioq {
namespace {

UringSupport run_probe() {
    UringSupport support;
    io_uring ring;
    int ret = io_uring_queue_init(4, &ring, 0);
    if (ret < 0) {
        support.setup_error = -ret;
        support.reason = "io_uring_setup failed";
        return support;
    }
    io_uring_probe* probe = io_uring_get_probe_ring(&ring);
    if (!probe) {
        support.reason = "io_uring cannot list its opcodes (kernel before 5.6)";
    } else if (!io_uring_opcode_supported(probe, IORING_OP_OPENAT) ||
               !io_uring_opcode_supported(probe, IORING_OP_STATX) ||
               !io_uring_opcode_supported(probe, IORING_OP_CLOSE)) {
        support.reason = "io_uring lacks openat, statx or close";
    } else {
        support.usable = true;
    }
    if (probe) {
        io_uring_free_probe(probe);
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
