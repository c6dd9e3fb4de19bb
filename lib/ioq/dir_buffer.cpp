#include "dir_buffer.hpp"

#include <dirent.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <new>

namespace ioq {
namespace {

using dirent_layout::name_offset;

// The largest record: header, a 255-byte name, its NUL, rounded up to 8.
constexpr std::size_t max_record = (name_offset + 256 + 7) & ~std::size_t{7};

} // namespace

// A buffer that cannot take one whole record would never reach the end.
DirBuffer::DirBuffer(std::size_t capacity)
    : bytes_(new std::byte[std::max(capacity, max_record)]),
      capacity_(std::max(capacity, max_record)) {}

void DirBuffer::clear() noexcept {
    size_ = 0;
    read_calls_ = 0;
    at_end_ = false;
    error_ = 0;
    stat_count_ = 0;
}

void DirBuffer::stat_entries(int fd, unsigned mask, int flags) noexcept {
    stat_count_ = 0;
    stat_mask_ = mask;
    DirentCursor cursor(*this);
    RawDirent dirent;
    while (cursor.next(dirent)) {
        if (stat_count_ == stats_.size()) {
            // The results vector grows until it fits the largest buffer and
            // is reused after that, so this runs a few times per walk.
            try {
                stats_.resize(stats_.size() + 64);
            } catch (const std::bad_alloc&) {
                return;  // the entries not reached get their statx on request
            }
        }
        EntryStat& entry = stats_[stat_count_];
        // The name is NUL-terminated in the record, so it can be passed as is.
        entry.error = ::statx(fd, dirent.name.data(), flags, mask, &entry.buf) < 0 ? errno : 0;
        ++stat_count_;
    }
}

void DirBuffer::fill(int fd) noexcept {
    clear();
    while (capacity_ - size_ >= max_record) {
        long got = ::syscall(SYS_getdents64, fd, bytes_.get() + size_, capacity_ - size_);
        ++read_calls_;
        if (got < 0) {
            if (errno == EINTR) {
                continue;
            }
            error_ = errno;
            return;
        }
        if (got == 0) {
            at_end_ = true;
            return;
        }
        size_ += static_cast<std::size_t>(got);
        touched_ = std::max(touched_, size_);
    }
}

void DirBuffer::trim() noexcept {
    // Pages whole inside the buffer past the first trim_keep bytes: the rest
    // of the allocation belongs to malloc, and the head is what small
    // directories use again at once.  4 KiB rather than 8: 0.4 MiB less
    // resident on the 1M-entry corpus (128 buffers in flight) for 3 more
    // madvise calls on linux-6.1 (18 against 15).
    constexpr std::size_t trim_keep = 4 * 1024;
    if (touched_ <= trim_keep) {
        return;
    }
    static const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    auto start = reinterpret_cast<std::uintptr_t>(bytes_.get()) + trim_keep;
    auto end = reinterpret_cast<std::uintptr_t>(bytes_.get()) + touched_;
    start = (start + page - 1) & ~(page - 1);
    end &= ~(page - 1);
    if (end > start) {
        ::madvise(reinterpret_cast<void*>(start), end - start, MADV_DONTNEED);
    }
    touched_ = trim_keep;
}

bool DirBuffer::may_hold_directories(bool links_too) const {
    DirentCursor cursor(*this);
    RawDirent dirent;
    while (cursor.next(dirent)) {
        if (dirent.type == DT_DIR || dirent.type == DT_UNKNOWN ||
            (links_too && dirent.type == DT_LNK)) {
            return true;
        }
    }
    return false;
}

} // namespace ioq
