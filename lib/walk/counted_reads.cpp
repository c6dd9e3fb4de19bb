#include "counted_reads.hpp"

#include <linux/magic.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <array>

namespace ioq::walk {
namespace {

// statfs's f_type of the file systems whose reads ru_inblock counts, or
// that never read a device.  Left out on purpose: ZFS (its reads run on
// its own kernel threads), overlayfs (its layers may be anything), and
// every network and FUSE file system.
constexpr std::array<unsigned long, 8> counted_types = {
    EXT4_SUPER_MAGIC,   // also ext2 and ext3
    XFS_SUPER_MAGIC,
    BTRFS_SUPER_MAGIC,
    F2FS_SUPER_MAGIC,
    MSDOS_SUPER_MAGIC,  // vfat
    0x2011BAB0UL,       // exfat (not in Debian 12's linux/magic.h)
    TMPFS_MAGIC,
    RAMFS_MAGIC,
};

} // namespace

bool block_reads_are_counted(const std::vector<std::string>& roots) {
    // A kernel without CONFIG_TASK_IO_ACCOUNTING counts no reads anywhere,
    // and has no /proc/PID/io (nor does a system without /proc mounted).
    if (::access("/proc/self/io", F_OK) != 0) {
        return false;
    }
    for (const std::string& root : roots) {
        struct statfs about;
        if (::statfs(root.c_str(), &about) != 0 ||
            std::find(counted_types.begin(), counted_types.end(),
                      static_cast<unsigned long>(about.f_type)) == counted_types.end()) {
            return false;
        }
    }
    return true;
}

} // namespace ioq::walk
