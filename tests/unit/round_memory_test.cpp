// RoundMemory: what one round of ids, eds or hybrid leaves for the next.
#include "walk/round_memory.hpp"

#include <criterion/criterion.h>

#include <string>

using ioq::walk::RoundMemory;

namespace {

std::string key(const char* root, const char* path) {
    std::string out;
    RoundMemory::key(root, path, out);
    return out;
}

} // namespace

Test(round_memory, a_subtree_walked_whole_is_skipped_by_later_rounds_only) {
    RoundMemory memory;
    cr_expect(memory.skips_nothing());
    std::string dir = key("top", "top/a");
    memory.record_finished(dir, 0);
    cr_expect(!memory.skips_nothing());
    cr_expect(memory.walked_whole(key("top", "top/a"), 1));
    cr_expect(!memory.walked_whole(key("top", "top/a"), 0),
              "the same round (the starting point given twice) walks it again");
    cr_expect(!memory.walked_whole(key("top", "top/ab"), 1), "a sibling sharing a prefix");
    cr_expect(!memory.walked_whole(key("other", "top/a"), 1), "another starting point's path");
}

Test(round_memory, a_directory_recorded_replaces_its_descendants) {
    RoundMemory memory;
    std::string child = key("r", "r/a/b");
    std::string sibling = key("r", "r/ab");
    memory.record_finished(child, 0);
    memory.record_finished(sibling, 0);
    std::string parent = key("r", "r/a");
    memory.record_finished(parent, 1);
    cr_expect(!memory.walked_whole(key("r", "r/a/b"), 2), "dropped: r/a covers it");
    cr_expect(memory.walked_whole(key("r", "r/a"), 2));
    cr_expect(memory.walked_whole(key("r", "r/ab"), 2), "not below r/a, kept");
}

Test(round_memory, pruned_directories_stay_pruned) {
    RoundMemory memory;
    cr_expect(!memory.pruned("a/b"));
    memory.prune("a/b");
    cr_expect(memory.pruned("a/b"));
    cr_expect(!memory.pruned("a/bc"));
    cr_expect(!memory.skips_nothing());
    memory.clear();
    cr_expect(!memory.pruned("a/b"));
    cr_expect(memory.skips_nothing());
}

Test(round_memory, a_failure_is_reported_once_over_all_rounds) {
    RoundMemory memory;
    std::string k = key("r", "r/locked");
    cr_expect(!memory.reported_before(k, 13, 0), "first met: report it");
    k = key("r", "r/locked");
    cr_expect(!memory.reported_before(k, 13, 0), "the same round meets it again");
    k = key("r", "r/locked");
    cr_expect(memory.reported_before(k, 13, 1), "a later round: already reported");
    k = key("r", "r/locked");
    cr_expect(!memory.reported_before(k, 2, 1), "another errno is news");
}
