#include "dir_buffer.hpp"

#include <dirent.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <new>

namespace ioq {
namespace {

using dirent_layout::name_offset;

// The largest record: header, a 255-byte name, its NUL, rounded up to 8.
constexpr std::size_t max_record = (name_offset + 256 + 7) & ~std::size_t{7};

// No destructor, so no allocation when a thread first uses it.
thread_local constinit ReadArea* lent_area = nullptr;

// Whether a record's name is "." or "..", from the 4 bytes that start it:
// a record is 24 bytes at least, so they lie within it, and whatever
// padding follows the NUL is masked off.  Without a branch: the tally
// below runs over every record, and its branches on names and types
// mispredicted wherever types mix.
bool names_dot_or_dot_dot(const std::byte* name) noexcept {
    if constexpr (std::endian::native == std::endian::little) {
        std::uint32_t word;
        std::memcpy(&word, name, sizeof word);
        return ((word & 0xffff) == 0x002e) | ((word & 0xffffff) == 0x002e2e);
    } else {
        return is_dot_or_dot_dot(reinterpret_cast<const char*>(name));
    }
}

} // namespace

ReadAreaLoan::ReadAreaLoan(ReadArea& area) noexcept : previous_(lent_area) {
    lent_area = &area;
}

ReadAreaLoan::~ReadAreaLoan() {
    lent_area = previous_;
}

// A buffer that cannot take one whole record would never reach the end.
// The small block is allocated here, by the thread that makes the buffer
// (the walk's), rather than by the first worker to fill it: workers'
// allocations land in their own malloc arenas, each one more to keep pages
// resident in.
DirBuffer::DirBuffer(std::size_t capacity)
    : capacity_(std::max(capacity, max_record)), small_(new std::byte[small_initial]) {}

bool DirBuffer::fit_small(std::size_t size) noexcept {
    if (size <= small_capacity_) {
        return true;
    }
    if (size > small_limit) {
        return false;
    }
    std::size_t capacity = std::bit_ceil(size);
    std::byte* block = new (std::nothrow) std::byte[capacity];
    if (!block) {
        return false;
    }
    small_.reset(block);
    small_capacity_ = capacity;
    return true;
}

void DirBuffer::clear() noexcept {
    size_ = 0;
    read_calls_ = 0;
    at_end_ = false;
    error_ = 0;
    stat_count_ = 0;
    directories_ = unknown_ = links_ = directories_end_ = 0;
}

void DirBuffer::stat_entries(int fd, unsigned mask, int flags) noexcept {
    stat_count_ = 0;
    stat_mask_ = mask;
    std::size_t count = 0;
    RawDirent dirent;
    for (DirentCursor cursor(*this); cursor.next(dirent);) {
        ++count;
    }
    if (stats_.size() < count) {
        try {
            stats_.resize(count);  // once, to this batch's size
        } catch (const std::bad_alloc&) {
            count = stats_.size();  // the entries beyond get their statx on request
        }
    }
    DirentCursor cursor(*this);
    while (stat_count_ < count && cursor.next(dirent)) {
        EntryStat& entry = stats_[stat_count_];
        // The name is NUL-terminated in the record, so it can be passed as is.
        entry.error = ::statx(fd, dirent.name.data(), flags, mask, &entry.buf) < 0 ? errno : 0;
        ++stat_count_;
    }
}

bool DirBuffer::make_room(ReadArea& area) const noexcept {
    if (area.capacity < capacity_) {
        area.bytes.reset(new (std::nothrow) std::byte[capacity_]);
        area.capacity = area.bytes ? capacity_ : 0;
    }
    return area.capacity != 0;
}

void DirBuffer::keep_entries(ReadArea& area) noexcept {
    std::byte* block = fit_small(size_) ? small_.get() : nullptr;
    if (!block && size_ < area.capacity / 2) {
        large_.reset(new (std::nothrow) std::byte[size_]);
        block = large_.get();  // null without memory: then the area is taken
    }
    if (!block) {
        // Mostly used, or no memory for a block: the area itself.
        large_ = std::move(area.bytes);
        large_capacity_ = area.capacity;
        area.capacity = 0;
        return;
    }
    std::memcpy(block, data_, size_);
    data_ = block;
}

std::int64_t DirBuffer::tally(std::size_t from, std::size_t size) noexcept {
    // By type alone: a name is looked at only to pass over "." and "..",
    // the only directories whose names are not measured.  Counted in
    // locals: stores through std::byte may alias the members, which the
    // compiler would otherwise load and store again for every record.
    using namespace dirent_layout;
    std::size_t directories = 0;
    std::size_t unknown = 0;
    std::size_t links = 0;
    std::size_t directories_end = directories_end_;
    const std::byte* last = data_ + from;
    const std::byte* end = data_ + from + size;
    for (const std::byte* record = last; record < end;) {
        last = record;
        unsigned short reclen;
        std::memcpy(&reclen, record + reclen_offset, sizeof reclen);
        record += reclen;
        auto type = static_cast<unsigned char>(last[type_offset]);
        bool directory = (type == DT_DIR) & !names_dot_or_dot_dot(last + name_offset);
        directories += directory;
        unknown += type == DT_UNKNOWN;
        links += type == DT_LNK;
        std::size_t record_end = static_cast<std::size_t>(record - data_);
        directories_end = directory ? record_end : directories_end;
    }
    directories_ += directories;
    unknown_ += unknown;
    links_ += links;
    directories_end_ = directories_end;
    std::int64_t next;
    std::memcpy(&next, last + next_offset, sizeof next);
    return next;
}

void DirBuffer::fill(int fd, bool end_marked) noexcept {
    clear();
    ReadArea own_area;         // for a thread that has none lent
    ReadArea* area = nullptr;  // what the batch is read into, unless large_ or small_
    std::size_t room = capacity_;
    if (large_capacity_ >= capacity_) {
        data_ = large_.get();  // a large directory goes on in the area it took
    } else {
        large_.reset();
        large_capacity_ = 0;
        area = lent_area ? lent_area : &own_area;
        if (make_room(*area)) {
            data_ = area->bytes.get();
        } else {
            // No memory for an area: smaller batches, straight into the
            // small block, rather than an error the walk would report.
            area = nullptr;
            data_ = small_.get();
            room = std::min(capacity_, small_capacity_);
        }
    }
    while (room - size_ >= max_record) {
        long got = ::syscall(SYS_getdents64, fd, data_ + size_, room - size_);
        ++read_calls_;
        if (got < 0) {
            if (errno == EINTR) {
                continue;
            }
            error_ = errno;
            break;
        }
        if (got == 0) {
            at_end_ = true;
            break;
        }
        std::int64_t last_next = tally(size_, static_cast<std::size_t>(got));
        size_ += static_cast<std::size_t>(got);
        if (end_marked && last_next == end_offset) {
            at_end_ = true;  // the call returning 0 would find nothing
            break;
        }
    }
    if (area) {
        keep_entries(*area);
    }
}

bool DirBuffer::assign(const std::byte* bytes, std::size_t size) noexcept {
    clear();
    bool small = fit_small(size);
    std::byte* block = small_.get();
    if (!small) {
        if (large_capacity_ < size) {
            large_.reset(new (std::nothrow) std::byte[size]);
            large_capacity_ = 0;  // a block of its size, not an area fills go on in
        }
        block = large_.get();
        if (!block) {
            return false;
        }
    }
    std::memcpy(block, bytes, size);
    data_ = block;
    size_ = size;
    if (size > 0) {
        tally(0, size);
    }
    at_end_ = true;
    return true;
}

void DirBuffer::trim() noexcept {
    clear();
    if (stats_.size() > stats_kept) {
        stats_ = std::vector<EntryStat>();
    }
    data_ = nullptr;
    large_.reset();
    large_capacity_ = 0;
}

} // namespace ioq
