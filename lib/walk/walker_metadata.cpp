// Walker, metadata: stat() and entry_location() for the entry just returned.
//
// Metadata a worker fetched with the directory's entries is served from
// stat_cache_; otherwise statx runs now, relative to the directory's descriptor,
// or to a descriptor opened again for a leaf the workers closed once read
// (checked against the inode number its parent listed, so a directory
// replaced since is never taken for the one that was read).
#include "walker.hpp"

#include <fcntl.h>
#include <limits.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <cerrno>
#include <new>
#include <string>

namespace ioq::walk {

int Walker::cached_stat(unsigned mask, bool follow, struct statx& out) {
    if (const struct statx* cached = stat_cache_.find(follow, mask)) {
        out = *cached;
        return 0;
    }
    int result = raw_stat(mask, follow, out);
    if (result == 0) {
        stat_cache_.put(follow, mask, out);
    }
    return result;
}

int Walker::stat(unsigned mask, bool follow, struct statx& out) {
    if (entry_.error) {
        return -entry_.error;
    }
    return cached_stat(mask, follow, out);
}

int Walker::open_again(const DirNode* node, std::uint64_t* device) {
    // Relative to the nearest ancestor holding an fd, never through a link
    // the walk did not follow.
    DirNode* base = node->parent;
    while (base && base->fd < 0) {
        base = base->parent;
    }
    std::string path;
    try {
        write_path(base, node, path);
    } catch (const std::bad_alloc&) {
        return -ENOMEM;
    }
    stats_.reopen_steps += 1 + static_cast<std::uint64_t>(std::count(path.begin(), path.end(), '/'));
    Request request;
    request.op = Op::open_dir;
    request.fd = base ? base->fd : AT_FDCWD;
    request.path = path.c_str();
    request.flags = node->parent && options_.symlinks != Symlinks::logical ? O_NOFOLLOW : 0;
    request.no_symlinks = base != node->parent && options_.symlinks != Symlinks::logical;
    open_in_steps(request);
    if (request.result < 0) {
        return request.result;
    }
    int fd = request.result;
    fds_.acquire();
    // Whatever is at that name now must be the directory that was read, or
    // the caller would get another file's metadata (or delete another
    // file) for an entry listed here.
    struct statx identity;
    ++stats_.stats;
    if (IoQueue::stat_now(fd, "", AT_EMPTY_PATH, STATX_INO, identity) < 0 ||
        !is_same_directory(*node, identity)) {
        // Replaced since: as if its files had vanished.
        IoQueue::close_now(fd);
        fds_.release();
        return -ENOENT;
    }
    if (device) {
        *device = makedev(identity.stx_dev_major, identity.stx_dev_minor);
    }
    return fd;
}

int Walker::open_post_parent() {
    std::uint64_t device = 0;
    int fd = open_upward(post_parent_);
    if (fd >= 0) {
        device = upward_.device();  // ".." of a child on the same device
    } else {
        fd = open_again(post_parent_, &device);
    }
    drop_upward_step();
    if (fd >= 0) {
        post_parent_->fd = fd;
        post_parent_reopened_ = true;
        post_parent_device_ = device;
    }
    return fd;
}

int Walker::open_upward(const DirNode* node) {
    if (!upward_.leads_to(node)) {
        return -ENOENT;
    }
    Request request;
    request.op = Op::open_dir;
    request.fd = upward_.fd();
    request.path = "..";
    request.flags = O_NOFOLLOW;
    ++stats_.reopen_steps;
    IoQueue::run_now(request);
    if (request.result < 0) {
        return request.result;
    }
    int fd = request.result;
    struct statx identity;
    ++stats_.stats;
    // The very directory that was read, on the child's device: not the
    // leniency of is_same_directory() for mount points, since ".." of a
    // child moved elsewhere may be any directory.
    bool same = IoQueue::stat_now(fd, "", AT_EMPTY_PATH, STATX_INO, identity) == 0 &&
                makedev(identity.stx_dev_major, identity.stx_dev_minor) == upward_.device() &&
                identity.stx_ino == node->ino &&
                (!node->identity_known || node->dev == upward_.device());
    if (!same) {
        IoQueue::close_now(fd);
        return -ENOENT;
    }
    fds_.acquire();
    return fd;
}

void Walker::keep_upward_step(DirNode* parent) {
    // Only a descriptor the walk opened again for a post-order visit, whose
    // device it knows, and only when nothing else will use it: the node
    // is finished and its own post-order visit comes next.
    if (!std::exchange(post_parent_reopened_, false) || parent->fd < 0 || !parent->parent ||
        parent->pins > 0 || parent->live_children > 0 || parent->pending_opens > 0 ||
        !parent->consumed) {
        return;
    }
    idle_.remove(parent);
    upward_.keep(std::exchange(parent->fd, -1), parent->parent, post_parent_device_);
}

void Walker::drop_upward_step() noexcept {
    // Closed now, not queued: a descriptor of a directory deleted since
    // pins its dentry, and every rmdir above it walks the dentries down to
    // it (shrink_dcache_parent), so queued closes that wait made a deep
    // -delete quadratic again.
    int fd = upward_.take();
    if (fd >= 0) {
        IoQueue::close_now(fd);
        fds_.release();
    }
}

bool Walker::is_same_directory(const DirNode& node, const struct statx& now) {
    if (node.identity_known) {
        return now.stx_ino == node.ino &&
               makedev(now.stx_dev_major, now.stx_dev_minor) == node.dev;
    }
    // Only the number the parent listed is known.  Where a filesystem is
    // mounted, the listing names the directory the mount covers, not the
    // mounted one found by name: that cannot be compared, and a racing
    // user without the right to mount cannot make one appear either.
    return now.stx_ino == node.ino ||
           (now.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT & now.stx_attributes) != 0;
}

int Walker::reopen_current() {
    // The caller wants metadata after all: stop closing leaves early.
    close_leaves_ = false;
    int fd = open_again(current_);
    if (fd >= 0) {
        current_->fd = fd;
    }
    return fd;
}

int Walker::entry_location(int& dirfd, const char*& name) {
    if (post_parent_) {
        if (post_parent_->fd < 0) {
            // Pinned: the descriptor stays until next() unpins the node,
            // which then keeps it for the parent's parent (upward_) or
            // closes it as any finished directory's.
            int fd = open_post_parent();
            if (fd < 0) {
                return fd;
            }
        }
        dirfd = post_parent_->fd;
        name = entry_.name.data();
        return 0;
    }
    if (entry_.depth == 0 || entry_.error || entry_dirfd_ == AT_FDCWD) {
        dirfd = AT_FDCWD;
        name = entry_.path.data();
        return 0;
    }
    if (entry_dirfd_ == closed_leaf) {
        int fd = reopen_current();
        if (fd < 0) {
            return fd;
        }
        entry_dirfd_ = fd;
    }
    dirfd = entry_dirfd_;
    name = entry_.name.data();
    return 0;
}

int Walker::raw_stat(unsigned mask, bool follow, struct statx& out) {
    int dirfd = entry_dirfd_;
    const char* name = dirfd == AT_FDCWD ? entry_.path.data() : entry_.name.data();
    // A directory's post-order visit is named by its path, one lookup
    // while that fits in PATH_MAX; past it, through the parent the walk
    // pinned (-depth -size on a tree deeper than 4,096 bytes).
    bool long_post_visit = post_parent_ && entry_.path.size() >= PATH_MAX;
    if (dirfd == closed_leaf || long_post_visit) {
        int located = entry_location(dirfd, name);
        if (located < 0) {
            return located;
        }
    }
    ++stats_.stats;
    return IoQueue::stat_now(dirfd, name, follow ? 0 : AT_SYMLINK_NOFOLLOW, mask, out);
}

} // namespace ioq::walk
