// Walker, rounds: how ids, eds and hybrid walk a tree more than once.
//
// The bounds of each round are a RoundWindow (round_window.hpp); what one
// round leaves for the next, a RoundMemory (round_memory.hpp).  This file
// joins them to the walk's nodes: a node's key, when its subtree is
// recorded as finished, and how a round begins and ends:
//
//   node's subtree finished (free_if_unused)  --> finished_ready_
//   next() --> record_finished() --> memory_.record_finished(key(node))
//   queue empty --> start_next_round() --> window_.advance()
//
// The directories at depth 0 and 1 that a round read and a later one will
// walk through again are kept (kept_listings.hpp): the later round takes
// their listings from there instead of opening and reading them.
#include "walker.hpp"

#include <algorithm>
#include <new>
#include <climits>
#include <string>
#include <string_view>

namespace ioq::walk {

void Walker::record_finished() {
    // Deepest first is the order subtrees end in: a directory's
    // descendants were recorded before it, and its path replaces theirs.
    while (!finished_ready_.empty()) {
        DirNode* node = finished_ready_.back();
        finished_key(node, finished_path_);
        memory_.record_finished(finished_path_, window_.round());  // may throw: the node stays listed
        if (node->depth <= KeptListings::deepest && !kept_.empty()) {
            forget_kept_listing(finished_path_);  // no round will walk it again
        }
        finished_ready_.pop_back();
        node->finish_recorded = true;
        free_if_unused(node);
    }
}

void Walker::finished_key(const DirNode* node, std::string& out) {
    const DirNode* root = node;
    while (root->parent) {
        root = root->parent;
    }
    write_path(nullptr, node, finished_scratch_);
    // A directory's path never ends in '/' below its root; "dir/" as a
    // starting point: its descendants follow one '/'.
    if (node->parent == nullptr && finished_scratch_.size() > 1 &&
        finished_scratch_.back() == '/') {
        finished_scratch_.pop_back();
    }
    RoundMemory::key(root->name, finished_scratch_, out);
}

bool Walker::walked_whole(std::string_view path) {
    if (memory_.skips_nothing()) {
        return false;
    }
    RoundMemory::key(options_.roots[next_root_ - 1], path, finished_scratch_);
    return memory_.walked_whole(finished_scratch_, window_.round());
}

bool Walker::reported_before(std::string_view path, int error) {
    RoundMemory::key(options_.roots[next_root_ - 1], path, finished_scratch_);
    return memory_.reported_before(finished_scratch_, error, window_.round());
}

void Walker::drop_finished() {
    // The walk is over: free what waited to be recorded, unrecorded.
    while (!finished_ready_.empty()) {
        DirNode* node = finished_ready_.back();
        finished_ready_.pop_back();
        node->finish_recorded = true;
        free_if_unused(node);
    }
}

void Walker::keep_listing(DirNode* node) {
    if (!may_keep_listing(node)) {
        return;
    }
    const DirBuffer& buffer = node->slot->buffer;
    // Whole, from the open's read alone (read_more() makes the request a
    // read_dir); not known to be walked whole, with nothing at the bound
    // below it; and open (a leaf a worker closed has no subdirectory to
    // walk through again).  Its descriptor is kept with it, at most an
    // eighth of the budget's.
    if (node->slot->request.op != Op::open_dir || !buffer.at_end() || buffer.error() ||
        (node->depth + 1 == window_.bound() && !node->truncated) || node->fd < 0 ||
        !kept_.has_room(buffer.size()) || !fds_.available() ||
        kept_.descriptors() >= fds_.limit() / 8) {
        return;
    }
    int fd = IoQueue::duplicate_now(node->fd);
    if (fd < 0) {
        return;  // the next round opens it again
    }
    try {
        finished_key(node, kept_key_);
        kept_.add(kept_key_, buffer.data(), buffer.size(), fd);
    } catch (const std::bad_alloc&) {
        IoQueue::close_now(fd);
        return;  // read again instead
    }
    fds_.acquire();
}

const KeptListings::Listing* Walker::kept_listing(const DirNode* node) {
    if (kept_.empty() || node->depth > KeptListings::deepest) {
        return nullptr;
    }
    finished_key(node, kept_key_);
    return kept_.find(kept_key_);
}

bool Walker::serve_kept(DirNode* node, const KeptListings::Listing& listing) noexcept {
    // What a worker would leave in the open's request and buffer: a
    // descriptor and the whole listing.
    int fd = IoQueue::duplicate_now(listing.fd);
    if (fd < 0) {
        return false;  // opened as usual, and EMFILE handled there
    }
    if (!node->slot->buffer.assign(listing.records.data(), listing.records.size())) {
        IoQueue::close_now(fd);
        return false;
    }
    node->slot->request.result = fd;
    node->listing_kept = true;
    ++stats_.listings_reused;
    return true;
}

void Walker::forget_kept_listing(std::string_view key) noexcept {
    int fd = kept_.take(key);
    if (fd >= 0) {
        close_fd(fd);
    }
}

void Walker::drop_kept_listings() noexcept {
    kept_.clear([this](int fd) { close_fd(fd); });
}

void Walker::begin_rounds() {
    drop_kept_listings();  // hybrid: of the last starting point
    window_.begin();
    memory_.clear();
}

bool Walker::start_next_round() {
    if (!window_.advance()) {
        return false;
    }
    // The same starting point again, or all of them from the first.
    next_root_ = rounds_per_root_ ? next_root_ - 1 : 0;
    return true;
}

void Walker::prune() {
    // A directory at the round's bound is not descended now but would be by
    // the next round, which must remember the caller's answer.
    if (window_.has_rounds() && entry_.type == EntryType::directory && !entry_.error &&
        entry_.depth < options_.max_depth) {
        memory_.prune(entry_.path);
    }
    descend_pending_ = false;
}

} // namespace ioq::walk
