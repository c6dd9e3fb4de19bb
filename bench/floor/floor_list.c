/*
 * floor_list.c: the cheapest possible reading of a known set of directories.
 *
 * floor_walk bounds a whole walk. An early-terminating search reads only some
 * directories, in an order its strategy dictates, and learns of each only by
 * reading its parent first. This floor is handed the directories instead, so it
 * needs no discovery and no order: N threads take the next path from a shared
 * counter and make one openat (relative to the starting point, as a walker opens
 * a directory whose parent it has closed), getdents64 until it returns 0, and one
 * close. A walk that must read the same directories cannot do less, whatever its
 * threads; when this floor's time is near a target's, the target is out of reach
 * for every order that has to find the directories by reading.
 *
 * Usage: floor_list [-t THREADS] ROOT LIST
 *   ROOT  the starting point the paths of LIST are under
 *   LIST  one directory a line, as bench/tools/opened_dirs.py writes it: ROOT
 *         itself, or a path under ROOT (absolute, or relative to ROOT); a
 *         directory listed twice is read twice (iterative deepening rereads)
 *   -t N  threads sharing the list (default 1; with 1 no thread is started)
 *
 * Exits 1 if a directory cannot be read (the list is stale), 2 on bad usage.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* As floor_walk: one call reads a typical directory whole. */
enum { DIRENT_BUFFER_SIZE = 64 * 1024 };
enum { MAX_THREADS = 64 };

static int root_fd;
static char **paths;   /* relative to root_fd; "." for the root itself */
static size_t path_count;
static atomic_size_t next_path;
static atomic_int failed;

static void *read_listed(void *unused) {
    (void)unused;
    static _Thread_local char buffer[DIRENT_BUFFER_SIZE];
    for (;;) {
        size_t i = atomic_fetch_add_explicit(&next_path, 1, memory_order_relaxed);
        if (i >= path_count) {
            return NULL;
        }
        int fd = openat(root_fd, paths[i], O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0) {
            atomic_store(&failed, 1);
            continue;
        }
        long got;
        while ((got = syscall(SYS_getdents64, fd, buffer, sizeof buffer)) > 0) {
        }
        if (got < 0) {
            atomic_store(&failed, 1);
        }
        close(fd);
    }
}

/* LIST's line as a path relative to ROOT, in a new string. */
static char *relative_to_root(const char *root, size_t root_len, const char *line) {
    if (strcmp(line, root) == 0) {
        return strdup(".");
    }
    if (strncmp(line, root, root_len) == 0 && line[root_len] == '/') {
        return strdup(line + root_len + 1);
    }
    return line[0] == '/' ? NULL : strdup(line);
}

static void usage(void) {
    fprintf(stderr, "usage: floor_list [-t THREADS] ROOT LIST\n");
    exit(2);
}

int main(int argc, char **argv) {
    int threads = 1;
    int opt;
    while ((opt = getopt(argc, argv, "t:")) != -1) {
        if (opt != 't' || (threads = atoi(optarg)) < 1 || threads > MAX_THREADS) {
            usage();
        }
    }
    if (argc - optind != 2) {
        usage();
    }
    const char *root = argv[optind];
    size_t root_len = strlen(root);
    while (root_len > 1 && root[root_len - 1] == '/') {
        --root_len;
    }
    root_fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    FILE *list = fopen(argv[optind + 1], "r");
    if (root_fd < 0 || !list) {
        perror(root_fd < 0 ? root : argv[optind + 1]);
        return 1;
    }

    /* Read whole before any directory: the list is the input, not the work. */
    size_t capacity = 1024;
    paths = malloc(capacity * sizeof *paths);
    char *line = NULL;
    size_t line_capacity = 0;
    ssize_t length;
    while (paths && (length = getline(&line, &line_capacity, list)) > 0) {
        if (line[length - 1] == '\n') {
            line[--length] = '\0';
        }
        if (length == 0) {
            continue;
        }
        char *relative = relative_to_root(root, root_len, line);
        if (!relative) {
            fprintf(stderr, "floor_list: %s is not under %s\n", line, root);
            return 1;
        }
        if (path_count == capacity) {
            capacity *= 2;
            paths = realloc(paths, capacity * sizeof *paths);
        }
        if (paths) {
            paths[path_count++] = relative;
        }
    }
    if (!paths) {
        fprintf(stderr, "floor_list: out of memory\n");
        return 1;
    }
    fclose(list);
    free(line);

    pthread_t started[MAX_THREADS];
    int running = 0;
    for (; running < threads - 1; ++running) {
        if (pthread_create(&started[running], NULL, read_listed, NULL) != 0) {
            break;  /* fewer threads: the floor is then higher, never wrong */
        }
    }
    read_listed(NULL);
    for (int i = 0; i < running; ++i) {
        pthread_join(started[i], NULL);
    }
    if (atomic_load(&failed)) {
        fprintf(stderr, "floor_list: a listed directory could not be read (is LIST stale?)\n");
        return 1;
    }
    return 0;
}
