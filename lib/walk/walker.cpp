#include "walker.hpp"

#include "counted_reads.hpp"
#include "marked_ends.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <sys/sysmacros.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <new>
#include <utility>

namespace ioq::walk {
namespace {

// Opens found while reading a directory go to the workers in groups of this
// many: one lock and wake-up per group instead of per directory, while the
// first ones start before the directory is finished.
constexpr std::size_t submit_batch = 8;

// Adds the time from start() to its end to a counter; costs nothing unless
// started, so the clock is read only when the walk really has to wait.
class WaitTimer {
public:
    explicit WaitTimer(std::uint64_t& total) : total_(total) {}
    WaitTimer(const WaitTimer&) = delete;
    WaitTimer& operator=(const WaitTimer&) = delete;
    ~WaitTimer() {
        if (started_) {
            total_ += static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                                     std::chrono::steady_clock::now() - start_)
                                                     .count());
        }
    }
    bool started() const { return started_; }
    void start() {
        if (!started_) {
            started_ = true;
            start_ = std::chrono::steady_clock::now();
        }
    }

private:
    std::uint64_t& total_;
    bool started_ = false;
    std::chrono::steady_clock::time_point start_;
};

// Errors that say nothing about the directory, only about the moment: a
// round that meets one may find the directory readable again later.
bool is_shortage(int error) {
    return error == EMFILE || error == ENFILE || error == ENOMEM;
}

// The last component of a starting point, as -name sees it: trailing slashes
// do not count, and "/" stays "/".
std::string root_base_name(const std::string& root) {
    std::size_t end = root.find_last_not_of('/');
    if (end == std::string::npos) {
        return root.empty() ? std::string() : std::string("/");
    }
    std::size_t start = root.find_last_of('/', end);
    start = start == std::string::npos ? 0 : start + 1;
    return root.substr(start, end + 1 - start);
}

} // namespace

QueueOptions Walker::queue_options(const WalkOptions& options) {
    QueueOptions queue = options.queue;
    if (queue.max_workers > queue.workers) {
        // Only a queue that may grow asks (one statfs per starting point).
        queue.guess_slow_devices = !block_reads_are_counted(options.roots);
    }
    return queue;
}

Walker::Walker(WalkOptions options)
    : options_(std::move(options)), queue_(queue_options(options_)),
      dirs_(options_.strategy, options_.read_ahead) {
    // Every directory read ahead may hold a descriptor, and so may each one
    // its open is relative to: keep both within the budget, with room for the
    // directory being read.
    std::size_t most = fds_.limit() > 3 ? (fds_.limit() - 3) / 2 : 1;
    options_.read_ahead = std::clamp<std::size_t>(options_.read_ahead, 1, most);
    options_.read_ahead = std::min(options_.read_ahead, queue_.capacity() / 2);
    to_submit_.reserve(queue_.capacity());
    close_leaves_ = !options_.hold_directories;
    rounds_ = (options_.strategy == Strategy::ids || options_.strategy == Strategy::eds ||
               options_.strategy == Strategy::hybrid) &&
              !options_.post_order;
    rounds_per_root_ = rounds_ && options_.strategy == Strategy::hybrid;
    begin_rounds();
    need_identity_ = options_.symlinks == Symlinks::logical || options_.same_device;
    if (options_.eager_stat_mask) {
        // What resolve_entry() asks for comes from the same call.
        options_.eager_stat_mask |= STATX_TYPE | STATX_INO;
    }
    if (options_.sort_names) {
        // Sorting reads past the first buffer before any entry is reported,
        // and each read would overwrite the last one's metadata.
        options_.eager_stat_mask = 0;
    }
    // A walk that needs no directory's descriptor once it is read: names
    // only, or metadata the workers fetch with the entries.  (Following
    // links, a path of several components could not refuse them.)
    close_after_read_ = (options_.names_only || options_.eager_stat_mask != 0) &&
                        options_.symlinks != Symlinks::logical;
    // Only where an entry's d_type alone says the walk will descend into
    // it, in the order next() will return it.
    look_ahead_ = options_.look_ahead && options_.strategy != Strategy::bfs &&
                  !options_.sort_names && !need_identity_;
}

void Walker::ask_for_entry_stats(Request& request, const DirNode* node) const {
    // A later round reads the top directories again only for what lies
    // below them: an earlier round reported their entries.
    request.statx_mask = node->depth + 1 < round_min_ ? 0 : options_.eager_stat_mask;
    request.stat_flags = options_.symlinks == Symlinks::logical ? 0 : AT_SYMLINK_NOFOLLOW;
}

Walker::~Walker() { stop(); }

const Entry* Walker::next() {
    if (stopped_) {
        return nullptr;
    }
    descend_into_last_entry();
    cache_[0].valid = cache_[1].valid = false;
    if (DirNode* parent = std::exchange(post_parent_, nullptr)) {
        --parent->pins;
        release_fd_if_unused(parent);
    }
    for (;;) {
        if (!post_ready_.empty()) {
            return report_post_visit();
        }
        if (!finished_ready_.empty()) {
            record_finished();
        }
        if (current_) {
            RawDirent dirent;
            if (next_dirent(dirent)) {
                entry_.path = entry_path_.with_name(dirent.name);
                entry_.name = entry_.path.substr(entry_path_.prefix_size());
                entry_.depth = current_->depth + 1;
                entry_.type = type_from_dirent(dirent.type);
                if (look_ahead_ && entry_.type == EntryType::directory &&
                    current_->slot->ahead_next < current_->slot->ahead.size()) {
                    claim_ahead(dirent.name);
                }
                entry_listed_ino_ = dirent.inode;
                entry_.error = 0;
                entry_.loop_ancestor = {};
                entry_dirfd_ = current_->fd >= 0 ? current_->fd : closed_leaf;
                cache_[0].valid = cache_[1].valid = false;
                if (const struct statx* fetched = current_->slot->buffer.stat(entry_index_++)) {
                    bool follow = options_.symlinks == Symlinks::logical;
                    cache_[follow ? 1 : 0] =
                        CachedStat{true, current_->slot->buffer.stat_mask(), *fetched};
                }
                bool may_descend = resolve_entry();
                if (entry_.error) {
                    descend_pending_ = false;
                    if (entry_.depth < round_min_) {
                        continue;  // reported by an earlier round
                    }
                    ++stats_.errors;
                    return &entry_;
                }
                bool is_dir = entry_.type == EntryType::directory;
                descend_pending_ = is_dir && may_descend && entry_.depth < depth_limit_;
                if (is_dir) {
                    note_round_frontier();
                }
                if (!reported_now(descend_pending_)) {
                    descend_into_last_entry();
                    continue;
                }
                ++stats_.entries;
                return &entry_;
            }
            if (int error = current_->slot->buffer.error()) {
                // Reported in every round that meets it, as a failed open
                // is (see enter_next_directory).
                if (current_->depth + 1 < round_min_ && is_shortage(error)) {
                    current_->truncated = true;
                }
                write_path(nullptr, current_, path_);
                const Entry* failure = report_error(path_, current_->depth, error);
                finish_current();
                return failure;
            }
            if (!current_->slot->buffer.at_end() && read_more()) {
                continue;
            }
            finish_current();
            continue;
        }
        switch (enter_next_directory()) {
        case Enter::entered: continue;
        case Enter::failed: return &entry_;
        case Enter::queue_empty: break;
        }
        if (rounds_per_root_ && next_root_ > 0 && start_next_round()) {
            continue;
        }
        if (next_root_ < options_.roots.size()) {
            if (rounds_per_root_ && next_root_ != rounds_root_) {
                begin_rounds();  // the last starting point is done with
                rounds_root_ = next_root_;
            }
            if (visit_next_root()) {
                return &entry_;
            }
            continue;
        }
        if (!rounds_per_root_ && start_next_round()) {
            continue;
        }
        end_of_walk();
        return nullptr;
    }
}

bool Walker::resolve_entry_slowly() {
    bool logical = options_.symlinks == Symlinks::logical;
    if (entry_.type == EntryType::unknown ||
        (logical && entry_.type == EntryType::symlink)) {
        struct statx buf;
        int result = cached_stat(STATX_TYPE | STATX_INO, logical, buf);
        if (result == 0) {
            entry_.type = type_from_mode(buf.stx_mode);
        } else if (logical && result == -ELOOP) {
            entry_.error = ELOOP;
            return false;
        } else if (logical && cached_stat(STATX_TYPE, false, buf) == 0) {
            // A broken link stays what it is, a link, as find -L has it.
            entry_.type = type_from_mode(buf.stx_mode);
        }
    }
    if (entry_.type != EntryType::directory || !need_identity_) {
        return true;
    }
    struct statx buf;
    if (cached_stat(STATX_TYPE | STATX_INO, logical, buf) != 0) {
        return true;  // the open will fail and say why
    }
    entry_dev_ = makedev(buf.stx_dev_major, buf.stx_dev_minor);
    entry_ino_ = buf.stx_ino;
    if (logical) {
        for (const DirNode* ancestor = current_; ancestor; ancestor = ancestor->parent) {
            if (ancestor->dev == entry_dev_ && ancestor->ino == entry_ino_) {
                entry_.error = ELOOP;
                write_path(nullptr, ancestor, loop_ancestor_path_);
                entry_.loop_ancestor = loop_ancestor_path_;
                return false;
            }
        }
    }
    return !options_.same_device || entry_dev_ == root_dev_;
}

int Walker::cached_stat(unsigned mask, bool follow, struct statx& out) {
    CachedStat& cached = cache_[follow ? 1 : 0];
    if (cached.valid && (cached.mask & mask) == mask) {
        out = cached.buf;
        return 0;
    }
    int result = raw_stat(mask, follow, out);
    if (result == 0) {
        cached.valid = true;
        cached.mask = mask;
        cached.buf = out;
    }
    return result;
}

void Walker::note_round_frontier() {
    // A directory at the bound has contents only a later round reaches.
    if (rounds_ && entry_.depth == round_bound_ && round_bound_ < options_.max_depth) {
        round_truncated_ = true;
        if (current_) {
            current_->truncated = true;
        }
    }
}

void Walker::reserve_for_node() {
    // What a node's end may queue while completions are processed, where
    // nothing may allocate: room for it before the node exists.
    if (options_.post_order) {
        reserve_room(post_ready_, pool_.node_count() + 1);
    }
    if (records_finished()) {
        reserve_room(finished_ready_, pool_.node_count() + 1);
    }
}

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

void Walker::drop_finished() {
    // The walk is over: free what waited to be recorded, unrecorded.
    while (!finished_ready_.empty()) {
        DirNode* node = finished_ready_.back();
        finished_ready_.pop_back();
        node->finish_recorded = true;
        free_if_unused(node);
    }
}

void Walker::begin_rounds() {
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

const Entry* Walker::report_post_visit() {
    DirNode* node = post_ready_.back();
    post_ready_.pop_back();
    node->post_reported = true;
    write_path_near_prefix(node, path_);
    entry_.path = path_;
    if (node->parent) {
        entry_.name = std::string_view(path_).substr(path_.size() - component(node).size());
    } else {
        root_name_ = root_base_name(node->name);
        entry_.name = root_name_;
    }
    entry_.depth = node->depth;
    entry_.type = EntryType::directory;
    entry_.error = 0;
    entry_.loop_ancestor = {};
    entry_dirfd_ = AT_FDCWD;
    descend_pending_ = false;
    if (node->parent) {
        // Kept (not freed, its descriptor not closed) while this entry is
        // the current one: entry_location() gives it out.
        post_parent_ = node->parent;
        ++post_parent_->pins;
    }
    free_if_unused(node);
    ++stats_.entries;
    return &entry_;
}

bool Walker::visit_next_root() {
    // Roots are walked one after the other, so every entry until the next
    // root's belongs to this one, post-order visits included.
    entry_.root = next_root_;
    const std::string& root = options_.roots[next_root_++];
    path_ = root;
    root_name_ = root_base_name(root);
    entry_dirfd_ = AT_FDCWD;
    struct statx buf;
    // -H and -L follow a starting point that is a link; a broken one is
    // reported as the link itself.
    bool follow = options_.symlinks != Symlinks::physical;
    int flags = follow ? 0 : AT_SYMLINK_NOFOLLOW;
    // What the caller will ask of every entry comes in the same call.
    const unsigned mask = STATX_TYPE | STATX_INO | options_.eager_stat_mask;
    int result = 0;
    if (rounds_per_root_ && round_ > 0) {
        // The same starting point again, as the first round found it (a
        // failure there ended its rounds).
        buf = root_seen_;
        flags = root_seen_flags_;
    } else {
        result = IoQueue::stat_now(AT_FDCWD, path_.c_str(), flags, mask, buf);
        if (follow && (result == -ENOENT || result == -ENOTDIR)) {
            flags = AT_SYMLINK_NOFOLLOW;
            result = IoQueue::stat_now(AT_FDCWD, path_.c_str(), flags, mask, buf);
        }
        ++stats_.stats;
        root_seen_ = buf;
        root_seen_flags_ = flags;
    }
    if (result < 0) {
        if (round_min_ > 0) {
            return false;  // reported in the first round
        }
        report_error(root, 0, -result);
        return true;
    }
    entry_.path = path_;
    entry_.name = root_name_;
    entry_.depth = 0;
    entry_.type = type_from_mode(buf.stx_mode);
    entry_.error = 0;
    entry_.loop_ancestor = {};
    root_dev_ = entry_dev_ = makedev(buf.stx_dev_major, buf.stx_dev_minor);
    entry_ino_ = buf.stx_ino;
    // After the fallback above this is the link's own metadata, not its
    // target's: cache it under what was really asked.
    bool followed = (flags & AT_SYMLINK_NOFOLLOW) == 0;
    cache_[followed ? 1 : 0] = CachedStat{true, mask, buf};
    bool is_dir = entry_.type == EntryType::directory;
    descend_pending_ = is_dir && depth_limit_ > 0;
    if (is_dir) {
        note_round_frontier();
    }
    if (!reported_now(descend_pending_)) {
        descend_into_last_entry();
        return false;
    }
    ++stats_.entries;
    return true;
}

const Entry* Walker::report_error(const std::string& path, int depth, int error) {
    if (&path != &path_) {
        path_ = path;
    }
    entry_.path = path_;
    std::size_t slash = path_.find_last_of('/');
    entry_.name = std::string_view(path_).substr(slash == std::string::npos ? 0 : slash + 1);
    entry_.depth = depth;
    entry_.type = EntryType::directory;
    entry_.error = error;
    entry_.loop_ancestor = {};
    entry_dirfd_ = AT_FDCWD;
    descend_pending_ = false;
    ++stats_.errors;
    return &entry_;
}

void Walker::descend_or_discard() {
    DirNode* ahead = std::exchange(ahead_claimed_, nullptr);
    bool descend = std::exchange(descend_pending_, false);
    if (descend && rounds_ && entry_.depth < round_min_ &&
        ((!pruned_.empty() && pruned_.contains(entry_.path)) ||
         walked_whole(entry_.path))) {
        // Pruned by the caller in the round that reported it, or with
        // nothing deeper than the rounds so far.
        descend = false;
    }
    if (ahead) {
        // Opened before its entry was returned: descend into it as it is,
        // or let it go unreported.
        if (descend) {
            dirs_.stage(ahead);
        } else {
            discard(ahead);
        }
        return;
    }
    if (!descend) {
        return;
    }
    // Everything that allocates comes before the node is linked in, so
    // that running out of memory here leaves no count half-updated.
    reserve_for_node();
    DirNode* node = pool_.take_node();
    node->parent = current_;
    node->depth = entry_.depth;
    name_node(node, current_ ? entry_.name : entry_.path);
    if (current_) {
        dirs_.stage(node);
    }
    node->identity_known = need_identity_ || !current_;
    node->dev = entry_dev_;
    node->ino = node->identity_known ? entry_ino_ : entry_listed_ino_;
    if (current_) {
        ++current_->live_children;
        ++current_->pending_opens;
        // Depth-first reads a directory's first child right after the
        // directory itself, so its read-ahead is the children being found
        // now; breadth-first wants the head of its queue instead.
        if (options_.strategy != Strategy::bfs && in_flight_ < options_.read_ahead &&
            fds_.available() && queue_.room() > to_submit_.size() + 1) {
            submit_open(node);
            if (to_submit_.size() >= submit_batch) {
                flush_submissions();
            }
        }
    } else {
        dirs_.stage(node);
        dirs_.commit(pool_);
    }
}

Walker::Enter Walker::enter_next_directory() {
    if (dirs_.empty()) {
        return Enter::queue_empty;
    }
    DirNode* node = take_next_directory();
    --in_flight_;
    if (node->error) {
        // Reported whichever round meets it.  A failed directory is then
        // recorded as walked whole, so no later round opens it again and
        // a lasting error (EACCES) is reported once.  A round after the
        // first that opens it meets a new failure, since the record would
        // have kept it out of an old one: what lies below at this round's
        // depths is lost, so it must be reported (this was skipped as
        // "reported by an earlier round", and a descriptor shortage ended
        // ids and eds walks early with exit status 0).  After a shortage
        // (EMFILE, ENOMEM) the directory stays unrecorded: a later round
        // may open it.
        if (node->depth + 1 < round_min_ && is_shortage(node->error)) {
            node->truncated = true;
        }
        node->consumed = true;
        write_path(nullptr, node, path_);
        report_error(path_, node->depth, node->error);
        free_if_unused(node);
        return Enter::failed;
    }
    ++stats_.directories;
    current_ = node;
    // Unset while the prefix changes: what follows may throw.
    const DirNode* last_prefix = std::exchange(prefix_node_, nullptr);
    if (node->parent && rewind_prefix(last_prefix, node->parent)) {
        // O(name), not O(depth) twice over (write_path, then the copy):
        // on a 2,000-level chain the two were a sixth of the instructions.
        entry_path_.extend_prefix(component(node));
    } else {
        write_path(nullptr, node, path_);
        if (path_.empty() || path_.back() != '/') {
            path_.push_back('/');
        }
        entry_path_.set_prefix(path_);
    }
    prefix_node_ = node;
    cursor_ = DirentCursor(node->slot->buffer);
    entry_index_ = 0;
    if (opens_ahead()) {
        // Its own subdirectories come next: open them now rather than as
        // next() reaches each one.
        if (may_look_ahead(node)) {
            look_ahead(node);
            flush_submissions();
        }
    }
    if (options_.sort_names) {
        load_sorted();
    }
    return Enter::entered;
}

bool Walker::rewind_prefix(const DirNode* from, const DirNode* ancestor) {
    // Depth first, the next directory is mostly a child of the last one
    // or of one of its ancestors (a sibling, an uncle): the prefix is
    // then cut back to that ancestor's path, one name a level, instead of
    // written again from the nodes (linux-6.1 -j1: 4,000 of the 5,100
    // directories were written whole before).
    if (!from || from->depth < ancestor->depth) {
        return false;
    }
    std::size_t size = entry_path_.prefix_size();
    for (; from->depth > ancestor->depth; from = from->parent) {
        size -= component(from).size() + 1;
    }
    if (from != ancestor) {
        return false;
    }
    entry_path_.shorten_prefix(size);
    return true;
}

void Walker::load_sorted() {
    sorted_.clear();
    for (;;) {
        sorted_.add(current_->slot->buffer);
        if (current_->slot->buffer.error() || current_->slot->buffer.at_end()) {
            break;
        }
        read_more();
    }
    sorted_.sort();
}

DirNode* Walker::take_directory(std::size_t i) {
    if (i < submitted_prefix_) {
        --submitted_prefix_;
    }
    return dirs_.take(i);
}

DirNode* Walker::take_next_directory() {
    bool may_skip_head = ((options_.strategy == Strategy::bfs && !options_.strict_order) ||
                         options_.completion_order) &&
                        !options_.sort_names;
    // The read-ahead window is nodes, not records (see dir_queue.hpp).
    while (dirs_.needs_nodes()) {
        reserve_for_node();
        dirs_.restore(pool_);
    }
    WaitTimer timer(stats_.wait_ns);
    for (;;) {
        DirNode* head = dirs_.peek(0);
        submit_read_ahead(head);
        reap(false);
        if (head->state == DirNode::State::ready) {
            return take_directory(0);
        }
        if (run_inline(head)) {
            continue;
        }
        if (may_skip_head) {
            // Any ready directory as deep as the head keeps breadth-first's
            // order by depth, and the walk need not wait for one slow open.
            std::size_t window = std::min(dirs_.nodes(), options_.read_ahead);
            for (std::size_t i = 1; i < window; ++i) {
                DirNode* candidate = dirs_.peek(i);
                if (candidate->depth != head->depth && !options_.completion_order) {
                    break;
                }
                if (candidate->state == DirNode::State::ready) {
                    return take_directory(i);
                }
            }
        }
        if (!timer.started()) {
            ++stats_.waits;
            timer.start();
        }
        if (head->state != DirNode::State::queued) {  // queued again after EMFILE
            flush_submissions();  // about to wait: the workers must have it all
            if (!run_here(head)) {
                reap(true);
            }
        }
    }
}

bool Walker::ends_marked() {
    // Deciding reads the mount table (realpath of every starting point,
    // /proc/self/mountinfo, parsed): 0.13 ms of a search that ends in its
    // first few directories, -name CodingStyle -print -quit on linux-6.1
    // 1.64 -> 1.54 ms when left undecided.  What it saves is a getdents64
    // returning 0, about a microsecond a directory, so it is decided only
    // once the walk has entered directories_before_deciding_ends; until
    // then the ends are read as if unmarked.
    if (!ends_decided_) {
        if (stats_.directories < directories_before_deciding_ends) {
            return false;
        }
        ends_marked_ = ends_are_marked(options_.roots, options_.symlinks == Symlinks::logical);
        ends_decided_ = true;
    }
    return ends_marked_;
}

bool Walker::read_more() {
    bool end_marked = ends_marked();  // may throw, before anything changes
    // Whatever was opened ahead from the buffer read last was claimed by
    // its entry by now; nothing is opened ahead from the next one.
    if (look_ahead_) {
        discard_unclaimed(current_);
        current_->slot->ahead_done = true;
    }
    Request& request = current_->slot->request;
    request = Request{};
    request.op = Op::read_dir;
    request.fd = current_->fd;
    request.buffer = &current_->slot->buffer;
    request.end_marked = end_marked;
    ask_for_entry_stats(request, current_);
    request.cookie = current_;
    current_->state = DirNode::State::reading;
    to_submit_.push_back(&request);
    flush_submissions();
    wait_for(current_);
    cursor_ = DirentCursor(current_->slot->buffer);
    entry_index_ = 0;
    return true;
}

void Walker::finish_current() {
    DirNode* node = std::exchange(current_, nullptr);
    if (look_ahead_) {
        if (DirNode* ahead = std::exchange(ahead_claimed_, nullptr)) {
            discard(ahead);
        }
        discard_unclaimed(node);
    }
    dirs_.commit(pool_);
    drop_slot(node);
    node->consumed = true;
    release_fd_if_unused(node);
}

void Walker::submit_read_ahead(DirNode* must_include) {
    bool head_queued = must_include->state == DirNode::State::queued;
    if (head_queued) {
        // Free a descriptor: close an idle one, or wait for closes queued.
        while (!fds_.available()) {
            if (evict_one_fd()) {
                continue;
            }
            if (queue_.outstanding() > 0 || !to_submit_.empty()) {
                flush_submissions();
                reap(true);
            } else {
                break;  // the open reports EMFILE itself
            }
        }
        // Queued closes may have used the queue's room: make some.
        while (queue_.room() <= to_submit_.size()) {
            flush_submissions();
            reap(true);
        }
        submit_open(must_include);
        flush_submissions();
    }
    if (options_.queue.workers == 0) {
        // No worker will ever run an open ahead (-j1): each runs when the
        // walk waits for it, so the head is all there is to submit.
        flush_submissions();
        return;
    }
    if (opens_ahead()) {
        look_ahead_more();  // in the order the walk will need them
        return;
    }
    if (!head_queued && in_flight_ > options_.read_ahead / 2) {
        // Refill only once half the window is used: every submission may wake
        // a sleeping worker (a futex call here and a wake-up there), and a
        // refill of one directory per directory read would pay that for each.
        if (to_submit_.size() >= submit_batch * 2) {
            flush_submissions();  // closes piling up
        }
        return;
    }
    // Breadth-first submits in queue order, so its submitted directories
    // are a prefix of the queue and the scan can start after it instead of
    // walking the whole window for every directory (1,600 instructions per
    // directory on linux-6.1 before).
    bool bfs = options_.strategy == Strategy::bfs;
    std::size_t scan = std::min(dirs_.nodes(), options_.read_ahead);
    std::size_t first = bfs ? std::max<std::size_t>(1, submitted_prefix_) : 1;
    if (bfs && submitted_prefix_ == 0 && dirs_.peek(0)->state != DirNode::State::queued) {
        submitted_prefix_ = 1;
    }
    for (std::size_t i = first; i < scan && in_flight_ < options_.read_ahead; ++i) {
        DirNode* node = dirs_.peek(i);
        if (node->state != DirNode::State::queued) {
            if (bfs && i == submitted_prefix_) {
                ++submitted_prefix_;
            }
            continue;
        }
        if (!fds_.available() && !evict_one_fd()) {
            break;
        }
        if (queue_.room() <= to_submit_.size() + 1) {
            break;
        }
        submit_open(node);
        if (bfs && i == submitted_prefix_) {
            ++submitted_prefix_;
        }
    }
    flush_submissions();
}

void Walker::submit_open(DirNode* node) {
    // First, what may throw std::bad_alloc: whether ends are marked (for
    // a starting point, not asked yet), the slot, and the path in it.
    bool end_marked = node->parent && ends_marked();
    DirNode* base = node->parent;
    while (base && base->fd < 0) {
        base = base->parent;
    }
    node->slot = pool_.take_slot();
    try {
        write_open_path(base, node, node->slot->path);
    } catch (const std::bad_alloc&) {
        drop_slot(node);
        throw;
    }
    node->slot->base = base;
    node->slot->path_base = base;
    Request& request = node->slot->request;
    request = Request{};
    request.op = Op::open_dir;
    request.cookie = node;
    request.buffer = &node->slot->buffer;
    request.end_marked = end_marked;
    ask_for_entry_stats(request, node);
    request.close_leaf = close_leaves_;
    // A walk that needs nothing more of a directory once read (see
    // close_after_read_) need not keep it open for its children either:
    // they open relative to a further ancestor, with links refused on the
    // whole way (below).
    request.close_after_read = close_leaves_ && close_after_read_ && !is_anchor(node);
    // A walk that will not need its directories again need not identify
    // them: names only, or metadata already fetched with the entries (a
    // later stat() then checks a reopened one against the listed inode).
    request.identify = options_.hold_directories ? Request::Identify::always
                       : close_after_read_       ? Request::Identify::never
                                                 : Request::Identify::if_closed;
    request.leaf_links_count = options_.symlinks == Symlinks::logical;
    if (base) {
        request.fd = base->fd;
        request.path = node->slot->path.c_str();
        ++base->pins;
        // Through a further ancestor the path has several components, and
        // O_NOFOLLOW guards only the last: forbid links on the whole way,
        // or a directory replaced by a link since it was read would lead
        // the walk elsewhere.
        request.no_symlinks = base != node->parent && options_.symlinks != Symlinks::logical;
    } else {
        request.fd = AT_FDCWD;
        request.path = node->slot->path.c_str();
    }
    // Below a starting point a directory is never reached through a symbolic
    // link unless links are followed (-L), even if one replaced it since it
    // was read.
    request.flags = node->parent && options_.symlinks != Symlinks::logical ? O_NOFOLLOW : 0;
    node->state = DirNode::State::opening;
    ++in_flight_;
    fds_.acquire();
    if (node->slot->path.size() >= PATH_MAX) {
        open_long_path(node);
        return;
    }
    to_submit_.push_back(&request);
}

void Walker::open_long_path(DirNode* node) {
    // No descriptor is open close enough to the directory for openat to
    // take the rest of the path in one go (the kernel refuses paths of
    // PATH_MAX bytes or more): on this thread, in steps.  It only happens
    // when descriptors ran short for paths this long.
    open_in_steps(node->slot->request);
    complete(&node->slot->request);
}

void Walker::open_in_steps(Request& request) {
    // Walk to the directory in steps that fit in PATH_MAX, each relative to
    // the last, with the request's flags at every step (no symbolic link
    // followed where the request follows none).
    int base_fd = request.fd;
    std::string_view rest(request.path);
    // On the stack: an allocation failing while a temporary descriptor is
    // open would leak it.
    std::array<char, PATH_MAX> step;
    int temporary = -1;
    auto close_temporary = [&] {
        if (temporary >= 0) {
            IoQueue::close_now(std::exchange(temporary, -1));
        }
    };
    while (rest.size() >= PATH_MAX) {
        std::size_t cut = rest.substr(0, PATH_MAX - 1).rfind('/');
        if (cut == std::string_view::npos || cut == 0) {
            break;  // one component too long: openat reports ENAMETOOLONG
        }
        rest.copy(step.data(), cut);
        step[cut] = '\0';
        Request hop;
        hop.op = Op::open_dir;
        hop.fd = base_fd;
        hop.path = step.data();
        hop.flags = request.flags;
        hop.no_symlinks = request.no_symlinks;
        IoQueue::run_now(hop);  // no buffer: only the descriptor is wanted
        close_temporary();
        if (hop.result < 0) {
            request.result = hop.result;
            return;
        }
        temporary = base_fd = hop.result;
        rest.remove_prefix(cut + 1);
        // One more descriptor than the budget counted, for a moment: the
        // reserve above the budget covers it.
    }
    request.fd = base_fd;
    request.path = rest.data();
    IoQueue::run_now(request);
    close_temporary();
}

void Walker::flush_submissions() {
    if (!to_submit_.empty()) {
        queue_.submit(to_submit_);
        to_submit_.clear();
    }
}

void Walker::wait_for(DirNode* node) {
    flush_submissions();
    reap(false);
    if (run_inline(node)) {
        return;
    }
    WaitTimer timer(stats_.wait_ns);
    if (node->state == DirNode::State::opening || node->state == DirNode::State::reading) {
        ++stats_.waits;
        timer.start();
    }
    while (node->state == DirNode::State::opening || node->state == DirNode::State::reading) {
        if (!run_here(node)) {
            reap(true);
        }
    }
}

bool Walker::run_inline(DirNode* node) {
    // Without workers nothing finishes unless this thread runs it: no other
    // directory can be ready meanwhile, and running it is no wait (-j1
    // linux -false: 15M instructions scanning and timing otherwise).
    if (queue_.workers_started() || node->state == DirNode::State::queued ||
        node->state == DirNode::State::ready) {
        return false;
    }
    flush_submissions();
    return run_here(node);
}

bool Walker::run_here(DirNode* node) {
    // The very request waited for, if no worker has it yet: cheaper than
    // waking one for it, and than running some other request meanwhile.
    if (!queue_.run_here(&node->slot->request)) {
        return false;
    }
    complete(&node->slot->request);
    return true;
}

void Walker::reap(bool wait) {
    Request* done[64];
    std::size_t n = queue_.reap(done, wait);
    for (std::size_t i = 0; i < n; ++i) {
        complete(done[i]);
    }
}

void Walker::complete(Request* request) {
    if (request->op == Op::close) {
        if (request->result == -ECANCELED) {
            IoQueue::run_now(*request);  // a stop cancels work, never a close
        }
        fds_.release();
        --closes_in_flight_;
        closes_.give(request);
        return;
    }
    auto* node = static_cast<DirNode*>(request->cookie);
    if (request->op == Op::read_dir || request->result >= 0) {
        // Counted here, on the walk's thread, from what the worker left in
        // the buffer: workers share no counter.
        const DirBuffer& buffer = node->slot->buffer;
        stats_.reads += buffer.read_calls();
        stats_.read_bytes += buffer.size();
        stats_.stats += buffer.stat_calls();
    }
    if (request->identified) {
        ++stats_.stats;  // the worker's statx of the directory itself
    }
    if (request->op == Op::read_dir) {
        node->state = DirNode::State::ready;
        return;
    }
    // An open: its directory is ready (or failed), and the descriptors it
    // was relative to may not be needed any more.
    if ((request->result == -EMFILE || request->result == -ENFILE) && !stopped_ &&
        (idle_head_ || closes_in_flight_ > 0)) {
        // The budget was too generous (the caller holds more descriptors
        // than the reserve allowed for): shrink it and try again once some
        // of the walk's own descriptors are closed.
        fds_.lower_limit();
        node->state = DirNode::State::queued;
        submitted_prefix_ = 0;  // it is queued again somewhere in the prefix
        --in_flight_;
        fds_.release();
        drop_slot(node);  // and unpins its base
        if (node->discarded) {
            finish_discard(node);
        }
        return;
    }
    node->state = DirNode::State::ready;
    if (request->identified) {
        node->dev = request->identity_dev;
        node->ino = request->identity_ino;
        node->identity_known = true;
    }
    if (request->closed) {
        node->fd = -1;  // a leaf the worker closed already
        fds_.release();
    } else if (request->result >= 0) {
        node->fd = request->result;
    } else {
        node->error = -request->result;
        fds_.release();
        drop_slot(node);
    }
    unpin_base(node);
    if (DirNode* parent = node->parent) {
        --parent->pending_opens;
        release_fd_if_unused(parent);
    }
    if (node->discarded) {
        finish_discard(node);
    }
}

void Walker::drop_slot(DirNode* node) {
    unpin_base(node);
    DirSlot* slot = std::exchange(node->slot, nullptr);
    if (look_ahead_) {
        slot->reset_look_ahead();
    }
    slot->buffer.trim();
    pool_.give_slot(slot);
}

void Walker::unpin_base(DirNode* node) {
    // The open relative to base is done: base may close now.
    if (DirNode* base = node->slot ? std::exchange(node->slot->base, nullptr) : nullptr) {
        --base->pins;
        release_fd_if_unused(base);
    }
}

void Walker::release_fd_if_unused(DirNode* node) {
    if (!node->consumed) {
        return;
    }
    if (node->fd >= 0) {
        // A starting point keeps its descriptor while anything below it is
        // alive: every other directory then has an open ancestor to open
        // relative to, below which no symbolic link is followed (see
        // submit_open); a path from the current directory could not promise
        // that, since a starting point may lie behind links of its own.
        // Anchors (see anchor_every) keep theirs likewise, to keep paths short.
        bool anchor_in_use = is_anchor(node) && node->live_children > 0;
        if (node->pending_opens > 0 || node->pins > 0 || anchor_in_use) {
            if (!node->idle && node->pins == 0 && node->parent) {
                idle_append(node);
            }
            return;
        }
        idle_remove(node);
        close_fd(std::exchange(node->fd, -1));
    }
    free_if_unused(node);
}

void Walker::write_child_path(const DirNode* parent, std::string_view name, std::string& out) {
    write_path(nullptr, parent, out);
    if (out.empty() || out.back() != '/') {
        out.push_back('/');
    }
    out.append(name);
}

void Walker::write_open_path(const DirNode* base, const DirNode* node, std::string& out) {
    // A directory is mostly opened while its parent's slot is still there
    // (its entries being read, or scanned to open ahead), relative to the
    // same ancestor: the parent's path and one name, rather than every
    // name from base down (up to anchor_every of them).
    const DirNode* parent = node->parent;
    if (!parent || parent == base || !parent->slot || parent->slot->path_base != base) {
        write_path(base, node, out);
        return;
    }
    const std::string& from = parent->slot->path;
    std::string_view name = component(node);
    bool slash = from.empty() || from.back() != '/';
    out.resize(from.size() + slash + name.size());  // may throw, before anything is written
    std::memcpy(out.data(), from.data(), from.size());
    if (slash) {
        out[from.size()] = '/';
    }
    std::memcpy(out.data() + from.size() + slash, name.data(), name.size());
}

void Walker::name_node(DirNode* node, std::string_view name) {
    if (!node->parent || !holds_path(node)) {
        node->name.assign(name);
        return;
    }
    const DirNode* above = holder_above(node);
    if (above == node->parent) {
        node->name.assign(name);
    } else {
        write_path(above, node->parent, name_scratch_);
        name_scratch_.push_back('/');
        name_scratch_.append(name);
        node->name.assign(name_scratch_);
    }
    node->anchor_above = above;
}

namespace {

// The path from the node just below stop down to node, one piece a level
// (above(at) the next level up), joined with '/' but after a first piece
// that ends in one (a starting point given as "/" or "dir/").  May throw
// std::bad_alloc, before anything is written.
template <class Above, class Piece>
void join_upward(const DirNode* node, const DirNode* stop, Above above, Piece piece,
                 std::string& out) {
    const DirNode* top = node;
    std::size_t length = piece(node).size();
    while (above(top) != stop) {
        top = above(top);
        length += piece(top).size() + 1;
    }
    std::string_view head = piece(top);
    bool head_has_slash = top != node && !head.empty() && head.back() == '/';
    length -= head_has_slash ? 1 : 0;
    out.resize(length);
    std::size_t end = length;
    for (const DirNode* at = node; at != top; at = above(at)) {
        std::string_view part = piece(at);
        end -= part.size();
        std::memcpy(out.data() + end, part.data(), part.size());
        if (!(head_has_slash && above(at) == top)) {
            out[--end] = '/';
        }
    }
    std::memcpy(out.data(), head.data(), head.size());
}

} // namespace

void Walker::write_path(const DirNode* base, const DirNode* node, std::string& out) {
    if (!base) {
        write_full_path(node, out);
        return;
    }
    // Below base one name a level: a holder's path may start above base.
    join_upward(node, base, [](const DirNode* at) { return at->parent; }, component, out);
}

void Walker::write_path_near_prefix(const DirNode* node, std::string& out) const {
    // A directory visited after its contents is mostly the one the entry
    // path's prefix names, or one just above it: its path is the prefix cut
    // back, where written from the nodes it takes a step per holder above
    // (-depth on a 20,000-deep chain: 541 against 309 ms before holders
    // kept only their path from the holder above).
    if (node->parent && prefix_node_) {
        std::size_t size = entry_path_.prefix_size();
        const DirNode* at = prefix_node_;
        for (int steps = 0; at != node && at->parent && steps < anchor_every; ++steps) {
            size -= component(at).size() + 1;
            at = at->parent;
        }
        if (at == node) {
            out.assign(entry_path_.prefix().substr(0, size - 1));  // without its '/'
            return;
        }
    }
    write_path(nullptr, node, out);
}

void Walker::write_full_path(const DirNode* node, std::string& out) {
    // One name a level up to the nearest node that holds a path (at most
    // anchor_every levels), then one path a holder, each relative to the
    // holder above it, up to the starting point: a 20,000-deep chain is
    // walked 2,500 steps up, not 20,000, and no level holds its whole path.
    auto above = [](const DirNode* at) { return holds_path(at) ? at->anchor_above : at->parent; };
    auto piece = [](const DirNode* at) {
        return holds_path(at) ? std::string_view(at->name) : component(at);
    };
    join_upward(node, nullptr, above, piece, out);
}

bool Walker::is_anchor(const DirNode* node) const {
    // The levels that hold a path stay open for their whole
    // subtree when directories are closed once read, or a chain 2,000 deep
    // would look up 2,000,000 components (163 ms, against 13 for bfs).
    return holds_path(node) && (!node->parent || close_after_read_);
}

void Walker::free_if_unused(DirNode* node) {
    while (node && node->consumed && node->live_children == 0 && node->fd < 0 &&
           node->pins == 0) {
        if (options_.post_order && !node->post_reported) {
            // Its subtree is done: report it, then free it (report_post_visit).
            if (!node->post_queued && node->depth >= report_min_) {
                node->post_queued = true;
                post_ready_.push_back(node);
                return;
            }
            if (node->post_queued) {
                return;
            }
        }
        if (records_finished() && !node->truncated && !node->discarded &&
            !node->finish_recorded) {
            finished_ready_.push_back(node);  // record_finished() frees it
            return;
        }
        DirNode* parent = node->parent;
        if (parent && node->truncated) {
            parent->truncated = true;
        }
        if (node == prefix_node_) {
            // Its parent's path is still the prefix's beginning: the next
            // directory is most likely a sibling.
            prefix_node_ = parent;
            entry_path_.shorten_prefix(parent ? entry_path_.prefix_size() - component(node).size() - 1 : 0);
        }
        pool_.give_node(node);
        if (parent) {
            --parent->live_children;
            if (is_anchor(parent) && parent->fd >= 0) {
                release_fd_if_unused(parent);  // a starting point's or anchor's last child
                return;
            }
        }
        node = parent;
    }
}

void Walker::close_fd(int fd) noexcept {
    // The budget gets the descriptor back when the close is done, not when
    // it is queued: until then it is still open.
    Request* request = nullptr;
    if (queue_.room() > to_submit_.size() && !stopped_) {
        request = take_close_request();
    }
    if (!request) {
        IoQueue::close_now(fd);
        fds_.release();
        return;
    }
    *request = Request{};
    request->op = Op::close;
    request->fd = fd;
    ++closes_in_flight_;
    to_submit_.push_back(request);  // within the queue's capacity, reserved
}

Request* Walker::take_close_request() noexcept {
    // Closes happen while completions are processed and while the walk
    // stops, where nothing may throw: without memory for one more request,
    // the caller closes on this thread instead.
    try {
        return closes_.take();
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
}

void Walker::idle_append(DirNode* node) {
    node->idle = true;
    node->idle_prev = idle_tail_;
    node->idle_next = nullptr;
    (idle_tail_ ? idle_tail_->idle_next : idle_head_) = node;
    idle_tail_ = node;
}

void Walker::idle_remove(DirNode* node) {
    if (!node->idle) {
        return;
    }
    (node->idle_prev ? node->idle_prev->idle_next : idle_head_) = node->idle_next;
    (node->idle_next ? node->idle_next->idle_prev : idle_tail_) = node->idle_prev;
    node->idle = false;
    node->idle_prev = node->idle_next = nullptr;
}

bool Walker::evict_one_fd() {
    // The oldest idle directory: in BFS the shallowest, whose children are
    // furthest from their turn; they will open relative to an older ancestor.
    // False when every idle one is the base of an open in flight.
    for (DirNode* node = idle_head_; node; node = node->idle_next) {
        if (node->pins == 0) {
            idle_remove(node);
            close_fd(std::exchange(node->fd, -1));
            return true;
        }
    }
    return false;
}

int Walker::stat(unsigned mask, bool follow, struct statx& out) {
    if (entry_.error) {
        return -entry_.error;
    }
    return cached_stat(mask, follow, out);
}

int Walker::open_again(const DirNode* node) {
    // Relative to the nearest ancestor holding an fd, never through a link
    // the walk did not follow.
    DirNode* base = node->parent;
    while (base && base->fd < 0) {
        base = base->parent;
    }
    std::string path;
    try {
        write_path(base, node, path);
    } catch (const std::bad_alloc&) {
        return -ENOMEM;
    }
    Request request;
    request.op = Op::open_dir;
    request.fd = base ? base->fd : AT_FDCWD;
    request.path = path.c_str();
    request.flags = node->parent && options_.symlinks != Symlinks::logical ? O_NOFOLLOW : 0;
    request.no_symlinks = base != node->parent && options_.symlinks != Symlinks::logical;
    open_in_steps(request);
    if (request.result < 0) {
        return request.result;
    }
    int fd = request.result;
    fds_.acquire();
    // Whatever is at that name now must be the directory that was read, or
    // the caller would get another file's metadata (or delete another
    // file) for an entry listed here.
    struct statx identity;
    ++stats_.stats;
    if (IoQueue::stat_now(fd, "", AT_EMPTY_PATH, STATX_INO, identity) < 0 ||
        !is_same_directory(*node, identity)) {
        // Replaced since: as if its files had vanished.
        IoQueue::close_now(fd);
        fds_.release();
        return -ENOENT;
    }
    return fd;
}

bool Walker::is_same_directory(const DirNode& node, const struct statx& now) {
    if (node.identity_known) {
        return now.stx_ino == node.ino &&
               makedev(now.stx_dev_major, now.stx_dev_minor) == node.dev;
    }
    // Only the number the parent listed is known.  Where a filesystem is
    // mounted, the listing names the directory the mount covers, not the
    // mounted one found by name: that cannot be compared, and a racing
    // user without the right to mount cannot make one appear either.
    return now.stx_ino == node.ino ||
           (now.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT & now.stx_attributes) != 0;
}

int Walker::reopen_current() {
    // The caller wants metadata after all: stop closing leaves early.
    close_leaves_ = false;
    int fd = open_again(current_);
    if (fd >= 0) {
        current_->fd = fd;
    }
    return fd;
}

int Walker::entry_location(int& dirfd, const char*& name) {
    if (post_parent_) {
        if (post_parent_->fd < 0) {
            // Pinned: the descriptor stays until next() unpins the node,
            // which then closes it as any finished directory's.
            int fd = open_again(post_parent_);
            if (fd < 0) {
                return fd;
            }
            post_parent_->fd = fd;
        }
        dirfd = post_parent_->fd;
        name = entry_.name.data();
        return 0;
    }
    if (entry_.depth == 0 || entry_.error || entry_dirfd_ == AT_FDCWD) {
        dirfd = AT_FDCWD;
        name = entry_.path.data();
        return 0;
    }
    if (entry_dirfd_ == closed_leaf) {
        int fd = reopen_current();
        if (fd < 0) {
            return fd;
        }
        entry_dirfd_ = fd;
    }
    dirfd = entry_dirfd_;
    name = entry_.name.data();
    return 0;
}

int Walker::raw_stat(unsigned mask, bool follow, struct statx& out) {
    if (entry_dirfd_ == closed_leaf) {
        int fd = reopen_current();
        if (fd < 0) {
            return fd;
        }
        entry_dirfd_ = fd;
    }
    ++stats_.stats;
    return IoQueue::stat_now(entry_dirfd_,
                             entry_dirfd_ == AT_FDCWD ? entry_.path.data() : entry_.name.data(),
                             follow ? 0 : AT_SYMLINK_NOFOLLOW, mask, out);
}

void Walker::end_of_walk() {
    // Everything is consumed; the closes of the last directories may still be
    // queued.  Finish them so that no descriptor outlives the walk's end,
    // and the closes their completions queue in turn (the last open of a
    // directory opened ahead and discarded lets its parent close).
    do {
        drop_finished();
        flush_submissions();
        while (queue_.outstanding() > 0) {
            reap(true);
        }
    } while (!to_submit_.empty() || !finished_ready_.empty());
}

void Walker::stop() noexcept {
    if (stopped_) {
        return;
    }
    stopped_ = true;
    look_ahead_ = false;  // what completes now only closes
    queue_.cancel_pending();
    flush_submissions();
    while (queue_.outstanding() > 0) {
        reap(true);
    }
    // Nothing is in flight any more: close what any node still holds.  The
    // nodes themselves are freed with the pool.
    pool_.for_each_node([this](DirNode& node) {
        if (node.fd >= 0) {
            close_fd(std::exchange(node.fd, -1));
        }
    });
    current_ = nullptr;
    descend_pending_ = false;
    ahead_claimed_ = nullptr;
    post_ready_.clear();
    finished_ready_.clear();  // freed with every node
    post_parent_ = nullptr;  // freed with every node
}

WalkStats Walker::stats() const {
    WalkStats stats = stats_;
    stats.backend = queue_.backend();
    stats.workers_started = queue_.workers_started();
    stats.workers = queue_.workers_running();  // 0 until the pool starts
    stats.cache_misses = queue_.cache_misses();
    stats.nodes = pool_.node_count();
    stats.ran_here = queue_.ran_here();
    stats.sleeps = queue_.sleeps();
    return stats;
}

} // namespace ioq::walk
