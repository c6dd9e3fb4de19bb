#include "dir_queue.hpp"

#include <algorithm>

namespace ioq::walk {

void DirQueue::commit(NodePool& pool) {
    std::size_t committed = staged_.size();
    if (strategy_ == Strategy::bfs) {
        queue_.insert(queue_.end(), staged_.begin(), staged_.end());
    } else {
        queue_.insert(queue_.end(), staged_.rbegin(), staged_.rend());
    }
    staged_.clear();
    if (window_ > 0) {
        compact(pool, committed);
    }
}

bool DirQueue::only_queued(const DirNode& node) {
    // A node just found: nothing but its queue position refers to it.
    return node.state == DirNode::State::queued && !node.slot && node.fd < 0 &&
           node.live_children == 0 && node.pending_opens == 0 && node.pins == 0 &&
           !node.discarded && !node.idle;
}

void DirQueue::compact(NodePool& pool, std::size_t committed) {
    // Behind waiting records, everything committed must wait too, or it
    // would be read before them.  Otherwise records start only past 16
    // windows of nodes (2,048 at the default read-ahead): a narrower
    // frontier costs little memory as nodes, and records for all beyond
    // two windows cost a walk of linux-6.1 more instructions than they
    // saved (measured in 4709833).
    std::size_t keep = waiting_.empty() ? 16 * window_ : queue_.size() - committed;
    if (queue_.size() <= keep) {
        return;
    }
    auto first = queue_.begin() + static_cast<std::ptrdiff_t>(keep);
    // Only plain queued nodes become records (a breadth-first walk submits
    // nothing beyond its window, so this holds for all; checked anyway,
    // and a node that is not stays with all before it).
    std::size_t name_bytes = 0;
    for (auto it = first; it != queue_.end(); ++it) {
        if (!only_queued(**it)) {
            if (!waiting_.empty()) {
                return;  // cannot go behind the records: all stay nodes
            }
            first = it + 1;
            name_bytes = 0;
            continue;
        }
        name_bytes += (*it)->name.size();
    }
    waiting_.reserve(static_cast<std::size_t>(queue_.end() - first), name_bytes);  // the only throw
    for (auto it = first; it != queue_.end(); ++it) {
        DirNode* node = *it;
        waiting_.push({node->parent, node->dev, node->ino, node->depth, node->identity_known,
                       node->name});
        pool.give_node(node);
    }
    queue_.erase(first, queue_.end());
}

void DirQueue::restore(NodePool& pool) {
    QueuedDir dir = waiting_.front();
    DirNode* node = pool.take_node();
    try {
        node->name.assign(dir.name);
        queue_.push_back(node);
    } catch (...) {
        pool.give_node(node);
        throw;
    }
    node->parent = dir.parent;
    node->dev = dir.dev;
    node->ino = dir.ino;
    node->depth = dir.depth;
    node->identity_known = dir.identity_known;
    if (node->parent && holds_path(node)) {
        node->anchor_above = holder_above(node);  // its name is the path from there
    }
    waiting_.pop();
}

DirNode* DirQueue::take(std::size_t i) {
    std::size_t index = strategy_ == Strategy::bfs ? i : queue_.size() - 1 - i;
    DirNode* node = queue_[index];
    queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(index));
    return node;
}

} // namespace ioq::walk
