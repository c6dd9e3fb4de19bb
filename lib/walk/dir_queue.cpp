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

DirNode* DirQueue::take(std::size_t i) {
    std::size_t index = strategy_ == Strategy::bfs ? i : queue_.size() - 1 - i;
    DirNode* node = queue_[index];
    queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(index));
    return node;
}

} // namespace ioq::walk
