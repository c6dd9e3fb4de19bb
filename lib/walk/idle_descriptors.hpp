// IdleDescriptors: the directories whose descriptors the walk no longer
// needs right now but cannot close yet, oldest first.
//
//   release_fd_if_unused: still a base for opens to come --> append(node)
//   FdBudget runs short  --> oldest_unpinned() --> remove, close its fd
//   the descriptor closes for another reason  --> remove(node)
//
// An intrusive list through DirNode::idle_prev/idle_next: appending and
// removing never allocate, so they may run while completions are processed
// or while the walk stops.  Oldest first because, breadth first, the oldest
// is the shallowest, whose children are furthest from their turn; they can
// open relative to an older ancestor instead.
#pragma once

#include "dir_node.hpp"

namespace ioq::walk {

class IdleDescriptors {
public:
    bool empty() const { return head_ == nullptr; }

    // node must not be on the list.
    void append(DirNode* node) noexcept {
        node->idle = true;
        node->idle_prev = tail_;
        node->idle_next = nullptr;
        (tail_ ? tail_->idle_next : head_) = node;
        tail_ = node;
    }

    // Takes node off the list; nothing if it is not on it.
    void remove(DirNode* node) noexcept {
        if (!node->idle) {
            return;
        }
        (node->idle_prev ? node->idle_prev->idle_next : head_) = node->idle_next;
        (node->idle_next ? node->idle_next->idle_prev : tail_) = node->idle_prev;
        node->idle = false;
        node->idle_prev = node->idle_next = nullptr;
    }

    // The oldest node that is not the base of an open in flight (pins),
    // taken off the list; nullptr when every one is.
    DirNode* take_oldest_unpinned() noexcept {
        for (DirNode* node = head_; node; node = node->idle_next) {
            if (node->pins == 0) {
                remove(node);
                return node;
            }
        }
        return nullptr;
    }

private:
    DirNode* head_ = nullptr;
    DirNode* tail_ = nullptr;
};

} // namespace ioq::walk
