// ends_are_marked(): a walk takes a directory's end from its last record
// only where no file system it can reach is a network, FUSE or autofs one;
// and the mount table's lines it reads (mount_table.hpp).
#include "temp_tree.hpp"
#include "walk/marked_ends.hpp"
#include "walk/mount_table.hpp"

#include <criterion/criterion.h>

#include <string>
#include <vector>

using ioq::walk::ends_are_marked;
using ioq::walk::ends_are_marked_in;

namespace {

// Lines as proc(5) shows them; the optional fields before "-" vary.
const std::string local_mounts =
    "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
    "23 22 0:21 / /proc rw,nosuid shared:12 - proc proc rw\n"
    "24 22 0:22 / /tmp rw - tmpfs tmpfs rw,size=100k\n"
    "25 22 8:2 / /home rw,relatime shared:2 master:1 - btrfs /dev/sda2 rw\n";

} // namespace

Test(marked_ends, local_file_systems_everywhere_mark_ends) {
    cr_expect(ends_are_marked_in(local_mounts, {"/home/me/src"}));
    cr_expect(ends_are_marked_in(local_mounts, {"/"}), "every mount below / is local");
    cr_expect(ends_are_marked_in(local_mounts, {"/tmp", "/home"}));
}

Test(marked_ends, a_network_or_fuse_mount_below_a_root_is_not_trusted) {
    std::string with_sshfs = local_mounts +
        "40 25 0:50 / /home/me/remote rw,nosuid - fuse.sshfs me@host: rw,user_id=1000\n";
    cr_expect(!ends_are_marked_in(with_sshfs, {"/home/me"}), "sshfs below the root");
    cr_expect(!ends_are_marked_in(with_sshfs, {"/"}), "sshfs below /");
    cr_expect(!ends_are_marked_in(with_sshfs, {"/home/me/remote/x"}), "the root inside sshfs");
    cr_expect(!ends_are_marked_in(with_sshfs, {"/home/me/remote"}), "the root is the mount point");
    cr_expect(ends_are_marked_in(with_sshfs, {"/home/mel"}), "/home/mel is not below /home/me");
    cr_expect(ends_are_marked_in(with_sshfs, {"/home/me/src", "/tmp"}),
              "roots beside the mount are not affected");
    cr_expect(!ends_are_marked_in(with_sshfs, {"/tmp", "/home"}), "one root reaching it decides");

    std::string with_nfs = local_mounts + "41 22 0:51 / /net rw - nfs4 server:/export rw\n";
    cr_expect(!ends_are_marked_in(with_nfs, {"/"}));
    std::string with_autofs = local_mounts + "42 22 0:52 / /auto rw - autofs systemd-1 rw\n";
    cr_expect(!ends_are_marked_in(with_autofs, {"/"}), "autofs mounts a network file system");
    std::string with_overlay = local_mounts + "43 22 0:53 / /ctr rw - overlay overlay rw,lowerdir=/l\n";
    cr_expect(!ends_are_marked_in(with_overlay, {"/ctr/etc"}), "overlayfs layers may be anything");
}

Test(marked_ends, escaped_mount_points_are_compared_unescaped) {
    std::string spaced = local_mounts + "44 25 0:54 / /home/a\\040b rw - fuse.x x rw\n";
    cr_expect(!ends_are_marked_in(spaced, {"/home/a b/c"}), "\\040 is a space");
    cr_expect(ends_are_marked_in(spaced, {"/home/a\\040b"}), "a root is never escaped");
}

Test(marked_ends, unreadable_or_strange_mount_tables_trust_nothing) {
    cr_expect(!ends_are_marked_in("", {"/"}), "no mount at all");
    cr_expect(!ends_are_marked_in("22 1 8:1 / / rw ext4 /dev/sda1 rw\n", {"/"}), "no separator");
    cr_expect(!ends_are_marked_in(local_mounts + "garbage\n", {"/"}));
}

Test(marked_ends, roots_are_resolved_and_links_followed_are_not_trusted) {
    test::TempTree tree;
    tree.build("d/ link->d");
    // This machine's own mount table: whatever it holds, a missing root and
    // a walk following links are never trusted, and a root and a link to
    // it resolve to the same answer.
    cr_expect(!ends_are_marked({tree.path("missing")}, false));
    cr_expect(!ends_are_marked({tree.path("d")}, true), "-L may lead anywhere");
    cr_expect(!ends_are_marked({}, false));
    cr_expect_eq(ends_are_marked({tree.path("d")}, false), ends_are_marked({tree.path("link")}, false));
}

Test(mount_table, lines_give_their_device_mount_point_and_type) {
    ioq::walk::MountLine mount;
    cr_assert(ioq::walk::parse_mount_line(
        "25 22 8:2 / /home/a\\040b rw,relatime shared:2 master:1 - btrfs /dev/sda2 rw", mount));
    cr_expect(mount.device == "8:2");
    cr_expect(mount.mount_point == "/home/a\\040b", "mount points stay escaped");
    cr_expect(mount.type == "btrfs");
    cr_expect(ioq::walk::parse_mount_line("24 22 0:22 / /tmp rw - tmpfs tmpfs rw", mount));
    cr_expect(mount.type == "tmpfs", "no optional field");
    cr_expect(!ioq::walk::parse_mount_line("22 1 8:1 / / rw ext4 /dev/sda1 rw", mount),
              "no separator");
    cr_expect(!ioq::walk::parse_mount_line("22 1 8:1 / / rw -", mount), "no type");
    cr_expect(!ioq::walk::parse_mount_line("", mount));
    std::string_view text = "a\n\nb";
    cr_expect(ioq::walk::next_line(text) == "a");
    cr_expect(ioq::walk::next_line(text) == "");
    cr_expect(ioq::walk::next_line(text) == "b");
    cr_expect(text.empty());
}
