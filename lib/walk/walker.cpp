#include "walker.hpp"

#include "counted_reads.hpp"
#include "wait_timer.hpp"

#include <algorithm>
#include <sys/sysmacros.h>

#include <cerrno>
#include <climits>
#include <new>
#include <utility>

namespace ioq::walk {
namespace {

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
      dirs_(options_.strategy, options_.read_ahead),
      window_(options_.strategy, options_.post_order, options_.min_depth, options_.max_depth) {
    // Every directory read ahead may hold a descriptor, and so may each one
    // its open is relative to: keep both within the budget, with room for the
    // directory being read.
    std::size_t most = fds_.limit() > 3 ? (fds_.limit() - 3) / 2 : 1;
    options_.read_ahead = std::clamp<std::size_t>(options_.read_ahead, 1, most);
    options_.read_ahead = std::min(options_.read_ahead, queue_.capacity() / 2);
    to_submit_.reserve(queue_.capacity());
    close_leaves_ = !options_.hold_directories;
    rounds_per_root_ = window_.has_rounds() && options_.strategy == Strategy::hybrid;
    begin_rounds();
    need_identity_ = options_.symlinks == Symlinks::logical || options_.same_device;
    keeps_listings_ = window_.has_rounds() && !need_identity_;
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

Walker::~Walker() { stop(); }

// The entry just read, a starting point or a listed name: whether the walk
// will descend into it, and whether it is reported now (counted) or only
// walked through (an earlier round reported it, or it lies above
// min_depth).
[[gnu::always_inline]] inline bool Walker::settle_entry(bool may_descend) {
    bool is_dir = entry_.type == EntryType::directory;
    descend_pending_ = is_dir && may_descend && entry_.depth < window_.depth_limit();
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

// On the path of every entry: inlined into next(), which it was part of.
[[gnu::always_inline]] inline const EntryView* Walker::report_dirent(const RawDirent& dirent) {
    entry_.path = entry_path_.with_name(dirent.name);
    entry_.name = entry_.path.substr(entry_path_.prefix_size());
    entry_.depth = current_->depth + 1;
    entry_.type = type_from_dirent(dirent.type);
    if (look_ahead_ && entry_.type == EntryType::directory &&
        current_->slot->ahead.has_unclaimed()) {
        claim_ahead(dirent.name);
    }
    entry_listed_ino_ = dirent.inode;
    entry_.error = 0;
    entry_.loop_ancestor = {};
    entry_dirfd_ = current_->fd >= 0 ? current_->fd : closed_leaf;
    stat_cache_.clear();
    if (const struct statx* fetched = current_->slot->buffer.stat(entry_index_++)) {
        bool follow = options_.symlinks == Symlinks::logical;
        stat_cache_.put(follow, current_->slot->buffer.stat_mask(), *fetched);
    }
    bool may_descend = resolve_entry();
    if (entry_.error) {
        descend_pending_ = false;
        if (entry_.depth < window_.min()) {
            return nullptr;  // reported by an earlier round
        }
        ++stats_.errors;
        return &entry_;
    }
    return settle_entry(may_descend) ? &entry_ : nullptr;
}

// next() goes round until it has an entry: a post-order visit, an entry of
// the directory being read, a failure, the next starting point.  Each step
// that finds none returns nullptr and the loop looks again from the top,
// where what the step finished (a subtree's post-order visit, a subtree
// to record for later rounds) comes first.
const EntryView* Walker::next() {
    if (stopped_) {
        return nullptr;
    }
    descend_into_last_entry();
    stat_cache_.clear();
    drop_upward_step();  // kept for the entry returned last only
    if (DirNode* parent = std::exchange(post_parent_, nullptr)) {
        --parent->pins;
        keep_upward_step(parent);
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
            const EntryView* entry = next_dirent(dirent) ? report_dirent(dirent) : end_current();
            if (entry) {
                return entry;
            }
            continue;
        }
        switch (enter_next_directory()) {
        case Enter::entered: continue;
        case Enter::failed: return &entry_;
        case Enter::failed_again: continue;
        case Enter::queue_empty: break;
        }
        switch (after_queue_empty()) {
        case Turn::again: continue;
        case Turn::root: return &entry_;
        case Turn::over: return nullptr;
        }
    }
}

const EntryView* Walker::end_current() {
    if (int error = current_->slot->buffer.error()) {
        // Reported in every round that meets it, as a failed open is (see
        // enter_next_directory).
        if (current_->depth + 1 < window_.min() && is_shortage(error)) {
            current_->truncated = true;
        }
        write_path(nullptr, current_, path_);
        if (window_.has_rounds() && reported_before(path_, error)) {
            finish_current();
            return nullptr;
        }
        const EntryView* failure = report_error(path_, current_->depth, error);
        finish_current();
        return failure;
    }
    if (!current_->slot->buffer.at_end() && read_more()) {
        return nullptr;
    }
    finish_current();
    return nullptr;
}

Walker::Turn Walker::after_queue_empty() {
    if (rounds_per_root_ && next_root_ > 0 && start_next_round()) {
        return Turn::again;
    }
    if (next_root_ < options_.roots.size()) {
        if (rounds_per_root_ && next_root_ != rounds_root_) {
            begin_rounds();  // the last starting point is done with
            rounds_root_ = next_root_;
        }
        return visit_next_root() ? Turn::root : Turn::again;
    }
    if (!rounds_per_root_ && start_next_round()) {
        return Turn::again;
    }
    end_of_walk();
    return Turn::over;
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

void Walker::note_round_frontier() {
    // A directory at the bound has contents only a later round reaches.
    if (window_.note_directory_at(entry_.depth)) {
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

const EntryView* Walker::report_post_visit() {
    // Closes queued since the last read go out now: a post-order stretch
    // reads nothing that would send them, and the descriptor of a
    // directory the caller deletes meanwhile pins its dentry, which every
    // rmdir above it then walks to (shrink_dcache_parent).
    flush_submissions();
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
    if (rounds_per_root_ && window_.round() > 0) {
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
        if (window_.min() > 0) {
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
    stat_cache_.put(followed, mask, buf);
    return settle_entry(true);
}

const EntryView* Walker::report_error(const std::string& path, int depth, int error) {
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
    if (descend && window_.has_rounds() && entry_.depth < window_.min() &&
        (memory_.pruned(entry_.path) ||
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
        // now; breadth-first wants the head of its queue instead.  Where
        // no worker would run them (-j1, or before the pool starts), an
        // open submitted now would only wait, holding a slot: a hundred of
        // them, each slot's pages new to the process (measured in 0a68b90).
        if (options_.strategy != Strategy::bfs && !queue_.runs_inline_for_now() &&
            in_flight_ < options_.read_ahead && fds_.available() &&
            queue_.room() > to_submit_.size() + 1) {
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
        if (node->depth + 1 < window_.min() && is_shortage(node->error)) {
            node->truncated = true;
        }
        node->consumed = true;
        write_path(nullptr, node, path_);
        if (window_.has_rounds() && reported_before(path_, node->error)) {
            free_if_unused(node);
            return Enter::failed_again;
        }
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
        // on deep chains the two were a large part of the walk (09fd333).
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
    // written again from the nodes, as most directories were before
    // bf5c858.
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
    // directory can be ready meanwhile, and running it is no wait: scanning
    // and timing would be the cost of a -j1 walk (02baba2).
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

void Walker::finish_current() {
    DirNode* node = std::exchange(current_, nullptr);
    if (look_ahead_) {
        if (DirNode* ahead = std::exchange(ahead_claimed_, nullptr)) {
            discard(ahead);
        }
        discard_unclaimed(node);
    }
    dirs_.commit(pool_);
    keep_listing(node);
    drop_slot(node);
    node->consumed = true;
    release_fd_if_unused(node);
}

void Walker::end_of_walk() {
    // Everything is consumed; the closes of the last directories may still be
    // queued.  Finish them so that no descriptor outlives the walk's end,
    // and the closes their completions queue in turn (the last open of a
    // directory opened ahead and discarded lets its parent close).
    drop_upward_step();
    drop_kept_listings();
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
    drop_upward_step();
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
    drop_kept_listings();
    current_ = nullptr;
    descend_pending_ = false;
    ahead_claimed_ = nullptr;
    post_ready_.clear();
    finished_ready_.clear();  // freed with every node
    post_parent_ = nullptr;  // freed with every node
    post_parent_reopened_ = false;
}

WalkStats Walker::stats() const {
    WalkStats stats = stats_;
    stats.backend = queue_.backend();
    stats.workers_started = queue_.workers_started();
    stats.workers = queue_.workers_running();  // 0 until the pool starts
    stats.cache_misses = queue_.cache_misses();
    stats.nodes = pool_.node_count();
    stats.slots = pool_.slot_count();
    stats.ran_here = queue_.ran_here();
    stats.sleeps = queue_.sleeps();
    return stats;
}

} // namespace ioq::walk
