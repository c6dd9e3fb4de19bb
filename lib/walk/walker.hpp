// Walker: the traversal engine.
//
// The caller pulls entries one at a time with next(); behind it the walker
// keeps up to read_ahead directories opening and reading through the I/O
// queue, in the order the strategy will want them:
//
//   next() --> current directory's DirBuffer --entries--> caller
//                 ^ popped when the last one is done
//   DirQueue [ ready | ready | opening | opening | queued ... ]
//                              \ submitted to the IoQueue, completions reaped
//                                whenever the walker looks, waited for only
//                                when the directory it needs is not ready
//
// Depth-first, the directory needed next was usually found a moment ago;
// with look_ahead the walk opens subdirectories as soon as their parent is
// read, before their entries come up (look_ahead.cpp).
//
// Entries are reported in pre-order (a directory before its contents) or,
// with post_order, a directory after all of its contents: a node's subtree is
// finished when its last child node is freed, and that is when its visit is
// queued.  A directory entry the caller does not prune() before the next call
// to next() is descended into (within max_depth).  Metadata is fetched only
// when the caller asks (stat()), or when the filesystem gives no d_type.
//
// ids and eds run depth-first rounds under a growing depth bound.  Each
// round reports only entries deeper than the last round's bound (and errors
// met there for the first time); directories pruned in one round stay pruned
// in the next, and a subtree a round walked whole (no directory at its
// bound below it) is not walked again: a later round would find nothing
// new there (8f0ab98 measured what that saves).  hybrid has two such
// rounds, depths to 2 and then the rest, for each starting point in turn.
// With post_order all three walk as dfs: a round-based order cannot report
// a directory after contents that a later round finds.  The bounds are a
// RoundWindow, what rounds remember a RoundMemory.
//
// Errors never end the walk: an open or read that fails is reported as an
// Entry with error set, at the path that failed, and the walk goes on.
// stop() cancels what is queued, waits for what is in flight (bounded by
// read_ahead, so stopping does not take longer on a larger tree), closes
// every descriptor, and makes next() return nothing more.
//
// Out of memory: next() and prune() may throw std::bad_alloc (a path, a
// node, a buffer, the sorted names, the set of pruned paths).  The walk
// cannot go on correctly then, so the caller must stop() it; stop() and
// the destructor never throw.  To make that safe, everything a throw can
// interrupt allocates before it links anything in, and whatever runs while
// completions are processed or while stopping allocates nothing: a free
// list gets room for an item when the item is created, the post-order list
// when a node is, and a close without a request runs on this thread.
// Running out where a fallback is exact does not end the walk: a pool that
// cannot start threads runs requests inline, and a worker that cannot
// keep metadata it fetched leaves it to be fetched on request.
//
// The class is defined over several files, one part of the walk each:
//   walker.cpp           next(): entries, entering directories, waiting
//   walker_requests.cpp  opens, reads and closes through the IoQueue
//   walker_rounds.cpp    ids, eds and hybrid rounds: what is not walked again
//   walker_paths.cpp     a directory's path from its nodes
//   walker_release.cpp   when descriptors close and nodes are freed
//   walker_metadata.cpp  stat() and entry_location()
//   look_ahead.cpp       opening subdirectories before their entries come up
//
// and uses types of its own for the pieces with a narrow interface:
//   round_window.hpp     RoundWindow: the depth bounds of each round
//   round_memory.hpp     RoundMemory: what a round leaves for the next
//   idle_descriptors.hpp IdleDescriptors: descriptors the budget may take back
//   entry_stat_cache.hpp EntryStatCache: metadata of the entry just returned
//   ahead_children.hpp   AheadChildren: a directory's subdirectories opened ahead
//   look_ahead_budget.hpp may_open_ahead(): how much may be opened ahead at once
//   kept_listings.hpp    KeptListings: top listings kept for later rounds
//   fd_budget.hpp        FdBudget: how many descriptors the walk may hold
//   dir_queue.hpp        DirQueue: the directories in the strategy's order
//   entry_path.hpp       EntryPath: the path buffer entries point into
//   upward_step.hpp      UpwardStep: post-order's way up a deep chain
#pragma once

#include "dir_node.hpp"
#include "dir_queue.hpp"
#include "entry.hpp"
#include "entry_path.hpp"
#include "entry_stat_cache.hpp"
#include "fd_budget.hpp"
#include "idle_descriptors.hpp"
#include "kept_listings.hpp"
#include "round_memory.hpp"
#include "round_window.hpp"
#include "sorted_dirents.hpp"
#include "upward_step.hpp"
#include "walk_options.hpp"

#include <sys/stat.h>

#include <climits>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ioq::walk {

struct WalkStats {
    std::uint64_t entries = 0;       // reported to the caller
    std::uint64_t directories = 0;   // opened successfully
    std::uint64_t errors = 0;        // error entries reported
    std::uint64_t stats = 0;         // statx calls made, the workers' included
    std::uint64_t waits = 0;         // times the walk needed a directory not yet ready
    std::uint64_t ran_here = 0;      // requests the caller's thread ran while waiting
    std::uint64_t sleeps = 0;        // times the caller's thread slept
    std::uint64_t wait_ns = 0;       // time next() spent waiting for directories
    std::uint64_t reads = 0;         // getdents64 calls
    std::uint64_t read_bytes = 0;    // bytes of directory entries they returned
    std::uint64_t nodes = 0;         // directory nodes made: the most held at once
    std::uint64_t slots = 0;         // directory slots made: the most open or opening at once
    BackendKind backend = BackendKind::inline_calls;
    bool workers_started = false;
    unsigned workers = 0;            // running at the end, the ones slow waits added included
    std::uint64_t cache_misses = 0;  // directory opens the caches could not serve
    // Directories a round took from an earlier one's listings (kept_listings.hpp).
    std::uint64_t listings_reused = 0;
    // Path components looked up to open again a directory whose descriptor
    // was closed (entry_location(), stat()): linear in the tree, however deep.
    std::uint64_t reopen_steps = 0;
};

class Walker {
public:
    explicit Walker(WalkOptions options);
    ~Walker();
    Walker(const Walker&) = delete;
    Walker& operator=(const Walker&) = delete;

    // Directories entered before the walk decides whether the file system
    // marks a listing's last record (marked_ends.hpp); what it opens or
    // reads before then is read to a getdents64 that returns 0.  Deciding
    // (the mount table) costs as much as 50 to 130 such reads (7a1f0b2), so a
    // walk that stops sooner wastes at most what deciding would have cost.
    // Counted in directories entered, which the walk's order alone fixes,
    // not in opens, which looking ahead and the workers' speed change.
    static constexpr std::uint64_t directories_before_deciding_ends = 64;

    // The next entry, or nullptr when the walk is over.
    const EntryView* next();

    // Do not descend into the directory just returned.
    void prune();

    // Metadata of the entry just returned; mask is a set of STATX_* fields,
    // follow says whether a symbolic link is followed.  Returns 0 or -errno.
    int stat(unsigned mask, bool follow, struct statx& out);

    // Where the entry just returned is: a descriptor of the directory that
    // holds it, and its name there (nullptr-free, valid until next()).  For
    // a starting point, an error entry: AT_FDCWD and the whole path.  Acting
    // through the pair (unlinkat, fchdir) never follows a symbolic link the
    // walk did not follow, even if a directory on the path was replaced by
    // one since, and has no PATH_MAX limit.  Returns 0, or -errno
    // (-ENOENT: the directory was replaced since it was read).
    int entry_location(int& dirfd, const char*& name);

    // Ends the walk now (see above); next() returns nullptr afterwards.
    void stop() noexcept;

    WalkStats stats() const;

private:
    // Opens found while reading a directory go to the workers in groups of
    // this many: one lock and wake-up per group instead of per directory,
    // while the first ones start before the directory is finished.
    static constexpr std::size_t submit_batch = 8;

    static QueueOptions queue_options(const WalkOptions& options);
    // failed_again: as a round before reported it (reported_before).
    enum class Enter : unsigned char { entered, failed, failed_again, queue_empty };
    bool visit_next_root();
    // The parts of next(): each returns the entry found, or nullptr to
    // look again.
    const EntryView* report_dirent(const RawDirent& dirent);
    bool settle_entry(bool may_descend);
    const EntryView* end_current();  // the current directory has no entry left in its buffer
    // What comes when the queue is empty: another round or starting point
    // (again), a starting point's own entry (root), or the end (over).
    enum class Turn : unsigned char { again, root, over };
    Turn after_queue_empty();
    void begin_rounds();
    bool start_next_round();
    const EntryView* report_post_visit();
    bool reported_now(bool descend) const {
        return entry_.depth >= window_.report_min() && !(options_.post_order && descend);
    }
    void note_round_frontier();
    // Whether a subtree walked whole is recorded: only a later round would
    // look, and the last round has none after it (recording every
    // directory there is a tenth of a hybrid walk, measured in 9207fbe).
    bool records_finished() const { return window_.may_have_next(); }
    void reserve_for_node();
    void record_finished();
    bool walked_whole(std::string_view path);
    // Whether a round before this one reported `error` for the directory
    // at path (under the same starting point); if not, remembers that this
    // one does.  The same starting point given twice is reported again.
    bool reported_before(std::string_view path, int error);
    void finished_key(const DirNode* node, std::string& out);
    void drop_finished();
    // The top directories' listings, kept for later rounds (kept_listings.hpp).
    // may_keep_listing: whether node's listing may be kept once read, so
    // that its descriptor must stay open until then.
    bool may_keep_listing(const DirNode* node) const {
        return keeps_listings_ && node->depth <= KeptListings::deepest && records_finished() &&
               !node->listing_kept && kept_.has_room(0);
    }
    void keep_listing(DirNode* node);
    const KeptListings::Listing* kept_listing(const DirNode* node);
    bool serve_kept(DirNode* node, const KeptListings::Listing& listing) noexcept;
    void forget_kept_listing(std::string_view key) noexcept;
    void drop_kept_listings() noexcept;
    // Whether the entry just read may be descended into, after a statx if
    // its type or identity is needed; most entries need neither, and
    // return without a call.
    bool resolve_entry() {
        bool plain = entry_.type != EntryType::unknown &&
                     !(need_identity_ && (entry_.type == EntryType::directory ||
                                          entry_.type == EntryType::symlink));
        return plain || resolve_entry_slowly();
    }
    bool resolve_entry_slowly();
    int cached_stat(unsigned mask, bool follow, struct statx& out);
    int raw_stat(unsigned mask, bool follow, struct statx& out);
    int reopen_current();
    // Sets *device to the device the descriptor is on, when asked.
    int open_again(const DirNode* node, std::uint64_t* device = nullptr);
    int open_post_parent();
    int open_upward(const DirNode* node);
    void keep_upward_step(DirNode* parent);
    void drop_upward_step() noexcept;
    static bool is_same_directory(const DirNode& node, const struct statx& now);
    void open_in_steps(Request& request);

    // entry_dirfd_ of entries in a leaf directory a worker closed early.
    static constexpr int closed_leaf = -2;
    // Whether workers close leaf directories right after reading them; off
    // once the caller asks for metadata the walk did not fetch eagerly.
    bool close_leaves_ = true;
    // And every directory but a starting point, subdirectories or not
    // (names only, or metadata fetched eagerly).
    bool close_after_read_ = false;
    // Whether a directory's last record may say it ends it, saving the
    // getdents64 that would return 0 (marked_ends.hpp); decided once, when
    // a walk has read enough directories for it to pay.  May throw
    // std::bad_alloc.
    bool ends_marked();
    bool ends_marked_ = false;
    bool ends_decided_ = false;
    Enter enter_next_directory();
    DirNode* take_next_directory();
    // Cuts entry_path_'s prefix, the path of from (a live node, or
    // nullptr), back to the path of ancestor, if ancestor is from or one
    // of its ancestors; false (the prefix untouched) otherwise.
    bool rewind_prefix(const DirNode* from, const DirNode* ancestor);
    DirNode* take_directory(std::size_t i);
    void end_of_walk();
    bool read_more();
    bool next_dirent(RawDirent& out) {
        return options_.sort_names ? sorted_.next(out) : cursor_.next(out);
    }
    void load_sorted();
    void finish_current();
    // Called for every entry: the common case (a file) costs one test.
    void descend_into_last_entry() {
        if (descend_pending_ || ahead_claimed_) {
            descend_or_discard();
        }
    }
    void descend_or_discard();
    void submit_read_ahead(DirNode* must_include);
    void submit_open(DirNode* node);
    void ask_for_entry_stats(Request& request, const DirNode* node) const;
    void open_long_path(DirNode* node);
    // Hands what was gathered in to_submit_ to the queue.
    void flush_submissions() {
        if (!to_submit_.empty()) {
            queue_.submit(to_submit_);
            to_submit_.clear();
        }
    }
    void wait_for(DirNode* node);
    void reap(bool wait);
    bool run_here(DirNode* node);
    bool run_inline(DirNode* node);
    void complete(Request* request);
    // Looking ahead (WalkOptions::look_ahead, see look_ahead.cpp).
    // Only once workers run: inline, an open waits until the walk needs its
    // directory anyway, and looking ahead was bookkeeping for nothing
    // (d421420).
    bool opens_ahead() const { return look_ahead_ && queue_.workers_started(); }
    bool may_look_ahead(const DirNode* node) const;
    bool may_open_ahead() const;
    void look_ahead_more();
    // What a visit of look_ahead_more's found: the budget is spent (stop),
    // or the scan goes on, past a subtree that may still want opens
    // (more) or never will (settled).
    enum class Ahead : unsigned char { stop, more, settled };
    Ahead look_ahead_below(DirNode* node, std::size_t& visits);
    // The same over the directories slot opened ahead and not yet claimed.
    Ahead look_ahead_below_all(DirSlot& slot, std::size_t& visits);
    void look_ahead(DirNode* node);
    bool skipped_by_rounds(const DirNode* parent, std::string_view name);
    void open_ahead(DirNode* parent, const RawDirent& dirent);
    void claim_ahead(std::string_view name);
    void discard(DirNode* node);
    void discard_unclaimed(DirNode* node);
    void finish_discard(DirNode* node);
    void release_fd_if_unused(DirNode* node);
    void drop_slot(DirNode* node);
    // The open relative to the node's base is done: the base may close now.
    void unpin_base(DirNode* node) {
        if (DirNode* base = node->slot ? std::exchange(node->slot->base, nullptr) : nullptr) {
            --base->pins;
            release_fd_if_unused(base);
        }
    }
    void free_if_unused(DirNode* node);
    // The levels that hold a path stay open for their whole subtree when
    // directories are closed once read, or opens in a deep chain would look
    // up a quadratic number of components (7dcbfe0).
    bool is_anchor(const DirNode* node) const {
        return holds_path(node) && (!node->parent || close_after_read_);
    }
    // The path of node below base (an ancestor; nullptr: from the starting
    // point, the full path) into out.  May throw std::bad_alloc.
    static void write_path(const DirNode* base, const DirNode* node, std::string& out);
    static void write_full_path(const DirNode* node, std::string& out);
    // write_path(nullptr, node, out), cut from the entry path's prefix when
    // node is the directory it names or close above.  May throw
    // std::bad_alloc.
    void write_path_near_prefix(const DirNode* node, std::string& out) const;
    // What write_path(base, node, out) writes, from the parent's open
    // path where it has one relative to the same base.
    static void write_open_path(const DirNode* base, const DirNode* node, std::string& out);
    // The full path of parent's entry `name` into out.
    static void write_child_path(const DirNode* parent, std::string_view name, std::string& out);
    // Names a node whose parent and depth are set: `name` (a starting
    // point's path), or for a holder below one its path from the holder
    // above, which it records.  May throw std::bad_alloc, before the node
    // changes.
    void name_node(DirNode* node, std::string_view name);
    std::string name_scratch_;
    void close_fd(int fd) noexcept;
    Request* take_close_request() noexcept;
    bool evict_one_fd();
    const EntryView* report_error(const std::string& path, int depth, int error);

    WalkOptions options_;
    IoQueue queue_;
    DirQueue dirs_;
    NodePool pool_;
    FdBudget fds_;
    WalkStats stats_;

    std::size_t next_root_ = 0;

    // The current round's depth bounds (bfs and dfs: one unbounded round),
    // and what earlier rounds leave for it.
    RoundWindow window_;
    RoundMemory memory_;
    // hybrid walks a starting point's rounds before the next one's, as
    // find and bfs walk starting points; ids and eds run each round over
    // all of them.
    bool rounds_per_root_ = false;
    std::size_t rounds_root_ = 0;  // the starting point they are on
    struct statx root_seen_ {};    // its metadata, from the first round
    int root_seen_flags_ = 0;
    // Nodes whose subtree is finished, freed once their path is recorded
    // in next() (their subtree ends while completions are processed,
    // where nothing may allocate).
    std::vector<DirNode*> finished_ready_;
    std::string finished_path_;
    std::string finished_scratch_;
    std::string ahead_path_;  // scratch for skipped_by_rounds()
    std::vector<DirNode*> post_ready_;  // subtrees finished, visit not yet reported
    // Rounds walking down again take the top directories from here; not
    // where -L or -xdev must identify each directory as it is opened.
    bool keeps_listings_ = false;
    KeptListings kept_;
    std::string kept_key_;

    // Symbolic links and devices: what a directory entry is, and whether to
    // descend into it, can take a statx; the caller's stat() reuses it.
    bool need_identity_ = false;
    std::uint64_t root_dev_ = 0;
    std::uint64_t entry_dev_ = 0;
    std::uint64_t entry_ino_ = 0;
    std::uint64_t entry_listed_ino_ = 0;  // d_ino of the entry returned last
    EntryStatCache stat_cache_;
    DirNode* current_ = nullptr;
    DirentCursor cursor_;
    std::size_t entry_index_ = 0;  // of the next entry in cursor_'s buffer
    SortedDirents sorted_;  // used instead of cursor_ with sort_names
    bool stopped_ = false;

    // The entry handed out last, and the path buffers it points into:
    // entry_path_ for the entries read from current_, path_ for the rest
    // (starting points, errors, post-order visits) and for current_'s own.
    EntryView entry_;
    std::string path_;
    EntryPath entry_path_;
    // Whose path entry_path_'s prefix is: a directory entered after its
    // parent or one of its parent's descendants (depth first, mostly)
    // cuts the prefix back to the parent's path and extends it by one
    // name.  When that node is freed (another may take its memory), its
    // parent's path becomes the prefix.
    const DirNode* prefix_node_ = nullptr;
    int entry_dirfd_ = AT_FDCWD;
    // The parent of a directory reported after its contents (post-order),
    // pinned until next() so that entry_location() can reach it.
    DirNode* post_parent_ = nullptr;
    // Where post_parent_'s descriptor was opened again, its device, for
    // upward_ (see upward_step.hpp).
    bool post_parent_reopened_ = false;
    std::uint64_t post_parent_device_ = 0;
    UpwardStep upward_;
    bool descend_pending_ = false;

    // Looking ahead: on when asked for and possible (see the constructor).
    bool look_ahead_ = false;
    // The node opened ahead for the entry returned last, until the walk
    // knows whether the caller descends into it.
    DirNode* ahead_claimed_ = nullptr;

    std::size_t in_flight_ = 0;  // opens submitted or ready, not yet popped
    std::size_t closes_in_flight_ = 0;
    std::size_t submitted_prefix_ = 0;  // BFS: leading queue nodes already submitted
    std::vector<Request*> to_submit_;
    FreeList<Request> closes_;  // close requests, reused
    IdleDescriptors idle_;  // consumed nodes holding an fd the budget may take back
    std::string root_name_;
    std::string loop_ancestor_path_;  // what entry_.loop_ancestor points into
};

} // namespace ioq::walk
