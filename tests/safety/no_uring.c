/* no_uring: run a program with io_uring refused by the kernel.
 *
 *   no_uring EPERM|ENOSYS program [argument...]
 *
 * Installs a seccomp filter that makes io_uring_setup, io_uring_enter and
 * io_uring_register fail with the given errno (EPERM as Docker's default
 * profile and kernel.io_uring_disabled=2 refuse it; ENOSYS as a kernel built
 * without io_uring does), then executes the program, which inherits the
 * filter.  No privilege is needed: PR_SET_NO_NEW_PRIVS first, as the kernel
 * requires of unprivileged filters.  Nothing else is filtered.
 *
 * Before executing the program it checks that the filter works: a raw
 * io_uring_setup must fail with that errno.  Exit status 77 (meson's "skip")
 * when seccomp is not available on this machine or architecture, 3 when the
 * filter does not do what it should.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define THIS_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define THIS_ARCH AUDIT_ARCH_AARCH64
#endif

#if defined(THIS_ARCH) && defined(__NR_io_uring_setup)
static int refuse_uring(int error) {
    struct sock_filter filter[] = {
        /* A system call of another ABI is let through untouched. */
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, THIS_ARCH, 0, 5),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 2, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_enter, 1, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_register, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ((unsigned)error & SECCOMP_RET_DATA)),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog program = {
        .len = (unsigned short)(sizeof filter / sizeof filter[0]),
        .filter = filter,
    };
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        return -1;
    }
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program);
}
#endif

int main(int argc, char **argv) {
    if (argc < 3 || (strcmp(argv[1], "EPERM") != 0 && strcmp(argv[1], "ENOSYS") != 0)) {
        fprintf(stderr, "usage: no_uring EPERM|ENOSYS program [argument...]\n");
        return 2;
    }
#if defined(THIS_ARCH) && defined(__NR_io_uring_setup)
    int error = strcmp(argv[1], "EPERM") == 0 ? EPERM : ENOSYS;
    if (refuse_uring(error) != 0) {
        fprintf(stderr, "no_uring: seccomp filter refused: %s\n", strerror(errno));
        return 77;
    }
    /* io_uring_setup(1, params): params must be zeroed, 120 bytes today. */
    unsigned char params[256] = {0};
    long ret = syscall(__NR_io_uring_setup, 1, params);
    if (ret >= 0 || errno != error) {
        fprintf(stderr, "no_uring: io_uring_setup returned %ld (%s), not %s\n", ret,
                ret < 0 ? strerror(errno) : "a ring", argv[1]);
        if (ret >= 0) {
            close((int)ret);
        }
        return 3;
    }
    execvp(argv[2], argv + 2);
    fprintf(stderr, "no_uring: %s: %s\n", argv[2], strerror(errno));
    return 127;
#else
    fprintf(stderr, "no_uring: no seccomp filter for this architecture\n");
    return 77;
#endif
}
