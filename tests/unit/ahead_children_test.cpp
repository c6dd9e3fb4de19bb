// AheadChildren: the subdirectories a directory opened ahead, claimed by
// its entries in the order it lists them.
#include "walk/ahead_children.hpp"
#include "walk/dir_node.hpp"

#include <criterion/criterion.h>

#include <vector>

using ioq::walk::AheadChildren;
using ioq::walk::DirNode;

namespace {

void add(AheadChildren& ahead, DirNode* node) {
    ahead.reserve_one();
    ahead.add(node);
}

} // namespace

Test(ahead_children, entries_claim_in_the_order_they_were_added) {
    DirNode a, b, c;
    AheadChildren ahead;
    cr_expect(!ahead.has_unclaimed());
    add(ahead, &a);
    add(ahead, &b);
    add(ahead, &c);
    cr_expect_eq(ahead.size(), 3u);
    cr_expect(ahead.has_unclaimed());
    cr_expect_eq(ahead.next_unclaimed(), &a);
    cr_expect_eq(ahead.next_unclaimed(), &a, "looking does not claim");
    cr_expect_eq(ahead.take_unclaimed(), &a);
    cr_expect_eq(ahead.next_unclaimed(), &b);
    cr_expect_eq(ahead.take_unclaimed(), &b);
    cr_expect_eq(ahead.take_unclaimed(), &c);
    cr_expect(!ahead.has_unclaimed());
    cr_expect_eq(ahead[1], &b, "claimed ones stay listed");
}

Test(ahead_children, scans_start_past_the_claimed_and_the_settled) {
    DirNode nodes[5];
    AheadChildren ahead;
    for (DirNode& node : nodes) {
        add(ahead, &node);
    }
    cr_expect_eq(ahead.first_unsettled(), 0u);
    ahead.take_unclaimed();
    cr_expect_eq(ahead.first_unsettled(), 1u, "a claimed one is the caller's");
    ahead.settled_up_to(3);
    cr_expect_eq(ahead.first_unsettled(), 3u);
    ahead.take_unclaimed();
    ahead.take_unclaimed();
    ahead.take_unclaimed();
    cr_expect_eq(ahead.first_unsettled(), 4u, "claims past the settled ones count");
}

Test(ahead_children, keeps_where_the_scan_stopped) {
    AheadChildren ahead;
    cr_expect_eq(ahead.scan_offset(), 0u);
    cr_expect(!ahead.scan_done());
    ahead.scan_to(96);
    cr_expect_eq(ahead.scan_offset(), 96u);
    ahead.end_scan();
    cr_expect(ahead.scan_done());
}

Test(ahead_children, reset_makes_it_ready_for_another_directory) {
    std::vector<DirNode> nodes(40);  // past the first reservation of 16
    AheadChildren ahead;
    for (DirNode& node : nodes) {
        add(ahead, &node);
    }
    ahead.take_unclaimed();
    ahead.settled_up_to(10);
    ahead.scan_to(512);
    ahead.end_scan();
    ahead.reset();
    cr_expect_eq(ahead.size(), 0u);
    cr_expect(!ahead.has_unclaimed());
    cr_expect_eq(ahead.first_unsettled(), 0u);
    cr_expect_eq(ahead.scan_offset(), 0u);
    cr_expect(!ahead.scan_done());
    DirNode other;
    add(ahead, &other);
    cr_expect_eq(ahead.size(), 1u);
    cr_expect_eq(ahead.take_unclaimed(), &other, "nothing of the last directory's is claimed");
}
