// Splitting a path the way find's -printf %f and -execdir's {} do.
#pragma once

#include <string_view>

namespace ufind {

// gnulib's base_name: the last component, trailing slashes kept ("./" is
// "./", "/" is "/"): what %f prints and what -execdir passes as ./NAME.
inline std::string_view base_name(std::string_view path) {
    std::size_t end = path.size();
    while (end > 1 && path[end - 1] == '/') {
        --end;
    }
    std::size_t slash = path.substr(0, end).rfind('/');
    if (slash == std::string_view::npos || end == 1) {
        return path;
    }
    return path.substr(slash + 1);
}

} // namespace ufind
