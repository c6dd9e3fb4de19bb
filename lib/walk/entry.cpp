#include "entry.hpp"

#include <dirent.h>
#include <sys/stat.h>

namespace ioq::walk {

EntryType type_from_dirent(unsigned char d_type) {
    switch (d_type) {
    case DT_REG: return EntryType::regular;
    case DT_DIR: return EntryType::directory;
    case DT_LNK: return EntryType::symlink;
    case DT_BLK: return EntryType::block_device;
    case DT_CHR: return EntryType::char_device;
    case DT_FIFO: return EntryType::fifo;
    case DT_SOCK: return EntryType::socket;
    default: return EntryType::unknown;
    }
}

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
