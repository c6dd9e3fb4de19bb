// WalkOptions: everything that decides what a walk visits and how.
#pragma once

#include "../ioq/io_queue.hpp"

#include <climits>
#include <cstddef>
#include <string>
#include <vector>

namespace ioq::walk {

// The order directories are read in (see dir_queue.hpp and walker.hpp).
//   bfs  breadth first
//   dfs  depth first
//   ids  iterative deepening: depth-first rounds, each one level deeper,
//        each reporting only what the previous rounds did not reach
//   eds  exponential deepening: like ids, but the depth bound doubles
//   hybrid  two rounds per starting point: depths to 2 first, then depth
//        first for the rest (see walker.hpp)
enum class Strategy : unsigned char { bfs, dfs, ids, eds, hybrid };

// Which symbolic links the walk follows, as find's -P, -H and -L.
enum class Symlinks : unsigned char { physical, roots, logical };

struct WalkOptions {
    std::vector<std::string> roots;
    Strategy strategy = Strategy::bfs;
    int min_depth = 0;        // entries shallower than this are walked, not reported
    int max_depth = INT_MAX;  // entries deeper than this are neither
    // Report a directory after its contents (find's -depth) instead of before.
    bool post_order = false;
    Symlinks symlinks = Symlinks::physical;
    // BFS reads any ready directory of the head's depth rather than waiting
    // for the head itself; strict_order makes it wait, so that the order of
    // directories does not depend on the workers' timing.
    bool strict_order = false;
    // Read whichever directory in the read-ahead window is ready first,
    // whatever its depth: for consumers that aggregate (disk usage, counts)
    // and care for no order.  Pre-order still holds: a directory is read
    // only after its entry was reported.
    bool completion_order = false;
    // Report each directory's entries sorted by name (bytewise), and read
    // directories in strict order: the output is then the same from run to
    // run and backend to backend.
    bool sort_names = false;
    // STATX_* fields the workers fetch for every entry as they read each
    // directory, for callers that will ask for them anyway (find -size on
    // every file): the statx calls then run in parallel instead of one by
    // one on the caller's thread.  0: metadata only when asked for.
    unsigned eager_stat_mask = 0;
    // Keep each directory open while its entries are returned (no early
    // close of leaves by the workers): entry_location() then gives the
    // directory that was read even if its name now leads elsewhere.
    bool hold_directories = false;
    // The caller needs names and types only: it will not ask for metadata
    // (stat()) nor where an entry is (entry_location()).  Workers then close
    // leaf directories without a statx to record what they were; a stat()
    // asked anyway opens the leaf again and checks it against the inode
    // number its parent listed, which is as safe on local filesystems but
    // not on all (overlayfs over several filesystems lists other numbers).
    bool names_only = false;
    // Depth-first walks (dfs, and ids and eds within a round) may open and
    // read a subdirectory before its own entry is returned, as soon as its
    // parent has been read: they otherwise learn of the next directories
    // only as fast as the caller takes entries, and the workers run dry.
    // For callers that change nothing in the tree while walking: a
    // directory may be read before an action on its entry (chmod, rename,
    // delete) would have changed what is read.  A directory the caller
    // prunes may then have been opened for nothing; nothing of it is
    // reported.  Depth limits are respected.  Without a d_type, under -L or
    // -xdev, and with sort_names, there is no looking ahead.
    bool look_ahead = false;
    // Do not descend into directories on another filesystem than their root's
    // (find's -xdev); they are still reported.
    bool same_device = false;
    QueueOptions queue;
    // Directories opened ahead of the one being read (the "batches queued
    // ahead" knob).  Chosen with examples/consumer_pause: 128 waits least
    // inside next() for little more memory than 64 (measured in 61010af).
    // A directory in flight costs a node and a buffer
    // of 2 KiB, or of its entries' size when they are more.
    std::size_t read_ahead = 128;
};

} // namespace ioq::walk
