#include "queued_dirs.hpp"

#include <algorithm>
#include <cstring>

namespace ioq::walk {
namespace {

// Large enough that a chunk is allocated once per ~1,300 directories queued
// (linux-6.1's names), small enough that the last one is mostly used.
constexpr std::size_t chunk_size = 64 * 1024;

} // namespace

std::size_t QueuedDirs::record_size(std::size_t name_size, bool identity_known) {
    std::size_t dev_size = identity_known ? sizeof(std::uint64_t) : 0;
    // Rounded up so that the next header is aligned for its pointer.
    return (sizeof(Header) + dev_size + name_size + 7) & ~std::size_t{7};
}

void QueuedDirs::add_chunk(std::size_t at_least) {
    std::size_t capacity = std::max(chunk_size, at_least);
    if (spare_.capacity >= capacity) {
        chunks_.push_back(std::move(spare_));  // may throw, leaving the spare as it was
        spare_ = Chunk{};
        return;
    }
    Chunk chunk;
    chunk.bytes = std::make_unique_for_overwrite<std::byte[]>(capacity);
    chunk.capacity = capacity;
    chunks_.push_back(std::move(chunk));
}

void QueuedDirs::reserve(std::size_t records, std::size_t name_bytes) {
    std::size_t bytes = records * record_size(0, true) + name_bytes + 7 * records;
    if (!chunks_.empty()) {
        const Chunk& last = chunks_.back();
        if (last.capacity - last.used >= bytes) {
            return;
        }
    }
    add_chunk(bytes);
}

void QueuedDirs::push(const QueuedDir& dir) {
    std::size_t size = record_size(dir.name.size(), dir.identity_known);
    // Records go into the first chunk from the tail on with room; chunks
    // after it are empty ones reserve() added.
    while (tail_ < chunks_.size() && chunks_[tail_].capacity - chunks_[tail_].used < size) {
        ++tail_;
    }
    if (tail_ == chunks_.size()) {
        add_chunk(size);
    }
    Chunk& chunk = chunks_[tail_];
    std::byte* record = chunk.bytes.get() + chunk.used;
    Header header{dir.parent, dir.ino, dir.depth, static_cast<std::uint32_t>(dir.name.size()),
                  dir.identity_known};
    std::memcpy(record, &header, sizeof header);
    record += sizeof header;
    if (dir.identity_known) {
        std::memcpy(record, &dir.dev, sizeof dir.dev);
        record += sizeof dir.dev;
    }
    std::memcpy(record, dir.name.data(), dir.name.size());
    chunk.used += size;
    ++count_;
}

QueuedDir QueuedDirs::front() const {
    const std::byte* record = chunks_.front().bytes.get() + head_;
    Header header;
    std::memcpy(&header, record, sizeof header);
    record += sizeof header;
    QueuedDir dir;
    dir.parent = header.parent;
    dir.ino = header.ino;
    dir.depth = header.depth;
    dir.identity_known = header.identity_known;
    if (dir.identity_known) {
        std::memcpy(&dir.dev, record, sizeof dir.dev);
        record += sizeof dir.dev;
    }
    dir.name = std::string_view(reinterpret_cast<const char*>(record), header.name_size);
    return dir;
}

void QueuedDirs::pop() noexcept {
    Chunk& front = chunks_.front();
    Header header;
    std::memcpy(&header, front.bytes.get() + head_, sizeof header);
    head_ += record_size(header.name_size, header.identity_known);
    --count_;
    if (head_ < front.used) {
        return;
    }
    head_ = 0;
    if (tail_ == 0) {
        front.used = 0;  // the tail's chunk too: written again from its start
        return;
    }
    front.used = 0;
    spare_ = std::move(front);
    chunks_.pop_front();
    --tail_;
}

} // namespace ioq::walk
