/* A downstream C program: counts the entries under its argument through the
 * installed libioq, and checks that the walk finds the file it was given. */
#include <ioq.h>

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc != 3) {
        return 2;
    }
    struct ioq_walk_options options;
    ioq_walk_options_init(&options);
    const char *roots[] = {argv[1]};
    options.roots = roots;
    options.root_count = 1;
    ioq_walk *walk;
    if (ioq_walk_open(&walk, &options) != 0) {
        return 1;
    }
    struct ioq_entry entry;
    long count = 0;
    int found = 0;
    int more;
    while ((more = ioq_walk_next(walk, &entry)) > 0) {
        ++count;
        found |= entry.error == 0 && strcmp(entry.name, argv[2]) == 0;
    }
    ioq_walk_close(walk);
    if (more < 0) {
        return 1;  /* the walk ended early: the count is short */
    }
    printf("%ld\n", count);
    return found ? 0 : 1;
}
