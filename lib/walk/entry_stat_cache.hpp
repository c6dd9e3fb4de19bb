// EntryStatCache: the metadata the walk already has for the entry it
// returned last, so that stat() asks the kernel at most once per entry and
// way of looking (following links or not).
//
//   a worker's eager statx, the walk's own (type, identity)  --> put()
//   Walker::stat(mask, follow)  --> find(): a hit if every field asked
//                                   was fetched, else a statx and put()
//   next()  --> clear()
//
// One slot per way of looking: a link's own metadata never answers for its
// target's.
#pragma once

#include <sys/stat.h>

namespace ioq::walk {

class EntryStatCache {
public:
    void clear() noexcept { slots_[0].valid = slots_[1].valid = false; }

    void put(bool follow, unsigned mask, const struct statx& buf) noexcept {
        slots_[follow ? 1 : 0] = Slot{true, mask, buf};
    }

    // The metadata fetched with every field of mask, or nullptr.
    const struct statx* find(bool follow, unsigned mask) const noexcept {
        const Slot& slot = slots_[follow ? 1 : 0];
        return slot.valid && (slot.mask & mask) == mask ? &slot.buf : nullptr;
    }

private:
    struct Slot {
        bool valid = false;
        unsigned mask = 0;
        struct statx buf;
    };
    Slot slots_[2];  // [0] without following links, [1] following
};

} // namespace ioq::walk
