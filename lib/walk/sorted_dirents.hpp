// SortedDirents: a whole directory's entries, sorted by name.
//
// For walks asked to be deterministic (-s): the kernel returns entries in
// hash order, which differs between filesystems and between runs that
// create files in another order.  The names are copied out of the
// directory's buffers into one arena, so sorting moves small records, not
// names; the arena and the index are reused from directory to directory.
#pragma once

#include "../ioq/dir_buffer.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ioq::walk {

class SortedDirents {
public:
    void clear();
    // Copies every entry of the buffer in.
    void add(const DirBuffer& buffer);
    void sort();
    bool next(RawDirent& out);

private:
    struct Record {
        std::size_t offset;  // of the name in names_
        std::uint32_t length;
        unsigned char type;
        std::uint64_t inode;
    };
    std::vector<char> names_;
    std::vector<Record> records_;
    std::size_t next_ = 0;
};

} // namespace ioq::walk
