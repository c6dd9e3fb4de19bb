/*
 * read_shim: an LD_PRELOAD library that makes reads of one file fail, to
 * check that ufind never acts on input it could not read whole.
 *
 *   UFIND_READ_FAULT_PATH=P   the file whose reads are watched, by the
 *                             path /proc/self/fd/N names (an absolute,
 *                             resolved path), whichever descriptor reads it
 *                             (standard input included)
 *   UFIND_READ_FAULT_AT=N     the N-th read() of it (1-based) fails
 *   UFIND_READ_FAULT_ERRNO=E  with this errno (default EIO)
 *   UFIND_READ_CHUNK=K        every read of it returns at most K bytes, so
 *                             that what came before the failure is a
 *                             piece of the file (a name cut short)
 *
 * Only read() is wrapped: ufind reads directories with getdents64 and its
 * inputs (-files0-from, -ok's answers) with read(), and what libc reads
 * for itself (locale files) goes through its internal __read, which no
 * shim sees.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* glibc's own read(), which this one stands in front of. */
extern ssize_t __read(int fd, void *buffer, size_t count);

static long reads_seen;

static int is_watched(int fd, const char *watched) {
    char link[64];
    char target[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t length = readlink(link, target, sizeof target - 1);
    if (length < 0) {
        return 0;
    }
    target[length] = '\0';
    return strcmp(target, watched) == 0;
}

ssize_t read(int fd, void *buffer, size_t count) {
    const char *watched = getenv("UFIND_READ_FAULT_PATH");
    if (!watched || !is_watched(fd, watched)) {
        return __read(fd, buffer, count);
    }
    ++reads_seen;
    const char *at = getenv("UFIND_READ_FAULT_AT");
    if (at && reads_seen == atol(at)) {
        const char *error = getenv("UFIND_READ_FAULT_ERRNO");
        errno = error ? atoi(error) : EIO;
        return -1;
    }
    const char *chunk = getenv("UFIND_READ_CHUNK");
    if (chunk && atol(chunk) > 0 && count > (size_t)atol(chunk)) {
        count = (size_t)atol(chunk);
    }
    return __read(fd, buffer, count);
}
