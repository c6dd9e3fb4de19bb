// The rule that bounds looking ahead (lib/walk/look_ahead_budget.hpp):
// each bound alone stops more opens, and a slow device widens two of them.
#include "walk/look_ahead_budget.hpp"

#include <criterion/criterion.h>

using ioq::walk::AheadLoad;
using ioq::walk::look_ahead_budget;
using ioq::walk::look_ahead_outstanding;
using ioq::walk::may_open_ahead;
using ioq::walk::slow_device_budget_factor;

namespace {

// A walk with room everywhere: read-ahead 8, nothing in flight.
AheadLoad idle_walk() {
    return {.read_ahead = 8, .in_flight = 0, .outstanding = 0, .to_submit = 0,
            .queue_room = 64, .fds_held = 4, .fds_limit = 100, .workers_running = 2,
            .slow_device = false};
}

} // namespace

Test(look_ahead_budget, an_idle_walk_may_open) {
    cr_expect(may_open_ahead(idle_walk()));
}

Test(look_ahead_budget, directories_in_flight_are_bounded_by_windows) {
    AheadLoad load = idle_walk();
    load.in_flight = look_ahead_budget * load.read_ahead - 1;
    cr_expect(may_open_ahead(load));
    load.in_flight = look_ahead_budget * load.read_ahead;
    cr_expect(!may_open_ahead(load));
    load.slow_device = true;
    cr_expect(may_open_ahead(load), "a slow device has a wider budget");
    load.in_flight = look_ahead_budget * slow_device_budget_factor * load.read_ahead;
    cr_expect(!may_open_ahead(load));
}

Test(look_ahead_budget, requests_with_the_workers_are_bounded) {
    AheadLoad load = idle_walk();
    load.outstanding = look_ahead_outstanding - 2;
    load.to_submit = 1;
    cr_expect(may_open_ahead(load));
    load.to_submit = 2;
    cr_expect(!may_open_ahead(load), "what waits to be submitted counts");
    load.slow_device = true;
    load.workers_running = look_ahead_outstanding;  // 2x the workers: 32
    cr_expect(may_open_ahead(load), "each added worker needs opens to wait on");
    load.outstanding = 2 * look_ahead_outstanding;
    load.to_submit = 0;
    cr_expect(!may_open_ahead(load));
    load.workers_running = 1;
    load.outstanding = look_ahead_outstanding;
    cr_expect(!may_open_ahead(load), "never fewer than the bound without added workers");
}

Test(look_ahead_budget, half_the_descriptors_stay_for_the_walk) {
    AheadLoad load = idle_walk();
    load.fds_held = load.fds_limit / 2 - 1;
    cr_expect(may_open_ahead(load));
    load.fds_held = load.fds_limit / 2;
    cr_expect(!may_open_ahead(load));
    load.slow_device = true;
    cr_expect(!may_open_ahead(load), "a slow device does not change it");
}

Test(look_ahead_budget, the_queue_keeps_a_place_for_the_next_directory) {
    AheadLoad load = idle_walk();
    load.queue_room = 3;
    load.to_submit = 1;
    cr_expect(may_open_ahead(load));
    load.to_submit = 2;
    cr_expect(!may_open_ahead(load));
    load.to_submit = 0;
    load.queue_room = 1;
    cr_expect(!may_open_ahead(load));
}
