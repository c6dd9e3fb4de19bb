#include "inline_backend.hpp"

#include <algorithm>
#include <cerrno>

namespace ioq {

InlineBackend::InlineBackend(std::size_t capacity) {
    pending_.reserve(capacity);
    done_.reserve(capacity);
}

void InlineBackend::push_done(Request* request) {
    if (first_done_ > 0 && done_.size() == done_.capacity()) {
        // Reaped ones still take room at the front: move the rest up.  The
        // rest and the pending ones are outstanding, so they fit.
        done_.erase(done_.begin(), done_.begin() + static_cast<std::ptrdiff_t>(first_done_));
        first_done_ = 0;
    }
    done_.push_back(request);  // reserved: never reallocates
}

void InlineBackend::run(Request& request) {
    run_blocking(request);
    push_done(&request);
}

void InlineBackend::submit(std::span<Request* const> batch) {
    for (Request* request : batch) {
        if (is_directory_request(*request)) {
            if (first_pending_ > 0 && pending_.size() == pending_.capacity()) {
                compact_pending();
            }
            pending_.push_back(request);  // reserved: never reallocates
        } else {
            run(*request);
        }
    }
}

std::size_t InlineBackend::reap(std::span<Request*> out, bool wait) {
    if (wait && first_done_ == done_.size() && pending() > 0 && !out.empty()) {
        run(*start_pending(first_pending_));
    }
    std::size_t taken = std::min(out.size(), done_.size() - first_done_);
    std::copy_n(done_.begin() + static_cast<std::ptrdiff_t>(first_done_), taken, out.begin());
    first_done_ += taken;
    if (first_done_ == done_.size()) {
        done_.clear();
        first_done_ = 0;
    }
    return taken;
}

bool InlineBackend::run_here(Request* request) {
    // Breadth-first, the one waited for is the oldest; depth-first, mostly
    // the newest: looking at the oldest first, then from the newest back,
    // finds either at once (a search from the front was a visible cost
    // depth first, measured in 509fbd9).
    auto first = pending_.begin() + static_cast<std::ptrdiff_t>(first_pending_);
    if (first == pending_.end()) {
        return false;
    }
    if (*first != request) {
        auto found = std::find(pending_.rbegin(), std::make_reverse_iterator(first + 1), request);
        if (found == std::make_reverse_iterator(first + 1)) {
            return false;
        }
        first = found.base() - 1;
    }
    run_blocking(*start_pending(static_cast<std::size_t>(first - pending_.begin())));
    return true;
}

Request* InlineBackend::start_pending(std::size_t index) {
    Request* request = pending_[index];
    ++directories_run_;
    if (index == first_pending_) {
        ++first_pending_;
    } else {
        pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(index));
    }
    if (first_pending_ == pending_.size()) {
        pending_.clear();
        first_pending_ = 0;
    }
    return request;
}

void InlineBackend::compact_pending() {
    pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(first_pending_));
    first_pending_ = 0;
}

std::size_t InlineBackend::hand_over_pending(std::span<Request*> out, const Request* keep) {
    compact_pending();
    std::size_t n = 0;
    auto kept = pending_.begin();
    for (Request* request : pending_) {
        if (request == keep) {
            *kept++ = request;
        } else {
            out[n++] = request;
        }
    }
    pending_.erase(kept, pending_.end());
    return n;
}

void InlineBackend::cancel_pending() {
    for (std::size_t i = first_pending_; i < pending_.size(); ++i) {
        pending_[i]->result = -ECANCELED;
        push_done(pending_[i]);
    }
    pending_.clear();
    first_pending_ = 0;
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
