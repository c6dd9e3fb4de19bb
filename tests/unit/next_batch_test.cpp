// Unit tests of batch iteration through the public API (ioq_walk_next_batch,
// ioq::Walk::next_batch): a walk read a batch at a time returns exactly what
// the same walk returns one entry at a time, whatever the batch size, with
// every path of a batch still valid until the next call, and the metadata
// the walk's stat_mask asks for, equal to lstat's.
#include "temp_tree.hpp"

#include <ioq.h>
#include <ioq.hpp>

#include <criterion/criterion.h>

#include <sys/stat.h>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace {

const ioq_backend backends[] = {IOQ_BACKEND_INLINE, IOQ_BACKEND_THREADS, IOQ_BACKEND_AUTO};

ioq_walk_options options_for(ioq_backend backend, ioq_strategy strategy) {
    ioq_walk_options options = ioq::Walk::defaults();
    options.backend = backend;
    options.strategy = strategy;
    options.workers = backend == IOQ_BACKEND_INLINE ? 0 : 2;
    options.sort_names = 1;  // the same order whatever the timing
    return options;
}

std::vector<std::string> walk_one_at_a_time(const std::string& root, ioq_walk_options options) {
    std::vector<std::string> paths;
    ioq::Walk walk({root.c_str()}, options);
    for (const ioq::Entry& entry : walk) {
        paths.emplace_back(entry.path());
    }
    cr_expect_eq(walk.error(), 0);
    return paths;
}

} // namespace

Test(batch, returns_what_next_returns_in_the_same_order_for_any_batch_size) {
    test::TempTree tree;
    tree.make_uniform("u", 3, 3, 5);
    tree.symlink("u/link", "d0");
    for (ioq_backend backend : backends) {
        for (ioq_strategy strategy : {IOQ_STRATEGY_BFS, IOQ_STRATEGY_DFS, IOQ_STRATEGY_IDS}) {
            ioq_walk_options options = options_for(backend, strategy);
            std::vector<std::string> want = walk_one_at_a_time(tree.path("u"), options);
            for (std::size_t capacity : {1u, 7u, 64u, 10000u}) {
                ioq::Walk walk({tree.path("u").c_str()}, options);
                ioq::Batch batch(capacity);
                std::vector<std::string> got;
                std::size_t batches = 0;
                while (walk.next_batch(batch)) {
                    ++batches;
                    cr_expect_leq(batch.size(), capacity);
                    // Every path of the batch is still readable here, after
                    // the walk moved past all but the last entry.
                    for (std::size_t i = 0; i < batch.size(); ++i) {
                        ioq::Entry entry = batch[i];
                        got.emplace_back(entry.path());
                        cr_expect(entry.path().ends_with(entry.name()), "%s does not end in %s",
                                  entry.c_path(), std::string(entry.name()).c_str());
                        cr_expect_eq(entry.c_path()[entry.path().size()], '\0');
                    }
                }
                cr_expect_eq(walk.error(), 0);
                cr_expect(got == want, "backend %d strategy %d capacity %zu: %zu entries, want %zu",
                          backend, strategy, capacity, got.size(), want.size());
                cr_expect_eq(batches, (want.size() + capacity - 1) / capacity,
                             "batches are filled before they are returned");
            }
        }
    }
}

Test(batch, carries_the_metadata_of_stat_mask_equal_to_lstat) {
    test::TempTree tree;
    tree.file("t/a", "12345");
    tree.file("t/sub/b", std::string(5000, 'x'));
    tree.symlink("t/link", "sub/b");
    tree.symlink("t/broken", "nowhere");
    for (ioq_backend backend : backends) {
        ioq_walk_options options = options_for(backend, IOQ_STRATEGY_BFS);
        options.stat_mask = STATX_SIZE | STATX_INO | STATX_MODE;
        ioq::Walk walk({tree.path("t").c_str()}, options);
        ioq::Batch batch(3, true);
        std::size_t seen = 0;
        while (walk.next_batch(batch)) {
            for (std::size_t i = 0; i < batch.size(); ++i, ++seen) {
                struct stat want;
                cr_assert_eq(::lstat(batch[i].c_path(), &want), 0);
                const struct statx* got = batch.stat(i);
                cr_assert(got, "%s: no metadata", batch[i].c_path());
                cr_expect_eq(got->stx_size, static_cast<std::uint64_t>(want.st_size), "%s",
                             batch[i].c_path());
                cr_expect_eq(got->stx_ino, want.st_ino, "%s", batch[i].c_path());
                cr_expect_eq(got->stx_mode, want.st_mode, "%s", batch[i].c_path());
            }
        }
        cr_expect_eq(seen, 6u);
    }
    // Without stat_mask there is nothing to carry: no call is made.
    ioq_walk_options names_only = options_for(IOQ_BACKEND_INLINE, IOQ_STRATEGY_BFS);
    names_only.names_only = 1;  // nor does a worker identify a leaf it closes
    ioq::Walk walk({tree.path("t").c_str()}, names_only);
    ioq::Batch batch(16, true);
    cr_assert(walk.next_batch(batch));
    for (std::size_t i = 0; i < batch.size(); ++i) {
        cr_expect_null(batch.stat(i));
    }
    cr_expect_eq(walk.stats().stats, 1u, "only the starting point was looked at");
}

Test(batch, c_api_reports_the_end_and_keeps_loop_ancestors) {
    test::TempTree tree;
    tree.directory("l/a");
    tree.symlink("l/a/up", "..");
    ioq_walk_options options = options_for(IOQ_BACKEND_INLINE, IOQ_STRATEGY_BFS);
    options.symlinks = IOQ_SYMLINKS_LOGICAL;
    std::string root = tree.path("l");
    const char* roots[] = {root.c_str()};
    options.roots = roots;
    options.root_count = 1;
    ioq_walk* walk = nullptr;
    cr_assert_eq(ioq_walk_open(&walk, &options), 0);
    ioq_entry entries[8];
    int count = ioq_walk_next_batch(walk, entries, nullptr, 8);
    cr_assert_eq(count, 3, "l, l/a and the loop l/a/up: %d", count);
    cr_expect_eq(entries[2].error, ELOOP);
    cr_assert_not_null(entries[2].loop_ancestor);
    cr_expect_str_eq(entries[2].loop_ancestor, root.c_str());
    cr_expect_eq(ioq_walk_next_batch(walk, entries, nullptr, 8), 0, "the end");
    cr_expect_eq(ioq_walk_next_batch(walk, entries, nullptr, 8), 0, "still the end");
    ioq_walk_close(walk);
}
