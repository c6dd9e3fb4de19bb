// Whether io_uring can carry the queue's requests in this process.
//
// io_uring may be compiled out (ENOSYS), disabled by the administrator
// (kernel.io_uring_disabled: EPERM), refused by a seccomp filter (EPERM), or
// too old to know openat/statx/close (before 5.6).  The only reliable test is
// to try: set up a small ring and ask it which opcodes it supports.  The answer
// is computed once per process.
#pragma once

namespace ioq {

struct UringSupport {
    bool usable = false;
    bool openat2 = false;  // IORING_OP_OPENAT2: opens that refuse every symbolic link
    // openat2 knows RESOLVE_CACHED (Linux 5.12): an open the dentry and inode
    // caches cannot serve fails with EAGAIN instead of waiting for the disk.
    bool cached_opens = false;
    int setup_error = 0;  // positive errno from io_uring_setup when not usable
    const char* reason = "";
};

const UringSupport& probe_uring();

} // namespace ioq
