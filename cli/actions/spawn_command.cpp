#include "actions/spawn_command.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

extern char** environ;

namespace ufind {
namespace {

// glibc's search path when PATH is unset (confstr(_CS_PATH)).
constexpr const char* default_path = "/bin:/usr/bin";

bool executable_file(const std::string& file) {
    struct stat st;
    return ::stat(file.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(file.c_str(), X_OK) == 0;
}

} // namespace

std::string find_in_path(const char* name, const char* path) {
    if (std::strchr(name, '/')) {
        return name;
    }
    std::string found;
    any_path_entry(path, [&](std::string_view dir) {
        std::string file = dir.empty() ? std::string(name) : std::string(dir) + "/" + name;
        if (!executable_file(file)) {
            return false;
        }
        found = dir.empty() ? "./" + file : file;
        return true;
    });
    return found;
}

int spawn_command(pid_t& pid, char* const argv[], const posix_spawn_file_actions_t& actions) {
    int error = ::posix_spawnp(&pid, argv[0], &actions, nullptr, argv, environ);
    if (error != ENOEXEC) {
        return error;
    }
    const char* path = std::getenv("PATH");
    std::string script = find_in_path(argv[0], path ? path : default_path);
    if (script.empty()) {
        return error;
    }
    std::vector<char*> shell_argv;
    static char shell[] = "/bin/sh";
    shell_argv.push_back(shell);
    shell_argv.push_back(script.data());
    for (char* const* arg = argv + 1; *arg; ++arg) {
        shell_argv.push_back(*arg);
    }
    shell_argv.push_back(nullptr);
    return ::posix_spawn(&pid, shell, &actions, nullptr, shell_argv.data(), environ);
}

} // namespace ufind
