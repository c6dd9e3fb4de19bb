// Starting the commands of -exec, -execdir, -ok and -okdir.
//
//   spawn_command(argv) --posix_spawnp--> ran
//                         ENOEXEC (no #! line, or an empty file)
//                         --> /bin/sh FILE ARGS... (what execvp does, and
//                             so GNU find: a script without "#!" runs)
//
// FILE is what posix_spawnp found: the name itself if it holds a '/', else
// the first executable regular file of that name along PATH.
#pragma once

#include <spawn.h>
#include <sys/types.h>

#include <string>
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

// Starts argv[0] with argv and the environment, applying actions in the
// child.  0 and the child's pid, or the errno of the failure.
int spawn_command(pid_t& pid, char* const argv[], const posix_spawn_file_actions_t& actions);

// The file that running `name` through PATH would execute ("" if none):
// `name` if it holds a '/'; else the first regular file along `path`
// (PATH's value; an empty entry is the working directory) that this
// process may execute.
std::string find_in_path(const char* name, const char* path);

} // namespace ufind
