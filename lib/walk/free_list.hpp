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

// chunk > 1: objects are created chunk at a time, in one allocation, so
// small ones carry no allocation header or owning pointer each (for the
// walk's nodes: 168 bytes each became 120).  The objects of a chunk not yet
// handed out are default-constructed and never visited.
template <class T, std::size_t chunk = 1>
class FreeList {
public:
    T* take() {
        if (free_.empty()) {
            if (handed_out_ == chunks_.size() * chunk) {
                reserve_room(free_, handed_out_ + chunk);
                reserve_room(chunks_, chunks_.size() + 1);
                chunks_.push_back(std::make_unique<T[]>(chunk));  // a throw here links nothing in
            }
            T* item = &chunks_[handed_out_ / chunk][handed_out_ % chunk];
            ++handed_out_;
            return item;
        }
        T* item = free_.back();
        free_.pop_back();
        return item;
    }
    void give(T* item) noexcept { free_.push_back(item); }

    // Objects ever handed out, free or not.
    std::size_t count() const { return handed_out_; }

    // Visits every object ever handed out, free or not.
    template <class Fn>
    void for_each(Fn&& fn) {
        for (std::size_t i = 0; i < handed_out_; ++i) {
            fn(chunks_[i / chunk][i % chunk]);
        }
    }

private:
    std::vector<std::unique_ptr<T[]>> chunks_;
    std::size_t handed_out_ = 0;
    std::vector<T*> free_;
};

} // namespace ioq::walk
