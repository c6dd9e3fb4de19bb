// DirNode: one directory the walk has found and will read, or is reading.
//
// Life of a node:
//
//   queued --open submitted--> opening --completion--> ready --popped--> current
//     --entries read--> consumed --no live children--> back to the NodePool
//
// A node keeps its descriptor after it is consumed while some of its children
// are still unopened (pending_opens), because they open relative to it; it
// keeps its memory while any child node exists (live_children), because a
// child may open relative to a further ancestor and finds it through parent.
// pins counts opens in flight whose base is this node's descriptor.
#pragma once

#include "../ioq/dir_buffer.hpp"
#include "../ioq/request.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ioq::walk {

// What a directory needs only while it is opened and read: the request the
// workers carry out and the buffer its entries land in.  Taken when its
// open is submitted and given back once the walk has read it, so that a
// directory waiting its turn (most of a breadth-first frontier: 20,000 of
// them at once on the 1M-entry corpus) costs a node without either.
struct DirSlot {
    DirBuffer buffer;
    Request request;
};

struct DirNode {
    enum class State : unsigned char { queued, opening, ready, reading };

    DirNode* parent = nullptr;
    std::string path;
    int depth = 0;
    int fd = -1;
    int error = 0;  // errno of a failed open
    // What the directory is, to check that opening it again by name finds
    // the same one.  identity_known: dev and ino from a statx (starting
    // points, walks that watch loops or devices, directories a worker
    // identified); otherwise ino is the inode number its parent listed
    // and dev is unknown.
    std::uint64_t dev = 0;
    std::uint64_t ino = 0;
    bool identity_known = false;
    State state = State::queued;
    bool consumed = false;
    bool post_queued = false;    // waiting for its post-order visit
    bool post_reported = false;  // post-order visit done
    DirNode* idle_prev = nullptr;  // links in the walk's list of descriptors it
    DirNode* idle_next = nullptr;  // may close early, oldest first
    bool idle = false;
    unsigned live_children = 0;
    unsigned pending_opens = 0;
    unsigned pins = 0;
    DirNode* base = nullptr;  // whose fd the open in flight is relative to
    DirSlot* slot = nullptr;  // from its open's submission until it is read

    // Where a descendant's path continues after this node's path: paths are
    // joined with one '/', except after a path that already ends in one.
    std::size_t child_prefix() const {
        return path.size() + (path.empty() || path.back() != '/' ? 1 : 0);
    }
};

// Makes room for at least `size` items in vector, growing it geometrically
// (reserve() alone grows to exactly what is asked, which would copy the
// whole vector each time one more item is needed).  May throw
// std::bad_alloc; afterwards, push_back() up to `size` items does not.
template <class T>
void reserve_room(std::vector<T>& vector, std::size_t size) {
    if (vector.capacity() < size) {
        vector.reserve(std::max(size, 2 * vector.capacity()));
    }
}

// Reuses nodes and slots so the walk allocates per directory only until its
// working set is built, and never per entry.
//
// Only take_node() and take_slot() allocate (and may throw
// std::bad_alloc, leaving the pool as it was).  Giving back never allocates:
// it happens while completions are processed and while a walk stops, where
// an exception would lose requests or descriptors, so each free list has
// room for every node or buffer there is before that one is created.
class NodePool {
public:
    DirNode* take_node() {
        if (free_nodes_.empty()) {
            reserve_room(free_nodes_, all_nodes_.size() + 1);
            auto node = std::make_unique<DirNode>();
            all_nodes_.push_back(std::move(node));
            return all_nodes_.back().get();
        }
        DirNode* node = free_nodes_.back();
        free_nodes_.pop_back();
        return node;
    }
    void give_node(DirNode* node) noexcept {
        std::string path = std::move(node->path);
        path.clear();
        *node = DirNode{};
        node->path = std::move(path);  // keep its capacity for the next one
        free_nodes_.push_back(node);
    }

    DirSlot* take_slot() {
        if (free_slots_.empty()) {
            reserve_room(free_slots_, all_slots_.size() + 1);
            auto slot = std::make_unique<DirSlot>();
            all_slots_.push_back(std::move(slot));
            return all_slots_.back().get();
        }
        DirSlot* slot = free_slots_.back();
        free_slots_.pop_back();
        return slot;
    }
    void give_slot(DirSlot* slot) noexcept { free_slots_.push_back(slot); }

    // Nodes ever handed out, free or not.
    std::size_t node_count() const { return all_nodes_.size(); }

    // Visits every node ever handed out, free or not (for closing on stop).
    template <class Fn>
    void for_each_node(Fn&& fn) {
        for (auto& node : all_nodes_) {
            fn(*node);
        }
    }

private:
    std::vector<std::unique_ptr<DirNode>> all_nodes_;
    std::vector<DirNode*> free_nodes_;
    std::vector<std::unique_ptr<DirSlot>> all_slots_;
    std::vector<DirSlot*> free_slots_;
};

} // namespace ioq::walk
