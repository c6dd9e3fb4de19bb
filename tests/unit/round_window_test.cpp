// RoundWindow: the depth bounds each round of ids, eds and hybrid walks
// under, and when another round comes.
#include "walk/round_window.hpp"

#include <criterion/criterion.h>

#include <climits>

using ioq::walk::RoundWindow;
using ioq::walk::Strategy;

namespace {

// Runs rounds to the end, finding a directory at every bound, and returns
// how many rounds there were; bounds[i] is round i's.
int run_rounds(RoundWindow& window, int* bounds, int capacity) {
    int rounds = 0;
    do {
        cr_assert_lt(rounds, capacity, "rounds never end");
        bounds[rounds++] = window.bound();
        window.note_directory_at(window.bound());
    } while (window.advance());
    return rounds;
}

} // namespace

Test(round_window, ids_goes_one_level_deeper_each_round) {
    RoundWindow window(Strategy::ids, false, 0, 4);
    int bounds[8];
    cr_assert_eq(run_rounds(window, bounds, 8), 4);
    for (int i = 0; i < 4; ++i) {
        cr_expect_eq(bounds[i], i + 1);
    }
    cr_expect(!window.may_have_next(), "the last round's bound is the walk's own");
}

Test(round_window, eds_doubles_its_bound) {
    RoundWindow window(Strategy::eds, false, 0, 20);
    int bounds[8];
    cr_assert_eq(run_rounds(window, bounds, 8), 6);
    int expected[] = {1, 2, 4, 8, 16, 20};
    for (int i = 0; i < 6; ++i) {
        cr_expect_eq(bounds[i], expected[i], "round %d", i);
    }
}

Test(round_window, hybrid_reads_two_levels_then_the_rest) {
    RoundWindow window(Strategy::hybrid, false, 0, INT_MAX);
    cr_expect_eq(window.bound(), RoundWindow::hybrid_first_bound);
    cr_expect(window.note_directory_at(2));
    cr_assert(window.advance());
    cr_expect_eq(window.round(), 1);
    cr_expect_eq(window.min(), 3, "only what the first round did not report");
    cr_expect_eq(window.bound(), INT_MAX);
    cr_expect(!window.note_directory_at(1000), "nothing lies past an unbounded round");
    cr_expect(!window.advance());
}

Test(round_window, a_round_that_found_nothing_at_its_bound_is_the_last) {
    RoundWindow window(Strategy::ids, false, 0, INT_MAX);
    cr_expect(!window.note_directory_at(0), "shallower than the bound");
    cr_expect(!window.truncated());
    cr_expect(!window.advance());
    cr_expect_eq(window.round(), 0);
}

Test(round_window, reports_within_both_its_own_and_the_walks_depths) {
    RoundWindow window(Strategy::ids, false, 2, 3);
    cr_expect_eq(window.depth_limit(), 1);
    cr_expect_eq(window.report_min(), 2, "min_depth holds in the first round");
    window.note_directory_at(1);
    cr_assert(window.advance());
    window.note_directory_at(2);
    cr_assert(window.advance());
    cr_expect_eq(window.min(), 3);
    cr_expect_eq(window.report_min(), 3);
    cr_expect_eq(window.depth_limit(), 3);
    cr_expect(!window.note_directory_at(3), "max_depth: nothing below to find");
    cr_expect(!window.advance());
}

Test(round_window, bfs_dfs_and_post_order_have_one_unbounded_round) {
    RoundWindow bfs(Strategy::bfs, false, 0, INT_MAX);
    RoundWindow dfs(Strategy::dfs, false, 0, 7);
    RoundWindow post(Strategy::ids, true, 0, INT_MAX);
    for (RoundWindow* window : {&bfs, &dfs, &post}) {
        cr_expect(!window->has_rounds());
        cr_expect(!window->may_have_next());
        cr_expect(!window->note_directory_at(window->bound()));
        cr_expect(!window->advance());
    }
    cr_expect_eq(bfs.depth_limit(), INT_MAX);
    cr_expect_eq(dfs.depth_limit(), 7);
}

Test(round_window, begins_again_for_the_next_starting_point) {
    RoundWindow window(Strategy::hybrid, false, 0, INT_MAX);
    window.note_directory_at(2);
    cr_assert(window.advance());
    window.begin();
    cr_expect_eq(window.round(), 0);
    cr_expect_eq(window.min(), 0);
    cr_expect_eq(window.bound(), 2);
    cr_expect(!window.truncated());
}
