// How much looking ahead (look_ahead.cpp) may have open at once: the rule
// the walk asks before each directory it would open ahead, as a function
// of what it has in flight, so that its bounds are tested on their own
// (tests/unit/look_ahead_budget_test.cpp).
#pragma once

#include <algorithm>
#include <cstddef>

namespace ioq::walk {

// Opens handed to the workers and not yet done, at most: enough to keep
// two workers busy, and each directory to open chosen at the last moment,
// when the reads before it have shown more of the order the walk will
// need.  Without this bound the whole budget went out at once, most of it
// to directories needed last (siblings high in the stack), and sat there
// read while the workers switched in and out; 16 was the best of the
// bounds dad3509 measured.
inline constexpr std::size_t look_ahead_outstanding = 16;

// Directories opened ahead and not yet popped, in read-ahead windows:
// depth first, a read directory may wait long for its turn, and a budget
// of one window left the workers idle again; four used more memory for no
// gain (dad3509).
inline constexpr std::size_t look_ahead_budget = 2;

// Once the queue has added workers for a slow device (a cold cache), each
// of them needs opens to wait on, and a read directory may wait longer
// still: twice the workers outstanding at least, and four times the
// budget, past which cold walks gained nothing (4691052).
inline constexpr std::size_t slow_device_budget_factor = 4;

// What the walk has in flight when it asks.
struct AheadLoad {
    std::size_t read_ahead = 0;         // the walk's read-ahead window
    std::size_t in_flight = 0;          // directories opened, not yet popped
    std::size_t outstanding = 0;        // requests with the workers
    std::size_t to_submit = 0;          // requests made, not yet submitted
    std::size_t queue_room = 0;         // free places in the queue
    std::size_t fds_held = 0;           // descriptors the walk holds
    std::size_t fds_limit = 0;          // descriptors it may hold
    std::size_t workers_running = 0;
    bool slow_device = false;           // the queue added workers
};

inline bool may_open_ahead(const AheadLoad& load) {
    std::size_t budget = look_ahead_budget * (load.slow_device ? slow_device_budget_factor : 1);
    std::size_t outstanding = look_ahead_outstanding;
    if (load.slow_device) {
        outstanding = std::max<std::size_t>(outstanding, 2 * load.workers_running);
    }
    // Half the descriptors at most: directories opened ahead hold theirs
    // until read (and after, when the walk keeps them), and the one the
    // walk needs next must always find one.  The queue keeps a place for
    // that one too.
    return load.in_flight < budget * load.read_ahead &&
           load.outstanding + load.to_submit < outstanding &&
           load.fds_held < load.fds_limit / 2 && load.queue_room > load.to_submit + 1;
}

} // namespace ioq::walk
