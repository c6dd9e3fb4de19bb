// Walker, rounds: how ids, eds and hybrid walk a tree more than once.
//
// A round is a depth-first walk under a depth bound; it reports only what
// lies deeper than the last round's bound.  Each round ends with a list of
// what the next need not walk again:
//
//   round k:  subtree walked whole (nothing at the bound below it)
//                 -> finished_ [starting point NUL path -> k]
//             directory the caller pruned -> pruned_
//   round k+1: enter_next_directory() skips both; a directory at the new
//             bound marks the round truncated, and only then is there a
//             round k+2.
//
// The directories at depth 0 and 1 that a round read and a later one will
// walk through again are kept (kept_listings.hpp): the later round takes
// their listings from there instead of opening and reading them.
//
// finished_ is kept small: recording a directory drops the entries of the
// subtrees below it, which the directory's own entry now covers.
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
        finished_path_.push_back('/');
        auto below = finished_.lower_bound(std::string_view(finished_path_));
        auto end = below;
        while (end != finished_.end() && end->first.starts_with(finished_path_)) {
            ++end;
        }
        finished_.erase(below, end);
        finished_path_.pop_back();
        finished_.insert_or_assign(finished_path_, round_);  // may throw: the node stays listed
        if (node->depth <= KeptListings::deepest && !kept_.empty()) {
            forget_kept_listing(finished_path_);  // no round will walk it again
        }
        finished_ready_.pop_back();
        node->finish_recorded = true;
        free_if_unused(node);
    }
}

void Walker::finished_key(std::string_view root, std::string_view path, std::string& out) {
    // The same path lies at other depths below another starting point
    // ("dir" and "dir/sub"): the key is the starting point, a NUL, the path.
    out.assign(root);
    out.push_back('\0');
    out.append(path);
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
    finished_key(root->name, finished_scratch_, out);
}

bool Walker::walked_whole(std::string_view path) {
    if (finished_.empty()) {
        return false;
    }
    finished_key(options_.roots[next_root_ - 1], path, finished_scratch_);
    auto found = finished_.find(finished_scratch_);
    return found != finished_.end() && found->second < round_;
}

bool Walker::reported_before(std::string_view path, int error) {
    finished_key(options_.roots[next_root_ - 1], path, finished_scratch_);
    finished_scratch_.push_back('\0');
    finished_scratch_.append(std::to_string(error));
    auto found = failures_reported_.find(std::string_view(finished_scratch_));
    if (found != failures_reported_.end()) {
        return found->second < round_;
    }
    try {
        failures_reported_.emplace(finished_scratch_, round_);
    } catch (const std::bad_alloc&) {
        // Unremembered, a later round's same failure is reported again.
    }
    return false;
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
        (node->depth + 1 == round_bound_ && !node->truncated) || node->fd < 0 ||
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
    round_ = 0;
    round_min_ = 0;
    round_bound_ = INT_MAX;
    if (rounds_) {
        int first = options_.strategy == Strategy::hybrid ? hybrid_first_bound : 1;
        round_bound_ = std::min(first, options_.max_depth);
    }
    enter_round_window();
    pruned_.clear();
    finished_.clear();
    failures_reported_.clear();
}

void Walker::enter_round_window() {
    round_truncated_ = false;
    depth_limit_ = std::min(options_.max_depth, round_bound_);
    report_min_ = std::max(options_.min_depth, round_min_);
}

bool Walker::start_next_round() {
    if (!rounds_ || !round_truncated_) {
        return false;
    }
    ++round_;
    round_min_ = round_bound_ + 1;
    int next_bound = options_.strategy == Strategy::ids ? round_bound_ + 1
                     : options_.strategy == Strategy::eds ? round_bound_ * 2
                                                          : INT_MAX;
    round_bound_ = std::min(next_bound, options_.max_depth);
    enter_round_window();
    // The same starting point again, or all of them from the first.
    next_root_ = rounds_per_root_ ? next_root_ - 1 : 0;
    return true;
}

void Walker::prune() {
    // A directory at the round's bound is not descended now but would be by
    // the next round, which must remember the caller's answer.
    if (rounds_ && entry_.type == EntryType::directory && !entry_.error &&
        entry_.depth < options_.max_depth) {
        pruned_.emplace(entry_.path);
    }
    descend_pending_ = false;
}

} // namespace ioq::walk
