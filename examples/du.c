/*
 * du: the apparent size and the disk usage of trees, like `du -s -B1`.
 *
 *   du [--apparent-size] PATH...
 *
 * An example of embedding libioq from C: it asks the workers to fetch
 * size, blocks, link count and inode of every entry as they read each
 * directory (stat_mask), so ioq_walk_stat() is a copy, not a system call.
 * Files with several hard links are counted once, as du counts them.
 */
#include <ioq.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* An open-addressing set of (device, inode) of files with several links. */
struct inode_set {
    uint64_t *keys; /* pairs: device, inode; 0,0 marks a free slot */
    size_t capacity;
    size_t count;
};

static uint64_t mix(uint64_t dev, uint64_t ino) {
    uint64_t h = dev * 0x9e3779b97f4a7c15u ^ ino;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdu;
    return h ^ (h >> 33);
}

/* Returns 1 if (dev, ino) was not in the set yet, and adds it. */
static int inode_set_add(struct inode_set *set, uint64_t dev, uint64_t ino) {
    if (2 * (set->count + 1) > set->capacity) {
        struct inode_set bigger = {calloc(2 * (set->capacity ? set->capacity * 2 : 1024), sizeof(uint64_t)),
                                   set->capacity ? set->capacity * 2 : 1024, 0};
        if (!bigger.keys) {
            perror("du");
            exit(1);
        }
        for (size_t i = 0; i < set->capacity; ++i) {
            if (set->keys[2 * i] || set->keys[2 * i + 1]) {
                inode_set_add(&bigger, set->keys[2 * i], set->keys[2 * i + 1]);
            }
        }
        free(set->keys);
        *set = bigger;
    }
    size_t i = mix(dev, ino) & (set->capacity - 1);
    while (set->keys[2 * i] || set->keys[2 * i + 1]) {
        if (set->keys[2 * i] == dev && set->keys[2 * i + 1] == ino) {
            return 0;
        }
        i = (i + 1) & (set->capacity - 1);
    }
    set->keys[2 * i] = dev;
    set->keys[2 * i + 1] = ino;
    set->count++;
    return 1;
}

int main(int argc, char **argv) {
    int apparent = 0;
    int first = 1;
    if (argc > 1 && strcmp(argv[1], "--apparent-size") == 0) {
        apparent = 1;
        first = 2;
    }
    if (first >= argc) {
        fprintf(stderr, "usage: du [--apparent-size] PATH...\n");
        return 2;
    }
    int status = 0;
    for (int r = first; r < argc; ++r) {
        struct ioq_walk_options options;
        ioq_walk_options_init(&options);
        const char *roots[] = {argv[r]};
        options.roots = roots;
        options.root_count = 1;
        options.stat_mask = STATX_SIZE | STATX_BLOCKS | STATX_NLINK | STATX_INO;
        options.completion_order = 1; /* a sum needs no order */
        ioq_walk *walk;
        int error = ioq_walk_open(&walk, &options);
        if (error) {
            fprintf(stderr, "du: %s: %s\n", argv[r], strerror(-error));
            return 1;
        }
        struct inode_set seen = {0};
        uint64_t total = 0;
        struct ioq_entry entry;
        int more;
        while ((more = ioq_walk_next(walk, &entry)) > 0) {
            struct statx st;
            if (entry.error || (error = ioq_walk_stat(walk, options.stat_mask, 0, &st)) != 0) {
                fprintf(stderr, "du: cannot access '%s': %s\n", entry.path,
                        strerror(entry.error ? entry.error : -error));
                status = 1;
                continue;
            }
            if (st.stx_nlink > 1 && entry.type != IOQ_TYPE_DIRECTORY &&
                !inode_set_add(&seen, ((uint64_t)st.stx_dev_major << 32) | st.stx_dev_minor,
                               st.stx_ino)) {
                continue;
            }
            total += apparent ? st.stx_size : st.stx_blocks * 512;
        }
        if (more < 0) {
            /* The walk ended early (memory ran out): the total would be short. */
            fprintf(stderr, "du: %s: %s\n", argv[r], strerror(-more));
            status = 1;
        }
        ioq_walk_close(walk);
        free(seen.keys);
        printf("%llu\t%s\n", (unsigned long long)total, argv[r]);
    }
    return status;
}
