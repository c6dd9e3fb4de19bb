// Entry: what the walk hands its caller for each file it visits.
//
// Views point into the walk's own buffers and stay valid until the next call
// to Walker::next(); nothing is allocated per entry.  An entry with error set
// is not a file but a report that something failed at path (the walk goes
// on); its other fields describe the path as far as they are known.
#pragma once

#include <sys/types.h>

#include <string_view>

namespace ioq::walk {

enum class EntryType : unsigned char {
    unknown, regular, directory, symlink, block_device, char_device, fifo, socket,
};

EntryType type_from_dirent(unsigned char d_type);
EntryType type_from_mode(mode_t mode);

struct Entry {
    std::string_view path;  // as it should be printed; NUL-terminated
    std::string_view name;  // the last component; NUL-terminated
    int depth = 0;          // 0 for a starting point
    EntryType type = EntryType::unknown;
    int error = 0;          // positive errno when this entry reports a failure
    // With error ELOOP from following links into a directory that contains
    // it: the ancestor it is the same directory as.  Empty otherwise.
    std::string_view loop_ancestor;
};

} // namespace ioq::walk
