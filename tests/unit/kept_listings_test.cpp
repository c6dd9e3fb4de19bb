// Unit tests of the listings ids, eds and hybrid keep from one round for the
// next (lib/walk/kept_listings.hpp): which directories a later round takes
// from them instead of opening and reading again, what a round sees when
// the tree changes between rounds, and that every descriptor kept is
// closed when the walk ends or stops.
//
// Each test runs under every backend (the small queue and read-ahead of
// usable_backends() too), with and without looking ahead, and both for a
// walk that keeps its directories open and for a names-only one, which
// otherwise closes every directory but the starting point once read.
#include "temp_tree.hpp"
#include "walk_harness.hpp"

#include <criterion/criterion.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

using namespace test::walk_names;

namespace {

struct Variant {
    bool look_ahead;
    bool names_only;
};
constexpr Variant variants[] = {{false, false}, {true, false}, {false, true}, {true, true}};

WalkOptions options_for(const WalkBackend& backend, const std::string& root, Strategy strategy,
                        const Variant& variant, int max_depth = INT_MAX) {
    WalkOptions options = test::make_options(backend, {root}, strategy, 0, max_depth);
    options.look_ahead = variant.look_ahead;
    options.names_only = variant.names_only;
    return options;
}

std::string describe(const WalkBackend& backend, Strategy strategy, const Variant& variant) {
    return test::describe(backend, strategy) + (variant.look_ahead ? " look-ahead" : "") +
           (variant.names_only ? " names-only" : "");
}

// An entry whose parent directory was never reported, or "".
std::string first_orphan(const test::WalkResult& result) {
    std::set<std::string> reported;
    for (const Seen& seen : result.entries) {
        reported.insert(seen.path);
    }
    for (const Seen& seen : result.entries) {
        if (seen.depth > 0 && !reported.count(seen.path.substr(0, seen.path.find_last_of('/')))) {
            return seen.path;
        }
    }
    return {};
}

// Runs check(backend, strategy, variant, where) for every backend, round
// strategy and variant.
void for_each_round_walk(
    const std::function<void(const WalkBackend&, Strategy, const Variant&, const std::string&)>&
        check) {
    for (const WalkBackend& backend : test::usable_backends()) {
        for (Strategy strategy : {Strategy::ids, Strategy::eds, Strategy::hybrid}) {
            for (const Variant& variant : variants) {
                check(backend, strategy, variant, describe(backend, strategy, variant));
            }
        }
    }
}

// Walks tree's t, making change() once, when the walk first reports an
// entry named b: round 1 of ids and eds, round 0 of hybrid, after the
// round that reported it read b's parent.
WalkResult walk_changing_at_b(const WalkBackend& backend, Strategy strategy,
                              const Variant& variant, const test::TempTree& tree,
                              const std::function<bool()>& change, const std::string& where) {
    bool changed = false;
    bool tried = false;
    WalkResult result = test::walk(options_for(backend, tree.path("t"), strategy, variant),
                                   [&](const Seen& seen) {
                                       if (seen.name == "b" && !tried) {
                                           tried = true;
                                           changed = change();
                                       }
                                       return false;
                                   });
    cr_assert(changed, "%s: could not change the tree", where.c_str());
    return result;
}

} // namespace

Test(kept_listings, later_rounds_take_the_top_directories_from_the_round_that_read_them) {
    // t/a/b/c/f is four rounds of ids.  t is read in round 0, and taken
    // from the kept listings in rounds 1 to 3; t/a (300 files beside b: a
    // listing larger than a buffer's small block) is read in round 1 and
    // taken in 2 and 3; t/a/b, at depth 2, is read in rounds 2 and 3.
    // t/leaf holds no directory: walked whole in round 1, neither kept
    // nor entered again.
    test::TempTree tree;
    tree.build("t/a/b/c/f t/leaf/g");
    tree.many_files("t/a", 300);
    std::string root = tree.path("t");
    std::vector<std::string> want = test::find_records({root}, "/");
    struct Expected {
        Strategy strategy;
        int max_depth;
        std::uint64_t entered;  // directories, taken from the kept ones or not
        std::uint64_t reused;
    };
    const Expected cases[] = {
        // ids: t 4 times, a 3, b 2, c, leaf: 11; reused t 3 + a 2.
        {Strategy::ids, INT_MAX, 11, 5},
        // eds (bounds 1, 2, 4): t 3 times, a 2, b, c, leaf: 8; t 2 + a 1.
        {Strategy::eds, INT_MAX, 8, 3},
        // hybrid (2, then the rest): t and a twice, b, c, leaf: 7; t + a.
        {Strategy::hybrid, INT_MAX, 7, 2},
        // ids to depth 2: rounds 0 and 1; the last keeps nothing, t taken once.
        {Strategy::ids, 2, 4, 1},
        // Depth first reads each directory once, and keeps nothing.
        {Strategy::dfs, INT_MAX, 5, 0},
    };
    for (const WalkBackend& backend : test::usable_backends()) {
        for (const Expected& c : cases) {
            std::vector<std::string> want_here =
                c.max_depth == INT_MAX ? want : test::find_records({root}, "/", "", "-maxdepth 2");
            for (const Variant& variant : variants) {
                std::string where = describe(backend, c.strategy, variant) +
                                    (c.max_depth == INT_MAX ? "" : " -maxdepth 2");
                WalkResult result =
                    test::walk(options_for(backend, root, c.strategy, variant, c.max_depth));
                test::expect_no_problems(result, where);
                std::vector<std::string> got = test::walk_records(result);
                cr_expect(got == want_here, "%s: differs from find: %s", where.c_str(),
                          test::first_difference(want_here, got).c_str());
                cr_expect_eq(result.stats.directories, c.entered,
                             "%s: %llu directories entered, want %llu", where.c_str(),
                             static_cast<unsigned long long>(result.stats.directories),
                             static_cast<unsigned long long>(c.entered));
                cr_expect_eq(result.stats.listings_reused, c.reused,
                             "%s: %llu listings taken from earlier rounds, want %llu",
                             where.c_str(),
                             static_cast<unsigned long long>(result.stats.listings_reused),
                             static_cast<unsigned long long>(c.reused));
            }
        }
    }
}

Test(kept_listings, a_directory_added_between_rounds_is_not_descended_into) {
    // When round 1 reports t/a/b, t/a gets a subdirectory n with one below
    // it.  Reading t/a again in round 2 would find n, too late to report
    // it (depth 2 was round 1's), and report t/a/n/deep below a directory
    // never reported.  Taken from the kept listing, t/a is as round 1 read
    // it.  The same for eds and hybrid, whose later rounds start deeper.
    for_each_round_walk([](const WalkBackend& backend, Strategy strategy, const Variant& variant,
                           const std::string& where) {
        test::TempTree tree;
        tree.build("t/a/b/c/f t/x/y/z/g");
        std::string added = tree.path("t/a/n");
        WalkResult result = walk_changing_at_b(
            backend, strategy, variant, tree,
            [&] {
                return ::mkdir(added.c_str(), 0755) == 0 &&
                       ::mkdir((added + "/deep").c_str(), 0755) == 0;
            },
            where);
        test::expect_no_problems(result, where);
        std::string orphan = first_orphan(result);
        cr_expect(orphan.empty(), "%s: %s reported, its parent never", where.c_str(),
                  orphan.c_str());
        // The rest is walked as if nothing changed.
        std::size_t below_c = 0, below_z = 0;
        for (const Seen& seen : result.entries) {
            below_c += seen.path == tree.path("t/a/b/c/f");
            below_z += seen.path == tree.path("t/x/y/z/g");
        }
        cr_expect(below_c == 1 && below_z == 1, "%s: t/a/b/c/f %zu times, t/x/y/z/g %zu",
                  where.c_str(), below_c, below_z);
    });
}

Test(kept_listings, a_directory_renamed_between_rounds_is_walked_as_first_listed) {
    // When round 1 reports t/a/b, t/a moves to t/moved and a new t/a holds
    // other/deeper.  The kept descriptor is still the first t/a: later
    // rounds go on below it, under the path it was listed at (as a walk
    // that held it open would), and never into the new one.
    for_each_round_walk([](const WalkBackend& backend, Strategy strategy, const Variant& variant,
                           const std::string& where) {
        test::TempTree tree;
        tree.build("t/a/b/c/f");
        std::string a = tree.path("t/a");
        WalkResult result = walk_changing_at_b(
            backend, strategy, variant, tree,
            [&] {
                return ::rename(a.c_str(), tree.path("t/moved").c_str()) == 0 &&
                       ::mkdir(a.c_str(), 0755) == 0 &&
                       ::mkdir((a + "/other").c_str(), 0755) == 0 &&
                       ::mkdir((a + "/other/deeper").c_str(), 0755) == 0;
            },
            where);
        std::size_t found_f = 0, found_new = 0;
        for (const Seen& seen : result.entries) {
            cr_expect_eq(seen.error, 0, "%s: %s: error %d", where.c_str(), seen.path.c_str(),
                         seen.error);
            found_f += seen.path == tree.path("t/a/b/c/f");
            found_new += seen.path.find("/other") != std::string::npos;
        }
        cr_expect_eq(found_f, 1u, "%s: t/a/b/c/f reported %zu times", where.c_str(), found_f);
        cr_expect_eq(found_new, 0u, "%s: %zu entries of the new t/a", where.c_str(), found_new);
    });
}

Test(kept_listings, every_kept_descriptor_is_closed_at_the_end_and_on_stop) {
    // Twenty directories at depth 1, each with one below: round 1 keeps
    // all twenty (and t), round 2 takes them.  Stopped in round 1, in
    // round 2 and at the end, the walk leaves no descriptor open.
    test::TempTree tree;
    for (int i = 0; i < 20; ++i) {
        char name[64];
        std::snprintf(name, sizeof name, "t/d%02d/sub/f", i);
        tree.build(name);
    }
    std::string root = tree.path("t");
    // Round 0: t and its 20 entries; round 1: 20 subs; round 2: 20 files.
    const std::size_t stop_points[] = {1 + 20 + 5, 1 + 20 + 20 + 5, SIZE_MAX};
    for (const WalkBackend& backend : test::plain_backends()) {
        for (Strategy strategy : {Strategy::ids, Strategy::eds, Strategy::hybrid}) {
            for (const Variant& variant : variants) {
                for (std::size_t stop_after : stop_points) {
                    std::string where = describe(backend, strategy, variant) + " stop after " +
                                        (stop_after == SIZE_MAX ? std::string("the end")
                                                                : std::to_string(stop_after));
                    std::size_t fds_before = test::count_open_fds();
                    auto walker =
                        std::make_unique<Walker>(options_for(backend, root, strategy, variant));
                    std::size_t taken = 0;
                    while (taken < stop_after && walker->next()) {
                        ++taken;
                    }
                    if (stop_after == SIZE_MAX) {
                        cr_expect_eq(taken, 1u + 20 * 3, "%s: %zu entries", where.c_str(), taken);
                        cr_expect(walker->stats().listings_reused >= 20,
                                  "%s: only %llu listings taken from earlier rounds",
                                  where.c_str(),
                                  static_cast<unsigned long long>(
                                      walker->stats().listings_reused));
                    }
                    walker->stop();
                    test::expect_descriptors_released(walker, backend, fds_before, where);
                }
            }
        }
    }
}
