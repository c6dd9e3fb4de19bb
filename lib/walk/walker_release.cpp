// Walker, release: when a directory's descriptor closes and its node is
// freed.
//
// A descriptor stays open while something still needs it: an open relative
// to it in flight (pins, pending_opens), or children below a starting point
// or an anchor, which open relative to it.  Unneeded but not yet closable,
// it waits on the idle list, oldest first, for the descriptor budget to
// take back (evict_one_fd).  A node is freed once it is consumed, closed and
// childless; freeing it may free its parent in turn, up the tree, except
// where post-order or a later round still has to see it.
#include "walker.hpp"

#include <utility>

namespace ioq::walk {

void Walker::drop_slot(DirNode* node) {
    unpin_base(node);
    DirSlot* slot = std::exchange(node->slot, nullptr);
    if (look_ahead_) {
        slot->ahead.reset();
    }
    slot->buffer.trim();
    pool_.give_slot(slot);
}

void Walker::release_fd_if_unused(DirNode* node) {
    if (!node->consumed) {
        return;
    }
    if (node->fd >= 0) {
        // A starting point keeps its descriptor while anything below it is
        // alive: every other directory then has an open ancestor to open
        // relative to, below which no symbolic link is followed (see
        // submit_open); a path from the current directory could not promise
        // that, since a starting point may lie behind links of its own.
        // Anchors (see anchor_every) keep theirs likewise, to keep paths short.
        bool anchor_in_use = is_anchor(node) && node->live_children > 0;
        if (node->pending_opens > 0 || node->pins > 0 || anchor_in_use) {
            if (!node->idle && node->pins == 0 && node->parent) {
                idle_.append(node);
            }
            return;
        }
        idle_.remove(node);
        close_fd(std::exchange(node->fd, -1));
    }
    free_if_unused(node);
}

void Walker::free_if_unused(DirNode* node) {
    while (node && node->consumed && node->live_children == 0 && node->fd < 0 &&
           node->pins == 0) {
        if (options_.post_order && !node->post_reported) {
            // Its subtree is done: report it, then free it (report_post_visit).
            if (!node->post_queued && node->depth >= window_.report_min()) {
                node->post_queued = true;
                post_ready_.push_back(node);
                return;
            }
            if (node->post_queued) {
                return;
            }
        }
        if (records_finished() && !node->truncated && !node->discarded &&
            !node->finish_recorded) {
            finished_ready_.push_back(node);  // record_finished() frees it
            return;
        }
        DirNode* parent = node->parent;
        if (parent && node->truncated) {
            parent->truncated = true;
        }
        if (node == prefix_node_) {
            // Its parent's path is still the prefix's beginning: the next
            // directory is most likely a sibling.
            prefix_node_ = parent;
            entry_path_.shorten_prefix(parent ? entry_path_.prefix_size() - component(node).size() - 1 : 0);
        }
        pool_.give_node(node);
        if (parent) {
            --parent->live_children;
            if (is_anchor(parent) && parent->fd >= 0) {
                release_fd_if_unused(parent);  // a starting point's or anchor's last child
                return;
            }
        }
        node = parent;
    }
}

bool Walker::evict_one_fd() {
    // False when every idle one is the base of an open in flight.
    DirNode* node = idle_.take_oldest_unpinned();
    if (!node) {
        return false;
    }
    close_fd(std::exchange(node->fd, -1));
    return true;
}

} // namespace ioq::walk
