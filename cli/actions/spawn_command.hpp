// Starting the commands of -exec, -execdir, -ok and -okdir.
//
//   spawn_command(argv, setup)
//     vfork ------------------------------------------> parent waits until
//       child: default signal handlers, old mask          the child has
//              chdir/fchdir (setup), stdin </dev/null      exec'd or died
//              RLIMIT_NOFILE back to the starting soft limit
//              execvp(argv[0]) (a file without "#!" runs
//                               under /bin/sh, as in find)
//
// posix_spawn cannot set a resource limit in the child, and a walk raises
// the soft RLIMIT_NOFILE to the hard limit for itself; lowering it in the
// parent around a spawn would make the walk's own worker threads fail to
// open directories meanwhile.  So the child is started with vfork, which
// costs what posix_spawn costs (glibc's is clone(CLONE_VM|CLONE_VFORK)),
// and lowers the limit itself between vfork and exec, where only
// async-signal-safe calls run and nothing is allocated.
#pragma once

#include <sys/types.h>

#include <string_view>

namespace ufind {

// Calls visit(entry) for each entry of a PATH value, in order (an empty
// entry is the working directory), until visit returns true; whether one
// did.
template <typename Visit>
bool any_path_entry(std::string_view path, Visit visit) {
    for (;;) {
        std::size_t colon = path.find(':');
        if (visit(path.substr(0, colon))) {
            return true;
        }
        if (colon == std::string_view::npos) {
            return false;
        }
        path.remove_prefix(colon + 1);
    }
}

// What the child changes before running the command.
struct ChildSetup {
    int directory_fd = -1;             // fchdir() to it if >= 0 (-execdir)
    const char* directory = nullptr;   // else chdir() to it if set
    bool stdin_from_null = false;      // -ok: the answers stay ufind's
};

// Starts argv[0] (looked up in PATH) with argv and the environment, set up
// as `setup` says, with the descriptor limit the process started with.
// 0 and the child's pid, or the errno of the failure.
int spawn_command(pid_t& pid, char* const argv[], const ChildSetup& setup);

} // namespace ufind
