#include "entry_path.hpp"

#include <algorithm>

namespace ioq::walk {

void EntryPath::set_prefix(std::string_view prefix) {
    // Shrinks never: the walk goes back and forth between depths.
    reserve(prefix.size() + NAME_MAX);
    std::memcpy(bytes_.get(), prefix.data(), prefix.size());
    prefix_size_ = prefix.size();
}

void EntryPath::extend_prefix(std::string_view name) {
    reserve(prefix_size_ + name.size() + 1 + NAME_MAX);
    char* to = bytes_.get() + prefix_size_;
    std::memcpy(to, name.data(), name.size());
    to[name.size()] = '/';
    prefix_size_ += name.size() + 1;
}

void EntryPath::reserve(std::size_t size) {
    if (size <= capacity_) {
        return;
    }
    std::size_t capacity = std::max(size, capacity_ * 2);
    auto bytes = std::make_unique_for_overwrite<char[]>(capacity + 1);
    if (prefix_size_ > 0) {
        std::memcpy(bytes.get(), bytes_.get(), prefix_size_);
    }
    bytes_ = std::move(bytes);
    capacity_ = capacity;
}

} // namespace ioq::walk
