// DirBuffer: one batch of raw directory entries, as getdents64 returns them.
//
// A worker fills the buffer right after the directory's openat completes, so a
// directory costs the walk loop one round trip through the queue, not two.  The
// walk loop then reads entries straight out of the kernel's record format with a
// DirentCursor: no copy, no allocation per entry.
//
//   bytes: [ linux_dirent64 | linux_dirent64 | ... ]  size bytes
//
// fill() keeps calling getdents64 while a whole further record could still fit
// in capacity bytes, so that a small directory is read to its end (getdents64
// returning 0) in the same trip; at_end then tells the walk no further read is
// needed.  Where the file system marks the last record of a directory (its
// d_off is INT64_MAX: ext4, see walk/marked_ends.hpp), the call that would
// return 0 is skipped.
//
// Where the bytes live: getdents64 writes into the read area lent to the
// filling thread (ReadAreaLoan).  A batch of up to small_limit bytes (most
// directories) is copied into the buffer's own small block, a larger one
// into a block of its size, and one that fills half the area or more takes
// the area with it (the thread's next fill gets a new one).  A walk keeps a
// hundred or more buffers in flight, and when each owned a capacity-sized
// block, each kept resident every page the largest directory it ever held
// had touched.  Giving pages back with madvise instead cost a TLB flush of
// every core running a worker for each large directory, slowing large walks
// (both measured in 988db93).
#pragma once

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

namespace ioq {

// The memory getdents64 writes into before a batch is kept: one per thread
// that fills buffers, owned by whoever runs requests on that thread (a
// worker, or the IoQueue for the calls it makes on its caller's), and lent
// to DirBuffer::fill for as long as a ReadAreaLoan lives.  A thread with
// none lent fills through an area of its own for each fill.
struct ReadArea {
    std::unique_ptr<std::byte[]> bytes;
    std::size_t capacity = 0;
};

// Lends an area to the fills of this thread until destroyed, then lends
// again what was lent before (loans nest: a worker's run inside a call
// that lent the caller's area).  Not a thread_local owner: a thread-local
// object with a destructor makes glibc allocate at its first use, and
// abort when that allocation fails.
class ReadAreaLoan {
public:
    explicit ReadAreaLoan(ReadArea& area) noexcept;
    ~ReadAreaLoan();
    ReadAreaLoan(const ReadAreaLoan&) = delete;
    ReadAreaLoan& operator=(const ReadAreaLoan&) = delete;

private:
    ReadArea* previous_;
};

class DirBuffer {
public:
    // 32 KiB holds about a thousand typical entries: most directories are
    // read in one fill.
    static constexpr std::size_t default_capacity = 32 * 1024;
    // The buffer's own block, for a batch it copies rather than allocate
    // for: it starts at small_initial bytes and grows to hold the largest
    // batch it was given, up to small_limit (2 KiB holds 50 or so typical
    // entries).  Starting small matters for the pages a walk touches, each
    // a page fault: most directories list well under 512 bytes, and a
    // depth-first walk keeps a few hundred buffers at once (measured in
    // 58d8684).
    static constexpr std::size_t small_initial = 512;
    static constexpr std::size_t small_limit = 2 * 1024;

    explicit DirBuffer(std::size_t capacity = default_capacity);

    // Replaces the contents with the next entries of fd.  Sets at_end() when the
    // directory is exhausted and error() (a positive errno) when reading failed.
    // Never fails for want of memory: it then reads smaller batches.  With
    // end_marked, a last record whose d_off is end_offset ends the directory.
    void fill(int fd, bool end_marked = false) noexcept;
    static constexpr std::int64_t end_offset = INT64_MAX;

    // Replaces the contents with size bytes of records a fill() returned
    // before, as a whole listing (at_end(), no read_calls(), no metadata):
    // a listing kept from an earlier round of ids, eds or hybrid
    // (walk/kept_listings.hpp).  False, the buffer empty, when there is no
    // memory for a batch larger than the small block.
    bool assign(const std::byte* bytes, std::size_t size) noexcept;

    // Empties the buffer and frees what a large batch needed (its area,
    // the results of its statx calls): the buffer is done with, and may
    // wait long before it is filled again.
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

    // How many entries may be directories to descend into (DT_DIR, a
    // DT_UNKNOWN to be looked at, or with links_too a DT_LNK), counting
    // no further than limit.
    std::size_t count_directories(std::size_t limit, bool links_too) const {
        return std::min(limit, directories_ + unknown_ + (links_too ? links_ : 0));
    }
    // Where the last entry listed as a directory (DT_DIR) ends: a scan for
    // directories stops there (0 when the batch lists none).
    std::size_t directories_end() const { return directories_end_; }

    const std::byte* data() const { return data_; }
    std::size_t size() const { return size_; }
    // getdents64 calls the last fill() made (the one that saw the end too).
    unsigned read_calls() const { return read_calls_; }
    bool at_end() const { return at_end_; }
    int error() const { return error_; }

private:
    void clear() noexcept;
    // Gives area room for a batch of capacity_ bytes; false when there is
    // no memory for it.
    bool make_room(ReadArea& area) const noexcept;
    // Moves the batch just read into area to where the buffer keeps it.
    void keep_entries(ReadArea& area) noexcept;
    // Counts the types of the records one getdents64 call added at
    // offset `from`; returns the d_off of the last one.
    std::int64_t tally(std::size_t from, std::size_t size) noexcept;

    std::size_t capacity_;
    std::byte* data_ = nullptr;
    std::size_t size_ = 0;
    // Makes the small block hold size bytes (at most small_limit); false,
    // the block as it was, without memory for a larger one.
    bool fit_small(std::size_t size) noexcept;

    std::unique_ptr<std::byte[]> small_;  // small_capacity_ bytes
    std::size_t small_capacity_ = small_initial;
    // A batch larger than small_limit: its read area when it fills half of
    // it or more (large_capacity_ bytes; fills of the same directory go on
    // in it), else a block of its size (large_capacity_ 0).
    std::unique_ptr<std::byte[]> large_;
    std::size_t large_capacity_ = 0;
    unsigned read_calls_ = 0;
    // The batch's types, counted by fill() in the pass it makes anyway for
    // the end mark, so that neither the close decision after each read nor
    // looking ahead walks the records again (each pass cost instructions
    // on every entry, measured in 0dc0de1).
    std::size_t directories_ = 0;  // DT_DIR, "." and ".." left out
    std::size_t unknown_ = 0;      // DT_UNKNOWN
    std::size_t links_ = 0;        // DT_LNK
    std::size_t directories_end_ = 0;
    bool at_end_ = false;
    int error_ = 0;
    struct EntryStat {
        struct statx buf;
        int error;  // positive errno of its statx, or 0
    };
    // Results for as many entries as the largest batch since trim(), which
    // keeps them only up to stats_kept: kept for the largest directory a
    // pooled buffer ever held, they kept far more memory resident than bfs
    // does (measured in 988db93).
    static constexpr std::size_t stats_kept = 16;
    std::vector<EntryStat> stats_;
    std::size_t stat_count_ = 0;
    unsigned stat_mask_ = 0;
};

// Layout of struct linux_dirent64 (getdents64(2)); read field by field with
// memcpy because records are only 8-byte aligned by convention, not by type.
namespace dirent_layout {
inline constexpr std::size_t inode_offset = 0;
inline constexpr std::size_t next_offset = 8;  // d_off
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

// "." or "..", which every directory lists and no walk reports.
inline bool is_dot_or_dot_dot(const char* name) {
    return name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'));
}

// Walks the records of a DirBuffer in order, skipping "." and "..".
class DirentCursor {
public:
    DirentCursor() = default;
    explicit DirentCursor(const DirBuffer& buffer, std::size_t offset = 0)
        : DirentCursor(buffer, offset, buffer.size()) {}
    // The records from offset to end only (both offsets of record starts
    // or ends in buffer).
    DirentCursor(const DirBuffer& buffer, std::size_t offset, std::size_t end)
        : next_(buffer.data() + offset), end_(buffer.data() + end) {}

    // Returns false when the buffer holds no further entry.  Inline: the
    // walk calls it for every entry.
    bool next(RawDirent& out) {
        while (next_ < end_) {
            const std::byte* record = step();
            if (!is_dot_or_dot_dot(name_of(record))) {
                read(record, out);
                return true;
            }
        }
        return false;
    }

    // As next(), but only the entries listed as directories (DT_DIR): the
    // others are passed over by their type alone, without measuring their
    // names (looking ahead scans every buffer the walk reads for these).
    bool next_directory(RawDirent& out) {
        while (next_ < end_) {
            const std::byte* record = step();
            if (static_cast<unsigned char>(record[dirent_layout::type_offset]) == DT_DIR &&
                !is_dot_or_dot_dot(name_of(record))) {
                read(record, out);
                return true;
            }
        }
        return false;
    }

    // Where the next entry starts, for a cursor made later to go on from
    // there (valid until the buffer is filled again).
    std::size_t offset(const DirBuffer& buffer) const {
        return static_cast<std::size_t>(next_ - buffer.data());
    }

private:
    // The record at next_, which then moves past it.
    const std::byte* step() {
        const std::byte* record = next_;
        unsigned short reclen;
        std::memcpy(&reclen, record + dirent_layout::reclen_offset, sizeof reclen);
        next_ += reclen;
        return record;
    }
    static const char* name_of(const std::byte* record) {
        return reinterpret_cast<const char*>(record + dirent_layout::name_offset);
    }
    static void read(const std::byte* record, RawDirent& out) {
        using namespace dirent_layout;
        std::memcpy(&out.inode, record + inode_offset, sizeof out.inode);
        out.type = static_cast<unsigned char>(record[type_offset]);
        out.name = std::string_view(name_of(record), name_length(record));
    }
    // The kernel sizes every record exactly (filldir64: the header, the
    // name, its NUL, rounded up to 8 bytes), so the NUL lies in the
    // record's last 8 bytes, and it is the first zero byte there that
    // comes after the header: a name holds none.  One load and a few bit
    // operations instead of a call to strlen for every entry, a visible
    // share of a names-only walk (measured in ae1c13c).  A record sized
    // otherwise (no zero byte in its last 8) is measured with strlen.
    static std::size_t name_length(const std::byte* record) {
        using namespace dirent_layout;
        unsigned short reclen;
        std::memcpy(&reclen, record + reclen_offset, sizeof reclen);
        if constexpr (std::endian::native == std::endian::little) {
            std::size_t tail = reclen - std::size_t{8};  // where the last 8 bytes start
            std::uint64_t word;
            std::memcpy(&word, record + tail, sizeof word);
            if (tail < name_offset) {
                // The shortest record (a name of up to 4 bytes): its
                // last 8 bytes start in the header, whose bytes are no
                // NUL of the name.
                word |= (std::uint64_t{1} << 8 * (name_offset - tail)) - 1;
            }
            constexpr std::uint64_t ones = 0x0101010101010101;
            // The lowest byte flagged is the first zero byte (a borrow
            // only flags bytes above a zero one).
            std::uint64_t zeros = (word - ones) & ~word & (ones << 7);
            if (zeros != 0) {
                return tail + static_cast<std::size_t>(std::countr_zero(zeros) / 8) - name_offset;
            }
        }
        return std::strlen(name_of(record));
    }

    const std::byte* next_ = nullptr;
    const std::byte* end_ = nullptr;
};

} // namespace ioq
