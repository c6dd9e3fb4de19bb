// Helpers shared by the tests of DirBuffer and of IoQueue: the names a
// directory buffer holds.
#pragma once

#include "ioq/dir_buffer.hpp"

#include <set>
#include <string>
#include <vector>

namespace test {

// The names a DirBuffer holds, in order.
inline std::vector<std::string> names_in(const ioq::DirBuffer& buffer) {
    std::vector<std::string> names;
    ioq::DirentCursor cursor(buffer);
    ioq::RawDirent dirent;
    while (cursor.next(dirent)) {
        names.emplace_back(dirent.name);
    }
    return names;
}

inline std::set<std::string> as_set(const std::vector<std::string>& names) {
    return {names.begin(), names.end()};
}

} // namespace test
