// AheadChildren: the subdirectories of one directory that the walk opened
// before their entries came up (looking ahead, see look_ahead.cpp).
//
// They are kept in the order the directory's buffer lists them, which is
// the order next() returns their entries, so that an entry claims the
// first one not yet claimed, or none (the scan did not reach it):
//
//   [ c0 c1 | c2 c3 ]      scan_offset: where in the buffer the scan for
//     claimed  unclaimed                more to open goes on
//
// first_unsettled() is where the walk's scans for what to open next start:
// the claimed ones are the caller's now, and those before settled_up_to()
// have nothing left to open below them (without it, a directory of many
// leaves opened ahead was visited leaf by leaf on every scan).
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace ioq::walk {

struct DirNode;

class AheadChildren {
public:
    // Ready for another directory.  The vector keeps its capacity, so that
    // a walk allocates for it only while warming up (slots are pooled).
    void reset() noexcept {
        nodes_.clear();
        next_ = scan_offset_ = settled_to_ = 0;
        scan_done_ = false;
    }

    // Room for one more, taken before the node is made and linked in, so
    // that what may throw std::bad_alloc comes first.
    void reserve_one() {
        if (nodes_.size() == nodes_.capacity()) {
            nodes_.reserve(std::max<std::size_t>(16, nodes_.capacity() * 2));
        }
    }
    // After reserve_one(): cannot throw.
    void add(DirNode* node) noexcept { nodes_.push_back(node); }

    std::size_t size() const noexcept { return nodes_.size(); }
    DirNode* operator[](std::size_t i) const noexcept { return nodes_[i]; }

    bool has_unclaimed() const noexcept { return next_ < nodes_.size(); }
    // The one the next directory entry may claim (has_unclaimed() first).
    DirNode* next_unclaimed() const noexcept { return nodes_[next_]; }
    DirNode* take_unclaimed() noexcept { return nodes_[next_++]; }

    // Where the scans for what to open next begin.
    std::size_t first_unsettled() const noexcept { return std::max(next_, settled_to_); }
    // Every one before end is settled (DirNode::ahead_settled).
    void settled_up_to(std::size_t end) noexcept { settled_to_ = end; }

    // The scan of the directory's buffer for subdirectories to open: where
    // it stopped when the budget ran out, and whether it reached the end
    // (or will not go on: the next buffer opens nothing ahead).
    std::size_t scan_offset() const noexcept { return scan_offset_; }
    void scan_to(std::size_t offset) noexcept { scan_offset_ = offset; }
    bool scan_done() const noexcept { return scan_done_; }
    void end_scan() noexcept { scan_done_ = true; }

private:
    std::vector<DirNode*> nodes_;
    std::size_t next_ = 0;
    std::size_t scan_offset_ = 0;
    std::size_t settled_to_ = 0;
    bool scan_done_ = false;
};

} // namespace ioq::walk
