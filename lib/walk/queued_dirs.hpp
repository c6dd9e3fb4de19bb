// QueuedDirs: directories far back in a breadth-first queue, kept as compact
// records rather than nodes.
//
// A breadth-first frontier is wide: most of the walk's nodes are queued
// directories (measured in 3886390), each a full node plus its places in
// the free list and the queue.  Until a directory nears the head
// (the read-ahead window) the walk needs of it only what makes it a node
// again: its parent, its depth, its name and what it is (ino, and dev when
// known).  Here that is 24 bytes (32 with dev) and the name, in a FIFO of
// 64 KiB chunks that are given back as the head passes them:
//
//   chunk:  [ header | dev? | name ... pad ][ header | name ... pad ] ...
//           ^ head (oldest)                                    ^ tail
//
// A record longer than a chunk (a holder's path of eight long names) gets a
// chunk of its own size.  push() may throw std::bad_alloc only when
// reserve() was not called for it first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string_view>

namespace ioq::walk {

struct DirNode;

// One queued directory, as push() takes it and front() gives it back
// (name points into the FIFO until pop()).
struct QueuedDir {
    DirNode* parent = nullptr;
    std::uint64_t dev = 0;  // kept only when identity_known (else front() gives 0)
    std::uint64_t ino = 0;
    int depth = 0;
    bool identity_known = false;
    std::string_view name;
};

class QueuedDirs {
public:
    bool empty() const { return count_ == 0; }
    std::size_t size() const { return count_; }

    // Makes room for records with names of these lengths in total, so that
    // pushing them does not allocate.  May throw std::bad_alloc.
    void reserve(std::size_t records, std::size_t name_bytes);
    void push(const QueuedDir& dir);
    QueuedDir front() const;
    void pop() noexcept;

private:
    // dev follows the header only when identity_known: most walks learn
    // a queued directory's inode from its dirent and its device not at
    // all, so 8 bytes less a record adds up at a wide frontier (measured
    // in edfb6a2).
    struct Header {
        DirNode* parent;
        std::uint64_t ino;
        std::int32_t depth;
        std::uint32_t name_size : 31;
        std::uint32_t identity_known : 1;
    };
    static_assert(sizeof(Header) == 24);

    struct Chunk {
        std::unique_ptr<std::byte[]> bytes;
        std::size_t capacity = 0;
        std::size_t used = 0;  // bytes of records pushed into it
    };

    static std::size_t record_size(std::size_t name_size, bool identity_known);
    void add_chunk(std::size_t at_least);

    std::deque<Chunk> chunks_;  // the head's chunk first
    std::size_t head_ = 0;      // offset of the oldest record in chunks_.front()
    std::size_t tail_ = 0;      // index of the chunk records go into next
    std::size_t count_ = 0;
    Chunk spare_;               // the last emptied chunk, for the next one needed
};

} // namespace ioq::walk
