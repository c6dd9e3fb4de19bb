// The thread-pool backend: workers pop a few requests at a time and run them
// with blocking system calls.  Used where io_uring is missing or refused.
#include "worker_pool.hpp"

namespace ioq {
namespace {

class ThreadBackend final : public WorkerPool {
public:
    ThreadBackend(std::size_t capacity, unsigned workers) : WorkerPool(capacity, workers) {
        start();
    }
    ~ThreadBackend() override { stop(); }

    BackendKind kind() const override { return BackendKind::threads; }

private:
    // Small batches keep the workers evenly loaded: a worker that grabbed 64
    // directories would leave the others idle behind one large directory.
    static constexpr std::size_t batch_size = 2;

    void work(unsigned) override { work_blocking(batch_size); }
};

} // namespace

std::unique_ptr<Backend> make_thread_backend(std::size_t capacity, unsigned workers) {
    auto backend = std::make_unique<ThreadBackend>(capacity, workers);
    if (backend->started() == 0) {
        return nullptr;  // no thread could be created
    }
    return backend;
}

} // namespace ioq
