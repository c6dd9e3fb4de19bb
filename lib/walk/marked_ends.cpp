#include "marked_ends.hpp"

#include "mount_table.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <memory>

namespace ioq::walk {
namespace {

// mountinfo's names of the kernel's own file systems, whose offsets never
// reach INT64_MAX but at a directory's end.  Left out on purpose: every
// network and FUSE file system (their servers choose the offsets),
// autofs (it mounts one of those), and overlayfs (a directory only in one
// layer lists with that layer's offsets, and a layer may be anything).
constexpr std::array<std::string_view, 30> local_types = {
    "ext2",     "ext3",       "ext4",     "btrfs",    "xfs",       "f2fs",
    "tmpfs",    "ramfs",      "devtmpfs", "proc",     "sysfs",     "cgroup",
    "cgroup2",  "devpts",     "mqueue",   "hugetlbfs", "debugfs",  "tracefs",
    "securityfs", "pstore",   "bpf",      "configfs", "efivarfs",  "binfmt_misc",
    "squashfs", "iso9660",    "vfat",     "msdos",    "exfat",     "nsfs",
};

// A mount point as the kernel escapes it: space, tab, newline and
// backslash as \ooo.
std::string unescape(std::string_view field) {
    std::string out;
    out.reserve(field.size());
    for (std::size_t i = 0; i < field.size(); ++i) {
        if (field[i] == '\\' && i + 3 < field.size()) {
            std::string_view digits = field.substr(i + 1, 3);
            if (std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '7'; })) {
                out.push_back(static_cast<char>((digits[0] - '0') * 64 + (digits[1] - '0') * 8 +
                                                (digits[2] - '0')));
                i += 3;
                continue;
            }
        }
        out.push_back(field[i]);
    }
    return out;
}

// Whether one of a and b is the other or lies below it, by components.
bool on_one_path(std::string_view a, std::string_view b) {
    if (a.size() > b.size()) {
        std::swap(a, b);
    }
    return b.substr(0, a.size()) == a &&
           (b.size() == a.size() || a == "/" || b[a.size()] == '/');
}

} // namespace

bool ends_are_marked_in(std::string_view mountinfo, const std::vector<std::string>& canonical_roots) {
    bool any_mount = false;
    while (!mountinfo.empty()) {
        std::string_view line = next_line(mountinfo);
        if (line.empty()) {
            continue;
        }
        MountLine mount;
        if (!parse_mount_line(line, mount)) {
            return false;  // not the format proc(5) gives: trust nothing
        }
        any_mount = true;
        if (std::find(local_types.begin(), local_types.end(), mount.type) != local_types.end()) {
            continue;
        }
        std::string point = unescape(mount.mount_point);
        for (const std::string& root : canonical_roots) {
            if (on_one_path(point, root)) {
                return false;
            }
        }
    }
    return any_mount;
}

bool ends_are_marked(const std::vector<std::string>& roots, bool follows_links) {
    if (follows_links || roots.empty()) {
        return false;
    }
    std::vector<std::string> canonical;
    canonical.reserve(roots.size());
    for (const std::string& root : roots) {
        std::unique_ptr<char, decltype(&std::free)> resolved(::realpath(root.c_str(), nullptr),
                                                             &std::free);
        if (!resolved) {
            return false;  // the walk reports the error; nothing to decide on
        }
        canonical.emplace_back(resolved.get());
    }
    std::string mountinfo;
    return read_mount_table(mountinfo) && ends_are_marked_in(mountinfo, canonical);
}

} // namespace ioq::walk
