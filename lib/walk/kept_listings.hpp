// KeptListings: the top directories' listings, read in one round of ids,
// eds or hybrid and kept for the rounds after it.
//
// Every round walks down from the starting points again, so without them
// the directories at depth 0 and 1 are opened and read once a round, a
// good share of a short search's opens (measured in 66fa2a7).  A later
// round only passes through these directories (their entries were reported
// before), so it can take the listing from here and open nothing.
//
//   round k:   finish_current(D at depth <= deepest, read in one batch)
//                  -> add(key of D, its records, a duplicate of its descriptor)
//   round k+1: submit_open(D) -> find(key) -> D's buffer filled from here,
//                  its descriptor a duplicate of the kept one: no openat, no
//                  getdents64
//   D walked whole (Walker::record_finished) -> take(key): no round needs it
//
// A later round thus sees these directories as the first one listed them,
// through the descriptors that round had, as if it had held them open: a
// name added to one between rounds is not descended into (the round that
// would have reported the name is over, so a walk that read the directory
// again would report the contents below a name it never reported), and a
// path renamed or replaced meanwhile still leads to the directory listed.
// To have a descriptor to keep, the walk leaves these directories open
// until they are read even where it closes all others once read.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ioq::walk {

class KeptListings {
public:
    struct Listing {
        std::string key;  // Walker::finished_key of the directory
        std::vector<std::byte> records;
        int fd = -1;      // owned by the store
    };

    // Depth 0 and 1: below them a directory is re-read by one round in
    // ten at most (linux-6.1, -S ids to depth 4), and their number grows
    // with the tree.
    static constexpr int deepest = 1;
    // Bounds on what one walk keeps: a starting point with thousands of
    // subdirectories keeps the first ones, not all.
    static constexpr std::size_t most_listings = 64;
    static constexpr std::size_t most_bytes = 1024 * 1024;

    bool empty() const { return listings_.empty(); }
    bool has_room(std::size_t bytes) const {
        return listings_.size() < most_listings && bytes_ + bytes <= most_bytes;
    }
    // Descriptors held, for the walk's budget.
    std::size_t descriptors() const { return descriptors_; }

    // The listing kept under key, or nullptr.
    const Listing* find(std::string_view key) const;

    // Keeps size bytes of records under key, and fd (owned from now on).
    // May throw std::bad_alloc, the store unchanged and fd still the
    // caller's.
    void add(std::string_view key, const std::byte* records, std::size_t size, int fd);

    // Forgets the listing under key, if any; returns its descriptor (the
    // caller's to close now), or -1.
    int take(std::string_view key) noexcept;

    // Forgets everything; close gets each descriptor held.
    template <class Close>
    void clear(Close&& close) noexcept {
        for (Listing& listing : listings_) {
            if (listing.fd >= 0) {
                close(listing.fd);
            }
        }
        listings_.clear();
        bytes_ = descriptors_ = 0;
    }

private:
    std::size_t position(std::string_view key) const;  // listings_.size(): none

    // Searched in order: 64 at most, and only for directories at depth 0
    // and 1.
    std::vector<Listing> listings_;
    std::size_t bytes_ = 0;
    std::size_t descriptors_ = 0;
};

} // namespace ioq::walk
