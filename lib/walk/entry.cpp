#include "entry.hpp"

#include <sys/stat.h>

namespace ioq::walk {

EntryType type_from_mode(mode_t mode) {
    switch (mode & S_IFMT) {
    case S_IFREG: return EntryType::regular;
    case S_IFDIR: return EntryType::directory;
    case S_IFLNK: return EntryType::symlink;
    case S_IFBLK: return EntryType::block_device;
    case S_IFCHR: return EntryType::char_device;
    case S_IFIFO: return EntryType::fifo;
    case S_IFSOCK: return EntryType::socket;
    default: return EntryType::unknown;
    }
}

} // namespace ioq::walk
