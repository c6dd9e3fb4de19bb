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

int Walker::open_again(const DirNode* node) {
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
    return fd;
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
            // which then closes it as any finished directory's.
            int fd = open_again(post_parent_);
            if (fd < 0) {
                return fd;
            }
            post_parent_->fd = fd;
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
