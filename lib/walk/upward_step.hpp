// UpwardStep: in post-order, the descriptor of the directory visited last,
// kept for one step so that its parent, visited next, opens as ".."
// relative to it.
//
// A directory's post-order visit acts through its parent (-delete removes
// it there, -execdir runs there), and on a deep chain the parent's
// descriptor is long closed.  Opened again by path from the nearest
// ancestor still open, every step would cost the whole depth (a chain of
// depth d, d^2/2 lookups); ".." from the child costs one.  The child's
// device is kept with it so that ".." is taken only within one file
// system and only where it is the very directory the walk read (the
// caller checks the inode number): a child moved elsewhere meanwhile
// leads to another parent, and the walk opens the parent by path instead.
#pragma once

#include <cstdint>
#include <utility>

namespace ioq::walk {

struct DirNode;

class UpwardStep {
public:
    bool leads_to(const DirNode* parent) const noexcept { return fd_ >= 0 && parent_ == parent; }
    int fd() const noexcept { return fd_; }
    std::uint64_t device() const noexcept { return device_; }

    // Keeps fd, a descriptor of a child of parent on device.  The step
    // must be empty (take() or drop the one before).
    void keep(int fd, const DirNode* parent, std::uint64_t device) noexcept {
        fd_ = fd;
        parent_ = parent;
        device_ = device;
    }
    // The descriptor, for the caller to close; -1 if none.
    int take() noexcept {
        parent_ = nullptr;
        return std::exchange(fd_, -1);
    }

private:
    int fd_ = -1;
    const DirNode* parent_ = nullptr;
    std::uint64_t device_ = 0;
};

} // namespace ioq::walk
