// The inline backend: requests run on the caller's thread inside submit().
//
// Completed requests wait in a small vector until reap() collects them, so the
// walk loop sees the same submit/reap protocol whatever the backend.  The
// vector is allocated with the backend, for all the caller may have
// outstanding, so that submit() never allocates: an exception half-way
// through a batch would lose requests that already ran (and the
// descriptors they opened).
#include "backend.hpp"

#include <algorithm>
#include <vector>

namespace ioq {
namespace {

class InlineBackend final : public Backend {
public:
    explicit InlineBackend(std::size_t capacity) { done_.reserve(capacity); }

    BackendKind kind() const override { return BackendKind::inline_calls; }

    void submit(std::span<Request* const> batch) override {
        if (first_ > 0) {
            // Reaped ones still take room at the front: move the rest up,
            // so that size() stays within what the caller has outstanding.
            done_.erase(done_.begin(), done_.begin() + static_cast<std::ptrdiff_t>(first_));
            first_ = 0;
        }
        for (Request* request : batch) {
            run_blocking(*request);
            done_.push_back(request);
        }
    }

    std::size_t reap(std::span<Request*> out, bool) override {
        std::size_t taken = std::min(out.size(), done_.size() - first_);
        std::copy_n(done_.begin() + static_cast<std::ptrdiff_t>(first_), taken, out.begin());
        first_ += taken;
        if (first_ == done_.size()) {
            done_.clear();
            first_ = 0;
        }
        return taken;
    }

    void cancel_pending() override {}

private:
    std::vector<Request*> done_;
    std::size_t first_ = 0;
};

} // namespace

std::unique_ptr<Backend> make_inline_backend(std::size_t capacity) {
    return std::make_unique<InlineBackend>(capacity);
}

const char* backend_name(BackendKind kind) {
    switch (kind) {
    case BackendKind::inline_calls: return "inline";
    case BackendKind::threads: return "threads";
    case BackendKind::uring: return "io_uring";
    }
    return "?";
}

} // namespace ioq
