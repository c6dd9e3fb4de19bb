// Unit tests of the C API's edges (lib/api): the defaults
// ioq_walk_options_init sets, field by field, against what ioq.h documents;
// ioq_backend_available and ioq_backend_default against what a walk reports
// it ran; ioq_filesystem_type against the mount table.
#include "temp_tree.hpp"

#include <ioq.h>

#include <criterion/criterion.h>

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <cstring>
#include <string>

namespace {

// The backend a walk of a tree with a few directories reports once its pool
// ran: what ioq_backend_available and ioq_backend_default must foresee.
ioq_backend backend_run(ioq_backend requested) {
    test::TempTree tree;
    tree.build("a/ a/1 b/ b/2 c/ c/3 d/ d/4 e/ e/5 f/ f/6 g/ g/7 h/ h/8");
    const std::string& root = tree.root();
    const char* roots[] = {root.c_str()};
    ioq_walk_options options;
    ioq_walk_options_init(&options);
    options.roots = roots;
    options.root_count = 1;
    options.backend = requested;
    options.workers = 1;
    ioq_walk* walk = nullptr;
    cr_assert_eq(ioq_walk_open(&walk, &options), 0);
    ioq_entry entry;
    while (ioq_walk_next(walk, &entry) > 0) {
    }
    ioq_walk_stats stats;
    ioq_walk_get_stats(walk, &stats);
    ioq_walk_close(walk);
    return stats.backend;
}

} // namespace

Test(walk_api, options_init_sets_every_documented_default) {
    ioq_walk_options options;
    std::memset(&options, 0xa5, sizeof options);  // nothing left from before
    ioq_walk_options_init(&options);
    cr_expect_null(options.roots);
    cr_expect_eq(options.root_count, 0u);
    cr_expect_eq(options.strategy, IOQ_STRATEGY_HYBRID);
    cr_expect_eq(options.backend, IOQ_BACKEND_AUTO);
    cr_expect_eq(options.workers, -1);
    cr_expect_eq(options.min_depth, 0);
    cr_expect_eq(options.max_depth, -1);
    cr_expect_eq(options.read_ahead, 0u);
    cr_expect_eq(options.post_order, 0);
    cr_expect_eq(options.symlinks, IOQ_SYMLINKS_PHYSICAL);
    cr_expect_eq(options.same_device, 0);
    cr_expect_eq(options.sort_names, 0);
    cr_expect_eq(options.completion_order, 0);
    cr_expect_eq(options.stat_mask, 0u);
    cr_expect_eq(options.hold_directories, 0);
    cr_expect_eq(options.names_only, 0);
    cr_expect_eq(options.look_ahead, 0);
}

Test(walk_api, backends_available_are_the_ones_walks_run) {
    ::unsetenv("IOQ_BACKEND");
    cr_expect_eq(ioq_backend_available(IOQ_BACKEND_AUTO), 1);
    cr_expect_eq(ioq_backend_available(IOQ_BACKEND_THREADS), 1);
    cr_expect_eq(ioq_backend_available(IOQ_BACKEND_INLINE), 1);
    int uring = ioq_backend_available(IOQ_BACKEND_URING);
    cr_expect(uring == 0 || uring == 1);
    // A forced io_uring the library cannot run falls back to threads.
    cr_expect_eq(backend_run(IOQ_BACKEND_URING), uring ? IOQ_BACKEND_URING : IOQ_BACKEND_THREADS);
    cr_expect_eq(backend_run(IOQ_BACKEND_THREADS), IOQ_BACKEND_THREADS);
    int beyond = IOQ_BACKEND_INLINE + 1;
    ioq_backend unknown;
    std::memcpy(&unknown, &beyond, sizeof unknown);  // as a C caller may pass
    cr_expect_eq(ioq_backend_available(unknown), 0);
}

Test(walk_api, default_backend_is_what_an_automatic_walk_runs) {
    ::unsetenv("IOQ_BACKEND");
    ioq_backend chosen = ioq_backend_default();
    cr_expect_neq(chosen, IOQ_BACKEND_AUTO);
    cr_expect_eq(chosen, ioq_backend_available(IOQ_BACKEND_URING) ? IOQ_BACKEND_URING
                                                                  : IOQ_BACKEND_THREADS);
    cr_expect_eq(backend_run(IOQ_BACKEND_AUTO), chosen);
    ::setenv("IOQ_BACKEND", "threads", 1);
    cr_expect_eq(ioq_backend_default(), IOQ_BACKEND_THREADS);
    cr_expect_eq(backend_run(IOQ_BACKEND_AUTO), IOQ_BACKEND_THREADS);
    ::setenv("IOQ_BACKEND", "inline", 1);
    cr_expect_eq(ioq_backend_default(), IOQ_BACKEND_INLINE);
    ::unsetenv("IOQ_BACKEND");
}

Test(walk_api, filesystem_type_names_what_the_mount_table_lists) {
    struct statx proc;
    cr_assert_eq(::statx(AT_FDCWD, "/proc", 0, STATX_BASIC_STATS, &proc), 0);
    const char* type = ioq_filesystem_type(proc.stx_dev_major, proc.stx_dev_minor);
    cr_assert_not_null(type, "/proc's device is not in its own mount table");
    cr_expect_str_eq(type, "proc");
    // Asked again, the same table: the same string.
    cr_expect_eq(ioq_filesystem_type(proc.stx_dev_major, proc.stx_dev_minor), type);
    // Majors are 12 bits: none is this large.
    cr_expect_null(ioq_filesystem_type(0xfffffu, 0xfffffu));
}
