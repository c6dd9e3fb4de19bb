// Evaluating the expression for one entry.
//
// A plain recursive switch over the tree: the tree is small and the switch
// keeps every primary's cost visible in one place.  Tests that need only the
// name or d_type never ask the walk for metadata.
#pragma once

#include "expr.hpp"
#include "output.hpp"

#include <ioq.hpp>

namespace ufind {

struct EvalContext {
    ioq::Walk& walk;
    Output& out;
    const ioq::Entry* entry = nullptr;
    ioq_symlinks symlinks = IOQ_SYMLINKS_PHYSICAL;

    // Whether the entry's metadata is its link target's: -L, or -H on a
    // starting point.
    bool follows_links() const {
        return symlinks == IOQ_SYMLINKS_LOGICAL ||
               (symlinks == IOQ_SYMLINKS_ROOTS && entry->depth() == 0);
    }
    bool quit = false;  // -quit ran: stop evaluating, end the walk
};

bool evaluate(const Expr& expr, EvalContext& context);

} // namespace ufind
