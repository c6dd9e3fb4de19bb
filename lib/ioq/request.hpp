// Request: one unit of work for the I/O queue, and its completion.
//
// The caller owns every Request and keeps it alive (with the path it points
// to) until the same pointer comes back from IoQueue::reap().  A completion is
// therefore not a separate object: the backend writes `result` (and fills the
// buffer or the statx) and hands the pointer back.  Nothing is allocated per
// request, and the caller finds its own state next to the result through
// `cookie` or by embedding the Request in a larger object.
//
//   walk loop --submit(Request*)--> [request queue] --> worker: syscalls
//   walk loop <--reap(Request*)---- [completion queue] <--  result filled in
#pragma once

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>

#include <cstdint>

namespace ioq {

class DirBuffer;

enum class Op : unsigned char {
    open_dir,  // openat(dirfd, path, O_DIRECTORY...) then fill buffer, if any
    read_dir,  // fill buffer with the next entries of fd
    stat,      // statx(dirfd, path, flags, mask) into *statx_out
    close,     // close(fd)
};

// What a worker does with a directory once it has read it (Request::
// after_read): close it early or leave it to the caller, and whether to
// fetch its identity first.  The walk above sets it from its strategy and
// options; run_blocking() carries it out, whichever backend runs the open.
struct AfterRead {
    // Close the directory right after reading it if it was read to its end
    // and holds nothing the caller could descend into (no entry of type
    // DT_DIR or DT_UNKNOWN, nor DT_LNK with count_links), saving the caller
    // a close request for each of the many leaf directories.
    bool close_leaf = false;
    bool count_links = false;
    // Close the directory once read to its end even if it has
    // subdirectories: for a caller that opens them relative to a further
    // ancestor and needs nothing else from it.  Freeing what the kernel
    // keeps for a read directory costs least right after the read (ext4's
    // htree of names, still in the cache); a breadth-first walk that closes
    // a parent after its last child opened frees it long after.  Except a
    // directory with exactly one subdirectory: kept open, that child opens
    // relative to it, one component instead of up to eight, and it closes
    // right after: chains of single directories, as in Java package trees,
    // walk faster so (measured in 0f8b338).
    bool close = false;
    // close once the request goes to the worker pool (IoQueue sets it
    // then), but not while it waits inline for the caller's thread, before
    // the pool starts: there the early close saves nothing and makes the
    // children open through longer paths.  A worker that read it leaving it
    // open would have the caller close it later, when freeing the names
    // ext4 keeps for a read directory costs several times as much
    // (measured in 87c1258).
    bool close_in_pool = false;
    // When to fetch the directory's identity (one statx), so that opening it
    // again by name can tell whether it is still the same one: never (the
    // caller checks against the inode number its parent listed), when it is
    // closed early, or always (find -delete and -execdir act in it later,
    // and may have to open it again).
    enum class Identify : unsigned char { never, if_closed, always };
    Identify identify = Identify::if_closed;
};

struct Request {
    Op op = Op::open_dir;
    int fd = AT_FDCWD;           // open_dir/stat: base directory; read_dir/close: the fd
    const char* path = nullptr;  // open_dir/stat: relative to fd, or absolute
    int flags = 0;               // open_dir: extra openat flags; stat: AT_* flags
    unsigned statx_mask = 0;     // stat: the fields wanted (STATX_*); open_dir and
                                 // read_dir: if non-zero, statx every entry read too
    int stat_flags = 0;          // open_dir/read_dir: AT_* flags for those statx
    DirBuffer* buffer = nullptr;         // open_dir/read_dir: where entries go
    // open_dir/read_dir: the directory's file system marks the record that
    // ends it (DirBuffer::fill's end_marked).
    bool end_marked = false;
    struct statx* statx_out = nullptr;   // stat: where metadata goes
    void* cookie = nullptr;      // the caller's, untouched
    // open_dir: what becomes of the directory once it is read (see
    // AfterRead): the walk's policy, which the backends carry out.
    AfterRead after_read;
    bool closed = false;         // out: it was closed so; result is its old number
    bool identified = false;     // out: identity_dev and identity_ino are set
    std::uint64_t identity_dev = 0;
    std::uint64_t identity_ino = 0;
    // open_dir: follow no symbolic link anywhere in path (openat2 with
    // RESOLVE_NO_SYMLINKS, Linux 5.6), not only in its last component.
    bool no_symlinks = false;

    // open_dir through io_uring's openat2: its arguments, which the kernel
    // reads when it runs the request, not when it is queued.
    struct open_how how {};

    // Out: open_dir: the new fd (its entries in *buffer, whose error() tells
    // whether reading them failed); read_dir/stat/close: 0; or -errno.
    // -ECANCELED when the queue was stopped before the request ran.
    int result = 0;
};

// Whether the request opens or reads a directory: the requests worth
// handing to workers (a close or a stat is one short call).
inline bool is_directory_request(const Request& request) {
    return request.op == Op::open_dir || request.op == Op::read_dir;
}

// Reads the next entries of an open directory into the request's buffer, and
// their metadata if the request asks for it.
void read_entries(Request& request, int fd) noexcept;

// Runs a request to completion on the calling thread with plain system calls.
// Every backend ends up here for the calls the ring does not do (getdents64).
// It allocates nothing that can fail the request, so it never throws: worker
// threads and batches run it without a handler.
void run_blocking(Request& request) noexcept;

// The openat flags every directory open uses, besides Request::flags.
inline constexpr int open_dir_flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK;

// openat2's arguments for an open_dir request: RESOLVE_NO_SYMLINKS when it
// has no_symlinks, and `resolve` besides.
inline open_how open_dir_how(const Request& request, std::uint64_t resolve = 0) {
    open_how how{};
    how.flags = static_cast<std::uint64_t>(open_dir_flags | request.flags);
    how.resolve = resolve | (request.no_symlinks ? RESOLVE_NO_SYMLINKS : 0);
    return how;
}

} // namespace ioq
