// UniqueFd: sole owner of a file descriptor, closed when the owner goes away.
//
// Every descriptor libioq opens for itself (rings, probe files) lives in one of
// these.  Directory descriptors that travel through the I/O queue are plain ints
// on purpose: their close is itself a queued request, so ownership is tracked by
// the walk's descriptor accounting instead (see walk/fd_budget.hpp).
#pragma once

#include <unistd.h>

#include <utility>

namespace ioq {

class UniqueFd {
public:
    UniqueFd() = default;
    explicit UniqueFd(int fd) : fd_(fd) {}
    UniqueFd(UniqueFd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
    UniqueFd& operator=(UniqueFd&& other) noexcept {
        if (this != &other) {
            reset(std::exchange(other.fd_, -1));
        }
        return *this;
    }
    UniqueFd(const UniqueFd&) = delete;
    UniqueFd& operator=(const UniqueFd&) = delete;
    ~UniqueFd() { reset(); }

    int get() const { return fd_; }
    bool valid() const { return fd_ >= 0; }
    int release() { return std::exchange(fd_, -1); }
    void reset(int fd = -1) {
        if (fd_ >= 0) {
            ::close(fd_);
        }
        fd_ = fd;
    }

private:
    int fd_ = -1;
};

} // namespace ioq
