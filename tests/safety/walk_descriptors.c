/* walk_descriptors: every walk gives back every descriptor and thread.
 *
 * A C program on libioq's public API (ioq.h), as a downstream user would
 * write it.  It builds its trees in a temp dir, then walks them again and
 * again under every backend, strategy and order, and after each
 * ioq_walk_close() compares /proc/self/fd with what it held before the walk,
 * descriptor by descriptor (number and what it points to: directories,
 * io_uring rings, eventfds), and counts /proc/self/task: the walk's worker
 * threads must be gone too.
 *
 * walk_stress (tests/stress) already counts descriptors after random stops
 * in a healthy tree.  This covers the paths where descriptors are most
 * easily lost, through the C API:
 *
 *   full walk          the whole tree
 *   random stops       after a random number of entries; half the time
 *                      through ioq_walk_stop() first, half by closing at
 *                      once; with random prunes and ioq_walk_stat() calls
 *   unreadable dirs    mode 000, 0100 (search only), 0400 (read, no search)
 *   symlink loops      under IOQ_SYMLINKS_LOGICAL: links to ancestors,
 *                      to themselves, dangling
 *   vanishing root     removed after ioq_walk_open(), before the first
 *                      entry; and a root whose subtree is removed after
 *                      the first entries (read-ahead has it open)
 *   missing roots      a root that does not exist, a file as root, and
 *                      both among good roots
 *
 * Run as root, it first becomes nobody (65534): root reads directories
 * whatever their mode, and the unreadable cases would test nothing.
 *
 *   walk_descriptors [random stops per tree and configuration]   (default 4)
 *
 * The last line is "N passed, M failed"; the exit status is 1 on failure.
 */
#include <ioq.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_FDS 512

static int passes;
static int failures;
static char temp[] = "/tmp/ioq-descriptors-XXXXXX";

struct fd_snapshot {
    int count;
    int fd[MAX_FDS];
    char target[MAX_FDS][96];
};

/* The descriptors this process holds, the one reading the list excepted. */
static void take_snapshot(struct fd_snapshot *snapshot) {
    snapshot->count = 0;
    DIR *dir = opendir("/proc/self/fd");
    if (!dir) {
        perror("opendir /proc/self/fd");
        exit(2);
    }
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (entry->d_name[0] == '.') {
            continue;
        }
        int fd = atoi(entry->d_name);
        if (fd == dirfd(dir) || snapshot->count == MAX_FDS) {
            continue;
        }
        int i = snapshot->count++;
        snapshot->fd[i] = fd;
        ssize_t n = readlinkat(dirfd(dir), entry->d_name, snapshot->target[i],
                               sizeof snapshot->target[i] - 1);
        snapshot->target[i][n > 0 ? n : 0] = '\0';
    }
    closedir(dir);
}

/* The threads of this process, without io_uring's kernel workers: those
 * (named iou-wrk-PID and iou-sqp-PID) serve a ring's blocking requests and
 * exit on the kernel's schedule after the ring is freed, so one may still be
 * there a moment after the walk closed its rings (seen once in 2,434 walks). */
static int task_count(void) {
    int count = 0;
    DIR *dir = opendir("/proc/self/task");
    if (!dir) {
        return -1;
    }
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (entry->d_name[0] == '.') {
            continue;
        }
        char path[300];
        char name[32] = "";
        snprintf(path, sizeof path, "/proc/self/task/%s/comm", entry->d_name);
        FILE *comm = fopen(path, "r");
        if (comm) {
            if (!fgets(name, sizeof name, comm)) {
                name[0] = 0;
            }
            fclose(comm);
        }
        count += strncmp(name, "iou-", 4) != 0;
    }
    closedir(dir);
    return count;
}

/* Lists what is in after and not in before (or the other way) on stderr. */
static int same_descriptors(const struct fd_snapshot *before, const struct fd_snapshot *after,
                            const char *what) {
    int same = before->count == after->count;
    for (int i = 0; same && i < before->count; ++i) {
        same = before->fd[i] == after->fd[i] && strcmp(before->target[i], after->target[i]) == 0;
    }
    if (!same) {
        fprintf(stderr, "FAIL %s: descriptors before and after differ\n", what);
        for (int i = 0; i < after->count; ++i) {
            int found = 0;
            for (int j = 0; j < before->count && !found; ++j) {
                found = before->fd[j] == after->fd[i] &&
                        strcmp(before->target[j], after->target[i]) == 0;
            }
            if (!found) {
                fprintf(stderr, "    left open: %d -> %s\n", after->fd[i], after->target[i]);
            }
        }
        for (int j = 0; j < before->count; ++j) {
            int found = 0;
            for (int i = 0; i < after->count && !found; ++i) {
                found = before->fd[j] == after->fd[i] &&
                        strcmp(before->target[j], after->target[i]) == 0;
            }
            if (!found) {
                fprintf(stderr, "    closed: %d -> %s\n", before->fd[j], before->target[j]);
            }
        }
    }
    return same;
}

static void check(int ok, const char *what, const char *detail) {
    if (ok) {
        ++passes;
    } else {
        ++failures;
        fprintf(stderr, "FAIL %s: %s\n", what, detail);
    }
}

/* ---- trees ------------------------------------------------------------- */

/* snprintf that fails the test rather than cut a path short. */
static void format_path(char *out, size_t size, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static void format_path(char *out, size_t size, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    int n = vsnprintf(out, size, format, arguments);
    va_end(arguments);
    if (n < 0 || (size_t)n >= size) {
        fprintf(stderr, "path too long: %s\n", out);
        exit(2);
    }
}

static void path_join(char *out, size_t size, const char *a, const char *b) {
    format_path(out, size, "%s/%s", a, b);
}

static void make_dir(const char *path) {
    if (mkdir(path, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "mkdir %s: %s\n", path, strerror(errno));
        exit(2);
    }
}

static void make_file(const char *path) {
    int fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
    if (fd < 0) {
        fprintf(stderr, "create %s: %s\n", path, strerror(errno));
        exit(2);
    }
    close(fd);
}

/* fanout subdirectories per level, levels deep, three files in each. */
static void make_tree(const char *root, int fanout, int levels) {
    char path[4096];
    make_dir(root);
    for (int f = 0; f < 3; ++f) {
        format_path(path, sizeof path, "%s/f%d", root, f);
        make_file(path);
    }
    if (levels == 0) {
        return;
    }
    for (int d = 0; d < fanout; ++d) {
        format_path(path, sizeof path, "%s/d%d", root, d);
        make_tree(path, fanout, levels - 1);
    }
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw) {
    (void)st;
    (void)ftw;
    if (type == FTW_DNR || type == FTW_D || type == FTW_DP) {
        chmod(path, 0700);
    }
    remove(path);
    return 0;
}

static void make_searchable(const char *top) {
    /* nftw cannot go below a directory it may not read: open them all first. */
    char path[4096];
    const char *locked[] = {"d0", "d1", "d2", "d3/d1", "d4/d2"};
    for (size_t i = 0; i < sizeof locked / sizeof *locked; ++i) {
        path_join(path, sizeof path, top, locked[i]);
        chmod(path, 0755);
    }
}

static void remove_tree(const char *top) {
    nftw(top, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- walks ------------------------------------------------------------- */

struct config {
    enum ioq_backend backend;
    enum ioq_strategy strategy;
    int post_order;
    enum ioq_symlinks symlinks;
    int workers;
};

static const char *describe(const struct config *config, const char *scenario) {
    static char text[256];
    static const char *strategies[] = {"bfs", "dfs", "ids", "eds", "hybrid"};
    static const char *symlinks[] = {"P", "H", "L"};
    snprintf(text, sizeof text, "%s %s %s %s -%s workers=%d", scenario,
             ioq_backend_name(config->backend), strategies[config->strategy],
             config->post_order ? "post" : "pre", symlinks[config->symlinks], config->workers);
    return text;
}

/* How a walk ends: after `stop_after` entries (-1: at the end), with
 * ioq_walk_stop() first or not; `prune_one_in` and `stat_one_in` make it
 * prune or stat every so many entries (0: never).  `during` runs after the
 * entry numbered `during_at` (the vanishing cases remove things there). */
struct plan {
    long stop_after;
    int call_stop;
    int prune_one_in;
    int stat_one_in;
    void (*during)(void);
    long during_at;
};

/* The test of the test: descriptors the walks held while running, so that
 * a pass means they were there to leak.  Counted 40 entries into a walk. */
static long rings_seen;
static long directories_seen;

static void note_open_during_walk(const struct config *config) {
    struct fd_snapshot now;
    take_snapshot(&now);
    for (int i = 0; i < now.count; ++i) {
        if (strstr(now.target[i], "io_uring") && config->backend == IOQ_BACKEND_URING) {
            ++rings_seen;
        } else if (strncmp(now.target[i], temp, strlen(temp)) == 0) {
            ++directories_seen;
        }
    }
}

static const char *vanish_path;

static void remove_vanishing(void) { remove_tree(vanish_path); }

static void walk_once(const char *const *roots, size_t root_count, const struct config *config,
                      const struct plan *plan, const char *scenario) {
    const char *what = describe(config, scenario);
    struct fd_snapshot before, after;
    int tasks_before = task_count();
    take_snapshot(&before);

    struct ioq_walk_options options;
    ioq_walk_options_init(&options);
    options.roots = roots;
    options.root_count = root_count;
    options.backend = config->backend;
    options.strategy = config->strategy;
    options.post_order = config->post_order;
    options.symlinks = config->symlinks;
    options.workers = config->workers;
    ioq_walk *walk;
    int error = ioq_walk_open(&walk, &options);
    if (error != 0) {
        check(0, what, strerror(-error));
        return;
    }
    if (plan->during && plan->during_at == 0) {
        plan->during();
    }
    struct ioq_entry entry;
    long count = 0;
    while (ioq_walk_next(walk, &entry) > 0) {
        ++count;
        if (plan->during && plan->during_at == count) {
            plan->during();
        }
        if (plan->prune_one_in && count % plan->prune_one_in == 0 &&
            entry.type == IOQ_TYPE_DIRECTORY) {
            ioq_walk_prune(walk);
        }
        if (plan->stat_one_in && count % plan->stat_one_in == 0 && !entry.error) {
            struct statx st;
            (void)ioq_walk_stat(walk, STATX_SIZE | STATX_MTIME, count % 2, &st);
        }
        if (count == 40) {
            note_open_during_walk(config);
        }
        if (count == plan->stop_after) {
            if (plan->call_stop) {
                ioq_walk_stop(walk);
                check(ioq_walk_next(walk, &entry) == 0, what, "an entry after ioq_walk_stop");
            }
            break;
        }
    }
    ioq_walk_close(walk);

    take_snapshot(&after);
    check(same_descriptors(&before, &after, what), what, "descriptors leaked or lost");
    /* pthread_join returns when the kernel clears the thread's id, a moment
     * before the task leaves /proc/self/task: give it up to a second. */
    int tasks_after = task_count();
    for (int wait = 0; wait < 1000 && tasks_after != tasks_before; ++wait) {
        usleep(1000);
        tasks_after = task_count();
    }
    char detail[96];
    snprintf(detail, sizeof detail, "%d threads before the walk, %d after it was closed",
             tasks_before, tasks_after);
    check(tasks_after == tasks_before, what, detail);
}

static long count_entries(const char *root, enum ioq_symlinks symlinks, long *errors) {
    struct ioq_walk_options options;
    ioq_walk_options_init(&options);
    const char *roots[] = {root};
    options.roots = roots;
    options.root_count = 1;
    options.symlinks = symlinks;
    options.backend = IOQ_BACKEND_INLINE;
    ioq_walk *walk;
    if (ioq_walk_open(&walk, &options) != 0) {
        *errors = 1;
        return 1;
    }
    struct ioq_entry entry;
    long count = 0;
    *errors = 0;
    while (ioq_walk_next(walk, &entry) > 0) {
        ++count;
        *errors += entry.error != 0;
    }
    ioq_walk_close(walk);
    return count;
}

static unsigned long random_state = 88172645463325252UL;

static long random_below(long bound) {
    /* xorshift64: reproducible from the seed printed at the start. */
    random_state ^= random_state << 13;
    random_state ^= random_state >> 7;
    random_state ^= random_state << 17;
    return (long)(random_state % (unsigned long)(bound > 0 ? bound : 1));
}

static void walk_scenarios(const struct config *config, int random_stops) {
    char good[4096], locked[4096], loops[4096], vanish[4096], missing[4096], file[4096];
    path_join(good, sizeof good, temp, "good");
    path_join(locked, sizeof locked, temp, "locked");
    path_join(loops, sizeof loops, temp, "loops");
    path_join(vanish, sizeof vanish, temp, "vanish");
    path_join(missing, sizeof missing, temp, "does-not-exist");
    path_join(file, sizeof file, temp, "good/f0");
    struct plan full = {.stop_after = -1};

    const char *tree_names[] = {"good", "locked", "loops"};
    const char *tree_paths[] = {good, locked, loops};
    for (int t = 0; t < 3; ++t) {
        const char *roots[] = {tree_paths[t]};
        long errors;
        long total = count_entries(tree_paths[t], config->symlinks, &errors);
        char scenario[64];
        snprintf(scenario, sizeof scenario, "%s full", tree_names[t]);
        walk_once(roots, 1, config, &full, scenario);
        for (int i = 0; i < random_stops; ++i) {
            struct plan stop = {
                .stop_after = 1 + random_below(total),
                .call_stop = (int)random_below(2),
                .prune_one_in = random_below(3) == 0 ? 7 : 0,
                .stat_one_in = random_below(3) == 0 ? 5 : 0,
            };
            snprintf(scenario, sizeof scenario, "%s stop after %ld%s", tree_names[t],
                     stop.stop_after, stop.call_stop ? " with ioq_walk_stop" : "");
            walk_once(roots, 1, config, &stop, scenario);
        }
    }

    /* The root removed between ioq_walk_open and the first entry. */
    vanish_path = vanish;
    make_tree(vanish, 3, 2);
    {
        const char *roots[] = {vanish};
        struct plan gone = {.stop_after = -1, .during = remove_vanishing, .during_at = 0};
        walk_once(roots, 1, config, &gone, "root removed before the first entry");
    }
    /* Removed after a few entries: read-ahead has opened some of it. */
    for (long at = 1; at <= 6; at += 5) {
        make_tree(vanish, 3, 2);
        const char *roots[] = {vanish};
        struct plan gone = {.stop_after = -1, .during = remove_vanishing, .during_at = at};
        char scenario[64];
        snprintf(scenario, sizeof scenario, "root removed after %ld entries", at);
        walk_once(roots, 1, config, &gone, scenario);
    }
    remove_tree(vanish);

    {
        const char *roots[] = {missing};
        walk_once(roots, 1, config, &full, "missing root");
        const char *file_root[] = {file};
        walk_once(file_root, 1, config, &full, "file as root");
        const char *mixed[] = {good, missing, locked, file, loops};
        walk_once(mixed, 5, config, &full, "good and bad roots");
        struct plan stop = {.stop_after = 1 + random_below(600), .call_stop = 0};
        walk_once(mixed, 5, config, &stop, "good and bad roots, stopped");
    }
}

static void build_trees(void) {
    char path[4096], link[4096];
    path_join(path, sizeof path, temp, "good");
    make_tree(path, 6, 3); /* 259 directories: more than the read-ahead of 128 */

    char locked[4096];
    path_join(locked, sizeof locked, temp, "locked");
    make_tree(locked, 5, 2);
    const struct {
        const char *name;
        mode_t mode;
    } modes[] = {{"d0", 0000}, {"d1", 0100}, {"d2", 0400}, {"d3/d1", 0000}, {"d4/d2", 0400}};
    for (size_t i = 0; i < sizeof modes / sizeof *modes; ++i) {
        path_join(path, sizeof path, locked, modes[i].name);
        chmod(path, modes[i].mode);
    }

    char loops[4096];
    path_join(loops, sizeof loops, temp, "loops");
    make_tree(loops, 3, 2);
    const struct {
        const char *name;
        const char *target;
    } links[] = {{"up", "."},           {"d0/up", ".."},          {"d1/d2/top", "../.."},
                 {"self", "self"},      {"dangling", "nowhere"},  {"d2/across", "../d1"},
                 {"d0/d0/root", "../../../loops"}};
    for (size_t i = 0; i < sizeof links / sizeof *links; ++i) {
        path_join(link, sizeof link, loops, links[i].name);
        if (symlink(links[i].target, link) != 0) {
            fprintf(stderr, "symlink %s: %s\n", link, strerror(errno));
            exit(2);
        }
    }
}

/* Root reads every directory: become nobody so that modes count. */
static void drop_privileges(void) {
    if (geteuid() != 0) {
        return;
    }
    if (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0) {
        fprintf(stderr, "note: could not become nobody (%s): unreadable directories are "
                        "readable to root\n", strerror(errno));
    }
}

int main(int argc, char **argv) {
    int random_stops = argc > 1 ? atoi(argv[1]) : 4;
    const char *seed_text = getenv("SAFETY_SEED");
    random_state = seed_text ? strtoul(seed_text, NULL, 10) : (unsigned long)time(NULL);
    if (random_state == 0) {
        random_state = 1;
    }
    printf("seed %lu (SAFETY_SEED=%lu to repeat)\n", random_state, random_state);
    fflush(stdout);

    drop_privileges();
    if (!mkdtemp(temp)) {
        perror("mkdtemp");
        return 2;
    }
    build_trees();
    /* The test of the test: the locked tree must give error entries, or the
     * unreadable cases test nothing (root, and privileges not dropped). */
    char locked_root[4096];
    path_join(locked_root, sizeof locked_root, temp, "locked");
    long locked_errors;
    count_entries(locked_root, IOQ_SYMLINKS_PHYSICAL, &locked_errors);
    if (geteuid() != 0) {
        check(locked_errors >= 4, "locked tree", "unreadable directories gave no errors");
    } else {
        printf("note: running as root: unreadable directories are readable\n");
    }

    const enum ioq_backend backends[] = {IOQ_BACKEND_URING, IOQ_BACKEND_THREADS,
                                         IOQ_BACKEND_INLINE};
    for (size_t b = 0; b < 3; ++b) {
        for (int strategy = IOQ_STRATEGY_BFS; strategy <= IOQ_STRATEGY_HYBRID; ++strategy) {
            for (int post_order = 0; post_order <= 1; ++post_order) {
                for (int symlinks = IOQ_SYMLINKS_PHYSICAL; symlinks <= IOQ_SYMLINKS_LOGICAL;
                     symlinks += 2) {
                    struct config config = {backends[b], (enum ioq_strategy)strategy,
                                            post_order, (enum ioq_symlinks)symlinks, 2};
                    walk_scenarios(&config, random_stops);
                }
            }
        }
    }
    /* The automatic choice and worker count, as ufind uses them. */
    struct config automatic = {IOQ_BACKEND_AUTO, IOQ_STRATEGY_BFS, 0, IOQ_SYMLINKS_PHYSICAL, -1};
    walk_scenarios(&automatic, random_stops);

    printf("seen open 40 entries into the walks: %ld io_uring rings, %ld directories\n",
           rings_seen, directories_seen);
    check(directories_seen > 0, "the walks", "no directory was ever open: nothing to leak");
    if (rings_seen == 0) {
        printf("note: no io_uring ring was seen: io_uring is refused here, and the uring "
               "backend ran on threads\n");
    }

    char locked[4096];
    path_join(locked, sizeof locked, temp, "locked");
    make_searchable(locked);
    remove_tree(temp);
    printf("%d passed, %d failed\n", passes, failures);
    return failures ? 1 : 0;
}
