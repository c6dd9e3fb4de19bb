// block_reads_are_counted(): which starting points let the I/O queue take
// a slow wait without block reads for a busy CPU rather than a slow device.
#include "temp_tree.hpp"
#include "walk/counted_reads.hpp"

#include <criterion/criterion.h>
#include <linux/magic.h>
#include <sys/vfs.h>

#include <string>
#include <vector>

using ioq::walk::block_reads_are_counted;

namespace {

// What statfs says of path, independently of the code under test.
long filesystem_type(const std::string& path) {
    struct statfs about;
    cr_assert_eq(::statfs(path.c_str(), &about), 0, "statfs %s", path.c_str());
    return static_cast<long>(about.f_type);
}

} // namespace

Test(counted_reads, procfs_and_missing_paths_are_not_counted) {
    cr_expect(!block_reads_are_counted({"/proc"}), "procfs reads no block device");
    test::TempTree tree;
    cr_expect(!block_reads_are_counted({tree.path("missing")}),
              "a path statfs cannot reach must keep the guess");
}

Test(counted_reads, one_uncounted_root_decides_for_the_walk) {
    test::TempTree tree;
    tree.build("d/");
    bool local = filesystem_type(tree.path("d")) == EXT4_SUPER_MAGIC ||
                 filesystem_type(tree.path("d")) == TMPFS_MAGIC;
    if (!local) {
        cr_skip_test("the temporary directory is on neither ext4 nor tmpfs");
    }
    cr_expect(block_reads_are_counted({tree.path("d")}), "ext4 and tmpfs count their reads");
    cr_expect(block_reads_are_counted({tree.path("d"), tree.path("d")}));
    cr_expect(!block_reads_are_counted({tree.path("d"), "/proc"}),
              "a second root on procfs was not looked at");
}

Test(counted_reads, tmpfs_counts) {
    if (filesystem_type("/dev/shm") != TMPFS_MAGIC) {
        cr_skip_test("/dev/shm is not tmpfs here");
    }
    cr_expect(block_reads_are_counted({"/dev/shm"}));
}
