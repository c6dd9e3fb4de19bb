#include "actions/spawn_command.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

namespace ufind {
namespace {

struct StartingLimit {
    rlimit limit{};
    bool known = false;
};

StartingLimit read_descriptor_limit() {
    StartingLimit start;
    start.known = ::getrlimit(RLIMIT_NOFILE, &start.limit) == 0;
    return start;
}

// Read during static initialisation, before main and so before any walk
// raises the soft limit; the hard limit is never changed.
const StartingLimit starting_descriptor_limit = read_descriptor_limit();

// The child's side, between vfork and exec: only async-signal-safe calls,
// since it runs on the parent's memory while the parent's other threads
// go on.  Stores the errno of what failed in `error` and exits.
[[noreturn]] void run_child(char* const argv[], const ChildSetup& setup,
                            const sigset_t& parent_mask, volatile int& error) {
    // A handler of ufind's (SIGUSR1's status line) must not run here, on
    // the parent's memory; the exec would reset it anyway.
    for (int signal = 1; signal < NSIG; ++signal) {
        struct sigaction action {};
        if (::sigaction(signal, nullptr, &action) == 0 && action.sa_handler != SIG_DFL &&
            action.sa_handler != SIG_IGN) {
            action.sa_handler = SIG_DFL;
            action.sa_flags = 0;
            ::sigaction(signal, &action, nullptr);
        }
    }
    ::sigprocmask(SIG_SETMASK, &parent_mask, nullptr);
    bool ready = true;
    if (setup.directory_fd >= 0) {
        ready = ::fchdir(setup.directory_fd) == 0;
    } else if (setup.directory) {
        ready = ::chdir(setup.directory) == 0;
    }
    if (ready && setup.stdin_from_null) {
        int null = ::open("/dev/null", O_RDONLY);
        ready = null >= 0 && (null == STDIN_FILENO || ::dup2(null, STDIN_FILENO) == STDIN_FILENO);
        if (null > STDIN_FILENO) {
            ::close(null);
        }
    }
    if (ready && starting_descriptor_limit.known) {
        ready = ::setrlimit(RLIMIT_NOFILE, &starting_descriptor_limit.limit) == 0;
    }
    if (ready) {
        // glibc's execvp searches PATH on the stack, allocating nothing.
        ::execvp(argv[0], argv);
    }
    error = errno;
    ::_exit(127);
}

} // namespace

int spawn_command(pid_t& pid, char* const argv[], const ChildSetup& setup) {
    // Blocked across vfork, so that no handler runs in the child before it
    // has reset them.
    sigset_t all;
    sigset_t parent_mask;
    ::sigfillset(&all);
    ::pthread_sigmask(SIG_SETMASK, &all, &parent_mask);
    volatile int child_error = 0;
    pid_t child = ::vfork();
    if (child == 0) {
        run_child(argv, setup, parent_mask, child_error);
    }
    int error = child < 0 ? errno : child_error;
    ::pthread_sigmask(SIG_SETMASK, &parent_mask, nullptr);
    if (child > 0 && error != 0) {
        // It never ran the command: reap it here, its failure is ours.
        int status = 0;
        while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
        }
    }
    if (error == 0) {
        pid = child;
    }
    return error;
}

} // namespace ufind
