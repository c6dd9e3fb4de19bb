// IdleDescriptors: the walk's list of descriptors it may close early,
// oldest first, skipping those an open in flight is relative to.
#include "walk/idle_descriptors.hpp"

#include <criterion/criterion.h>

using ioq::walk::DirNode;
using ioq::walk::IdleDescriptors;

Test(idle_descriptors, gives_back_the_oldest_first) {
    DirNode a, b, c;
    IdleDescriptors idle;
    cr_expect(idle.empty());
    idle.append(&a);
    idle.append(&b);
    idle.append(&c);
    cr_expect(!idle.empty());
    cr_expect(a.idle && b.idle && c.idle);
    cr_expect_eq(idle.take_oldest_unpinned(), &a);
    cr_expect(!a.idle, "taken off the list");
    cr_expect_eq(idle.take_oldest_unpinned(), &b);
    cr_expect_eq(idle.take_oldest_unpinned(), &c);
    cr_expect(idle.empty());
    cr_expect_null(idle.take_oldest_unpinned());
}

Test(idle_descriptors, skips_the_bases_of_opens_in_flight) {
    DirNode a, b;
    a.pins = 1;
    IdleDescriptors idle;
    idle.append(&a);
    idle.append(&b);
    cr_expect_eq(idle.take_oldest_unpinned(), &b);
    cr_expect_null(idle.take_oldest_unpinned(), "the only one left is pinned");
    cr_expect(a.idle, "a pinned node stays listed");
    a.pins = 0;
    cr_expect_eq(idle.take_oldest_unpinned(), &a);
}

Test(idle_descriptors, removes_from_anywhere_and_ignores_nodes_not_listed) {
    DirNode a, b, c, outside;
    IdleDescriptors idle;
    idle.append(&a);
    idle.append(&b);
    idle.append(&c);
    idle.remove(&b);  // the middle
    cr_expect(!b.idle);
    cr_expect_null(b.idle_prev);
    cr_expect_null(b.idle_next);
    idle.remove(&outside);  // never listed: nothing happens
    idle.remove(&b);        // twice: nothing happens
    idle.remove(&c);        // the tail
    idle.append(&b);        // the tail's place is taken again
    cr_expect_eq(idle.take_oldest_unpinned(), &a);
    cr_expect_eq(idle.take_oldest_unpinned(), &b);
    cr_expect(idle.empty());
    idle.append(&c);
    idle.remove(&c);  // the only one: head and tail both go
    cr_expect(idle.empty());
}
