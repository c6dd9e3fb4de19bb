#include "predicates/reference_file.hpp"

#include <fcntl.h>

#include <cerrno>

namespace ufind {

struct statx stat_reference(const ParseContext& context, const std::string& path, unsigned mask) {
    bool follow = context.command.symlinks != IOQ_SYMLINKS_PHYSICAL;
    struct statx buf;
    int result = ::statx(AT_FDCWD, path.c_str(), follow ? 0 : AT_SYMLINK_NOFOLLOW, mask, &buf);
    if (result != 0 && follow && (errno == ENOENT || errno == ENOTDIR)) {
        result = ::statx(AT_FDCWD, path.c_str(), AT_SYMLINK_NOFOLLOW, mask, &buf);
    }
    if (result != 0) {
        int error = errno;
        report_path_error(path, error);
        throw UsageError{};
    }
    return buf;
}

} // namespace ufind
