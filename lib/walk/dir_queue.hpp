// DirQueue: the directories waiting to be read; its discipline is the strategy.
//
//   BFS: first in, first out: every directory of depth d before any of d+1.
//   DFS: last in, first out: a directory's subdirectories are read before its
//        siblings', each batch in the order the directory returned them.
//
// Children are staged while their parent is being read and committed when it
// is finished, so that DFS can put the whole batch on the stack at once with
// the first child on top.  The walk reads ahead: peek(i) is the i-th
// directory to be popped, whose open may be submitted long before its turn.
//
//   BFS  pop <- [ n0 n1 n2 ... ] <- commit(children in order)
//   DFS  pop <- [ c0 c1 c2 ... ] <- commit(children, c0 ending on top)
//
// Breadth-first, only the head of the queue needs to be nodes: once more
// than 16 read-ahead windows are queued, the directories beyond them wait
// as compact records
// (QueuedDirs), their nodes back in the pool, and become nodes again as the
// head nears them (restore()).  Nodes always come before records:
//
//   BFS  pop <- [ n0 ... n(k-1) | record record ... ] <- commit
//                 peek(i), i < nodes()    waiting
#pragma once

#include "dir_node.hpp"
#include "queued_dirs.hpp"
#include "walk_options.hpp"

#include <cstddef>
#include <deque>
#include <vector>

namespace ioq::walk {

class DirQueue {
public:

    // ids and eds walk each round depth-first.  window: the nodes the walk
    // looks at from the head (breadth-first; 0 keeps every directory a node).
    DirQueue(Strategy strategy, std::size_t window)
        : strategy_(strategy == Strategy::bfs ? Strategy::bfs : Strategy::dfs),
          window_(strategy_ == Strategy::bfs ? window : 0) {}

    void stage(DirNode* node) { staged_.push_back(node); }
    // Queues the staged nodes; breadth-first, those beyond 16 windows (and
    // all, once records wait) become records and go back to pool.  May throw
    // std::bad_alloc, leaving every node staged or queued.
    void commit(NodePool& pool);

    bool empty() const { return queue_.empty() && waiting_.empty(); }
    std::size_t size() const { return queue_.size() + waiting_.size(); }
    // How many of size() are nodes: peek(i) and take(i) for i below it.
    std::size_t nodes() const { return queue_.size(); }
    // Whether records wait that should be nodes by now (see restore).
    bool needs_nodes() const { return !waiting_.empty() && queue_.size() < window_; }
    // Makes the oldest record a node from pool again, at the back of the
    // nodes.  May throw std::bad_alloc, leaving the record waiting.
    void restore(NodePool& pool);

    DirNode* peek(std::size_t i) const {
        return strategy_ == Strategy::bfs ? queue_[i] : queue_[queue_.size() - 1 - i];
    }
    DirNode* pop() { return take(0); }
    // Removes and returns peek(i).
    DirNode* take(std::size_t i);

private:
    // Breadth-first: turns the nodes at the back beyond 16 windows into
    // records (all of those committed last when records wait already).
    void compact(NodePool& pool, std::size_t committed);
    static bool only_queued(const DirNode& node);

    Strategy strategy_;
    std::size_t window_;
    std::deque<DirNode*> queue_;
    std::vector<DirNode*> staged_;
    QueuedDirs waiting_;
};

} // namespace ioq::walk
