#include "dir_queue.hpp"

namespace ioq::walk {

void DirQueue::commit() {
    if (strategy_ == Strategy::bfs) {
        queue_.insert(queue_.end(), staged_.begin(), staged_.end());
    } else {
        queue_.insert(queue_.end(), staged_.rbegin(), staged_.rend());
    }
    staged_.clear();
}

DirNode* DirQueue::pop() {
    DirNode* node;
    if (strategy_ == Strategy::bfs) {
        node = queue_.front();
        queue_.pop_front();
    } else {
        node = queue_.back();
        queue_.pop_back();
    }
    return node;
}

} // namespace ioq::walk
