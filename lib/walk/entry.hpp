// EntryView: what the walk hands its caller for each file it visits (the
// public ioq::Entry and struct ioq_entry are made from it in lib/api).
//
// Views point into the walk's own buffers and stay valid until the next call
// to Walker::next(); nothing is allocated per entry.  An entry with error set
// is not a file but a report that something failed at path (the walk goes
// on); its other fields describe the path as far as they are known.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <string_view>

namespace ioq::walk {

enum class EntryType : unsigned char {
    unknown, regular, directory, symlink, block_device, char_device, fifo, socket,
};

// DT_* values are the S_IF* type bits shifted right by 12; decoding them is
// on the path of every entry, so it is a table lookup here.
inline EntryType type_from_dirent(unsigned char d_type) {
    constexpr EntryType table[16] = {
        EntryType::unknown,      EntryType::fifo,     EntryType::char_device, EntryType::unknown,
        EntryType::directory,    EntryType::unknown,  EntryType::block_device, EntryType::unknown,
        EntryType::regular,      EntryType::unknown,  EntryType::symlink,      EntryType::unknown,
        EntryType::socket,       EntryType::unknown,  EntryType::unknown,      EntryType::unknown,
    };
    return table[d_type & 15];
}
EntryType type_from_mode(mode_t mode);

struct EntryView {
    std::string_view path;  // as it should be printed; NUL-terminated
    std::string_view name;  // the last component; NUL-terminated
    int depth = 0;          // 0 for a starting point
    EntryType type = EntryType::unknown;
    int error = 0;          // positive errno when this entry reports a failure
    // With error ELOOP from following links into a directory that contains
    // it: the ancestor it is the same directory as.  Empty otherwise.
    std::string_view loop_ancestor;
    std::size_t root = 0;   // index of its starting point in WalkOptions::roots
};

} // namespace ioq::walk
