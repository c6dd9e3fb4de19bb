// A downstream C++ program: the same count through the installed ioq.hpp.
#include <ioq.hpp>

#include <cstdio>
#include <string_view>

int main(int argc, char** argv) {
    if (argc != 3) {
        return 2;
    }
    ioq::Walk walk({argv[1]});
    long count = 0;
    bool found = false;
    for (const ioq::Entry& entry : walk) {
        ++count;
        found |= entry.error() == 0 && entry.name() == std::string_view(argv[2]);
    }
    std::printf("%ld\n", count);
    return found ? 0 : 1;
}
