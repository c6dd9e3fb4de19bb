/*
 * floor_walk.c: the cheapest possible directory walk, as a floor for ufind.
 *
 * docs/DESIGN.md's performance model says a warm walk costs at least its system calls:
 * one openat, getdents64 until it returns 0, and one close per directory, plus one
 * statx per entry when metadata is needed. This program makes exactly those calls
 * and nothing else: no output, no path printing, no per-entry allocation, no
 * sorting. Whatever ufind spends beyond this floor on the same tree is overhead
 * worth hunting; a ratio to the floor near 1 means there is nothing left to win
 * without changing the system calls themselves.
 *
 * Usage: floor_walk [-t THREADS] [-s] [-v] DIR...
 *   -t N  walk with N threads sharing one queue of directories (default 1; with 1
 *         no thread is started and no lock is taken)
 *   -s    also statx every entry (AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS)
 *   -v    print "dirs=D entries=E errors=X"; entries counts every path that
 *         `find DIR...` would print and dirs every path `find DIR... -type d` would
 *         (so bench/ can check the floor walks the whole tree); failures go to
 *         stderr
 *
 * How a directory moves through the walk:
 *
 *     queue (LIFO) --pop--> openat(parent fd, name) --> getdents64 loop --> close
 *        ^                                                   |
 *        +----------- push one batch per buffer of ----------+
 *                     child directories (d_type == DT_DIR)
 *
 * Children are opened relative to their parent's descriptor, which stays open
 * until the last child is opened (a reference count per directory). The queue is
 * a stack so the walk is depth-first and the open descriptors stay near the depth
 * of the tree rather than its width. If descriptors run short (past the soft
 * limit, raised to the hard one at start), a directory is closed as soon as it is
 * read and its children are opened by full path instead: slower, never wrong
 * (a full path longer than PATH_MAX then fails and is reported as an error).
 *
 * The multi-threaded queue is a mutex and a condition variable; the walk is over
 * when the queue is empty and no thread is still reading a directory (which could
 * push more). Counters are per thread and summed at the end, so the only shared
 * writes on the hot path are the queue and the reference counts.
 */
#define _GNU_SOURCE
#include <dirent.h> /* DT_* and IFTODT only: the reading is raw getdents64 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* 64 KiB holds a typical directory in one call (the largest in the Linux tree,
 * ~1,800 entries, needs two); the kernel caps a single getdents64 near this size
 * on most filesystems anyway. */
enum { DIRENT_BUFFER_SIZE = 64 * 1024 };

/* Descriptors kept back from the budget for stdio, the per-thread margin, and
 * the short moment a thread holds a child and its parent open together. */
enum { RESERVED_FDS = 64 };

/* The kernel's record, which glibc does not declare for the raw syscall. */
struct linux_dirent64 {
    uint64_t d_ino;
    int64_t d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[];
};

/* One directory from discovery to close. The path is kept for error messages and
 * for the full-path fallback; name is its last component. */
struct dir {
    struct dir *parent; /* open parent to openat() relative to; NULL: use path */
    struct dir *next;   /* queue link */
    atomic_int refs;    /* 1 while being read + 1 per child not yet opened */
    int fd;
    size_t name_offset;
    char path[];
};

struct queue {
    pthread_mutex_t lock;
    pthread_cond_t changed; /* pushed to, or the walk is over */
    struct dir *top;
    int busy;               /* threads reading a popped directory */
    bool shared;            /* false with one thread: no locking at all */
};

struct counts {
    uint64_t dirs;
    uint64_t entries;
    uint64_t errors;
};

struct walker {
    struct queue queue;
    bool stat_entries;
    bool verbose;
    atomic_int open_fds;
    int fd_budget;
};

static void report_error(const struct walker *w, const char *what, const char *path, int err)
{
    if (w->verbose)
        fprintf(stderr, "floor_walk: %s %s: %s\n", what, path, strerror(err));
}

static struct dir *dir_new(struct dir *open_parent, const char *parent_path, const char *name)
{
    size_t parent_len = parent_path ? strlen(parent_path) : 0;
    size_t name_len = strlen(name);
    /* No separator after a root given as "/" or "dir/", as find prints it. */
    bool slash = parent_len > 0 && parent_path[parent_len - 1] != '/';
    struct dir *d = malloc(sizeof(*d) + parent_len + slash + name_len + 1);
    if (!d) {
        perror("floor_walk: malloc");
        exit(2);
    }
    d->parent = open_parent;
    d->next = NULL;
    atomic_init(&d->refs, 1);
    d->fd = -1;
    if (parent_len)
        memcpy(d->path, parent_path, parent_len);
    if (slash)
        d->path[parent_len] = '/';
    d->name_offset = parent_len + slash;
    memcpy(d->path + d->name_offset, name, name_len + 1);
    return d;
}

/* Drop one reference; the last one closes the descriptor. acq_rel so the closing
 * thread sees every other thread's finished openat relative to this fd. */
static void dir_release(struct walker *w, struct dir *d)
{
    if (atomic_fetch_sub_explicit(&d->refs, 1, memory_order_acq_rel) != 1)
        return;
    if (d->fd >= 0) {
        close(d->fd);
        atomic_fetch_sub_explicit(&w->open_fds, 1, memory_order_relaxed);
    }
    free(d);
}

/* Push a chain first..last built by one thread: one lock round trip per getdents
 * buffer instead of one per child. */
static void queue_push(struct queue *q, struct dir *first, struct dir *last, int count)
{
    if (!q->shared) {
        last->next = q->top;
        q->top = first;
        return;
    }
    pthread_mutex_lock(&q->lock);
    last->next = q->top;
    q->top = first;
    pthread_mutex_unlock(&q->lock);
    if (count > 1)
        pthread_cond_broadcast(&q->changed);
    else
        pthread_cond_signal(&q->changed);
}

/* The next directory to read, or NULL once the walk is over. A thread that gets
 * one is busy until queue_finish(). */
static struct dir *queue_pop(struct queue *q)
{
    struct dir *d;
    if (!q->shared) {
        d = q->top;
        if (d)
            q->top = d->next;
        return d;
    }
    pthread_mutex_lock(&q->lock);
    while (!q->top && q->busy > 0)
        pthread_cond_wait(&q->changed, &q->lock);
    d = q->top;
    if (d) {
        q->top = d->next;
        q->busy++;
    }
    pthread_mutex_unlock(&q->lock);
    return d;
}

static void queue_finish(struct queue *q)
{
    if (!q->shared)
        return;
    pthread_mutex_lock(&q->lock);
    bool over = --q->busy == 0 && !q->top;
    pthread_mutex_unlock(&q->lock);
    if (over)
        pthread_cond_broadcast(&q->changed);
}

/* d_type, falling back to statx on filesystems that report DT_UNKNOWN. */
static unsigned entry_type(struct walker *w, int dirfd, const char *name, unsigned d_type,
                           struct counts *c, const char *dir_path)
{
    if (!w->stat_entries && d_type != DT_UNKNOWN)
        return d_type;
    struct statx stx;
    unsigned mask = w->stat_entries ? STATX_BASIC_STATS : STATX_TYPE;
    if (statx(dirfd, name, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT, mask, &stx) != 0) {
        c->errors++;
        report_error(w, "statx in", dir_path, errno);
        return d_type;
    }
    return d_type != DT_UNKNOWN ? d_type : IFTODT(stx.stx_mode);
}

static void read_dir(struct walker *w, struct dir *d, char *buffer, struct counts *c)
{
    int at = d->parent ? d->parent->fd : AT_FDCWD;
    const char *name = d->parent ? d->path + d->name_offset : d->path;
    d->fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int open_errno = errno;
    if (d->parent)
        dir_release(w, d->parent);
    if (d->fd < 0) {
        c->errors++;
        report_error(w, "openat", d->path, open_errno);
        free(d);
        return;
    }
    int open_now = atomic_fetch_add_explicit(&w->open_fds, 1, memory_order_relaxed) + 1;
    /* Decided before any child is published, so no child can race a close. */
    bool lend_fd = open_now <= w->fd_budget;

    for (;;) {
        long n = syscall(SYS_getdents64, d->fd, buffer, DIRENT_BUFFER_SIZE);
        if (n <= 0) {
            if (n < 0) {
                c->errors++;
                report_error(w, "getdents64", d->path, errno);
            }
            break;
        }
        struct dir *first = NULL, *last = NULL;
        int children = 0;
        for (long offset = 0; offset < n;) {
            struct linux_dirent64 *e = (struct linux_dirent64 *)(buffer + offset);
            offset += e->d_reclen;
            const char *entry = e->d_name;
            if (entry[0] == '.' && (entry[1] == '\0' || (entry[1] == '.' && entry[2] == '\0')))
                continue;
            c->entries++;
            if (entry_type(w, d->fd, entry, e->d_type, c, d->path) != DT_DIR)
                continue;
            c->dirs++;
            struct dir *child = dir_new(lend_fd ? d : NULL, d->path, entry);
            if (lend_fd)
                atomic_fetch_add_explicit(&d->refs, 1, memory_order_relaxed);
            if (last)
                last->next = child;
            else
                first = child;
            last = child;
            children++;
        }
        if (children)
            queue_push(&w->queue, first, last, children);
    }
    dir_release(w, d);
}

struct worker {
    pthread_t thread;
    struct walker *walker;
    struct counts counts;
};

static void *work(void *arg)
{
    struct worker *me = arg;
    char *buffer = malloc(DIRENT_BUFFER_SIZE);
    if (!buffer) {
        perror("floor_walk: malloc");
        exit(2);
    }
    struct dir *d;
    while ((d = queue_pop(&me->walker->queue))) {
        read_dir(me->walker, d, buffer, &me->counts);
        queue_finish(&me->walker->queue);
    }
    free(buffer);
    return NULL;
}

/* Deep trees keep one descriptor per level open; ask for as many as allowed. */
static int raise_fd_limit(void)
{
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0)
        return 1024;
    if (limit.rlim_cur < limit.rlim_max) {
        struct rlimit raised = {limit.rlim_max, limit.rlim_max};
        if (setrlimit(RLIMIT_NOFILE, &raised) == 0)
            limit = raised;
    }
    return limit.rlim_cur > INT32_MAX ? INT32_MAX : (int)limit.rlim_cur;
}

static void usage(void)
{
    fputs("usage: floor_walk [-t THREADS] [-s] [-v] DIR...\n", stderr);
    exit(2);
}

int main(int argc, char **argv)
{
    struct walker w = {.queue = {.lock = PTHREAD_MUTEX_INITIALIZER,
                                 .changed = PTHREAD_COND_INITIALIZER}};
    long threads = 1;
    int opt;
    while ((opt = getopt(argc, argv, "t:sv")) != -1) {
        switch (opt) {
        case 't': {
            char *end;
            threads = strtol(optarg, &end, 10);
            if (*end || threads < 1 || threads > 1024)
                usage();
            break;
        }
        case 's': w.stat_entries = true; break;
        case 'v': w.verbose = true; break;
        default: usage();
        }
    }
    if (optind == argc)
        usage();

    int limit = raise_fd_limit();
    w.fd_budget = limit > 2 * RESERVED_FDS ? limit - RESERVED_FDS : limit / 2;
    w.queue.shared = threads > 1;

    struct counts total = {0};
    /* Pushed in reverse so the stack pops them in the order given. */
    for (int i = argc - 1; i >= optind; i--) {
        struct dir *root = dir_new(NULL, NULL, argv[i]);
        queue_push(&w.queue, root, root, 1);
        total.dirs++;
        total.entries++;
    }

    struct worker *workers = calloc((size_t)threads, sizeof(*workers));
    if (!workers) {
        perror("floor_walk: calloc");
        return 2;
    }
    for (long i = 0; i < threads; i++)
        workers[i].walker = &w;
    /* The main thread is worker 0: -t 1 starts no thread at all. */
    for (long i = 1; i < threads; i++) {
        int err = pthread_create(&workers[i].thread, NULL, work, &workers[i]);
        if (err) {
            fprintf(stderr, "floor_walk: pthread_create: %s\n", strerror(err));
            return 2;
        }
    }
    work(&workers[0]);
    for (long i = 1; i < threads; i++)
        pthread_join(workers[i].thread, NULL);

    for (long i = 0; i < threads; i++) {
        total.dirs += workers[i].counts.dirs;
        total.entries += workers[i].counts.entries;
        total.errors += workers[i].counts.errors;
    }
    free(workers);
    if (w.verbose)
        printf("dirs=%llu entries=%llu errors=%llu\n", (unsigned long long)total.dirs,
               (unsigned long long)total.entries, (unsigned long long)total.errors);
    return total.errors ? 1 : 0;
}
