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
#include "ahead_children.hpp"
#include "free_list.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ioq::walk {

// What a directory needs only while it is opened and read: the request the
// workers carry out and the buffer its entries land in.  Taken when its
// open is submitted and given back once the walk has read it, so that a
// directory waiting its turn (most of a breadth-first frontier: 20,000 of
// them at once on the 1M-entry corpus) costs a node without either.
struct DirNode;

struct DirSlot {
    DirBuffer buffer;
    Request request;
    std::string path;  // request.path: relative to path_base
    // Whose descriptor the open in flight is relative to (pinned until the
    // open completes); nullptr for a path from the current directory.
    DirNode* base = nullptr;
    // What base was, kept after the open: a child opened relative to the
    // same descriptor takes this path and its own name.
    const DirNode* path_base = nullptr;

    // Looking ahead (WalkOptions::look_ahead): the subdirectories listed
    // in the buffer that were opened before the directory's turn.
    AheadChildren ahead;
};

struct DirNode {
    enum class State : unsigned char { queued, opening, ready, reading };

    // Pointers and 64-bit fields first, then 32-bit, then flags in one
    // byte: 120 bytes, where the same fields in the order they are
    // explained in cost 136, and a breadth-first walk holds many nodes at
    // once (measured in b367ddb).
    DirNode* parent = nullptr;
    // Its name in its parent, or a path (holds_path below): a starting
    // point's as given, and at every eighth level below, the path from
    // anchor_above, the nearest node above that holds one.  Walker::
    // write_path builds a full path from the names up to the nearest
    // holder, then from holder to holder.  Most names fit in the string
    // itself, where a full path per queued directory cost megabytes
    // (measured in ff85457); and where every eighth level held its full
    // path, a deep chain held far more (measured in bc6e14f).
    std::string name;
    const DirNode* anchor_above = nullptr;
    // What the directory is, to check that opening it again by name finds
    // the same one.  identity_known: dev and ino from a statx (starting
    // points, walks that watch loops or devices, directories a worker
    // identified); otherwise ino is the inode number its parent listed
    // and dev is unknown.
    std::uint64_t dev = 0;
    std::uint64_t ino = 0;
    DirNode* idle_prev = nullptr;  // links in the walk's list of descriptors it
    DirNode* idle_next = nullptr;  // may close early, oldest first
    DirSlot* slot = nullptr;  // from its open's submission until it is read
    int depth = 0;
    int fd = -1;
    int error = 0;  // errno of a failed open
    unsigned live_children = 0;
    unsigned pending_opens = 0;
    unsigned pins = 0;
    State state = State::queued;
    bool identity_known : 1 = false;
    bool consumed : 1 = false;
    bool post_queued : 1 = false;    // waiting for its post-order visit
    bool post_reported : 1 = false;  // post-order visit done
    // Opened ahead of its entry, whose caller then did not descend into
    // it: freed, unreported, once its open is done (see Walker::discard).
    bool discarded : 1 = false;
    // ids/eds: a directory at the round's depth bound lies below it, so a
    // later round must walk it again; otherwise its subtree is finished
    // (Walker::record_finished), and recorded once.
    bool truncated : 1 = false;
    bool finish_recorded : 1 = false;
    bool idle : 1 = false;
    // Looking ahead: read, scanned to the end (or too deep to scan), and so
    // is every directory it opened ahead, down to the last.  Nothing below
    // will want an open again, so the walk's scans for what to open next
    // pass it in one step, without a look at its slot.
    bool ahead_settled : 1 = false;
    // Its listing came from the walk's KeptListings, not from a read.
    bool listing_kept : 1 = false;
};

// One level in this many holds a path, from the level above that holds one
// (the others only their name), so that building a path takes a step per
// name up to the nearest holder, then a step per holder; closing
// directories once read, the walk keeps these levels open, so that an open
// is relative to an ancestor at most this many components up.  Few trees
// are deeper than 8 (linux-6.1: 56 of its 5,096 directories).
inline constexpr int anchor_every = 8;

// A starting point keeps its path as given in DirNode::name, and every
// anchor_every-th level its path from the holder above (anchor_above); the
// others keep their name alone.
inline bool holds_path(const DirNode* node) {
    return !node->parent || node->depth % anchor_every == 0;
}

// The nearest node above node (whose parent is set) that holds a path.
inline const DirNode* holder_above(const DirNode* node) {
    const DirNode* above = node->parent;
    while (!holds_path(above)) {
        above = above->parent;
    }
    return above;
}

// The node's name in its parent, whichever it holds (a starting point's:
// its path as given).
inline std::string_view component(const DirNode* node) {
    std::string_view name = node->name;
    if (node->parent && holds_path(node)) {
        name.remove_prefix(name.rfind('/') + 1);
    }
    return name;
}

// Reuses nodes and slots so the walk allocates per directory only until its
// working set is built, and never per entry (see free_list.hpp for when
// allocation may fail).
class NodePool {
public:
    DirNode* take_node() { return nodes_.take(); }
    void give_node(DirNode* node) noexcept {
        std::string name = std::move(node->name);
        name.clear();
        *node = DirNode{};
        node->name = std::move(name);  // keep its capacity for the next one
        nodes_.give(node);
    }

    DirSlot* take_slot() { return slots_.take(); }
    void give_slot(DirSlot* slot) noexcept { slots_.give(slot); }

    // Nodes and slots ever handed out, free or not.
    std::size_t node_count() const { return nodes_.count(); }
    std::size_t slot_count() const { return slots_.count(); }

    // Visits every node ever handed out, free or not (for closing on stop).
    template <class Fn>
    void for_each_node(Fn&& fn) {
        nodes_.for_each(fn);
    }

private:
    // In chunks: no allocation header and no owning pointer per node.
    FreeList<DirNode, 64> nodes_;
    FreeList<DirSlot> slots_;
};

} // namespace ioq::walk
