// count: how many entries of each type trees hold, with ioq.hpp.
//
//   count PATH...
//
// An example of the C++ header: range-for over a walk, no metadata asked
// for, so the walk makes no statx at all (types come from the directory).
#include <ioq.hpp>

#include <array>
#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: count PATH...\n");
        return 2;
    }
    static constexpr const char* names[] = {"unknown", "file",   "directory", "symlink",
                                            "block",   "char",   "fifo",      "socket"};
    std::array<unsigned long long, 8> counts{};
    unsigned long long errors = 0;
    ioq::Walk walk(std::vector<const char*>(argv + 1, argv + argc));
    if (walk.error()) {
        std::fprintf(stderr, "count: %s\n", std::strerror(-walk.error()));
        return 1;
    }
    for (const ioq::Entry& entry : walk) {
        if (entry.error()) {
            ++errors;
        } else {
            ++counts[entry.type()];
        }
    }
    for (std::size_t i = 0; i < counts.size(); ++i) {
        if (counts[i]) {
            std::printf("%-10s %llu\n", names[i], counts[i]);
        }
    }
    if (errors) {
        std::printf("%-10s %llu\n", "errors", errors);
    }
    return errors ? 1 : 0;
}
