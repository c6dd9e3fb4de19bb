#include "fuzz_support.hpp"

#include <unistd.h>

#include <climits>
#include <string>
#include <string_view>
#include <vector>

namespace ufind_fuzz {

void add_default_flags(int* argc, char*** argv, bool absolute_artifacts) {
    constexpr std::string_view prefix_flag = "-artifact_prefix=";
    char cwd[PATH_MAX];
    std::string directory = ::getcwd(cwd, sizeof cwd) ? std::string(cwd) + "/" : "";

    // Kept for the whole run: libFuzzer holds on to argv (its -fork and
    // -jobs modes pass it on to the processes they start).
    static std::vector<std::string> args;
    static std::vector<char*> pointers;
    args.assign(*argv, *argv + *argc);
    bool has_fd_mask = false;
    bool has_artifact_prefix = false;
    for (std::string& arg : args) {
        has_fd_mask |= arg.starts_with("-close_fd_mask=");
        has_artifact_prefix |= arg.starts_with(prefix_flag);
        for (std::string_view flag : {prefix_flag, std::string_view("-exact_artifact_path=")}) {
            if (absolute_artifacts && arg.starts_with(flag) &&
                arg.compare(flag.size(), 1, "/") != 0) {
                arg.insert(flag.size(), directory);
            }
        }
    }
    if (!has_fd_mask) {
        args.emplace_back("-close_fd_mask=3");
    }
    if (absolute_artifacts && !has_artifact_prefix) {
        args.push_back(std::string(prefix_flag) + directory);
    }
    pointers.clear();
    for (std::string& arg : args) {
        pointers.push_back(arg.data());
    }
    pointers.push_back(nullptr);
    *argc = static_cast<int>(args.size());
    *argv = pointers.data();
}

} // namespace ufind_fuzz

// UBSan's defaults, read by its runtime at start-up (UBSAN_OPTIONS still
// wins): undefined behaviour is a crash to the fuzzer, not a line it goes
// on after.
extern "C" const char* __ubsan_default_options() {
    return "halt_on_error=1:print_stacktrace=1";
}
