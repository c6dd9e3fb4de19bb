// RoundWindow: the depth bounds of the rounds ids, eds and hybrid walk.
//
//   round 0:  depths 0..bound            (ids, eds: bound 1; hybrid: 2)
//   round k+1: depths bound_k+1..bound_k+1's bound
//              (ids: one level deeper; eds: the bound doubles;
//               hybrid: the rest, unbounded)
//
// A round reports only the entries deeper than the round before it reached
// (min() up), and descends no deeper than its bound; a directory found at
// the bound has contents only a later round reaches, and only then is
// there one (note_directory_at, advance).  bfs and dfs, and every strategy
// in post-order, have one unbounded round: a round-based order cannot
// report a directory after contents that a later round finds.
#pragma once

#include "walk_options.hpp"

#include <algorithm>
#include <climits>

namespace ioq::walk {

class RoundWindow {
public:
    // hybrid's first round reports every entry to this depth, as breadth
    // first finds a shallow name soon, and its second the rest depth first,
    // which reads a subtree while its blocks are still in the caches
    // (93e5b52 measured both).
    static constexpr int hybrid_first_bound = 2;

    RoundWindow(Strategy strategy, bool post_order, int min_depth, int max_depth)
        : strategy_(strategy), min_depth_(min_depth), max_depth_(max_depth),
          has_rounds_((strategy == Strategy::ids || strategy == Strategy::eds ||
                       strategy == Strategy::hybrid) &&
                      !post_order) {
        begin();
    }

    // Back to the first round (hybrid: for the next starting point).
    void begin() {
        round_ = 0;
        min_ = 0;
        bound_ = INT_MAX;
        if (has_rounds_) {
            bound_ = std::min(strategy_ == Strategy::hybrid ? hybrid_first_bound : 1, max_depth_);
        }
        enter();
    }

    // The next round, if the one ending found a directory at its bound.
    bool advance() {
        if (!has_rounds_ || !truncated_) {
            return false;
        }
        ++round_;
        min_ = bound_ + 1;
        int next = strategy_ == Strategy::ids   ? bound_ + 1
                   : strategy_ == Strategy::eds ? bound_ * 2
                                                : INT_MAX;
        bound_ = std::min(next, max_depth_);
        enter();
        return true;
    }

    // A directory at depth was found: true if it lies at the bound, with
    // contents a later round must reach (the round is then truncated).
    bool note_directory_at(int depth) {
        if (has_rounds_ && depth == bound_ && bound_ < max_depth_) {
            truncated_ = true;
            return true;
        }
        return false;
    }

    bool has_rounds() const { return has_rounds_; }
    // Whether a round may follow this one: not in the last, whose bound is
    // the walk's own.
    bool may_have_next() const { return has_rounds_ && bound_ < max_depth_; }
    int round() const { return round_; }  // rounds started, the first being 0
    int min() const { return min_; }      // shallower entries were reported before
    int bound() const { return bound_; }  // deeper ones wait for a later round
    bool truncated() const { return truncated_; }
    int depth_limit() const { return depth_limit_; }  // min(max_depth, bound)
    int report_min() const { return report_min_; }    // max(min_depth, min)

private:
    void enter() {
        truncated_ = false;
        depth_limit_ = std::min(max_depth_, bound_);
        report_min_ = std::max(min_depth_, min_);
    }

    Strategy strategy_;
    int min_depth_;
    int max_depth_;
    bool has_rounds_;
    int round_ = 0;
    int min_ = 0;
    int bound_ = INT_MAX;
    bool truncated_ = false;
    int depth_limit_ = INT_MAX;
    int report_min_ = 0;
};

} // namespace ioq::walk
