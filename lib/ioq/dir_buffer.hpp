// DirBuffer: one batch of raw directory entries, as getdents64 returns them.
//
// A worker fills the buffer right after the directory's openat completes, so a
// directory costs the walk loop one round trip through the queue, not two.  The
// walk loop then reads entries straight out of the kernel's record format with a
// DirentCursor: no copy, no allocation per entry.
//
//   bytes: [ linux_dirent64 | linux_dirent64 | ... ]  size bytes used of capacity
//
// fill() keeps calling getdents64 while a whole further record could still fit,
// so that a small directory is read to its end (getdents64 returning 0) in the
// same trip; at_end then tells the walk no further read is needed.
#pragma once

#include <sys/stat.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

namespace ioq {

class DirBuffer {
public:
    // 32 KiB holds about a thousand typical entries; most directories fit in one
    // buffer, and a few hundred buffers in flight stay within a few MiB.
    static constexpr std::size_t default_capacity = 32 * 1024;

    explicit DirBuffer(std::size_t capacity = default_capacity);

    // Replaces the contents with the next entries of fd.  Sets at_end() when the
    // directory is exhausted and error() (a positive errno) when reading failed.
    void fill(int fd) noexcept;
    void clear() noexcept;

    // Gives the pages a large directory filled beyond the first few back to
    // the kernel.  Over a long walk nearly every pooled buffer once holds
    // such a directory, and would keep all its pages resident (1.4 MiB of
    // the 11 MiB peak on the 1M-entry corpus); a few hundred directories
    // of linux-6.1 are large enough to cost this one call.
    void trim() noexcept;

    // statx of every entry in the buffer, relative to fd, in DirentCursor
    // order, for walks that know they need metadata of every entry: the
    // worker that read the directory fetches it while the walk loop is busy
    // elsewhere.  stat(i) is the i-th entry's, or nullptr if statx failed
    // (the walk then asks again and reports that error).  Never throws: it
    // runs on worker threads, and when memory for the results runs out it
    // stops early, leaving the rest to be asked for as after a failed statx.
    void stat_entries(int fd, unsigned mask, int flags) noexcept;
    const struct statx* stat(std::size_t i) const {
        return i < stat_count_ && stats_[i].error == 0 ? &stats_[i].buf : nullptr;
    }
    unsigned stat_mask() const { return stat_count_ ? stat_mask_ : 0; }
    // statx calls the last stat_entries() made since the last fill().
    std::size_t stat_calls() const { return stat_count_; }

    // Whether some entry may be a directory to descend into: DT_DIR, a
    // DT_UNKNOWN to be looked at, or with links_too a DT_LNK.
    bool may_hold_directories(bool links_too) const;

    const std::byte* data() const { return bytes_.get(); }
    std::size_t size() const { return size_; }
    // getdents64 calls the last fill() made (the one that saw the end too).
    unsigned read_calls() const { return read_calls_; }
    bool at_end() const { return at_end_; }
    int error() const { return error_; }

private:
    std::unique_ptr<std::byte[]> bytes_;
    std::size_t capacity_;
    std::size_t size_ = 0;
    std::size_t touched_ = 0;  // bytes that may be resident: the most filled since trim()
    unsigned read_calls_ = 0;
    bool at_end_ = false;
    int error_ = 0;
    struct EntryStat {
        struct statx buf;
        int error;  // positive errno of its statx, or 0
    };
    std::vector<EntryStat> stats_;
    std::size_t stat_count_ = 0;
    unsigned stat_mask_ = 0;
};

// Layout of struct linux_dirent64 (getdents64(2)); read field by field with
// memcpy because records are only 8-byte aligned by convention, not by type.
namespace dirent_layout {
inline constexpr std::size_t inode_offset = 0;
inline constexpr std::size_t reclen_offset = 16;
inline constexpr std::size_t type_offset = 18;
inline constexpr std::size_t name_offset = 19;
} // namespace dirent_layout

// One directory entry as the kernel reported it; name points into the buffer.
struct RawDirent {
    std::uint64_t inode;
    unsigned char type;  // DT_* value, DT_UNKNOWN when the filesystem does not say
    std::string_view name;
};

// Walks the records of a DirBuffer in order, skipping "." and "..".
class DirentCursor {
public:
    DirentCursor() = default;
    explicit DirentCursor(const DirBuffer& buffer, std::size_t offset = 0)
        : next_(buffer.data() + offset), end_(buffer.data() + buffer.size()) {}

    // Returns false when the buffer holds no further entry.  Inline: the
    // walk calls it for every entry.
    bool next(RawDirent& out) {
        using namespace dirent_layout;
        while (next_ < end_) {
            const std::byte* record = next_;
            unsigned short reclen;
            std::memcpy(&reclen, record + reclen_offset, sizeof reclen);
            next_ += reclen;

            const char* name = reinterpret_cast<const char*>(record + name_offset);
            if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'))) {
                continue;
            }
            std::memcpy(&out.inode, record + inode_offset, sizeof out.inode);
            out.type = static_cast<unsigned char>(record[type_offset]);
            out.name = std::string_view(name, std::strlen(name));
            return true;
        }
        return false;
    }

    // Where the next entry starts, for a cursor made later to go on from
    // there (valid until the buffer is filled again).
    std::size_t offset(const DirBuffer& buffer) const {
        return static_cast<std::size_t>(next_ - buffer.data());
    }

private:
    const std::byte* next_ = nullptr;
    const std::byte* end_ = nullptr;
};

} // namespace ioq
