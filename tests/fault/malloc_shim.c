/*
 * malloc_shim: an LD_PRELOAD library that makes the N-th allocation of a
 * program fail, counted from the start of main().
 *
 *   UFIND_FAULT_AT=N          the N-th call (1-based) of malloc, calloc,
 *                             realloc, aligned_alloc, posix_memalign or
 *                             memalign after main() starts fails (ENOMEM);
 *                             0 or unset: none fails
 *   UFIND_FAULT_STICKY=1      every call from the N-th on fails
 *   UFIND_FAULT_COUNT_FILE=F  at exit, the number of calls counted is
 *                             written to F
 *
 * Counting starts in main(), not at load time: what the dynamic loader,
 * libc and static constructors allocate before main() is startup, not the
 * program's handling of memory pressure.  main() is found by wrapping
 * __libc_start_main.  ufind links libstdc++ statically, and its operator
 * new calls malloc through libc, so this fails C++ allocations too.
 * The allocations themselves are glibc's (__libc_malloc and friends), so
 * free() needs no wrapper.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static atomic_bool armed;
static atomic_long calls;
static long fail_at;
static int sticky;

static int should_fail(void) {
    if (!atomic_load_explicit(&armed, memory_order_relaxed)) {
        return 0;
    }
    long n = atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed) + 1;
    return fail_at > 0 && (n == fail_at || (sticky && n > fail_at));
}

void *malloc(size_t size) {
    if (should_fail()) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    if (should_fail()) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    if (size != 0 && should_fail()) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    if (should_fail()) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) { return memalign(alignment, size); }

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) {
        return EINVAL;
    }
    void *pointer = memalign(alignment, size);
    if (!pointer) {
        return ENOMEM;
    }
    *out = pointer;
    return 0;
}

typedef int (*main_function)(int, char **, char **);
static main_function real_main;

static int counted_main(int argc, char **argv, char **envp) {
    const char *at = getenv("UFIND_FAULT_AT");
    const char *from_then_on = getenv("UFIND_FAULT_STICKY");
    fail_at = at ? atol(at) : 0;
    sticky = from_then_on && from_then_on[0] == '1';
    atomic_store(&armed, 1);
    return real_main(argc, argv, envp);
}

typedef int (*start_function)(main_function, int, char **, void (*)(void), void (*)(void),
                              void (*)(void), void *);

int __libc_start_main(main_function main, int argc, char **argv, void (*init)(void),
                      void (*fini)(void), void (*rtld_fini)(void), void *stack_end) {
    start_function real_start;
    /* POSIX's way to turn dlsym's object pointer into a function pointer. */
    *(void **)&real_start = dlsym(RTLD_NEXT, "__libc_start_main");
    real_main = main;
    return real_start(counted_main, argc, argv, init, fini, rtld_fini, stack_end);
}

__attribute__((destructor)) static void write_count(void) {
    const char *path = getenv("UFIND_FAULT_COUNT_FILE");
    if (!path || !atomic_load(&armed)) {
        return;
    }
    atomic_store(&armed, 0);
    char text[32];
    int length = snprintf(text, sizeof text, "%ld\n", atomic_load(&calls));
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) {
        if (write(fd, text, (size_t)length) < 0) {
            /* nothing to do: the test reports a missing count */
        }
        close(fd);
    }
}
