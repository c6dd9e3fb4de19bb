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
#pragma once

#include "walk_options.hpp"

#include <cstddef>
#include <deque>
#include <vector>

namespace ioq::walk {

struct DirNode;

class DirQueue {
public:
    // ids and eds walk each round depth-first.
    explicit DirQueue(Strategy strategy)
        : strategy_(strategy == Strategy::bfs ? Strategy::bfs : Strategy::dfs) {}

    void stage(DirNode* node) { staged_.push_back(node); }
    void commit();

    bool empty() const { return queue_.empty(); }
    std::size_t size() const { return queue_.size(); }
    DirNode* peek(std::size_t i) const {
        return strategy_ == Strategy::bfs ? queue_[i] : queue_[queue_.size() - 1 - i];
    }
    DirNode* pop() { return take(0); }
    // Removes and returns peek(i).
    DirNode* take(std::size_t i);

    // Hands every node back (staged ones too), for a walk that stops early.
    template <class Fn>
    void drain(Fn&& fn) {
        commit();
        for (DirNode* node : queue_) {
            fn(node);
        }
        queue_.clear();
    }

private:
    Strategy strategy_;
    std::deque<DirNode*> queue_;
    std::vector<DirNode*> staged_;
};

} // namespace ioq::walk
