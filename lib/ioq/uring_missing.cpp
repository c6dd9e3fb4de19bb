// Stand-ins for a build without liburing (-Dio_uring=disabled): the queue then
// always chooses the thread pool, and says why when asked.
#include "backend.hpp"
#include "uring_probe.hpp"

namespace ioq {

const UringSupport& probe_uring() {
    static const UringSupport support{.usable = false, .reason = "io_uring support not compiled in"};
    return support;
}

std::unique_ptr<Backend> make_uring_backend(std::size_t, unsigned) { return nullptr; }

} // namespace ioq
