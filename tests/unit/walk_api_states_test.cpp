// Unit tests of the C API's states (lib/api/walk_api.cpp): every function of
// ioq.h, and the calls of ioq.hpp over them, in every state a walk can be in,
// with the results ioq.h documents beside ioq_walk_open:
//
//   before the first next --next()=1--> on an entry --next()=0--> ended
//          |                                |                        |
//          +----------- stop() ------------>+------> stopped <-------+
//
// Only "on an entry" has an entry for stat(), entry_at() and prune(); in
// the other states they find none (-ENOENT, or no effect), and next()
// returns 0 again and again.  NULL pointers are -EINVAL (or nothing, for
// the functions that return nothing).  Each state is tried on every
// backend this machine runs, on a tree whose leaves the workers close once
// read (what made stat() after the end reopen a directory that was gone).
#include "temp_tree.hpp"

#include <ioq.h>
#include <ioq.hpp>

#include <criterion/criterion.h>

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <string>
#include <vector>

namespace {

const char tree_description[] = "a/ a/1 a/2 b/ b/3 c/ c/d/ c/d/4 e/ e/5 f/ f/6 g/ g/7 h/";
constexpr std::size_t tree_entries = 16;  // the top directory included

struct Backend {
    const char* label;
    ioq_backend backend;
};

std::vector<Backend> backends() {
    std::vector<Backend> all = {{"inline", IOQ_BACKEND_INLINE}, {"threads", IOQ_BACKEND_THREADS}};
    if (ioq_backend_available(IOQ_BACKEND_URING)) {
        all.push_back({"io_uring", IOQ_BACKEND_URING});
    } else {
        cr_log_warn("io_uring skipped: not usable here");
    }
    return all;
}

// A walk of the tree whose options's roots stay alive with it.
struct OpenWalk {
    OpenWalk(const test::TempTree& tree, ioq_backend backend, bool post_order = false)
        : root(tree.root()) {
        ioq_walk_options options;
        ioq_walk_options_init(&options);
        roots[0] = root.c_str();
        options.roots = roots;
        options.root_count = 1;
        options.backend = backend;
        options.workers = backend == IOQ_BACKEND_INLINE ? 0 : 2;
        options.post_order = post_order ? 1 : 0;
        cr_assert_eq(ioq_walk_open(&walk, &options), 0);
    }
    ~OpenWalk() { ioq_walk_close(walk); }
    OpenWalk(const OpenWalk&) = delete;
    OpenWalk& operator=(const OpenWalk&) = delete;

    std::string root;
    const char* roots[1] = {};
    ioq_walk* walk = nullptr;
};

std::size_t walk_to_end(ioq_walk* walk) {
    std::size_t count = 0;
    ioq_entry entry;
    while (ioq_walk_next(walk, &entry) > 0) {
        ++count;
    }
    return count;
}

// What every function gives in a state without an entry: none to describe,
// none to prune, and the end again.  The out-parameters stay as they were.
void expect_no_entry(ioq_walk* walk, const char* state, const char* backend) {
    struct statx out;
    std::memset(&out, 0x5a, sizeof out);
    cr_expect_eq(ioq_walk_stat(walk, STATX_TYPE | STATX_SIZE, 0, &out), -ENOENT,
                 "%s, %s: stat finds no entry", backend, state);
    cr_expect_eq(ioq_walk_stat(walk, STATX_INO, 1, &out), -ENOENT,
                 "%s, %s: stat (follow) finds no entry", backend, state);
    int dirfd = -7;
    const char* name = "unchanged";
    cr_expect_eq(ioq_walk_entry_at(walk, &dirfd, &name), -ENOENT,
                 "%s, %s: entry_at finds no entry", backend, state);
    cr_expect_eq(dirfd, -7, "%s, %s: entry_at leaves dirfd", backend, state);
    cr_expect_str_eq(name, "unchanged", "%s, %s: entry_at leaves name", backend, state);
    ioq_walk_prune(walk);  // nothing to prune: no effect
    ioq_walk_stats stats;
    ioq_walk_get_stats(walk, &stats);
}

} // namespace

Test(walk_api_states, open_refuses_null_pointers_and_bad_values) {
    test::TempTree tree;
    tree.build(tree_description);
    const char* roots[] = {tree.root().c_str()};
    ioq_walk_options options;
    ioq_walk_options_init(&options);
    options.roots = roots;
    options.root_count = 1;
    cr_expect_eq(ioq_walk_open(nullptr, &options), -EINVAL, "no place for the walk");
    ioq_walk* walk = reinterpret_cast<ioq_walk*>(&options);  // anything but NULL
    cr_expect_eq(ioq_walk_open(&walk, nullptr), -EINVAL, "no options");
    cr_expect_null(walk, "a refused open sets *walk to NULL");

    struct Bad {
        const char* what;
        void (*spoil)(ioq_walk_options&);
    };
    const Bad bad[] = {
        {"roots NULL with a count", [](ioq_walk_options& o) { o.roots = nullptr; }},
        {"min_depth -1", [](ioq_walk_options& o) { o.min_depth = -1; }},
        {"max_depth -2", [](ioq_walk_options& o) { o.max_depth = -2; }},
        {"workers -2", [](ioq_walk_options& o) { o.workers = -2; }},
        {"strategy 99", [](ioq_walk_options& o) { std::memset(&o.strategy, 99, 1); }},
        {"backend -1", [](ioq_walk_options& o) { std::memset(&o.backend, 0xff, sizeof o.backend); }},
        {"symlinks 3", [](ioq_walk_options& o) { int v = 3; std::memcpy(&o.symlinks, &v, sizeof v); }},
        {"stat_mask reserved", [](ioq_walk_options& o) { o.stat_mask = 0x80000000u; }},
    };
    for (const Bad& b : bad) {
        ioq_walk_options spoilt = options;
        b.spoil(spoilt);
        walk = reinterpret_cast<ioq_walk*>(&options);
        cr_expect_eq(ioq_walk_open(&walk, &spoilt), -EINVAL, "%s: -EINVAL", b.what);
        cr_expect_null(walk, "%s: *walk NULL", b.what);
    }
}

Test(walk_api_states, before_the_first_next_there_is_no_entry) {
    test::TempTree tree;
    tree.build(tree_description);
    for (const Backend& b : backends()) {
        OpenWalk open(tree, b.backend);
        expect_no_entry(open.walk, "before next", b.label);
        // The prune above pruned nothing: the whole tree is still there.
        cr_expect_eq(walk_to_end(open.walk), tree_entries, "%s: every entry", b.label);
    }
}

Test(walk_api_states, on_an_entry_stat_and_entry_at_describe_it) {
    test::TempTree tree;
    tree.build(tree_description);
    for (const Backend& b : backends()) {
        OpenWalk open(tree, b.backend);
        ioq_entry entry;
        std::size_t seen = 0;
        while (ioq_walk_next(open.walk, &entry) > 0) {
            ++seen;
            struct statx out;
            cr_expect_eq(ioq_walk_stat(open.walk, STATX_TYPE, 0, &out), 0, "%s: %s", b.label,
                         entry.path);
            int dirfd = -1;
            const char* name = nullptr;
            cr_expect_eq(ioq_walk_entry_at(open.walk, &dirfd, &name), 0, "%s: %s", b.label,
                         entry.path);
            cr_expect_not_null(name, "%s: %s", b.label, entry.path);
            // A reserved bit is the caller's mistake, whatever the cache holds.
            cr_expect_eq(ioq_walk_stat(open.walk, 0x80000000u, 0, &out), -EINVAL);
            cr_expect_eq(ioq_walk_stat(open.walk, STATX_TYPE, 0, nullptr), -EINVAL);
            cr_expect_eq(ioq_walk_entry_at(open.walk, nullptr, &name), -EINVAL);
            cr_expect_eq(ioq_walk_entry_at(open.walk, &dirfd, nullptr), -EINVAL);
        }
        cr_expect_eq(seen, tree_entries, "%s: every entry", b.label);
    }
}

Test(walk_api_states, after_the_end_there_is_no_entry_and_next_stays_at_the_end) {
    test::TempTree tree;
    tree.build(tree_description);
    for (const Backend& b : backends()) {
        for (bool post_order : {false, true}) {
            OpenWalk open(tree, b.backend, post_order);
            cr_expect_eq(walk_to_end(open.walk), tree_entries, "%s: every entry", b.label);
            expect_no_entry(open.walk, post_order ? "after the end, -depth" : "after the end",
                            b.label);
            ioq_entry entry;
            ioq_entry batch[4];
            for (int again = 0; again < 3; ++again) {
                cr_expect_eq(ioq_walk_next(open.walk, &entry), 0, "%s: next again", b.label);
                cr_expect_eq(ioq_walk_next_batch(open.walk, batch, nullptr, 4), 0,
                             "%s: next_batch again", b.label);
                expect_no_entry(open.walk, "after the end, again", b.label);
            }
            ioq_walk_stop(open.walk);
            expect_no_entry(open.walk, "stopped after the end", b.label);
        }
    }
}

Test(walk_api_states, a_batch_the_end_cut_short_leaves_no_entry) {
    // A batch shorter than asked for met the end: the walk is past its
    // last entry, as after next() returned 0.
    test::TempTree tree;
    tree.build(tree_description);
    for (const Backend& b : backends()) {
        OpenWalk open(tree, b.backend);
        std::vector<ioq_entry> entries(tree_entries + 8);
        cr_expect_eq(ioq_walk_next_batch(open.walk, entries.data(), nullptr, entries.size()),
                     static_cast<int>(tree_entries), "%s: the whole tree in one batch", b.label);
        expect_no_entry(open.walk, "after a short batch", b.label);
        ioq_entry entry;
        cr_expect_eq(ioq_walk_next(open.walk, &entry), 0, "%s: then the end", b.label);
    }
}

Test(walk_api_states, after_stop_there_is_no_entry_and_next_returns_0) {
    test::TempTree tree;
    tree.build(tree_description);
    for (const Backend& b : backends()) {
        for (int taken : {0, 1, 5}) {
            OpenWalk open(tree, b.backend);
            ioq_entry entry;
            for (int i = 0; i < taken; ++i) {
                cr_assert_eq(ioq_walk_next(open.walk, &entry), 1);
            }
            ioq_walk_stop(open.walk);
            expect_no_entry(open.walk, "after stop", b.label);
            ioq_walk_stop(open.walk);  // twice: no effect
            for (int again = 0; again < 3; ++again) {
                cr_expect_eq(ioq_walk_next(open.walk, &entry), 0, "%s: next after stop", b.label);
                cr_expect_eq(ioq_walk_next_batch(open.walk, &entry, nullptr, 1), 0,
                             "%s: next_batch after stop", b.label);
            }
            expect_no_entry(open.walk, "after stop and next", b.label);
        }
    }
}

Test(walk_api_states, null_arguments_are_refused_in_every_state) {
    test::TempTree tree;
    tree.build(tree_description);
    ioq_entry entry;
    struct statx out;
    int dirfd = -1;
    const char* name = nullptr;
    // No walk at all.
    cr_expect_eq(ioq_walk_next(nullptr, &entry), -EINVAL);
    cr_expect_eq(ioq_walk_next_batch(nullptr, &entry, nullptr, 1), -EINVAL);
    cr_expect_eq(ioq_walk_stat(nullptr, STATX_TYPE, 0, &out), -EINVAL);
    cr_expect_eq(ioq_walk_entry_at(nullptr, &dirfd, &name), -EINVAL);
    ioq_walk_prune(nullptr);
    ioq_walk_stop(nullptr);
    ioq_walk_close(nullptr);
    ioq_walk_options_init(nullptr);
    ioq_walk_stats stats;
    std::memset(&stats, 0x5a, sizeof stats);
    ioq_walk_get_stats(nullptr, &stats);
    cr_expect_eq(stats.entries, 0u, "no walk: counters of 0");
    cr_expect_eq(stats.backend, IOQ_BACKEND_AUTO);

    for (const Backend& b : backends()) {
        OpenWalk open(tree, b.backend);
        ioq_walk_get_stats(open.walk, nullptr);
        for (int step = 0; step < 3; ++step) {
            // step 0: before next; 1: on an entry; 2: after the end.
            cr_expect_eq(ioq_walk_next(open.walk, nullptr), -EINVAL, "%s, step %d", b.label, step);
            cr_expect_eq(ioq_walk_next_batch(open.walk, nullptr, nullptr, 4), -EINVAL,
                         "%s, step %d", b.label, step);
            cr_expect_eq(ioq_walk_next_batch(open.walk, &entry, nullptr, 0), -EINVAL,
                         "%s, step %d: no room", b.label, step);
            cr_expect_eq(ioq_walk_stat(open.walk, STATX_TYPE, 0, nullptr), -EINVAL);
            cr_expect_eq(ioq_walk_entry_at(open.walk, nullptr, &name), -EINVAL);
            cr_expect_eq(ioq_walk_entry_at(open.walk, &dirfd, nullptr), -EINVAL);
            if (step == 0) {
                cr_assert_eq(ioq_walk_next(open.walk, &entry), 1);
            } else if (step == 1) {
                walk_to_end(open.walk);
            }
        }
        // The refused calls took nothing from the walk.
        ioq_walk_get_stats(open.walk, &stats);
        cr_expect_eq(stats.entries, tree_entries, "%s: every entry returned once", b.label);
    }
}

Test(walk_api_states, a_walk_that_did_not_open_is_inert_in_cxx) {
    ioq_walk_options options = ioq::Walk::defaults();
    options.min_depth = -1;
    ioq::Walk walk({"."}, options);
    cr_expect_eq(walk.error(), -EINVAL);
    cr_expect_null(walk.next());
    walk.prune();
    struct statx out;
    cr_expect_eq(walk.stat(STATX_TYPE, false, out), -EINVAL);
    int dirfd = -1;
    const char* name = nullptr;
    cr_expect_eq(walk.entry_at(dirfd, name), -EINVAL);
    walk.stop();
    cr_expect_eq(walk.stats().entries, 0u);
}

Test(walk_api_states, unknown_backends_have_a_name) {
    int beyond = IOQ_BACKEND_INLINE + 1;
    ioq_backend unknown;
    std::memcpy(&unknown, &beyond, sizeof unknown);
    cr_expect_str_eq(ioq_backend_name(unknown), "unknown");
    cr_expect_str_eq(ioq_backend_name(IOQ_BACKEND_AUTO), "auto");
    cr_expect_eq(ioq_backend_available(unknown), 0);
}
