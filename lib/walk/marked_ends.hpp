// Whether the walk may take a directory's end from its last record.
//
// ext4 (with dir_index, its default) lists every directory in hash order
// and gives the record that ends the listing the offset EXT4_HTREE_EOF,
// INT64_MAX, which its hash function keeps every entry from having; btrfs
// ends with it too, past INT_MAX entries.  The getdents64 that would
// return 0 after that record has nothing to find, and skipping it saves one
// call of the two each directory cost (measured in 894ff3b).
//
// The kernel's other local file systems give offsets far below INT64_MAX.
// A network or FUSE file system gives whatever its server says, which
// could be INT64_MAX in the middle of a directory; an autofs mount point
// becomes such a file system when it is entered.  So the mark is trusted
// only where every file system the walk can reach is one of the kernel's
// own: every starting point, every mount it lies in and every mount below
// it.  A mount made below a starting point during the walk is not seen.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ioq::walk {

// For the walk's starting points, as given (relative to the working
// directory), from /proc/self/mountinfo; false if either cannot be
// resolved or read, and for walks that follow symbolic links (they may
// lead anywhere): pass follows_links.  May throw std::bad_alloc.
bool ends_are_marked(const std::vector<std::string>& roots, bool follows_links);

// The same from a mountinfo text (proc(5)) and canonical absolute paths.
bool ends_are_marked_in(std::string_view mountinfo, const std::vector<std::string>& canonical_roots);

} // namespace ioq::walk
