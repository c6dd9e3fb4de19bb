// Walker, requests: what the walk asks of the I/O queue and what it does
// with the answers.
//
//   submit_open / read_more / close_fd --> to_submit_ --flush--> IoQueue
//   complete() <-- reap() <-- IoQueue (workers, a ring, or this thread)
//
// Opens are batched (submit_batch) so that workers wake once per group.
// wait_for() is the only place next() blocks: it first takes back the
// request it needs and runs it on this thread if no worker has begun it.
// complete() runs while completions are processed and allocates nothing
// (see walker.hpp on running out of memory).
#include "walker.hpp"

#include "marked_ends.hpp"
#include "wait_timer.hpp"

#include <fcntl.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <new>
#include <string_view>
#include <utility>

namespace ioq::walk {

void Walker::ask_for_entry_stats(Request& request, const DirNode* node) const {
    // A later round reads the top directories again only for what lies
    // below them: an earlier round reported their entries.
    request.statx_mask = node->depth + 1 < window_.min() ? 0 : options_.eager_stat_mask;
    request.stat_flags = options_.symlinks == Symlinks::logical ? 0 : AT_SYMLINK_NOFOLLOW;
}

bool Walker::ends_marked() {
    // Deciding reads the mount table (realpath of every starting point,
    // /proc/self/mountinfo, parsed), a noticeable part of a search that
    // ends in its first few directories (7a1f0b2).  What it saves is a
    // getdents64 returning 0, about a microsecond a directory, so it is
    // decided only once the walk has entered directories_before_deciding_ends;
    // until then the ends are read as if unmarked.
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
        current_->slot->ahead.end_scan();
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
    if (queue_.runs_inline_for_now()) {
        // No worker would run an open ahead (-j1, or before the pool
        // starts): each runs when the walk waits for it, so the head is
        // all there is to submit.
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
    // walking the whole window for every directory (0a38ec8).
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
    // a starting point, not asked yet), a kept listing, the slot, and the
    // path in it.
    bool end_marked = node->parent && ends_marked();
    const KeptListings::Listing* kept = kept_listing(node);
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
    request.after_read.close_leaf = close_leaves_;
    // A walk that needs nothing more of a directory once read (see
    // close_after_read_) need not keep it open for its children either:
    // they open relative to a further ancestor, with links refused on the
    // whole way (below).  Only where workers run it, where the close then
    // costs the walk's thread nothing: inline, that thread closes it all
    // the same, and its children's opens look up as many as anchor_every
    // components instead of one (measured in 7f39ddb).
    request.after_read.close_in_pool =
        close_leaves_ && close_after_read_ && !is_anchor(node) && !may_keep_listing(node);
    // A walk that will not need its directories again need not identify
    // them: names only, or metadata already fetched with the entries (a
    // later stat() then checks a reopened one against the listed inode).
    using Identify = AfterRead::Identify;
    request.after_read.identify = options_.hold_directories ? Identify::always
                                  : close_after_read_       ? Identify::never
                                                            : Identify::if_closed;
    request.after_read.count_links = options_.symlinks == Symlinks::logical;
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
    if (kept && serve_kept(node, *kept)) {
        complete(&request);  // done without a request, as open_long_path's
        return;
    }
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
        // None for a listing kept from an earlier round: read then.
        stats_.read_bytes += buffer.read_calls() ? buffer.size() : 0;
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
        (!idle_.empty() || closes_in_flight_ > 0)) {
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

} // namespace ioq::walk
