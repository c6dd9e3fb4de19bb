// Splitting a path the way find's -printf %f and -execdir's {} do.
#pragma once

#include <string_view>

namespace ufind {

// gnulib's base_name: the last component and one of the slashes after it
// ("d1//" is "d1/", "./" is "./"), or "/" for a path of slashes only: what
// %f prints and what -execdir passes as ./NAME.
inline std::string_view base_name(std::string_view path) {
    std::size_t end = path.size();
    while (end > 0 && path[end - 1] == '/') {
        --end;
    }
    if (end == 0) {
        return path.empty() ? path : path.substr(0, 1);
    }
    std::size_t slash = path.substr(0, end).rfind('/');
    std::size_t start = slash == std::string_view::npos ? 0 : slash + 1;
    return path.substr(start, end - start + (end < path.size() ? 1 : 0));
}

} // namespace ufind
