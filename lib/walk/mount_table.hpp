// The mount table, /proc/self/mountinfo (proc(5)), parsed in one place for
// the two things that read it: whether directory listings mark their end
// (marked_ends.hpp) and the filesystem type of a device (find's -fstype,
// through ioq_filesystem_type).
#pragma once

#include <string>
#include <string_view>

namespace ioq::walk {

// One mount, as views into its line.
struct MountLine {
    std::string_view device;       // "major:minor"
    std::string_view mount_point;  // escaped as the kernel escapes it (\040 for a space)
    std::string_view type;         // "ext4", "fuse.sshfs"
};

// Parses a line (without its newline): "ID parent major:minor root
// mount-point options [optional...] - type source super-options".  False
// where it is not in that format.
bool parse_mount_line(std::string_view line, MountLine& out);

// Takes the first line off text and returns it without its newline.
std::string_view next_line(std::string_view& text);

// Appends /proc/self/mountinfo to out; false if it cannot be read.  May
// throw std::bad_alloc, the descriptor closed.
bool read_mount_table(std::string& out);

// The type of the filesystem mounted from major:minor, from the table as
// it was at the first call (read once, kept for the process); the last
// mount of a device when it has several, the one a path reaches.  nullptr
// where the table lists no such device or could not be read.  May throw
// std::bad_alloc (then the next call reads the table again).
const char* filesystem_type(unsigned major, unsigned minor);

} // namespace ioq::walk
