// Looking ahead: depth-first walks open subdirectories before their turn.
//
// Depth-first, the walk learns of the next directories only as it returns
// entries: a directory's children go on top of the stack, and the one it
// needs next was found a moment ago.  With nothing else known, the workers
// run dry and sleep while the caller's thread does the opens itself: the
// stack holds directories already read, and the walk switches contexts far
// more often than breadth first (18d5af8 counted both).
//
// So once a directory is read, the walk scans its buffer for subdirectories
// (d_type) and opens them at once, each a node of its own outside the stack;
// once those are read, theirs, and so on, within the read-ahead budget:
//
//   read dir --scan--> [ c0 c1 c2 ] opened ahead, listed in dir's slot
//   next() returns the entry c1 --claim--> the node opened for c1
//     caller descends  -> staged as any child, already open or read
//     caller prunes it -> discarded: freed once its open is done, unreported
//
// The claim matches by name, in the order the buffer lists them, which is
// the order next() returns them: an entry the scan did not reach (the
// budget ran out, or a later buffer of a large directory) gets a node made
// for it as without looking ahead.
#include "look_ahead_budget.hpp"
#include "walker.hpp"

#include <dirent.h>

#include <algorithm>
#include <utility>

namespace ioq::walk {
bool Walker::may_look_ahead(const DirNode* node) const {
    return node->slot && !node->error && !node->slot->ahead.scan_done() &&
           node->depth + 1 < window_.depth_limit();
}

bool Walker::may_open_ahead() const {
    return ioq::walk::may_open_ahead({
        .read_ahead = options_.read_ahead,
        .in_flight = in_flight_,
        .outstanding = queue_.outstanding(),
        .to_submit = to_submit_.size(),
        .queue_room = queue_.room(),
        .fds_held = fds_.held(),
        .fds_limit = fds_.limit(),
        .workers_running = queue_.workers_running(),
        .slow_device = queue_.added_workers(),
    });
}

void Walker::look_ahead_more() {
    // The budget goes to the directories the walk will need first, in the
    // order it will need them: what the current directory's entries will
    // claim, then the stack from its top, each with what was opened ahead
    // below it, depth first.  Spent on whatever was read first instead, it
    // went to directories needed last (in_flight_ stayed at the budget and
    // the workers ran dry, slower than not looking ahead: 18d5af8).
    if (!may_open_ahead()) {
        return;  // most calls: the budget is spent
    }
    std::size_t visits = 0;
    Ahead found = current_ ? look_ahead_below_all(*current_->slot, visits) : Ahead::more;
    for (std::size_t i = 0; found != Ahead::stop && i < dirs_.nodes(); ++i) {
        found = look_ahead_below(dirs_.peek(i), visits);
    }
    flush_submissions();
}

Walker::Ahead Walker::look_ahead_below(DirNode* node, std::size_t& visits) {
    // A bounded scan: one with room looks at no more nodes than the budget
    // could open.  The budget is asked only where it would be spent: it
    // takes a look at the queue and the descriptors, and a scan passes
    // many nodes with nothing to open (linux-6.1 -false: 20 visits a
    // call, most of them to nodes read and settled, or opening).
    if (++visits > 2 * look_ahead_budget * options_.read_ahead) {
        return Ahead::stop;
    }
    if (node->ahead_settled) {
        return Ahead::settled;
    }
    if (node->state == DirNode::State::queued) {
        if (!may_open_ahead()) {
            return Ahead::stop;
        }
        submit_open(node);
        return Ahead::more;
    }
    if (node->state != DirNode::State::ready) {
        return Ahead::more;  // opening: once read, it may have more to open
    }
    if (!node->slot) {
        return Ahead::settled;  // failed
    }
    DirSlot& slot = *node->slot;
    if (may_look_ahead(node)) {
        if (!may_open_ahead()) {
            return Ahead::stop;
        }
        look_ahead(node);
    }
    bool scanned = !may_look_ahead(node);  // to its end, or not to be
    Ahead below = look_ahead_below_all(slot, visits);
    if (below == Ahead::settled && scanned) {
        node->ahead_settled = true;
        return Ahead::settled;
    }
    return below == Ahead::stop ? Ahead::stop : Ahead::more;
}

Walker::Ahead Walker::look_ahead_below_all(DirSlot& slot, std::size_t& visits) {
    Ahead found = Ahead::settled;
    AheadChildren& ahead = slot.ahead;
    for (std::size_t i = ahead.first_unsettled(); i < ahead.size(); ++i) {
        Ahead below = look_ahead_below(ahead[i], visits);
        if (below == Ahead::stop) {
            return Ahead::stop;
        }
        if (below != Ahead::settled) {
            found = Ahead::more;
        } else if (found == Ahead::settled) {
            ahead.settled_up_to(i + 1);  // every one before is settled too
        }
    }
    return found;
}

void Walker::look_ahead(DirNode* node) {
    DirSlot& slot = *node->slot;
    DirentCursor cursor(slot.buffer, slot.ahead.scan_offset(), slot.buffer.directories_end());
    RawDirent dirent;
    for (;;) {
        std::size_t scanned = cursor.offset(slot.buffer);
        if (!cursor.next_directory(dirent)) {
            slot.ahead.end_scan();
            return;
        }
        if (skipped_by_rounds(node, dirent.name)) {
            continue;
        }
        if (!may_open_ahead()) {
            slot.ahead.scan_to(scanned);  // out of budget: goes on from here later
            return;
        }
        open_ahead(node, dirent);
        slot.ahead.scan_to(cursor.offset(slot.buffer));
    }
}

bool Walker::skipped_by_rounds(const DirNode* parent, std::string_view name) {
    // What descend_or_discard() will not descend into, pruned or walked
    // whole by an earlier round, is not worth opening.
    if (!window_.has_rounds() || parent->depth + 1 >= window_.min() || memory_.skips_nothing()) {
        return false;
    }
    write_child_path(parent, name, ahead_path_);
    return walked_whole(ahead_path_) || memory_.pruned(ahead_path_);
}

void Walker::open_ahead(DirNode* parent, const RawDirent& dirent) {
    // As descend_or_discard(): what may throw std::bad_alloc comes before
    // the node is linked in.
    AheadChildren& ahead = parent->slot->ahead;
    ahead.reserve_one();
    reserve_for_node();
    DirNode* node = pool_.take_node();
    node->parent = parent;
    node->depth = parent->depth + 1;
    try {
        name_node(node, dirent.name);
    } catch (const std::bad_alloc&) {
        pool_.give_node(node);
        throw;
    }
    node->ino = dirent.inode;  // what the parent listed (identity unknown)
    // Counted before the open is submitted: one too long for the queue
    // completes at once, and its completion counts them down.
    ++parent->live_children;
    ++parent->pending_opens;
    try {
        submit_open(node);
    } catch (const std::bad_alloc&) {
        --parent->live_children;
        --parent->pending_opens;
        pool_.give_node(node);
        throw;
    }
    ahead.add(node);
}

void Walker::claim_ahead(std::string_view name) {
    AheadChildren& ahead = current_->slot->ahead;
    if (component(ahead.next_unclaimed()) != name) {
        return;  // not scanned: its node is made when it is descended into
    }
    DirNode* node = ahead.take_unclaimed();
    if (DirNode* unused = std::exchange(ahead_claimed_, node)) {
        discard(unused);  // an earlier entry's, never descended into
    }
}

void Walker::discard(DirNode* node) {
    node->discarded = true;
    if (node->slot) {
        discard_unclaimed(node);
    }
    if (node->state != DirNode::State::opening) {
        finish_discard(node);
    }
    // Opening: complete() finishes it.
}

void Walker::discard_unclaimed(DirNode* node) {
    AheadChildren& ahead = node->slot->ahead;
    while (ahead.has_unclaimed()) {
        discard(ahead.take_unclaimed());
    }
}

void Walker::finish_discard(DirNode* node) {
    if (node->slot) {
        drop_slot(node);
    }
    if (node->state == DirNode::State::queued) {
        // Never opened (an open refused for want of descriptors, queued
        // again): its parent no longer waits for it.  The parent is alive
        // while this child is.
        --node->parent->pending_opens;
        release_fd_if_unused(node->parent);
    } else {
        --in_flight_;
    }
    node->consumed = true;
    node->post_reported = true;  // never reported, after its contents or before
    release_fd_if_unused(node);  // closes its descriptor, frees it once unused
}

} // namespace ioq::walk
