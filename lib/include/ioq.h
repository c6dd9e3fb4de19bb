/*
 * libioq: walk directory trees as fast as the kernel allows.
 *
 * A walk visits every file under one or more starting points.  Behind the
 * iterator, directories are opened and read ahead by worker threads through
 * io_uring (or a thread pool where io_uring is unavailable), while the caller
 * consumes the entries of others.  Metadata is fetched only on request.
 *
 *     struct ioq_walk_options options;
 *     ioq_walk_options_init(&options);
 *     const char *roots[] = {"/usr"};
 *     options.roots = roots;
 *     options.root_count = 1;
 *     ioq_walk *walk;
 *     if (ioq_walk_open(&walk, &options) == 0) {
 *         struct ioq_entry entry;
 *         int more;
 *         while ((more = ioq_walk_next(walk, &entry)) > 0)
 *             if (!entry.error)
 *                 puts(entry.path);
 *         (more < 0: the walk ended early, see ioq_walk_next)
 *         ioq_walk_close(walk);
 *     }
 *
 * Errors are returned as negative errno values and never printed.  A walk is
 * used by one thread at a time; distinct walks are independent.  After fork()
 * only the parent may go on using a walk that had started worker threads.
 *
 * Every function has a defined result for every argument and call order.
 * A walk is in one of these states; only "on an entry" has an entry for
 * ioq_walk_stat(), ioq_walk_entry_at() and ioq_walk_prune() to act on:
 *
 *   state          entered by                  next   stat, entry_at  prune
 *   before first   ioq_walk_open()             entry  -ENOENT         nothing
 *   on an entry    next() returned 1, or a     entry  the entry       prunes
 *                  full next_batch()
 *   ended          next() returned 0, or a     0      -ENOENT         nothing
 *                  batch cut short by the end
 *   stopped        ioq_walk_stop()             0      -ENOENT         nothing
 *   failed         next() returned -errno      -errno -ENOENT         nothing
 *
 * (next_batch() returns what next() does in each.)  A NULL walk or a NULL
 * pointer argument is -EINVAL, or nothing for the functions that return
 * nothing.  Using a walk after ioq_walk_close() is the caller's bug, as a
 * pointer after free() is: nothing can detect it.
 *
 * A walk may raise the soft RLIMIT_NOFILE to the hard limit, and before its
 * first worker starts it grows the process's descriptor table to 1024 slots
 * (within the limit): a table shared by threads waits for an RCU grace
 * period, milliseconds, each time it grows, and a walk may hold hundreds of
 * directories open.  In a program that has threads already, that growth
 * waits once.
 */
#ifndef IOQ_H
#define IOQ_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define IOQ_API __attribute__((visibility("default")))
#else
#define IOQ_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

struct statx;

/* How requests are carried out. */
enum ioq_backend {
    IOQ_BACKEND_AUTO = 0,  /* IOQ_BACKEND from the environment, else io_uring if usable, else threads */
    IOQ_BACKEND_URING,     /* io_uring workers (falls back to threads if the kernel refuses) */
    IOQ_BACKEND_THREADS,   /* workers making blocking system calls */
    IOQ_BACKEND_INLINE,    /* no workers: the calling thread makes every call */
};

/* The order directories are read in. */
enum ioq_strategy {
    IOQ_STRATEGY_BFS = 0,  /* breadth first: all of depth d before depth d+1 */
    IOQ_STRATEGY_DFS,      /* depth first: a directory's subdirectories before its siblings' */
    IOQ_STRATEGY_IDS,      /* iterative deepening: depth-first rounds, one level deeper each */
    IOQ_STRATEGY_EDS,      /* exponential deepening: like IDS, the depth bound doubling */
    IOQ_STRATEGY_HYBRID,   /* ioq_walk_options_init's: per starting point, every entry to
                            * depth 2, then depth first below (re-reading depths 0 and 1) */
};

/* Which symbolic links the walk follows. */
enum ioq_symlinks {
    IOQ_SYMLINKS_PHYSICAL = 0, /* none (find -P) */
    IOQ_SYMLINKS_ROOTS,        /* starting points only (find -H) */
    IOQ_SYMLINKS_LOGICAL,      /* all, with loops reported as errors (find -L) */
};

/* What a file is, from the directory entry (or a statx where that says nothing). */
enum ioq_type {
    IOQ_TYPE_UNKNOWN = 0,
    IOQ_TYPE_REGULAR,
    IOQ_TYPE_DIRECTORY,
    IOQ_TYPE_SYMLINK,
    IOQ_TYPE_BLOCK,
    IOQ_TYPE_CHAR,
    IOQ_TYPE_FIFO,
    IOQ_TYPE_SOCKET,
};

struct ioq_walk_options {
    const char *const *roots;  /* starting points, walked in this order */
    size_t root_count;
    enum ioq_strategy strategy;
    enum ioq_backend backend;
    int workers;     /* worker threads; -1 chooses from the CPUs this process may use, and
                      * lets the walk add up to 32 while it waits for a disk (long waits
                      * after which the process has read blocks: getrusage's ru_inblock,
                      * which counts the whole process's reads); 0 none; more than
                      * 1024 is taken as 1024 */
    int min_depth;   /* entries shallower than this are walked but not returned */
    int max_depth;   /* entries deeper than this are not visited; -1 for no limit */
    size_t read_ahead; /* directories opened ahead of the one being read; 0 for the default;
                        * the walk narrows it to the descriptors it may hold */
    int post_order;  /* non-zero: a directory is returned after its contents (find -depth) */
    enum ioq_symlinks symlinks;
    int same_device; /* non-zero: do not descend into other filesystems (find -xdev) */
    int sort_names;  /* non-zero: each directory's entries sorted by name (bytewise), and an
                      * order that does not depend on timing */
    int completion_order; /* non-zero: directories are read in the order they become ready,
                           * not the strategy's (for consumers that only aggregate) */
    unsigned stat_mask; /* STATX_* fields the workers fetch for every entry as they read
                         * each directory (ioq_walk_stat() then costs no call); 0 for
                         * metadata only on request.  STATX__RESERVED is -EINVAL.  Unless links are followed, the
                         * workers then close each directory once read; metadata asked
                         * beyond stat_mask opens it again (see names_only) */
    int hold_directories; /* non-zero: each directory stays open while its entries are
                           * returned, so that ioq_walk_entry_at() gives the very
                           * directory that was read (callers that delete or run
                           * commands in place); 0: workers may close a directory
                           * with no subdirectory as soon as it is read, and
                           * ioq_walk_entry_at() opens it again if asked, which fails
                           * if it was replaced meanwhile */
    int names_only;  /* non-zero: the caller promises to need names and types only (no
                      * ioq_walk_stat(), no ioq_walk_entry_at()), so workers close a
                      * directory with no subdirectory without a statx to record what
                      * it was.  Asked anyway, those calls open it again and compare
                      * it with the inode number its parent listed, which some
                      * filesystems (overlayfs over several) report differently:
                      * the entry then fails with ENOENT. */
    int look_ahead;  /* non-zero: depth-first walks (DFS, and IDS and EDS within a round)
                      * may open and read a subdirectory before its own entry is
                      * returned, which keeps the workers busy.  Only for callers that
                      * change nothing in the tree while walking: a directory may be
                      * read before an action on its entry (chmod, rename, delete)
                      * would have changed it.  What the caller prunes may have been
                      * opened for nothing; it is never returned. */
};

/* Fills options with the defaults (nothing when options is NULL): no roots, IOQ_STRATEGY_HYBRID,
 * IOQ_BACKEND_AUTO, workers -1 (automatic), min_depth 0, max_depth -1 (no
 * limit), read_ahead 0 (the walk's default), IOQ_SYMLINKS_PHYSICAL,
 * stat_mask 0, and every flag (post_order, same_device, sort_names,
 * completion_order, hold_directories, names_only, look_ahead) 0. */
IOQ_API void ioq_walk_options_init(struct ioq_walk_options *options);

typedef struct ioq_walk ioq_walk;

/* One visited file.  The strings are NUL-terminated and stay valid until the
 * next call on the walk.  An entry whose error is non-zero reports that
 * something failed at path (errno value); the walk goes on after it. */
struct ioq_entry {
    const char *path;   /* the starting point joined with the names below it */
    size_t path_len;
    const char *name;   /* the last component (for a starting point, without trailing slashes) */
    size_t name_len;
    int depth;          /* 0 for a starting point */
    enum ioq_type type;   /* with IOQ_SYMLINKS_LOGICAL, what a link points to */
    int error;
    /* With error ELOOP from a directory that contains itself through links:
     * the path of the ancestor it is; NULL otherwise. */
    const char *loop_ancestor;
    size_t root;          /* index in ioq_walk_options.roots of its starting point */
};

/* Creates a walk.  Returns 0 and sets *walk, or a negative errno and sets
 * *walk to NULL: -EINVAL for a NULL walk (then nothing is set) or options,
 * roots NULL with a root_count, a NULL root, min_depth < 0, max_depth < -1,
 * workers < -1, an enum outside its values, stat_mask with STATX__RESERVED;
 * -ENOMEM. */
IOQ_API int ioq_walk_open(ioq_walk **walk, const struct ioq_walk_options *options);

/* Fills *entry with the next entry.  Returns 1, or 0 when the walk is over,
 * or a negative errno when the walk cannot go on (-ENOMEM: memory ran out):
 * the walk is then stopped, its descriptors closed, and every later call
 * returns the same error.  Entries returned before it were correct and none
 * is returned twice, but some were never reached, so the walk is incomplete.
 * (Failures at a path are entries with error set; they do not end the walk.)
 * After the end, or ioq_walk_stop(), every call returns 0 again.  -EINVAL
 * when walk or entry is NULL (the walk does not move). */
IOQ_API int ioq_walk_next(ioq_walk *walk, struct ioq_entry *entry);

/* Up to capacity entries at once, into entries[0..n-1]; returns n (> 0), 0
 * when the walk is over, or a negative errno as ioq_walk_next() does (an
 * error that ends the walk in the middle of a batch is returned by the next
 * call, after the entries before it).  Their paths, names and loop ancestors
 * stay valid until the next call of either function.  When stats is not
 * NULL, stats[i] is entry i's metadata with the fields of options.stat_mask
 * (fetched by the workers as they read, so no call is made here), following
 * links as the walk does; stx_mask is 0 where there is none (stat_mask 0, an
 * error entry, a file gone since).  Every directory of a batch is descended
 * into: to prune, use ioq_walk_next().  ioq_walk_stat(), ioq_walk_prune()
 * and ioq_walk_entry_at() refer to the batch's last entry.  For consumers
 * that hand entries to other threads or aggregate: one call per batch
 * instead of one per entry.  A batch shorter than capacity reached the end:
 * the walk is then ended, and ioq_walk_stat() and ioq_walk_entry_at() find
 * no entry (-ENOENT).  -EINVAL when walk or entries is NULL or capacity is 0;
 * a capacity above INT_MAX is taken as INT_MAX. */
IOQ_API int ioq_walk_next_batch(ioq_walk *walk, struct ioq_entry *entries, struct statx *stats,
                                size_t capacity);

/* Do not descend into the directory just returned by ioq_walk_next().  If
 * that cannot be remembered (memory ran out), the walk ends: the next call
 * to ioq_walk_next() returns -ENOMEM.  No effect when walk is NULL or the
 * walk is on no entry (before the first, after the end or a stop). */
IOQ_API void ioq_walk_prune(ioq_walk *walk);

/* Metadata of the entry just returned: mask is a set of STATX_* fields; a
 * symbolic link is followed when follow is non-zero.  Returns 0 or -errno:
 * -EINVAL when walk or out is NULL or mask has STATX__RESERVED; -ENOENT
 * when the walk is on no entry (before the first, after the end or a
 * stop); an error entry's own error. */
IOQ_API int ioq_walk_stat(ioq_walk *walk, unsigned mask, int follow, struct statx *out);

/* Where the entry just returned is, for the *at() system calls: sets *dirfd
 * to a descriptor of the directory holding it and *name to its name there
 * (for a starting point or an error entry: AT_FDCWD and the whole path).
 * unlinkat(*dirfd, *name, ...) or fchdir(*dirfd) never follow a symbolic
 * link the walk did not follow, even if a directory on the path was replaced
 * by one since it was read, and work at any depth (no PATH_MAX limit).  The
 * descriptor belongs to the walk and stays valid until the next call to
 * ioq_walk_next(); do not close it.  Returns 0, or -errno, leaving *dirfd
 * and *name as they were: -ENOENT when the directory was replaced since it
 * was read, or when the walk is on no entry (before the first, after the
 * end or a stop); -EINVAL when walk, dirfd or name is NULL. */
IOQ_API int ioq_walk_entry_at(ioq_walk *walk, int *dirfd, const char **name);

/* Ends the walk at once: queued work is cancelled, descriptors are closed,
 * and ioq_walk_next() returns 0 from now on (a walk that failed keeps
 * returning its error).  Stopping again, or after the end, does nothing
 * more; a NULL walk is ignored. */
IOQ_API void ioq_walk_stop(ioq_walk *walk);

struct ioq_walk_stats {
    uint64_t entries;      /* returned to the caller */
    uint64_t directories;  /* opened and read */
    uint64_t errors;       /* error entries returned */
    uint64_t stats;        /* statx calls made, the workers' included */
    uint64_t waits;        /* times the next directory was not ready when needed */
    uint64_t ran_here;     /* requests the caller's thread carried out while waiting */
    uint64_t sleeps;       /* times the caller's thread slept waiting for a worker */
    uint64_t wait_ns;      /* time ioq_walk_next() spent waiting for directories (running
                            * requests itself included), in nanoseconds */
    enum ioq_backend backend;  /* what carried out the requests */
    int workers_started;   /* whether any worker thread ran */
    uint64_t reads;        /* getdents64 calls */
    uint64_t read_bytes;   /* bytes of directory entries they returned */
    uint64_t workers;      /* worker threads running at the end: those started with the
                            * pool and those added because the walk kept waiting for the
                            * disk; 0 when none started */
    uint64_t cache_misses; /* directory opens the kernel would not do from its caches
                            * (io_uring with RESOLVE_CACHED, Linux 5.12): the workers then
                            * opened them with blocking calls.  Mostly a cold cache; also
                            * file systems whose lookups must leave RCU mode (NFS, FUSE).
                            * 0 where the backend cannot tell */
    uint64_t listings_reused; /* directories a round of ids, eds or hybrid walked through
                               * again without opening or reading them: it kept their
                               * listings from an earlier round */
    uint64_t reserved[5];  /* 0: room for counters to come, so that the size stays */
};

/* Reads the walk's counters so far, in any state; all 0 when walk is NULL.
 * Nothing when stats is NULL. */
IOQ_API void ioq_walk_get_stats(const ioq_walk *walk, struct ioq_walk_stats *stats);

/* Stops the walk if needed and frees it; a NULL walk is ignored.  The walk
 * must not be used afterwards (see the top of this file). */
IOQ_API void ioq_walk_close(ioq_walk *walk);

/* "io_uring", "threads", "inline" or "auto"; "unknown" for any other value. */
IOQ_API const char *ioq_backend_name(enum ioq_backend backend);

/* The number of worker threads IOQ's automatic choice gives this process. */
IOQ_API int ioq_default_workers(void);

/* Whether this build of the library, on this kernel, can run the backend:
 * 1 or 0.  IOQ_BACKEND_THREADS and IOQ_BACKEND_INLINE always can;
 * IOQ_BACKEND_URING only when the library was built with liburing and the
 * kernel sets up a ring that knows openat, statx and close (it may be too
 * old, or io_uring disabled or filtered by seccomp; the probe is made once
 * per process).  IOQ_BACKEND_AUTO always can: it falls back to threads.
 * Any other value: 0. */
IOQ_API int ioq_backend_available(enum ioq_backend kind);

/* The backend a walk opened with IOQ_BACKEND_AUTO and workers would use in
 * this process: the one IOQ_BACKEND in the environment names, else
 * io_uring where ioq_backend_available() says so, else threads.  (A forced
 * io_uring that the kernel refuses is threads too.)  Never
 * IOQ_BACKEND_AUTO. */
IOQ_API enum ioq_backend ioq_backend_default(void);

/* The type of the filesystem mounted from device major:minor, as
 * /proc/self/mountinfo names it ("ext4", "tmpfs", "fuse.sshfs"), for
 * find's -fstype.  The mount table is read on the first call and kept for
 * the life of the process: a filesystem mounted after it is not known.  A
 * device mounted more than once has the type of its last mount.  Returns a
 * string valid for the life of the process, or NULL when the table does
 * not list the device, or cannot be read. */
IOQ_API const char *ioq_filesystem_type(unsigned major, unsigned minor);

#ifdef __cplusplus
}
#endif

#endif /* IOQ_H */
