// Post-order on a deep chain: each directory's visit acts through its
// parent (-delete, -execdir), whose descriptor the walk opens again.  It
// must do so in a step per level (".." from the child it kept, see
// lib/walk/upward_step.hpp), not by a path from the top, which made a
// chain of depth d cost d^2/2 lookups; and a ".." that no longer leads to
// the directory the walk read must never be acted in.
#include "temp_tree.hpp"
#include "walk_harness.hpp"

#include <criterion/criterion.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

using namespace test::walk_names;

namespace {

constexpr unsigned chain_depth = 2000;

// Deletes every entry of a post-order walk as -delete does, through
// entry_location(); returns the walk's count of reopen steps.
std::uint64_t delete_in_post_order(const WalkBackend& backend, Strategy strategy,
                                   const std::string& root, bool names_only) {
    WalkOptions options = test::make_options(backend, {root}, strategy, 1);
    options.post_order = true;
    options.names_only = names_only;
    Walker walker(options);
    while (const ioq::walk::EntryView* entry = walker.next()) {
        int dirfd = AT_FDCWD;
        const char* name = nullptr;
        int located = walker.entry_location(dirfd, name);
        cr_assert_eq(located, 0, "%s: entry_location of %s: %s",
                     test::describe(backend, strategy).c_str(), std::string(entry->name).c_str(),
                     std::strerror(-located));
        int flags = entry->type == ioq::walk::EntryType::directory ? AT_REMOVEDIR : 0;
        cr_assert_eq(::unlinkat(dirfd, name, flags), 0, "%s: unlinkat %s: %s",
                     test::describe(backend, strategy).c_str(), name, std::strerror(errno));
    }
    return walker.stats().reopen_steps;
}

} // namespace

Test(upward_step, a_deep_chain_is_deleted_in_linear_steps, .timeout = 120) {
    // Names only, the walk closes each directory once read and keeps every
    // eighth level open; otherwise it keeps none of them.
    for (bool names_only : {false, true}) {
        for (const WalkBackend& backend : test::plain_backends()) {
            for (Strategy strategy : {Strategy::dfs, Strategy::bfs}) {
                std::string where = test::describe(backend, strategy) +
                                    (names_only ? " names only" : "");
                test::TempTree tree;
                tree.deep_chain("top", "d", chain_depth, 1);
                std::uint64_t steps =
                    delete_in_post_order(backend, strategy, tree.path("top"), names_only);
                struct stat st;
                cr_expect_eq(::stat(tree.path("top/d0").c_str(), &st), -1, "%s: the chain is gone",
                             where.c_str());
                // A step per level and a few to start; from the top, the
                // sum of the depths is 2,000,000.
                cr_expect_leq(steps, 4 * chain_depth, "%s: %llu reopen steps for %u levels",
                              where.c_str(), static_cast<unsigned long long>(steps), chain_depth);
            }
        }
    }
}

// r/a/b/c: after c's visit (acted in b), b is moved out to r/moved, so that
// ".." from b's descriptor leads to r, not a.  b's own visit must then be
// located in a (opened again by path) or fail; never in r, where a file
// called b waits to be deleted by mistake.
Test(upward_step, a_moved_child_does_not_lead_to_another_parent) {
    for (const WalkBackend& backend : test::plain_backends()) {
        test::TempTree tree;
        tree.directory("r/a/b/c");
        tree.file("r/b", "bait");
        WalkOptions options = test::make_options(backend, {tree.path("r")}, Strategy::dfs);
        options.post_order = true;
        options.names_only = true;
        Walker walker(options);
        bool moved = false;
        bool b_visited = false;
        while (const ioq::walk::EntryView* entry = walker.next()) {
            std::string path(entry->path);
            int dirfd = AT_FDCWD;
            const char* name = nullptr;
            if (path == tree.path("r/a/b/c")) {
                cr_assert_eq(walker.entry_location(dirfd, name), 0);
                cr_assert_eq(::rename(tree.path("r/a/b").c_str(), tree.path("r/moved").c_str()), 0);
                moved = true;
            } else if (path == tree.path("r/a/b")) {
                b_visited = true;
                int located = walker.entry_location(dirfd, name);
                if (located == 0) {
                    struct stat where, a;
                    cr_assert_eq(::fstat(dirfd, &where), 0);
                    cr_assert_eq(::stat(tree.path("r/a").c_str(), &a), 0);
                    cr_expect_eq(where.st_ino, a.st_ino, "%s: located in a, not in r",
                                 backend.label);
                } else {
                    cr_expect_eq(located, -ENOENT, "%s", backend.label);
                }
            }
        }
        cr_expect(moved && b_visited, "%s: the walk reached c and then b", backend.label);
        struct stat st;
        cr_expect_eq(::stat(tree.path("r/b").c_str(), &st), 0, "%s: the bait is untouched",
                     backend.label);
    }
}
