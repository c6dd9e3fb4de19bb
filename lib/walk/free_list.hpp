// FreeList: objects the walk reuses instead of allocating each time, and
// the vector growth rule it relies on.
//
// Only take() allocates, when nothing is free (and may throw
// std::bad_alloc, leaving the list as it was).  give() never allocates: it
// runs while completions are processed and while a walk stops, where an
// exception would lose requests or descriptors, so the free list gets room
// for every object before that object is created.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <vector>

namespace ioq::walk {

// Makes room for at least `size` items in vector, growing it geometrically
// (reserve() alone grows to exactly what is asked, which would copy the
// whole vector each time one more item is needed).  May throw
// std::bad_alloc; afterwards, push_back() up to `size` items does not.
template <class T>
void reserve_room(std::vector<T>& vector, std::size_t size) {
    if (vector.capacity() < size) {
        vector.reserve(std::max(size, 2 * vector.capacity()));
    }
}

template <class T>
class FreeList {
public:
    T* take() {
        if (free_.empty()) {
            reserve_room(free_, all_.size() + 1);
            all_.push_back(std::make_unique<T>());  // a throw here links nothing in
            return all_.back().get();
        }
        T* item = free_.back();
        free_.pop_back();
        return item;
    }
    void give(T* item) noexcept { free_.push_back(item); }

    // Objects ever handed out, free or not.
    std::size_t count() const { return all_.size(); }

    // Visits every object ever handed out, free or not.
    template <class Fn>
    void for_each(Fn&& fn) {
        for (auto& item : all_) {
            fn(*item);
        }
    }

private:
    std::vector<std::unique_ptr<T>> all_;
    std::vector<T*> free_;
};

} // namespace ioq::walk
