// EntryStatCache: metadata the walk has for the entry just returned, one
// slot per way of looking, good for any subset of the fields it has.
#include "walk/entry_stat_cache.hpp"

#include <criterion/criterion.h>

#include <sys/stat.h>

using ioq::walk::EntryStatCache;

namespace {

struct statx with_size(unsigned long long size) {
    struct statx buf {};
    buf.stx_size = size;
    return buf;
}

} // namespace

Test(entry_stat_cache, answers_for_the_fields_it_has) {
    EntryStatCache cache;
    cr_expect_null(cache.find(false, STATX_SIZE), "empty at first");
    cache.put(false, STATX_SIZE | STATX_MODE, with_size(42));
    const struct statx* found = cache.find(false, STATX_SIZE);
    cr_assert_not_null(found);
    cr_expect_eq(found->stx_size, 42u);
    cr_expect_not_null(cache.find(false, STATX_SIZE | STATX_MODE));
    cr_expect_null(cache.find(false, STATX_SIZE | STATX_MTIME), "a field never fetched");
}

Test(entry_stat_cache, a_link_never_answers_for_its_target) {
    EntryStatCache cache;
    cache.put(false, STATX_SIZE, with_size(7));
    cr_expect_null(cache.find(true, STATX_SIZE));
    cache.put(true, STATX_SIZE, with_size(9));
    cr_expect_eq(cache.find(false, STATX_SIZE)->stx_size, 7u);
    cr_expect_eq(cache.find(true, STATX_SIZE)->stx_size, 9u);
}

Test(entry_stat_cache, forgets_everything_for_the_next_entry) {
    EntryStatCache cache;
    cache.put(false, STATX_SIZE, with_size(1));
    cache.put(true, STATX_SIZE, with_size(2));
    cache.clear();
    cr_expect_null(cache.find(false, 0));
    cr_expect_null(cache.find(true, 0));
    cache.put(false, STATX_MODE, with_size(3));  // replaces, never merges
    cache.put(false, STATX_SIZE, with_size(4));
    cr_expect_null(cache.find(false, STATX_MODE));
    cr_expect_eq(cache.find(false, STATX_SIZE)->stx_size, 4u);
}
